# rxc - one non-recursive Makefile.
#   make            build/rxc, build/librxc.a and build/librxc.so
#   make check      build and run every test (fails when one fails)
#   make test T=NAME   one test: T=test_mp_plan, T=cases_conv_pool (tests/README.md)
#   make check-units   the test programs of tests/unit alone
#   make SAN=1 check   the same under -fsanitize=address,undefined (in build/san)
#   make deps       install Debian packages the build needs (as root)
#   make samples    write the seeded weights of the large sample models
#   make check-samples  every sample model, the large ones too (minutes)
#   make mutate     plant the bugs of tests/mutate/catalogue.py, one at a time (minutes)
#   V=1             show commands

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif

# UNDER_SAN: non-empty under SAN=1, where the sanitized rxc runs about
# three times slower and make check runs fewer random modules, refusal
# seeds and operator cases (tests/README.md, "CI").
UNDER_SAN := $(filter 1,$(SAN))
ifeq ($(SAN),1)
BUILD := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
BUILD := build
SANFLAGS :=
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# DWARF 4: Debian 12's valgrind 3.19 cannot read clang 14's DWARF 5 (check-dynamic
# runs rxc under valgrind in every build, the clang one of .ci/run too).
CFLAGS ?= -O2 -g -gdwarf-4
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(SANFLAGS) $(CFLAGS) -MMD -MP
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)

Q := @
ifeq ($(V),1)
Q :=
endif

# ---- sources, module by module (dependencies point down: ir at the bottom)
IR_SRCS := ir/base.c ir/diag.c ir/dtype.c ir/map.c ir/names.c ir/node.c ir/tir_intrin.c ir/tir_kernel.c ir/tir_walk.c

# printer
PRINT_SRCS := ir/printer.c ir/print_relax.c ir/print_tir.c

# structural equality and hash
EQUAL_SRCS := ir/equal.c ir/equal_tir.c ir/equal_walk.c

# well-formedness
WF_SRCS := ir/wellformed.c ir/wf_relax.c ir/wf_sinfo.c ir/wf_tir.c

# symbolic arithmetic
ARITH_SRCS := ir/arith.c ir/arith_poly.c ir/arith_simplify.c ir/arith_range.c ir/eval.c

# operators: inference, reference kernels, legalization
OPS_SRCS := ops/table.c ops/value.c ops/infer_util.c ops/elementwise.c ops/reduce.c ops/manip.c \
            ops/manip_shape.c ops/nn.c ops/nn_util.c ops/conv.c ops/conv_gemm.c ops/conv_direct.c ops/conv_dw.c ops/pool.c ops/linalg.c ops/gemm.c ops/builtin.c
OPS_SRCS += ops/tir_build.c ops/manip_join.c ops/manip_copy.c
OPS_SRCS += ops/norm.c ops/loss.c ops/attention.c
OPS_SRCS += ops/create.c ops/sort.c
OPS_SRCS += ops/core.c
OPS_SRCS += ops/qdq.c ops/image.c ops/image_grid.c ops/vision.c ops/vision_box.c ops/vision_nms.c ops/vision_classic_nms.c
OPS_SRCS += ops/manip_index.c ops/manip_extra.c ops/data_dims.c ops/manip_layout.c
# the files holding the operator table's entries, in id order: ops/op_ids.awk
# numbers the ops through them (ops/table.c lists their tables in this order)
OP_TABLE_SRCS := ops/elementwise.c ops/nn.c ops/linalg.c ops/manip.c ops/create.c ops/reduce.c ops/sort.c ops/builtin.c ops/core.c ops/qdq.c ops/image.c ops/vision.c

# reference interpreter
INTERP_SRCS := interp/interp.c interp/relax.c interp/check.c interp/tir.c

# passes
OPT_SRCS := opt/pass.c opt/pipeline.c opt/rewrite.c opt/normalize.c opt/legalize.c
OPT_SRCS += opt/bind_params.c opt/canonicalize_bindings.c opt/dead_code.c opt/fold_constant.c \
            opt/fake_quant_to_int.c opt/decompose_ops.c
OPT_SRCS += opt/fuse_ops.c opt/fuse_group.c opt/fuse_pattern.c opt/fuse_tir.c opt/fuse_tir_copy.c opt/fuse_tir_inline.c
OPT_SRCS += opt/fuse_by_pattern.c opt/merge_composite.c opt/remove_unused_outputs.c
OPT_SRCS += opt/realize_vdevice.c
OPT_SRCS += opt/expand.c opt/lift_workspaces.c
OPT_SRCS += opt/to_non_dataflow.c opt/remove_purity.c opt/call_tir_rewrite.c opt/kill_after_last_use.c

# memory planner
MP_SRCS := memplan/core.c memplan/live_index.c memplan/greedy.c memplan/local.c memplan/search.c memplan/pooled.c memplan/validate.c \
           memplan/plan.c memplan/lifetime.c memplan/checks.c memplan/inplace.c \
           memplan/report.c memplan/csv.c

# C code generation and the JIT
CG_SRCS := codegen/gen.c codegen/gen_tir.c codegen/gen_entry.c codegen/gen_outputs.c \
           codegen/gen_sig.c codegen/gen_check.c codegen/gen_effect.c codegen/gen_poison.c codegen/gen_header.c codegen/gen_weights.c codegen/gen_row.c codegen/gen_row_expr.c codegen/gen_reduce.c codegen/cc.c codegen/runtime.c
