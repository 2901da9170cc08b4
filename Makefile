# rxc - one non-recursive Makefile.
#   make            build/rxc and build/librxc.a
#   make check      build and run every test (fails when one fails)
#   make SAN=1 check   the same under -fsanitize=address,undefined (in build/san)
#   make deps       install Debian packages the build needs (as root)
#   make samples    write the seeded weights of the large sample models
#   make check-samples  every sample model, the large ones too (minutes)
#   V=1             show commands

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif

ifeq ($(SAN),1)
BUILD := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD := build
SANFLAGS :=
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(SANFLAGS) $(CFLAGS) -MMD -MP
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)

Q := @
ifeq ($(V),1)
Q :=
endif

# ---- sources, module by module (dependencies point down: ir at the bottom)
IR_SRCS := ir/base.c ir/diag.c ir/dtype.c ir/node.c ir/op.c

# printer
PRINT_SRCS := ir/printer.c ir/print_relax.c ir/print_tir.c

# structural equality and hash
EQUAL_SRCS := ir/equal.c ir/equal_tir.c ir/equal_walk.c

# well-formedness
WF_SRCS := ir/wellformed.c ir/wf_relax.c ir/wf_sinfo.c ir/wf_tir.c

# symbolic arithmetic
ARITH_SRCS := ir/arith.c ir/arith_poly.c ir/arith_simplify.c ir/arith_range.c

# operators: inference, reference kernels, legalization
OPS_SRCS := ops/table.c ops/value.c ops/infer_util.c ops/elementwise.c ops/reduce.c ops/manip.c \
            ops/manip_eval.c ops/nn.c ops/nn_util.c ops/conv.c ops/linalg.c ops/builtin.c
OPS_SRCS += ops/tir_build.c ops/manip_legalize.c ops/nn_legalize.c

# reference interpreter
INTERP_SRCS := interp/interp.c interp/relax.c interp/check.c interp/tir.c

# passes
OPT_SRCS := opt/pass.c opt/pipeline.c opt/rewrite.c opt/normalize.c opt/legalize.c
OPT_SRCS += opt/bind_params.c opt/canonicalize_bindings.c opt/dead_code.c opt/fold_constant.c
OPT_SRCS += opt/fuse_ops.c opt/fuse_group.c opt/fuse_pattern.c opt/fuse_tir.c opt/fuse_tir_copy.c
OPT_SRCS += opt/fuse_by_pattern.c opt/merge_composite.c opt/remove_unused_outputs.c
OPT_SRCS += opt/realize_vdevice.c
OPT_SRCS += opt/to_non_dataflow.c opt/remove_purity.c opt/call_tir_rewrite.c opt/kill_after_last_use.c

# memory planner
MP_SRCS := memplan/core.c memplan/exact.c memplan/pooled.c memplan/validate.c \
           memplan/plan.c memplan/lifetime.c memplan/checks.c memplan/inplace.c \
           memplan/report.c

# C code generation and the JIT
CG_SRCS := codegen/gen.c codegen/gen_tir.c codegen/gen_entry.c codegen/gen_outputs.c \
           codegen/gen_sig.c codegen/gen_header.c codegen/cc.c codegen/runtime.c
CG_SRCS += codegen/jit.c

# the runtime pieces of rt/, embedded in the compiler as string literals
RT_HDRS := rt/rt_types.h rt/rt_math_base.h rt/rt_math_exp.h rt/rt_math_trig.h rt/rt_libm.h

# TVMScript reader
FE_SRCS := frontend/lex.c frontend/parse.c frontend/parse_prim.c frontend/parse_const.c frontend/parse_sinfo.c frontend/parse_call.c frontend/parse_relax.c frontend/parse_tir.c frontend/npy.c

# build configuration (INI, the only user of <ini.h>)
CFG_SRCS := config/config.c

LIB_SRCS := $(IR_SRCS) $(PRINT_SRCS) $(EQUAL_SRCS) $(WF_SRCS) $(ARITH_SRCS) $(FE_SRCS) \
            $(OPS_SRCS) $(INTERP_SRCS) $(OPT_SRCS) $(MP_SRCS) $(CFG_SRCS) $(CG_SRCS)
MAIN_SRCS := main.c cli.c cli_run.c cli_plan.c cli_compile.c

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJS := $(MAIN_SRCS:%.c=$(BUILD)/%.o)

# ---- tests: every tests/unit/test_*.c is one cmocka program
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TEST_LIBS := -lcmocka -linih

DEB_PACKAGES := gcc clang make tcc libtcc-dev libcmocka-dev libinih-dev python3 python3-numpy python3-sklearn \
                gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm valgrind libclang-rt-14-dev \
                libprotobuf-c-dev protobuf-c-compiler python3-onnx libonnx-testdata libopenblas-dev gnuplot-nox

