"""The planted bugs of `make mutate` (tests/mutate/mutate.py).

Each Mutant replaces `find` (exact text that must occur exactly once in
`file`, else the entry is stale) by `replace`; `kill` lists the narrowest
commands, run from the repository root with RXC=build/rxc, of which one
should fail.  A `build/tests/test_X` named in a command is built first.

`expect`: a known survivor whose killing test comes from another branch
(issue 33's planted bugs); it still counts against the score.
`equivalent`: why no test can kill it (the program means the same); it is
left out of the score's denominator.  Only for genuinely equivalent
mutants, never for a missing test.
"""
from dataclasses import dataclass, field
from typing import List

OPS = "/usr/bin/python3 tests/ops/run_ops.py -j 2 -k "
ONNX = "/usr/bin/python3 tests/onnx/run_onnx.py "
KILL = "/usr/bin/python3 tests/mutate/kill_checks.py "
POISON = "make check-poison"


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    find: str
    replace: str
    desc: str
    kill: List[str] = field(default_factory=list)
    expect: str = ""
    equivalent: str = ""


MUTANTS = [
    # ---- ir: arithmetic, dtypes
    Mutant("ir-floormod-trunc", "ir/eval.c",
           "*r = (int64_t)(ua - (uint64_t)floor_div(a, b) * ub);",
           "*r = (int64_t)(ua - (uint64_t)(a / b) * ub);",
           "floormod of constants uses truncating division (wrong sign for negative operands)",
           ["build/tests/test_arith", "build/tests/test_mutants"]),
    Mutant("ir-min-swap", "ir/eval.c",
           "*r = a < b ? a : b;", "*r = a < b ? b : a;",
           "constant min(a, b) returns the larger operand",
           ["build/tests/test_arith", "build/tests/test_mutants"]),
    Mutant("ir-half-subnormal-trunc", "ir/dtype.c",
           "return sign | (uint16_t)nearbyint(d * ldexp(1.0, 24));",
           "return sign | (uint16_t)(d * ldexp(1.0, 24));",
           "float16 subnormals truncate instead of rounding to nearest even",
           ["build/tests/test_half"]),
    Mutant("ir-half-overflow-gt", "ir/dtype.c",
           "if (isinf(d) || d >= 65520.0)", "if (isinf(d) || d > 65520.0)",
           "float16 overflow threshold: 65520 no longer sent to inf directly",
           ["build/tests/test_half"],
           equivalent="equivalent mutant: 65520 then takes the normal path, whose mantissa "
                      "1023.5 rounds (to even) to 1024, carries into exponent 16 > 15 and "
                      "returns inf all the same"),
    Mutant("ir-dtype-no-int16", "ir/dtype.c",
           "(bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64)",
           "(bits == 1 || bits == 8 || bits == 32 || bits == 64)",
           "the dtype parser refuses int16/uint16",
           ["build/tests/test_dialect", "build/tests/test_printer", "build/tests/test_roundtrip"]),

    # ---- frontend: the TVMScript lexer, the ONNX converters
    Mutant("fe-column-off-by-one", "frontend/lex.c",
           "int col = (int)(at - L->line_start) + 1;", "int col = (int)(at - L->line_start);",
           "diagnostic columns counted from 0",
           ["build/tests/test_golden"]),
    Mutant("fe-exponent-sign", "frontend/lex.c",
           "if (q < L->end && (*q == '+' || *q == '-'))", "if (q < L->end && *q == '+')",
           "a float literal with a negative exponent (1e-5) no longer lexes",
           ["build/tests/test_frontend"]),
    Mutant("fe-onnx-atanh-removed", "frontend/onnx/onnx_ops.c",
           '    {"Atanh", cv_unary, ""},\n', "",
           "issue 33 #1: the ONNX Atanh converter removed",
           ["make check-onnx-fast"]),
    Mutant("fe-onnx-leakyrelu-default", "frontend/onnx/onnx_ops.c",
           'double alpha = fe_ox_attr_f(im->node, "alpha", 0.01);',
           'double alpha = fe_ox_attr_f(im->node, "alpha", 0.1);',
           "ONNX LeakyRelu's default alpha 0.1 instead of 0.01",
           [ONNX + "node/test_leakyrelu_default"]),
    Mutant("fe-onnx-gemm-beta-default", "frontend/onnx/onnx_nn.c",
           'beta = fe_ox_attr_f(im->node, "beta", 1);', 'beta = fe_ox_attr_f(im->node, "beta", 0);',
           "ONNX Gemm's default beta 0: the bias dropped",
           [ONNX + "node/test_gemm_default_matrix_bias"]),
    Mutant("fe-onnx-flatten-axis-default", "frontend/onnx/onnx_ops.c",
           'fe_ox_flatten_2d(im, in[0], fe_ox_attr_i(im->node, "axis", 1))',
           'fe_ox_flatten_2d(im, in[0], fe_ox_attr_i(im->node, "axis", 0))',
           "ONNX Flatten's default axis 0 instead of 1",
           [ONNX + "node/test_flatten_default_axis"]),
    Mutant("fe-onnx-keepdims-default", "frontend/onnx/onnx_ops.c",
           '    return false;\n  bool keep = fe_ox_attr_i(im->node, "keepdims", 1) != 0;',
           '    return false;\n  bool keep = fe_ox_attr_i(im->node, "keepdims", 0) != 0;',
           "ONNX Reduce*'s default keepdims 0 instead of 1",
           [ONNX + "node/test_reduce_log_sum_default node/test_reduce_log_sum_negative_axes"]),
    Mutant("fe-onnx-bn-epsilon", "frontend/onnx/onnx_nn.c",
           'ir_attr_float(im->ctx, fe_ox_attr_f(im->node, "epsilon", 1e-5)), "center",\n'
           '                  ir_attr_bool(im->ctx, true), "scale", ir_attr_bool(im->ctx, true), "momentum",',
           'ir_attr_float(im->ctx, fe_ox_attr_f(im->node, "epsilon", 1e-3)), "center",\n'
           '                  ir_attr_bool(im->ctx, true), "scale", ir_attr_bool(im->ctx, true), "momentum",',
           "ONNX BatchNormalization's default epsilon 1e-3 instead of 1e-5",
           [ONNX + "node/test_batchnorm_example"]),
    Mutant("fe-onnx-pool-ceil-dropped", "frontend/onnx/onnx_nn.c",
           'ir_attr_bool(im->ctx, fe_ox_attr_i(im->node, "ceil_mode", 0) != 0)',
           "ir_attr_bool(im->ctx, false)",
           "ONNX MaxPool/AveragePool ignore ceil_mode",
           [ONNX + "node/test_maxpool_2d_ceil"]),

    # ---- ops: inference and reference kernels
    Mutant("ops-prelu-not-implemented", "ops/nn.c",
           '  const IrTensorData *alpha = op_nn_tensor_value(&s, args, 1, "alpha");\n'
           "  int64_t axis, strides[64];",
           '  const IrTensorData *alpha = op_nn_tensor_value(&s, args, 1, "alpha");\n'
           '  return op_fail_null(&s, "not implemented");\n'
           "  int64_t axis, strides[64];",
           "issue 33 #2: R.nn.prelu's interpreter kernel fails \"not implemented\"",
           [OPS + "prelu"]),
    Mutant("ops-conv-extent", "ops/conv.c",
           "int64_t num = x + pad - w->dilation[a] * (k - 1) - 1;",
           "int64_t num = x + pad - w->dilation[a] * (k - 1);",
           "conv/pool kernels' output extent one too large",
           [OPS + "conv2d"]),
    Mutant("ops-conv-infer-extent", "ops/conv.c",
           "  num = bin(in, IR_PE_SUB, num, op_nn_int(c, 1));\n  if (w->ceil_mode)",
           "  if (w->ceil_mode)",
           "conv/pool shape inference one too large",
           [OPS + "conv2d"]),
    Mutant("ops-pool-ceil-last-window", "ops/conv.c",
           "if (w->ceil_mode && (*out - 1) * st >= x + w->pad[a])",
           "if (w->ceil_mode && (*out - 1) * st > x + w->pad[a])",
           "ceil_mode keeps a last window that starts just past the input",
           [OPS + "pool2d_ceil"]),
    Mutant("ops-log-softmax-log1p", "ops/nn.c",
           "log_form ? v - log(sum) : exp(v) / sum", "log_form ? v - log1p(sum) : exp(v) / sum",
           "log_softmax subtracts log(1 + sum)",
           [OPS + "log_softmax"]),
    Mutant("ops-variance-bessel", "ops/reduce.c",
           "double var = a->squares / (double)a->count;",
           "double var = a->squares / (double)(a->count > 1 ? a->count - 1 : 1);",
           "variance/std divide by n - 1 (sample variance) instead of n",
           [OPS + "variance"]),
    Mutant("ops-argmax-ties-last", "ops/reduce.c",
           "return wants_least(id) ? v < a->f : v > a->f;",
           "return wants_least(id) ? v <= a->f : v >= a->f;",
           "float argmax/argmin ties keep the last index, not the first",
           [OPS + "arg"]),
    Mutant("ops-argmax-int-ties-last", "ops/reduce.c",
           "return wants_least(id) ? iv < a->i : iv > a->i;",
           "return wants_least(id) ? iv <= a->i : iv >= a->i;",
           "integer max/argmax ties keep the last index",
           [OPS + "arg"]),
    Mutant("ops-matmul-inner-dim", "ops/linalg.c",
           "*k2 = n2 == 1 ? b[0] : b[n2 - 2];", "*k2 = n2 == 1 ? b[0] : b[n2 - 1];",
           "matmul's inference compares x1's inner dim with x2's last dim",
           [OPS + "matmul"]),
    Mutant("ops-matmul-refusal-dropped", "ops/linalg.c",
           "if (op_assume_equal(in, k1, k2) == IR_PROVE_FALSE)\n",
           "if (0 && op_assume_equal(in, k1, k2) == IR_PROVE_FALSE)\n",
           "matmul with different inner dims no longer refused at check time",
           [OPS + "matmul"]),
    Mutant("ops-quantize-half-away", "ops/qdq.c",
           "double v = nearbyint(quotient) + zero_point;", "double v = round(quotient) + zero_point;",
           "R.quantize rounds ties away from zero instead of to even",
           [OPS + "quantize"]),
    Mutant("ops-avgpool-count-pad", "ops/pool.c",
           "int64_t first = w->count_include_pad ? -w->pad[a] : 0;", "int64_t first = 0;",
           "avg_pool2d with count_include_pad leaves the leading padding out of the count",
           [OPS + "avg_pool"]),
    Mutant("ops-tile-reps-align", "ops/manip_copy.c",
           "int xi = i - (on - ndim), ri = i - (on - l);", "int xi = i - (on - ndim), ri = i - (on - ndim);",
           "tile's inference aligns repeats with the input's dims, not the result's",
           [OPS + "tile"]),

    # ---- interp: the run-time checks of struct info
    Mutant("interp-last-dim-unchecked", "interp/check.c",
           "  for (int i = 0; i < n; i++) {\n    char what[32];",
           "  for (int i = 0; i < n - 1; i++) {\n    char what[32];",
           "the interpreter's shape match skips the last dimension",
           [OPS + "run_err_match_cast", "build/tests/test_interp"]),
    Mutant("interp-dtype-unchecked", "interp/check.c",
           "if (s->u.tensor.dtype.code != IR_DT_VOID && !ir_dtype_eq(s->u.tensor.dtype, t->dtype)) {",
           "if (0 && s->u.tensor.dtype.code != IR_DT_VOID && !ir_dtype_eq(s->u.tensor.dtype, t->dtype)) {",
           "the interpreter no longer refuses a tensor of the wrong dtype",
           ["build/tests/test_interp", "/usr/bin/python3 tests/cli/cli_check.py"]),

    # ---- opt: passes
    Mutant("opt-fq-round-half-down", "opt/fake_quant_to_int.c",
           "half[i] = (int64_t)1 << (sh[i] - 1);", "half[i] = ((int64_t)1 << (sh[i] - 1)) - 1;",
           "issue 33 #3: FakeQuantizationToInteger's requantization rounds half down",
           ["make check-quant"]),
    Mutant("opt-bn-shift-sign", "opt/decompose_ops.c",
           'emit2(d, "bn_shift", IR_OP_SUBTRACT, args[2], moved)',
           'emit2(d, "bn_shift", IR_OP_ADD, args[2], moved)',
           "DecomposeOpsForInference's shift is beta + mean * scale",
           ["make check-decompose"]),
    Mutant("opt-bn-training-decomposed", "opt/decompose_ops.c",
           'if (bool_attr(v, "training", true) ||',
           'if (false ||',
           "DecomposeOpsForInference rewrites a training batch_norm with the moving statistics",
           ["make check-decompose"]),
    Mutant("opt-dce-drops-assert", "opt/dead_code.c",
           "return s->kind == IR_ST_ASSERT ? IR_WALK_STOP : IR_WALK_CONTINUE;",
           "return IR_WALK_CONTINUE;",
           "DeadCodeElimination drops an unused call_tir whose kernel asserts",
           ["build/tests/test_pass_small", "build/tests/test_passes",
            "/usr/bin/python3 tests/agree/tir_forms_check.py"]),
    Mutant("opt-dce-unknown-shape", "opt/dead_code.c",
           "    if (shape_unknown(call->u.call.args[i]->sinfo))\n      return true;",
           "    if (shape_unknown(call->u.call.args[i]->sinfo))\n      return false;",
           "DeadCodeElimination drops an unused op whose operand's shape is unknown (may refuse)",
           ["build/tests/test_pass_small"]),
    Mutant("opt-dce-data-checks", "opt/dead_code.c",
           "!may_refuse(d, call) && !op_checks_data(call) &&",
           "!may_refuse(d, call) &&",
           "DeadCodeElimination drops an unused take/gather whose indices the run checks",
           ["build/tests/test_pass_small", "build/tests/test_passes"]),
    Mutant("opt-fold-impure", "opt/fold_constant.c",
           "if (call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP || call->u.call.op->impure)",
           "if (call->kind != IR_EX_CALL || call->u.call.kind != IR_CALL_OP)",
           "FoldConstant folds impure calls (R.print) away",
           ["build/tests/test_passes", "build/tests/test_pass_small",
            KILL + "fold_keeps_print"]),

    # ---- memplan
    Mutant("mp-lifetime-one-early", "memplan/lifetime.c",
           "    if (hi + 1 > s->end)\n      s->end = hi + 1;",
           "    if (hi > s->end)\n      s->end = hi;",
           "issue 33 #4: a storage's lifetime ends one step early",
           ["build/tests/test_mp_plan"]),
    # the same bug again, for the end-to-end check alone: the generated code
    # poisons each storage when its last use ends (codegen/gen_poison.c)
    Mutant("mp-lifetime-one-early-e2e", "memplan/lifetime.c",
           "    if (hi + 1 > s->end)\n      s->end = hi + 1;",
           "    if (hi > s->end)\n      s->end = hi;",
           "issue 33 #4 again, killed by the poisoned generated code alone",
           [POISON]),
    Mutant("mp-align-up-down", "memplan/core.c",
           "return (v + (align - 1)) & ~(align - 1);", "return v & ~(align - 1);",
           "mp_align_up rounds down",
           ["build/tests/test_mp_core"]),
    Mutant("mp-gap-unaligned", "memplan/core.c",
           "    off = mp_align_up(spans[i].hi, align);\n  }\n  return off;",
           "    off = spans[i].hi;\n  }\n  return off;",
           "first-fit places a buffer at an unaligned gap",
           ["build/tests/test_mp_core"]),
    Mutant("mp-gap-exact-fit", "memplan/core.c",
           "if (mp_add_sat(off, size) <= spans[i].lo)", "if (mp_add_sat(off, size) < spans[i].lo)",
           "first-fit skips a gap the buffer fits exactly",
           ["build/tests/test_mp_core", "build/tests/test_mutants"]),
    Mutant("mp-validate-align-dropped", "memplan/validate.c",
           "if (a->align <= 0 || a->offset % a->align != 0)", "if (a->align <= 0)",
           "the plan validator no longer checks alignment",
           ["build/tests/test_mp_core", "build/tests/test_mutants"]),
    Mutant("mp-validate-touching", "memplan/validate.c",
           "bool in_time = a->start < b->end && b->start < a->end;",
           "bool in_time = a->start < b->end && b->start < a->end - 1;",
           "the validator misses an overlap in the last step of a lifetime",
           ["build/tests/test_mp_core", "build/tests/test_mutants"]),
    Mutant("mp-arena-unaligned", "memplan/plan.c",
           "p->arena_bytes = align_up(arena, align);", "p->arena_bytes = align_up(arena, 1);",
           "a bounded plan's arena size not rounded up to the alignment",
           ["build/tests/test_mp_plan"],
           equivalent="equivalent mutant: every buffer of the problem has the plan's alignment, "
                      "and mp_solve returns its arena rounded up to the largest alignment "
                      "already, so the second rounding never changes it"),
    Mutant("mp-buffers-unaligned", "memplan/plan.c",
           "                           .align = align,", "                           .align = 1,",
           "the planner's buffers lose the plan's alignment (storages at any byte)",
           ["build/tests/test_mp_plan", KILL + "plan_aligned"]),

    # ---- codegen
    Mutant("cg-loop-le", "codegen/gen_tir.c",
           'ir_buf_printf(o, "; %s < ", name);', 'ir_buf_printf(o, "; %s <= ", name);',
           "generated for loops run one iteration past their extent",
           [OPS + "relu"]),
    Mutant("cg-int-literal-suffix", "codegen/gen_tir.c",
           'ir_buf_printf(out, v <= 2147483647 ? "%lld" : "%lldLL", (long long)v);',
           'ir_buf_printf(out, "%lld", (long long)v);',
           "large positive integer literals lose their LL suffix",
           [OPS + "int64"],
           equivalent="equivalent mutant: C99 gives an unsuffixed decimal constant the first of "
                      "int, long, long long that holds it, so the value and type width are the "
                      "same (v <= INT64_MAX here)"),
    Mutant("cg-arena-align-check", "codegen/gen_sig.c",
           'ir_buf_printf(o, "  if ((rxc_uptr)arena %% %lldu != 0", (long long)E->g->plan->align);',
           'ir_buf_printf(o, "  if ((rxc_uptr)arena %% %lldu == 1", (long long)E->g->plan->align);',
           "the entry's arena alignment check lets misaligned arenas through",
           ["build/tests/test_codegen"]),
    Mutant("cg-outputs-unaligned", "codegen/gen_outputs.c",
           "int64_t off = (E->arena_bytes + align - 1) / align * align;",
           "int64_t off = E->arena_bytes;",
           "result storages placed after the plan lose their alignment",
           [KILL + "storages_aligned", "build/tests/test_codegen"]),
]