CG_SRCS += codegen/jit.c codegen/kern.c

# rt/'s kernels precompiled for the JIT (codegen/kern_copy.c, one object a
# level): on an x86-64 host the baseline, v3's vector and FMA set, and
# v4's AVX-512, v4 with VNNI for the 8-bit products (exactly the features
# codegen/kern.c checks before it binds one; -march=x86-64 first, so
# CFLAGS' own -march does not leak in), else one copy at the build's flags.  All at -O3 without contraction (a * b + c
# never fused), which keeps every copy's bits those of the interpreter.
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
KERN_LEVELS := base v3 v4 vnni
KERN_X86 := -DCG_KERN_X86
else
KERN_LEVELS := host
KERN_X86 :=
endif
KERN_FLAGS_base := -march=x86-64 -mtune=generic -DCG_KERN_BASE
KERN_FLAGS_v3 := -march=x86-64 -mtune=generic -mavx2 -mfma -mbmi -mbmi2
KERN_FLAGS_v4 := $(KERN_FLAGS_v3) -mavx512f -mavx512cd -mavx512bw -mavx512dq -mavx512vl
KERN_FLAGS_vnni := $(KERN_FLAGS_v4) -mavx512vnni -DCG_KERN_VNNI
KERN_FLAGS_host := -DCG_KERN_BASE
KERN_OBJS := $(KERN_LEVELS:%=$(BUILD)/codegen/kern_copy_%.o)

# the road from a model to C (road.h), and the library API (rxc.h):
# TVMScript to a callable function in one call
API_SRCS := api/road.c api/rxc.c

# the runtime pieces of rt/, embedded in the compiler as string literals
RT_HDRS := rt/rt_types.h rt/rt_math_base.h rt/rt_half.h rt/rt_math_exp.h rt/rt_math_trig.h rt/rt_libm.h \
           rt/rt_print.h rt/rt_kern_base.h rt/rt_kern_gemm.h rt/rt_kern_gemm_int.h rt/rt_kern_copy.h rt/rt_kern_row.h

# TVMScript reader
FE_SRCS := frontend/lex.c frontend/parse.c frontend/parse_prim.c frontend/parse_const.c frontend/parse_sinfo.c frontend/parse_call.c frontend/parse_relax.c frontend/parse_tir.c frontend/metadata.c frontend/npy.c

# ONNX import (frontend/onnx; onnx.proto compiled by protoc-c, see the ONNX block at the end)
ONNX_SRCS := frontend/onnx/onnx_read.c frontend/onnx/onnx_build.c frontend/onnx/onnx_ops.c frontend/onnx/onnx_nn.c \
	frontend/onnx/onnx_act.c frontend/onnx/onnx_rnn.c \
	frontend/onnx/onnx_quant.c frontend/onnx/onnx_check.c frontend/onnx/onnx_schema.c \
	frontend/onnx/onnx_extern.c frontend/onnx/onnx_wire.c

# build configuration (INI, the only user of <ini.h>)
CFG_SRCS := config/config.c

LIB_SRCS := $(IR_SRCS) $(PRINT_SRCS) $(EQUAL_SRCS) $(WF_SRCS) $(ARITH_SRCS) $(FE_SRCS) $(ONNX_SRCS) \
            $(OPS_SRCS) $(INTERP_SRCS) $(OPT_SRCS) $(MP_SRCS) $(CFG_SRCS) $(CG_SRCS) $(API_SRCS)
MAIN_SRCS := cli/main.c cli/cli.c cli/run.c cli/plan.c cli/compile.c cli/import.c cli/list.c

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJS := $(MAIN_SRCS:%.c=$(BUILD)/%.o)

# ---- tests: every tests/unit/test_*.c is one cmocka program
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TEST_LIBS := -lcmocka
# what librxc.a needs from the system
RXC_LIBS := -linih -lprotobuf-c -ltcc -ldl -lpthread -lm

# the sample models whose weights are generated from a seed (make samples)
SEEDED_WEIGHTS := samples/mobilenet_v2.npz samples/kws_dscnn.npz samples/transformer_block.npz

DEB_PACKAGES := gcc clang make pkg-config tcc libtcc-dev libcmocka-dev libinih-dev python3 python3-numpy python3-sklearn \
                gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm valgrind libclang-rt-14-dev \
                libprotobuf-c-dev protobuf-c-compiler python3-onnx libonnx-testdata libopenblas-dev gnuplot-nox

.PHONY: all check deps clean format
all: $(BUILD)/rxc $(BUILD)/librxc.a $(BUILD)/librxc.so