.PHONY: all check deps clean format
all: $(BUILD)/rxc $(BUILD)/librxc.a

$(BUILD)/librxc.a: $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/rxc: $(MAIN_OBJS) $(BUILD)/librxc.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(MAIN_OBJS) $(BUILD)/librxc.a -linih -ltcc -ldl -lpthread -lm

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# rt/ as string literals for codegen/runtime.c
$(BUILD)/gen/rt_embed.h: rt/embed.awk $(RT_HDRS)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)awk -f rt/embed.awk $(RT_HDRS) > $@.tmp && mv $@.tmp $@
$(BUILD)/codegen/runtime.o: $(BUILD)/gen/rt_embed.h
$(BUILD)/codegen/runtime.o: ALL_CFLAGS += -I$(BUILD)/gen

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/librxc.a
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(BUILD)/librxc.a $(TEST_LIBS) -ltcc -ldl -lpthread -lm

# Runs every test program; reports each failure and fails at the end.
check: all $(TEST_BINS)
	@failed=0; for t in $(TEST_BINS); do \
	  echo "== $$t"; \
	  RXC=$(BUILD)/rxc ./$$t || { echo "FAILED: $$t"; failed=$$((failed+1)); }; \
	done; \
	echo "== tests/ops/run_ops.py"; \
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/ops/run_ops.py || { echo "FAILED: tests/ops/run_ops.py"; failed=$$((failed+1)); }; \
	if [ $$failed -ne 0 ]; then echo "$$failed test program(s) failed"; exit 1; fi; \
	echo "all $(words $(TEST_BINS)) test programs passed"

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "run as root: apt-get install -y$$missing"; exit 1; \
	fi

format:
	clang-format -i $(LIB_SRCS) $(MAIN_SRCS) ir/*.h frontend/*.h ops/*.h config/*.h $(TEST_SRCS)

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(MAIN_OBJS:.o=.d) $(TEST_SRCS:%.c=$(BUILD)/%.d)

# A first look: check and print a sample model.
.PHONY: demo
demo: $(BUILD)/rxc
	$(BUILD)/rxc check samples/digits_mlp.py && echo "samples/digits_mlp.py is well-formed"
	$(BUILD)/rxc opt samples/digits_mlp.py -O2 --params samples/digits_mlp.npz -o $(BUILD)/digits_mlp.O2.py
	@echo "-O2 pipeline with the trained weights bound: $(BUILD)/digits_mlp.O2.py"
	$(BUILD)/rxc plan samples/digits_mlp.py --params samples/digits_mlp.npz
	$(BUILD)/rxc compile samples/digits_mlp.py --params samples/digits_mlp.npz -o $(BUILD)/demo
	@echo "== the held-out digits in the interpreter"
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py
	@echo "== through the generated C, built by cc"
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --via cc
	@echo "== through the generated C, compiled in-process by libtcc"
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --via tcc

# ---- sample models (samples/README.md): the seeded weights are generated,
# not committed; the digits weights are trained and committed.
SEEDED_WEIGHTS := samples/mobilenet_v2.npz samples/kws_dscnn.npz samples/transformer_block.npz

.PHONY: samples check-samples
samples: $(SEEDED_WEIGHTS)

$(SEEDED_WEIGHTS): samples/%.npz: samples/tools/gen_weights.py samples/tools/gen_models.py samples/tools/relax_text.py
	@echo "  GEN     $@"
	$(Q)/usr/bin/python3 samples/tools/gen_weights.py $*

# Every sample through LegalizeOps in the interpreter (MobileNetV2 too),
# the digits models against numpy, the seeded models on seeded inputs.
check-samples: all samples $(BUILD)/tests/test_samples
	RXC_SAMPLES_ALL=1 ./$(BUILD)/tests/test_samples
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_seeded.py

# ---- benchmarks (bench/README.md): kernels against OpenBLAS and a naive
# loop, whole samples under gcc and libtcc, compile times.  Slow (minutes):
# never part of check.
BENCH_CLI_OBJS := $(filter-out $(BUILD)/main.o,$(MAIN_OBJS))

$(BUILD)/bench/model_bench: bench/model_bench.c $(BENCH_CLI_OBJS) $(BUILD)/librxc.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(LDFLAGS_ALL) -o $@ $< $(BENCH_CLI_OBJS) $(BUILD)/librxc.a -linih -ltcc -ldl -lpthread -lm

.PHONY: bench
bench: deps all samples $(BUILD)/bench/model_bench
	RXC=$(BUILD)/rxc MODEL_BENCH=$(BUILD)/bench/model_bench /usr/bin/python3 bench/bench.py