$(BUILD)/librxc.a: $(LIB_OBJS) $(KERN_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# The library's objects are position-independent, so that the same ones make
# librxc.so: what python/rxc.py loads with ctypes (a program without a C
# toolchain of its own).  It carries libtcc (Debian ships only libtcc.a,
# whose references to libc's stdout, stderr and environ a shared object
# cannot hold: a copy renames them to api/so_stdio.c's) and exports only
# rxc.h's functions (api/librxc.map).
PIC := -fPIC -fno-semantic-interposition
$(LIB_OBJS) $(BUILD)/api/so_stdio.o: ALL_CFLAGS += $(PIC)
$(BUILD)/librxc.so: $(BUILD)/api/so_stdio.o $(BUILD)/librxc.a $(BUILD)/libtcc_so.a api/librxc.map
	@echo "  LINK    $@"
	$(Q)$(CC) -shared $(LDFLAGS_ALL) $(if $(SANFLAGS),,-Wl,-z,defs) -Wl,--version-script=api/librxc.map \
	  -o $@ $(BUILD)/api/so_stdio.o -Wl,--whole-archive $(BUILD)/librxc.a -Wl,--no-whole-archive \
	  $(BUILD)/libtcc_so.a $(filter-out -ltcc,$(RXC_LIBS))

LIBTCC_A := $(shell $(CC) -print-file-name=libtcc.a)
$(BUILD)/libtcc_so.a: $(LIBTCC_A)
	@mkdir -p $(dir $@)
	@echo "  OBJCOPY $@"
	$(Q)objcopy --redefine-sym stdout=rxc_so_stdout --redefine-sym stderr=rxc_so_stderr \
	  --redefine-sym environ=rxc_so_environ $< $@

# The flags the library's objects were built with, rewritten when they
# change: a tree built before they were position-independent (or with other
# CFLAGS) rebuilds them.
LIB_FLAGS_TEXT := $(ALL_CFLAGS) $(PIC)
$(LIB_OBJS): $(BUILD)/gen/lib_cflags
$(BUILD)/gen/lib_cflags: FORCE
	@mkdir -p $(dir $@)
	$(Q)echo '$(LIB_FLAGS_TEXT)' | cmp -s - $@ || echo '$(LIB_FLAGS_TEXT)' > $@
.PHONY: FORCE

$(BUILD)/rxc: $(MAIN_OBJS) $(BUILD)/librxc.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(MAIN_OBJS) $(BUILD)/librxc.a $(RXC_LIBS)

# Every object may include ir/ir.h, which includes the generated op_ids.h:
# it is made first (order-only; once built, -MMD records who includes it).
$(BUILD)/%.o: %.c | $(BUILD)/gen/op_ids.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -I$(BUILD)/gen -c -o $@ $<

# The kernels' copies (above), and what must not contract a * b + c
# either: the interpreter's copy, and the tests comparing copies bit for bit.
$(KERN_OBJS): $(BUILD)/codegen/kern_copy_%.o: codegen/kern_copy.c $(BUILD)/gen/lib_cflags | $(BUILD)/gen/op_ids.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< ($*)"
	$(Q)$(CC) $(ALL_CFLAGS) $(PIC) -O3 -ffp-contract=off $(KERN_FLAGS_$*) -DCG_KERN_LEVEL=$* -I$(BUILD)/gen -c -o $@ $<
$(BUILD)/codegen/kern.o: ALL_CFLAGS += $(KERN_X86)
$(BUILD)/interp/tir.o $(BUILD)/tests/unit/test_kern.o $(BUILD)/tests/unit/test_jit.o $(BUILD)/tests/unit/test_rows.o: ALL_CFLAGS += -ffp-contract=off

# IrOpId from the operator table's entries (ops/op.h).  The header is
# rewritten only when it changes, so that editing an op's kernel does not
# rebuild everything; the stamp records that it was checked.
$(BUILD)/gen/op_ids.h: $(BUILD)/gen/op_ids.stamp ;
$(BUILD)/gen/op_ids.stamp: ops/op_ids.awk $(OP_TABLE_SRCS)
	@mkdir -p $(dir $@)
	@echo "  GEN     $(BUILD)/gen/op_ids.h"
	$(Q)h=$(BUILD)/gen/op_ids.h; awk -f ops/op_ids.awk $(OP_TABLE_SRCS) > $$h.tmp && \
	  { cmp -s $$h.tmp $$h && rm $$h.tmp || mv $$h.tmp $$h; } && touch $@

# rt/ as string literals for codegen/runtime.c
$(BUILD)/gen/rt_embed.h: rt/embed.awk $(RT_HDRS)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)awk -f rt/embed.awk $(RT_HDRS) > $@.tmp && mv $@.tmp $@
$(BUILD)/codegen/runtime.o: $(BUILD)/gen/rt_embed.h

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/librxc.a
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $< $(BUILD)/librxc.a $(TEST_LIBS) $(RXC_LIBS)

# One test, by name: T=test_NAME runs the cmocka program of
# tests/unit/test_NAME.c, T=cases_NAME the tests/ops/run_ops.py cases of
# tests/ops/cases_NAME.py (T=cases: those of cases.py itself).
.PHONY: test
test: all $(SEEDED_WEIGHTS)
	@case "$(T)" in \
	  test_*) [ -f tests/unit/$(T).c ] || { echo "make test: no tests/unit/$(T).c"; exit 2; }; \
	    $(MAKE) --no-print-directory $(BUILD)/tests/$(T) && RXC=$(BUILD)/rxc ./$(BUILD)/tests/$(T) ;; \
	  cases|cases_*) RXC=$(BUILD)/rxc /usr/bin/python3 tests/ops/run_ops.py --file $(T) ;; \
	  *) echo "make test: T=test_NAME (tests/unit/) or T=cases_NAME (tests/ops/), not '$(T)'"; exit 2 ;; \
	esac

# Each test program is a target of its own (NAME.run), so that make -j
# runs them side by side, with each other and with the check-* suites; its
# output is printed whole when it ends, and a failure leaves NAME.failed,
# which check's recipe counts.  So every failure is reported, and check
# fails at the end.
UNIT_RUNS := $(TEST_BINS:%=%.run)
.PHONY: $(UNIT_RUNS)
$(UNIT_RUNS): %.run: % all $(SEEDED_WEIGHTS)
	@rm -f $*.failed; \
	RXC=$(BUILD)/rxc ./$* > $*.log 2>&1 || echo "FAILED: $*" > $*.failed; \
	{ echo "== $*"; cat $*.log; cat $*.failed 2>/dev/null; } > $*.out; cat $*.out

# Under SAN=1, the ops harness runs one case in 2 (run_ops.py --sample).
OPS_SAMPLE := $(if $(UNDER_SAN),--sample 2)

UNIT_FAILED = failed=0; for t in $(TEST_BINS); do \
	  if [ -f $$t.failed ]; then echo "FAILED: $$t"; failed=$$((failed+1)); fi; \
	done

# The test programs alone.
.PHONY: check-units
check-units: $(UNIT_RUNS)
	@$(UNIT_FAILED); \
	if [ $$failed -ne 0 ]; then echo "$$failed test program(s) failed"; exit 1; fi; \
	echo "all $(words $(TEST_BINS)) test programs passed"

check: all $(UNIT_RUNS) $(SEEDED_WEIGHTS)
	@$(UNIT_FAILED); \
	echo "== tests/ops/run_ops.py"; \
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/ops/run_ops.py $(OPS_SAMPLE) || { echo "FAILED: tests/ops/run_ops.py"; failed=$$((failed+1)); }; \
	echo "== tests/agree/samples_agree.py"; \
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/samples_agree.py || { echo "FAILED: tests/agree/samples_agree.py"; failed=$$((failed+1)); }; \
	echo "== make check-install"; \
	$(MAKE) --no-print-directory check-install BUILD=$(BUILD) || { echo "FAILED: check-install"; failed=$$((failed+1)); }; \
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

# What `make bench`'s real-model table needs besides `make deps` (never part
# of deps or check): torch, torchvision, onnx and GNU time from Debian, and ONNX
# Runtime's npm package, whose CPU library ships inside it (installed with
# --ignore-scripts: nothing is downloaded at install time beyond the
# package) into build/bench-deps.
# (Debian's nodejs and npm only when no npm is on PATH: a machine with
# NodeSource's nodejs has npm inside it, and Debian's npm conflicts.  The
# recipe's shell looks, so only `make bench-deps` runs `command -v npm`.)
BENCH_DEB_PACKAGES = python3-torch python3-torchvision python3-onnx time
ORT_NODE := $(BUILD)/bench-deps/node_modules/onnxruntime-node
.PHONY: bench-deps
bench-deps:
	@node=$$(command -v npm >/dev/null || echo nodejs npm); \
	  $(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) $(BENCH_DEB_PACKAGES) $$node"
	@if [ -d $(ORT_NODE) ]; then echo "bench-deps: onnxruntime-node installed"; else \
	  mkdir -p $(BUILD)/bench-deps && \
	  npm install --silent --no-audit --no-fund --ignore-scripts --prefix $(BUILD)/bench-deps onnxruntime-node; fi

format:
	clang-format -i $(LIB_SRCS) $(MAIN_SRCS) ir/*.h frontend/*.h ops/*.h config/*.h $(TEST_SRCS)

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(KERN_OBJS:.o=.d) $(MAIN_OBJS:.o=.d) $(TEST_SRCS:%.c=$(BUILD)/%.d)

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

# The integer road of quantized models (issue 23): FakeQuantizationToInteger
# against numpy's integer arithmetic, its rounding at exact ties against
# Python's fractions (qdq_ties.py), and the digits models (the int8 one bit
# exact) in the interpreter and through the generated C of cc and tcc.
.PHONY: check-quant
check-quant: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/quant/qdq_integer.py
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/quant/qdq_ties.py
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --model digits_cnn_int8
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --model digits_cnn_int8 --via cc
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --model digits_cnn_int8 --via tcc
check: check-quant

# DecomposeOpsForInference (issue 36): inference batch_norm as a scale and
# shift, against numpy's batch norm in the interpreter before and after the
# pass and through the generated C of tcc and cc.  Seconds.
.PHONY: check-decompose
check-decompose: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/decompose/batch_norm.py
check: check-decompose

# ---- sample models (samples/README.md): the seeded weights are generated,
# not committed; the digits weights are trained and committed.

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
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/samples_agree.py --all

# ---- make install PREFIX=...: rxc, librxc.a, the headers, rxc.pc
PREFIX ?= /usr/local
# rxc.h includes no header of rxc's own: it is the whole public API
API_HDRS := api/rxc.h
.PHONY: install check-install
install: $(BUILD)/rxc $(BUILD)/librxc.a
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/rxc $(DESTDIR)$(PREFIX)/bin/rxc
	install -m 644 $(BUILD)/librxc.a $(DESTDIR)$(PREFIX)/lib/librxc.a
	for h in $(API_HDRS); do install -D -m 644 $$h $(DESTDIR)$(PREFIX)/include/rxc/$$h; done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/.*RXC_VERSION "\(.*\)"/\1/p' ir/ir.h)|' \
	  api/rxc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/rxc.pc
	@echo "installed rxc in $(DESTDIR)$(PREFIX) (pkg-config: $(PREFIX)/lib/pkgconfig/rxc.pc)"

# Installs into a scratch prefix and builds examples/jit.c against it
# with pkg-config, as a user would, then runs it.
check-install: $(BUILD)/rxc $(BUILD)/librxc.a
	@d=$$(mktemp -d) && \
	$(MAKE) --no-print-directory install PREFIX=$$d BUILD=$(BUILD) >/dev/null && \
	test -x $$d/bin/rxc && $$d/bin/rxc --version && \
	PKG_CONFIG_PATH=$$d/lib/pkgconfig $(CC) -std=c11 -Wall -Werror $(SANFLAGS) examples/jit.c \
	  $$(PKG_CONFIG_PATH=$$d/lib/pkgconfig pkg-config --cflags --libs --static rxc) -o $$d/jit && \
	$$d/jit && rm -rf $$d && echo "check-install: ok"

# ---- bare metal (tests/cortexm/README.md): the generated C compiled with
# -ffreestanding by gcc, clang and arm-none-eabi-gcc needs no library
# symbol and links into a -nostdlib x86_64 executable; the digits models in
# a Cortex-M4 image under qemu print what the interpreter computes.  Both
# run in make check (the last line adds them to its prerequisites);
# check-cortexm says SKIPPED when the cross compiler or qemu is missing
# (REQUIRE_ALL=1 makes that a failure).
.PHONY: check-cortexm check-freestanding
check-cortexm: $(BUILD)/rxc
	$(Q)RXC=$(BUILD)/rxc /usr/bin/python3 tests/cortexm/run.py $(BUILD)/cortexm

check-freestanding: $(BUILD)/rxc
	$(Q)RXC=$(BUILD)/rxc /usr/bin/python3 tests/cortexm/freestanding.py $(BUILD)/freestanding

check: check-cortexm check-freestanding

# ---- ONNX import (issue 10): Debian's onnx.proto compiled by protoc-c into
# $(BUILD)/gen; the decoder goes into librxc.a with the converters.
ONNX_PROTO := /usr/lib/python3/dist-packages/onnx/onnx.proto
ONNX_GEN_OBJ := $(BUILD)/gen/onnx.pb-c.o

$(BUILD)/gen/onnx.pb-c.c $(BUILD)/gen/onnx.pb-c.h &: $(ONNX_PROTO)
	@mkdir -p $(BUILD)/gen
	@echo "  PROTOC  $@"
	$(Q)cp $(ONNX_PROTO) $(BUILD)/gen/onnx.proto && cd $(BUILD)/gen && protoc-c --c_out=. onnx.proto

# generated code: not held to our warning set
$(ONNX_GEN_OBJ): $(BUILD)/gen/onnx.pb-c.c
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 $(SANFLAGS) $(PIC) $(CFLAGS) -I$(BUILD)/gen -c -o $@ $<

$(ONNX_SRCS:%.c=$(BUILD)/%.o): $(BUILD)/gen/onnx.pb-c.h
$(BUILD)/librxc.a: $(ONNX_GEN_OBJ)
$(ONNX_GEN_OBJ): $(BUILD)/gen/lib_cflags

# The ONNX conformance suite (Debian's libonnx-testdata) through import,
# -O2 and the generated C, checked against tests/onnx/baseline.txt (each
# test's expected status; rewrite it with run_onnx.py --all
# --write-baseline); check-onnx-fast is the subset make check runs.
# check-runner-onnx plants bugs (tests/onnx/plant/) and checks that the
# runners catch them.
.PHONY: check-onnx check-onnx-fast check-runner-onnx
check-onnx: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/run_onnx.py --all --write-readme
check-runner-onnx: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/plant/check_runner.py
check: check-runner-onnx
check-onnx-fast: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/run_onnx.py --fast
	RXC=$(BUILD)/rxc /usr/bin/python3 samples/tools/check_digits.py --onnx
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/rnn_cases.py
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/quant_cases.py
check: check-onnx-fast

# Hostile ONNX files (issue 32, tests/onnx/hostile/): each refused with
# exit 1 and its exact message by rxc import and rxc check, none hanging;
# external data never read from outside the model's folder.  Seconds.
.PHONY: check-onnx-hostile
check-onnx-hostile: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/onnx/hostile/run_hostile.py
check: check-onnx-hostile

# Real models (torchvision with seeded weights, a transformer encoder,
# recurrent models) exported by torch.onnx at opsets 13 and 17, through
# rxc's generated C against torch.  Needs `make bench-deps`; installs nothing.
.PHONY: check-models
check-models: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/models/check_models.py --write-readme

# The operator harness can fail (issue 33): a planted interpreter bug (a
# wrapper used as RXC, no rebuild) fails tests/ops/run_ops.py, as do
# REQUIRE_ALL=1 and a stale tests/ops/skips.txt line.  Seconds.
.PHONY: check-runner-ops
check: check-runner-ops
check-runner-ops: $(BUILD)/rxc
	$(Q)sh tests/runner/check_runner_ops.sh $(BUILD)/rxc

# Each operator's hooks (infer, eval, legalize) in one file (STYLE.md 5):
# tests/ops/hooks_check.py reads the sources against the known exceptions
# of tests/ops/hooks_exceptions.txt, which may only shrink.  Under a second.
.PHONY: check-hooks
check: check-hooks
check-hooks:
	$(Q)/usr/bin/python3 tests/ops/hooks_check.py

# Every operator case through both compilers, the symbolic edges too;
# make check's run sends half of the cases through cc (tests/ops/run_ops.py).
.PHONY: check-ops-full
check-ops-full: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/ops/run_ops.py --full

# TVM v0.26.0's own Relax test modules through the reader and a round trip
# (issue 22; tests/tvm/tvm_tests.py).  Not part of check: it needs the TVM
# mirror (without one: SKIPPED, a failure under REQUIRE_ALL=1) and takes
# minutes; it fails below the rates tests/README.md states.
.PHONY: check-tvm-tests
check-tvm-tests: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/tvm/tvm_tests.py

# ---- the memory planner's benchmark (memplan/README.md): every algorithm on
# MiniMalloc's challenging problems and the samples' problems; writes
# bench/planner.md.  Minutes, not part of check.
.PHONY: bench-planner
bench-planner: all samples
	/usr/bin/python3 bench/planner.py

# ---- reliability (issue 9, tests/README.md "Reliability") --------------
# make fuzz: the libFuzzer targets of tests/fuzz/, built by clang with
# ASan+UBSan into build/fuzz, each run for FUZZ_SECONDS on a corpus seeded
# from samples/ and tests/ (new inputs are kept in build/fuzz/corpus/).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fuzz_script fuzz_npy fuzz_pipeline
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=all
FUZZ_BINS := $(FUZZ_TARGETS:%=build/fuzz/%)
FUZZ_FLAGS := -timeout=20 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
FUZZ_SCRIPT_SEEDS := $(shell find samples tests -name '*.py' -not -path 'samples/tools/*' \
                       -not -path 'tests/ops/*' -not -path 'tests/gen/*.py' 2>/dev/null)

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-regress
fuzz: fuzz-build fuzz-corpus fuzz-regress
	@for t in $(FUZZ_TARGETS); do \
	  echo "== $$t for $(FUZZ_SECONDS)s (log: build/fuzz/$$t.log)"; \
	  ./build/fuzz/$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) \
	    -artifact_prefix=build/fuzz/crash-$$t- build/fuzz/corpus/$$t > build/fuzz/$$t.log 2>&1; \
	  status=$$?; grep -E 'INITED|DONE|number_of_executed_units|ERROR|SUMMARY|Test unit written' build/fuzz/$$t.log; \
	  test $$status -eq 0 || exit 1; \
	done

fuzz-build: $(FUZZ_BINS)

# Every crash a fuzzer found, kept in tests/fuzz/regress/TARGET/, run once.
fuzz-regress: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  files=$$(find tests/fuzz/regress/$$t -type f 2>/dev/null); \
	  test -z "$$files" || ./build/fuzz/$$t $$files > build/fuzz/$$t.regress.log 2>&1 || \
	    { cat build/fuzz/$$t.regress.log; exit 1; }; \
	done; echo "fuzz-regress: every kept crash input passes"

# the library again, instrumented for libFuzzer (its own objects: no recursion)
FUZZ_OBJS := $(LIB_SRCS:%.c=build/fuzz/obj/%.o)
build/fuzz/obj/%.o: %.c | $(BUILD)/gen/op_ids.h
	@mkdir -p $(dir $@)
	@echo "  CC/FUZZ $<"
	$(Q)clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_CFLAGS) -I$(BUILD)/gen -MMD -MP -c -o $@ $<
build/fuzz/obj/codegen/runtime.o: $(BUILD)/gen/rt_embed.h
FUZZ_KERN_OBJS := $(KERN_LEVELS:%=build/fuzz/obj/codegen/kern_copy_%.o)
$(FUZZ_KERN_OBJS): build/fuzz/obj/codegen/kern_copy_%.o: codegen/kern_copy.c | $(BUILD)/gen/op_ids.h
	@mkdir -p $(dir $@)
	$(Q)clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_CFLAGS) -ffp-contract=off $(KERN_FLAGS_$*) \
	  -DCG_KERN_LEVEL=$* -I$(BUILD)/gen -c -o $@ $<
build/fuzz/obj/codegen/kern.o: FUZZ_CFLAGS += $(KERN_X86)
build/fuzz/librxc.a: $(FUZZ_OBJS) $(FUZZ_KERN_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
-include $(FUZZ_OBJS:.o=.d)

$(FUZZ_BINS): build/fuzz/%: tests/fuzz/%.c build/fuzz/librxc.a
	@echo "  FUZZ    $@"
	$(Q)clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_CFLAGS) -I$(BUILD)/gen -fsanitize=fuzzer -o $@ $< \
	  build/fuzz/librxc.a $(RXC_LIBS)

fuzz-corpus: tests/fuzz/npy_seeds.py
	@mkdir -p build/fuzz/corpus/fuzz_script build/fuzz/corpus/fuzz_pipeline build/fuzz/corpus/fuzz_npy
	@for f in $(FUZZ_SCRIPT_SEEDS); do s=$$(echo $$f | tr / _); \
	  cp -n $$f build/fuzz/corpus/fuzz_script/$$s; cp -n $$f build/fuzz/corpus/fuzz_pipeline/$$s; done
	@cp -n samples/*.npz build/fuzz/corpus/fuzz_npy/
	@/usr/bin/python3 tests/fuzz/npy_seeds.py build/fuzz/corpus/fuzz_npy

# Translation validation on random modules (tests/gen/): the interpreter on
# the module as written against the generated C after -O2.  A few hundred
# in make check; GEN_COUNT (10000) in check-random.  Under SAN=1 make check
# runs the first 100 of the 300 (and of check-poison's): the sanitized rxc
# runs them about three times slower, and CI's gcc and clang stages run
# all 300 (the CI run after the session of 2026-12-01 took 86 of its 90
# minutes).
GEN_CHECK := RXC=$(BUILD)/rxc nice -n 10 /usr/bin/python3 tests/gen/validate.py
GEN_COUNT ?= 10000
GEN_CHECK_COUNT := $(if $(UNDER_SAN),100,300)
.PHONY: check-gen check-random check-valgrind check-sanitize-generated
check: check-gen check-sanitize-generated
check-gen: all
	$(GEN_CHECK) --start 0 --count $(GEN_CHECK_COUNT) --cc-every 15
check-random: all
	$(GEN_CHECK) --start 100000 --count $(GEN_COUNT) --cc-every 50

# The memory plan's lifetimes, observed (issue 33): the samples and random
# modules built with [codegen] poison (each arena storage overwritten where
# memplan ends its lifetime; dead bytes and a canary checked) must give the
# bits of the same build without it.
.PHONY: check-poison
check: check-poison
check-poison: all
	RXC=$(BUILD)/rxc nice -n 10 /usr/bin/python3 tests/gen/samples.py --poison
	$(GEN_CHECK) --poison --start 0 --count $(GEN_CHECK_COUNT) --cc-every 10

# The JIT path under valgrind's memcheck: rxc run --via tcc on samples, and
# test_jit.  No suppressions are needed on Debian 12 (libtcc 0.9.27).
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
# Without valgrind: SKIPPED, a failure under REQUIRE_ALL=1.
check-valgrind: all $(BUILD)/tests/test_jit
	@command -v valgrind >/dev/null || { echo "check-valgrind: SKIPPED (valgrind not found; make deps installs it)"; \
	  test "$$REQUIRE_ALL" != 1; exit $$?; }; \
	set -e; RXC="$(VALGRIND) $(BUILD)/rxc" /usr/bin/python3 tests/gen/samples.py; \
	$(VALGRIND) $(BUILD)/tests/test_jit; \
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/gen/validate.py --start 0 --count 20 --cc-every 0 \
	  --wrap "$(VALGRIND)"

# The generated C of the samples and of random modules built with
# -fsanitize=address,undefined and run on random inputs (rxc run --via cc
# with [jit] cc_flags; the sanitizer runtime preloaded, since rxc is not
# built with it).
check-sanitize-generated: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/gen/samples.py --sanitize
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/gen/validate.py --start 0 --count 20 --sanitize

# Refusals (tests/refuse/): on random modules over symbolic dims whose shape
# relations hold or not at run time, the generated C (cc, tcc) refuses what
# the interpreter refuses and agrees with it on what it runs.  check-refuse:
# fixed seeds, about a minute on 2 cores (80 seeds; 40 under SAN=1, whose
# sanitized rxc runs them about three times slower); check-refuse-values: the refusals
# that depend on tensor values alone (indices out of range, integer division
# by zero), about half a CPU minute; check-refuse-sanitize: a few with the cc path under
# -fsanitize=address,undefined; check-refuse-long: new seeds for
# REFUSE_SECONDS (1800) on REFUSE_JOBS processes.
REFUSE := RXC=$(BUILD)/rxc nice -n 10 /usr/bin/python3 tests/refuse/refuse.py
REFUSE_SECONDS ?= 1800
REFUSE_JOBS ?= 2
.PHONY: check-refuse check-refuse-values check-refuse-sanitize check-refuse-long
check: check-refuse check-refuse-values check-refuse-sanitize
check-refuse: all
	$(REFUSE) --start 0 --count $(if $(UNDER_SAN),40,80) --jobs 2
check-refuse-values: all
	$(REFUSE) --families take,intdiv,gather --start 200000 --count 48 --jobs 2
check-refuse-sanitize: all
	$(REFUSE) --start 5000 --count 12 --jobs 2 --sanitize
check-refuse-long: all
	$(REFUSE) --start 100000 --seconds $(REFUSE_SECONDS) --jobs $(REFUSE_JOBS)

# ---- benchmarks (bench/README.md): kernels against OpenBLAS and a naive
# loop, whole samples under gcc and libtcc, compile times.  Slow (minutes):
# never part of check.
$(BUILD)/bench/model_bench: bench/model_bench.c $(BUILD)/librxc.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -I$(BUILD)/gen $(LDFLAGS_ALL) -o $@ $< $(BUILD)/librxc.a $(RXC_LIBS)

# real_models.py's libtcc column: rxc_jit_file and the entry's latency,
# through api/rxc.h alone
$(BUILD)/bench/jit_bench: bench/jit_bench.c api/rxc.h $(BUILD)/librxc.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(LDFLAGS_ALL) -o $@ $< $(BUILD)/librxc.a $(RXC_LIBS)

.PHONY: bench
bench: deps all samples $(BUILD)/bench/model_bench $(BUILD)/bench/jit_bench
	RXC=$(BUILD)/rxc MODEL_BENCH=$(BUILD)/bench/model_bench /usr/bin/python3 bench/bench.py
	RXC=$(BUILD)/rxc JIT_BENCH=$(BUILD)/bench/jit_bench ORT_NODE=$(ORT_NODE) /usr/bin/python3 bench/real_models.py

# only the conv2d table (bench/conv.md): every distinct layer of the samples,
# resnet18 and squeezenet1_1, or those of CONV="SOURCE..." (e.g.
# CONV=resnet18); a few minutes, after make deps
.PHONY: bench-conv
bench-conv: all
	RXC=$(BUILD)/rxc /usr/bin/python3 bench/bench.py --conv $(CONV)

# only the int8 table (bench/int8.md): int8 x int8 -> int32 matmul and conv2d
# against float32 of the same shapes, both rxc's code; a few minutes
.PHONY: bench-int8
bench-int8: all
	RXC=$(BUILD)/rxc /usr/bin/python3 bench/bench.py --int8

# the 8-bit products through the JIT (libtcc, and gcc -O3 -march=native),
# [opt] kernels off and on, beside float32 (bench/jit_int8.py; a minute)
.PHONY: bench-jit-int8
bench-jit-int8: all
	/usr/bin/python3 bench/jit_int8.py

# only the weights-forms table (bench/weights_forms.md): the real models'
# C with [codegen] weights = inline, bytes and blob under gcc -O2 (needs
# make bench-deps; a few minutes)
.PHONY: bench-weights
bench-weights: all
	RXC=$(BUILD)/rxc ORT_NODE=$(ORT_NODE) /usr/bin/python3 bench/real_models.py --forms

# only the real-model table (bench/real_models.md): torch, ONNX Runtime and
# rxc's C under gcc -O3 -march=native, gcc -O2 and libtcc on torchvision
# models and a transformer layer (needs make bench-deps; about 20 minutes)
.PHONY: bench-real
bench-real: all $(BUILD)/bench/jit_bench
	RXC=$(BUILD)/rxc JIT_BENCH=$(BUILD)/bench/jit_bench ORT_NODE=$(ORT_NODE) /usr/bin/python3 bench/real_models.py

# ---- README.md kept true (tests/readme/readme.py): its tables are what
# `rxc list ops|passes|onnx` prints, and its C program compiles (-Wall
# -Werror) against the model it names and prints what it says.
.PHONY: check-readme
check: check-readme
check-readme: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/readme/readme.py

# ---- python/rxc.py, the JIT from Python over librxc.so, against numpy
# (tests/python/test_rxc.py; a second).  Under SAN=1 the sanitizers'
# runtime is preloaded into python3, which is not built with it; leaks are
# not looked for (the interpreter's own would drown rxc's).
.PHONY: check-python
check: check-python
check-python: all
	$(if $(SANFLAGS),LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1) \
	  RXC_LIB=$(BUILD)/librxc.so /usr/bin/python3 tests/python/test_rxc.py

# ---- a newcomer's friction with the command (issue 32): plan's names and
# weights, list PATTERN, every option in --help, -o making folders, the OS's
# reason for a file that cannot be opened, an input's error at its
# parameter, the exit statuses (tests/cli/cli_check.py; seconds).
.PHONY: check-cli
check: check-cli
check-cli: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/cli/cli_check.py

# ---- the generated C's NAME_TRACE hook against the interpreter's --dump of
# the same optimized module (tests/agree/trace_check.py).
.PHONY: check-trace
check: check-trace
check-trace: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/trace_check.py

# ---- R.print in the generated C (NAME_PRINT defined, and not) against the
# interpreter's text (tests/agree/print_check.py).
.PHONY: check-print
check: check-print
check-print: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/print_check.py

# ---- the loops [codegen] rows turns into row kernel calls (a depthwise
# conv's 25 taps, ...), with the loops' bits (tests/agree/rows_cover.py).
.PHONY: check-rows-cover
check: check-rows-cover
check-rows-cover: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/rows_cover.py

# ---- TIR asserts and buffer declarations through the interpreter, tcc and cc:
# they refuse the same inputs and agree on the others (tests/agree/tir_forms_check.py).
.PHONY: check-tir-forms
check: check-tir-forms
check-tir-forms: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/agree/tir_forms_check.py

# ---- [codegen] weights = inline, separate, bytes and blob compute the same
# bits under gcc, clang and tcc; m_set_weights refuses what is not its blob
# (tests/weights/weights_modes.py).
.PHONY: check-weights
check: check-weights
check-weights: all samples
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/weights/weights_modes.py

# ---- a dim without an upper bound (issue 32): a hand-written MLP and a
# torch-exported CNN with a dynamic batch dim through cc and tcc, with and
# without a bound, against numpy and torch's saved outputs; what compile,
# plan, require_static, arena_limit and a misspelt bound say
# (tests/dynamic/check_dynamic.py).  Valgrind cannot run a sanitized rxc.
.PHONY: check-dynamic
check: check-dynamic
check-dynamic: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/dynamic/check_dynamic.py $(if $(UNDER_SAN),--no-valgrind)

# ---- the folders depend on each other in README's order, and every global
# symbol of librxc.a carries its folder's prefix (tests/layers/layers.py).
.PHONY: check-layers
check: check-layers
check-layers: all
	/usr/bin/python3 tests/layers/layers.py $(BUILD)

# Mutation testing (issue 33, tests/mutate/): each planted bug of
# tests/mutate/catalogue.py in a scratch worktree of HEAD (build/mutate/),
# rebuilt incrementally, must make one of its narrow commands fail; fails
# below a 90% score or on a stale entry.  Not part of check (see
# tests/README.md for its time).  MUTATE_ARGS: --only ID,... --write-readme
MUTATE_JOBS ?= 2
.PHONY: mutate
mutate:
	nice -n 10 /usr/bin/python3 tests/mutate/mutate.py --jobs $(MUTATE_JOBS) $(MUTATE_ARGS)

# The checks that kill planted bugs of make mutate no other test noticed
# (tests/mutate/kill_checks.py; tests/unit/test_mutants.c runs with the
# other cmocka programs).  About a second.
.PHONY: check-mutants
check: check-mutants
check-mutants: all
	RXC=$(BUILD)/rxc /usr/bin/python3 tests/mutate/kill_checks.py
