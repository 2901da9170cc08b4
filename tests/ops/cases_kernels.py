"""cases_kernels.py - matmul and conv2d with `[opt] kernels = true` (issue 35):
the float32 register tile of ops/gemm.c as a call of rt/rt_kern_gemm.h's
rxc_k_gemm_f32 (T.call_extern), which the interpreter runs by the same C
definition as the generated code.  Every half runs with the switch on
(`sets`): the legalized module through the interpreter's kernel call, the
-O2 pipeline through tcc (whose module binds the kernel to the copy librxc
carries for this CPU, codegen/kern.c: AVX-512, AVX2 or baseline vectors
compiled at -O3 without contraction) and cc (the text's GNU C vectors),
each against numpy and the compiled against the interpreter; where the
kernel is called (`same_bits`), the compiled outputs must be the legalized
module's in the interpreter byte for byte (run_ops.py), which the
interpreter computes with the kernel's own definition.

Each case also says whether its legalized module must call the kernel
(`legal_has`) or must keep its loops (`legal_lacks`: a tile whose operands
are not linear in memory: an HWIO weight input), so a lowering
that silently stops calling the kernel, or calls it where the addresses
are not linear, fails here.  The shapes reach each form of the kernel:
8-row blocks of 16 columns, columns left over in an 8-row block, one-row
tiles of 64, 16, 4 and single columns, k of 1, symbolic rows, conv2d's
weight as an input read through its window (OIHW: the terms' digits
(ci, ky, kx) add up to one linear term), and the flat rows of a batched
matmul by a 2-D weight (rows split into the digits of two or three dims,
a dim of 1 between, a symbolic batch), whose tiles cross batch
boundaries.  Most conv2d weights are constants (R.const, as after
BindParams); an HWIO weight input is read in an order that is not
linear, and keeps its loops.

The 8-bit products (int8 x int8 and uint8 x int8 summed in int32: the
tiles of quantized models) call rt/rt_kern_gemm_int.h's
rxc_k_gemm_i8i8_i32, rxc_k_gemm_u8i8_i32 and rxc_k_gemm_i8u8_i32 (conv2d's
uint8 input is the kernel's B) the same way, against numpy's
int64 sums wrapped to int32 (cases_int8_kernels.py's references), the
compiled output again the legalized module's bit for bit; the shapes reach
the kernel's 64-column VNNI blocks of 4 rows and single rows, k not a
multiple of 4, column tails, operands at -128, 127 and 255, and sums past
2^31 that wrap.  conv2d's panels are written by rt/rt_kern_copy.h's
rxc_k_im2col_<dtype> (one call a band: windows, strides, padding) in
the C for libtcc, compared bit for bit with the loops of the legalized
module.  int32 x int32 (rxc_k_gemm_i32i32_i32: QLinearConv and
MatMulInteger widen their operands to int32) likewise, over the whole
int32 range, every product wrapping.

The switch is on by default (issue 35), so every other matmul and conv2d
case of the harness runs the kernel too; the `loops_` twins of the cases
that call it set `opt.kernels=false` and require the loops (no
T.call_extern in the legalized module), so the loop form the switch
turns off stays checked against numpy on the same shapes.
"""
import copy
from cases import *  # noqa: F401,F403  (Case, inp, x_, y_, np, refs, ...)
from cases_int8_kernels import EXTREME, LOW, conv_ref, matmul_ref

KERNEL = "rxc_k_gemm_f32"
ON = ("opt.kernels=true",)
OFF = ("opt.kernels=false",)


def kernel(case, used=True):
    case.sets = ON
    if used:
        case.legal_has = ("T.call_extern", KERNEL)
        case.same_bits = True  # compiled = the legalized module in the interpreter, bit for bit
    else:
        case.legal_lacks = ("T.call_extern",)
    return case


def mm(name, xs, ys, used=True, sig=None, upper=None):
    return kernel(Case(name, "R.matmul(x, y)", [x_(xs, sig=sig), y_(ys)], refs.matmul, atol=1e-5,
                       upper=upper), used)


def packed(case):
    """A product whose B rows are not 32 floats apart: ops/gemm.c packs each
    32-column panel of B (pack_panel) and the 8 x 32 tiles read the panel,
    32 floats a term, with the same bits as the loops (its loops_ twin)."""
    case.legal_has += ("T.address_of(panel[T.int64(0)]), T.int64(32)",)
    return case


def copies(case, name):
    """The case's panels: LegalizeOps for libtcc's C writes them by rt/'s
    rxc_k_im2col_<dtype> (ops/conv_gemm.c); the legalized module here is
    for any compiler and keeps the loops, and its tcc run (the JIT's
    legalization, im2col) must give its bits (same_bits)."""
    return case


def weights(shape, seed):
    """Eighths in [-2, 2): exact in float32, so the literal is the value."""
    return np.random.default_rng(seed).integers(-16, 16, shape).astype(np.float32) / 8


def literal(a):
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(literal(b) for b in a) + "]"


def const_conv(name, xs, ws, seed, ref_kw=None, attrs=""):
    """conv2d of x by a constant weight (its OIHW matrix is the kernel's A)."""
    w = weights(ws, seed)
    call = f'R.nn.conv2d(x, R.const({literal(w)}, "float32"){attrs})'
    return copies(kernel(Case(name, call, [x_(xs)], lambda x: refs.conv2d(x, w, **(ref_kw or {})),
                              atol=1e-5)), "rxc_k_im2col_f32")


I8, U8 = "int8", "uint8"
ALL_U8 = "vals:255,0,255,255,1,128,127"


def int_kernel(case, name):
    case.sets = ON
    case.legal_has = ("T.call_extern", name)
    case.same_bits = True
    return case


def qmm(name, xs, ys, xkind="anyint", ykind="anyint", xdt=I8, xsig=None, upper=None):
    kern = "rxc_k_gemm_u8i8_i32" if xdt == U8 else "rxc_k_gemm_i8i8_i32"
    return int_kernel(Case(name, 'R.matmul(x, y, out_dtype="int32")',
                           [x_(xs, xdt, xkind, xsig), y_(ys, I8, ykind)], matmul_ref(), upper=upper),
                      kern)


def banded(name, xs, ws, ref_kw, attrs, chunks, atol=1e-4):
    """conv2d whose plane's panel would pass 512 KiB: ops/conv_gemm.c sums
    all of K in narrower bands (no `part` scratch) where that moves fewer
    elements than chunks of input channels, else keeps the chunks."""
    case = copies(kernel(conv_case(name, xs, ws, ref_kw, attrs, atol=atol)), "rxc_k_im2col_f32")
    if chunks:
        # chunk 0's tiles store part; each later chunk is one kernel call
        # adding into all of part in place (no tile starts from or copies it)
        into_part(case)
    else:
        case.legal_lacks = ("part = T.alloc_buffer",)
    return case


INTO_PART = "T.address_of(part[T.int64(0), T.int64(0)])"


def band_cases():
    pad = {"padding": [1]}
    s2 = {"strides": (2, 2), "padding": [1]}
    s2_attrs = {"strides": [2, 2], "padding": [1]}
    return [
        # small weights: the smallest panel of whole rows (1 row of 40)
        banded("kern_conv2d_bands_small_weights", (1, 32, 40, 40), (16, 32, 3, 3), pad, pad, False),
        # large weights (295 KB): the fewest bands of K = 576 (4 rows of 28,
        # 7 tiles), where 4 chunks of the plane would write part 3 times
        banded("kern_conv2d_bands_large_weights", (1, 64, 28, 28), (128, 64, 3, 3), pad, pad, False),
        # stride 2 and odd widths whose tiles are partial
        banded("kern_conv2d_bands_s2", (1, 40, 50, 49), (24, 40, 3, 3), s2, s2_attrs, False),
        banded("kern_conv2d_bands_odd", (2, 48, 30, 29), (20, 48, 3, 3),
               {"padding": [0, 1, 2, 1]}, {"padding": [0, 1, 2, 1]}, False),
        # a small plane of large weights (1.8 MB): part is small, the weights
        # are not; 4 chunks
        banded("kern_conv2d_chunks_small_plane", (1, 160, 14, 14), (320, 160, 3, 3), pad, pad, True,
               atol=5e-4),
        # 2 chunks (the first and the last, none between), 224 rows: 28 blocks of 8
        banded("kern_conv2d_chunks_two", (1, 112, 14, 14), (224, 112, 3, 3), pad, pad, True,
               atol=5e-4),
        # stride 2, 4 chunks of one band of 7 x 7 (49 columns in 64: a partial
        # tile), 24 rows: 3 blocks of 8
        banded("kern_conv2d_chunks_s2_odd", (1, 512, 13, 13), (24, 512, 3, 3), s2, s2_attrs, True,
               atol=1e-3),
        # 10 chunks of a plane of 6 x 6 (36 columns in 48), 13 rows: a block of
        # 8 and 5 single rows; a batch of 2
        banded("kern_conv2d_chunks_rows_left", (2, 3000, 6, 6), (13, 3000, 3, 3), pad, pad, True,
               atol=2e-3),
        # int8 into int32: 8 chunks of 64 channels, the later ones into an
        # int32 part through rt_kern_gemm_int.h's kernel; 12 rows (8 + 4)
        into_part(qconv("kern_qconv_chunks_into", (1, 512, 8, 9), (12, 512, 3, 3), 9,
                        dict(padding=(1, 1, 1, 1)), ", padding=[1, 1, 1, 1]", const=False)),
    ]


def into_part(case):
    case.legal_has = case.legal_has + ("part = T.alloc_buffer", INTO_PART)
    return case


def int_literal(a):
    return "[" + ", ".join(int_literal(b) for b in a) + "]" if a.ndim else str(int(a))


def qconv(name, xs, ws, seed, ref_kw, attrs, xdt=I8, xkind="anyint", const=True):
    """int8 conv2d of x (int8 or uint8: the kernel's B) by int8 weights: a
    constant (the weight matrix, the kernel's A, linear in memory) or an
    input (1x1)."""
    kern = "rxc_k_gemm_i8u8_i32" if xdt == U8 else "rxc_k_gemm_i8i8_i32"
    if not const:
        call = f'R.nn.conv2d(x, w{attrs}, out_dtype="int32")'
        return int_kernel(Case(name, call, [x_(xs, xdt, xkind), inp("w", ws, I8, "anyint")],
                               conv_ref(**ref_kw)), kern)
    w = np.random.default_rng(seed).integers(-128, 128, ws)
    w.flat[::7] = -128
    call = f'R.nn.conv2d(x, R.const({int_literal(w)}, "int8"){attrs}, out_dtype="int32")'
    ref = conv_ref(**ref_kw)
    return copies(int_kernel(Case(name, call, [x_(xs, xdt, xkind)], lambda x: ref(x, w)), kern),
                  "rxc_k_im2col_u8" if xdt == U8 else "rxc_k_im2col_i8")


def INT_CASES():
    return [
        qmm("kern_qmatmul_2d", (21, 37), (37, 19)),
        qmm("kern_qmatmul_tiles", (17, 70), (70, 150)),
        qmm("kern_qmatmul_rows4", (12, 68), (68, 128)),
        qmm("kern_qmatmul_extreme", (9, 300), (300, 130), LOW, LOW),
        qmm("kern_qmatmul_extreme_mixed", (8, 257), (257, 65), EXTREME, LOW),
        qmm("kern_qmatmul_sym_rows", (11, 40), (40, 72), xsig=("m", 40), upper={"m": 32}),
        qmm("kern_qmatmul_u8", (9, 70), (70, 66), xdt=U8),
        qmm("kern_qmatmul_flat", (2, 3, 9, 70), (70, 66)),
        qmm("kern_qmatmul_u8_extreme", (5, 131), (131, 64), ALL_U8, LOW, xdt=U8),
        # 2^17 + 8 products of (-128) * (-128): the int32 sums wrap
        qmm("kern_qmatmul_wrap", (1, 131080), (131080, 64), LOW, LOW),
        qconv("kern_qconv_pointwise", (1, 24, 5, 14), (10, 24, 1, 1), 0, {}, "", const=False),
        qconv("kern_qconv_weight_input", (1, 16, 9, 9), (12, 16, 3, 3), 0,
              dict(padding=(1, 1, 1, 1)), ", padding=[1, 1, 1, 1]", const=False),
        qconv("kern_qconv_3x3_pad", (1, 16, 9, 9), (12, 16, 3, 3), 1,
              dict(padding=(1, 1, 1, 1)), ", padding=[1, 1, 1, 1]"),
        qconv("kern_qconv_stride", (2, 8, 10, 12), (20, 8, 3, 3), 2,
              dict(strides=(2, 2), padding=(1, 1, 1, 1)), ", strides=[2, 2], padding=[1, 1, 1, 1]"),
        qconv("kern_qconv_u8", (1, 5, 9, 9), (6, 5, 3, 3), 3, dict(padding=(1, 1, 1, 1)),
              ", padding=[1, 1, 1, 1]", xdt=U8),
        qconv("kern_qconv_extreme", (1, 64, 6, 6), (5, 64, 3, 3), 4, {}, "", xkind=LOW),
        # int32 operands (ONNX's integer operators, less their zero points):
        # products past 2^31 wrap
        int_kernel(Case("kern_i32matmul", 'R.matmul(x, y)', [x_((13, 37), I32, "anyint"),
                                                             y_((37, 35), I32, "anyint")],
                        matmul_ref()), "rxc_k_gemm_i32i32_i32"),
        copies(int_kernel(Case("kern_i32conv", "R.nn.conv2d(x, w, padding=[1, 1, 1, 1])",
                               [x_((1, 5, 6, 7), I32, "anyint"), inp("w", (9, 5, 3, 3), I32, "anyint")],
                               conv_ref(padding=(1, 1, 1, 1))), "rxc_k_gemm_i32i32_i32"),
               "rxc_k_im2col_i32"),
        qconv("kern_qconv_u8_extreme", (1, 32, 8, 8), (8, 32, 3, 3), 5, {}, "", xdt=U8,
              xkind=ALL_U8),
        qconv("kern_qconv_u8_pointwise", (1, 20, 4, 17), (9, 20, 1, 1), 6, {}, "", xdt=U8,
              const=False),
        # grouped (ops/conv_gemm.c's group loop): group g's weight rows of the
        # constant matrix, its input channels copied into the panel
        qconv("kern_qconv_groups", (1, 32, 8, 9), (16, 8, 3, 3), 7,
              dict(padding=(1, 1, 1, 1), groups=4), ", padding=[1, 1, 1, 1], groups=4"),
        qconv("kern_qconv_u8_groups", (1, 12, 7, 7), (9, 4, 3, 3), 8, dict(strides=(2, 2), groups=3),
              ", strides=[2, 2], groups=3", xdt=U8),
    ]


def loops(case):
    """case's twin with the switch off: the same op and inputs, its loops."""
    twin = copy.copy(case)
    twin.name = "loops_" + case.name[len("kern_"):]
    twin.sets, twin.legal_has, twin.legal_lacks = OFF, (), ("T.call_extern",)
    twin.same_bits = False
    return twin


def CASES():
    on = INT_CASES() + [
        mm("kern_matmul_2d", (3, 4), (4, 5)),
        mm("kern_matmul_tile_edges", (19, 37), (37, 17)),
        mm("kern_matmul_tile_primes", (13, 7), (7, 131)),
        mm("kern_matmul_tile_ones", (1, 1), (1, 1)),
        mm("kern_matmul_tile_k1", (9, 1), (1, 33)),
        packed(mm("kern_matmul_blocks", (70, 96), (96, 150))),
        mm("kern_matmul_batched", (2, 3, 4), (2, 4, 5)),
        mm("kern_matmul_batch_bcast", (2, 1, 11, 20), (3, 20, 33)),
        mm("kern_matmul_flat_rows1", (13, 1, 20), (20, 33)),
        mm("kern_matmul_symbolic_rows", (13, 20), (20, 21), sig=("n", 20), upper={"n": 40}),
        mm("kern_matmul_flat_2batch", (2, 3, 9, 20), (20, 17)),
        mm("kern_matmul_flat_3batch", (2, 3, 4, 5, 16), (16, 20)),
        mm("kern_matmul_flat_unit_dim", (3, 1, 5, 20), (20, 33)),
        mm("kern_matmul_flat_sym_batch", (3, 7, 24), (24, 40), sig=("n", 7, 24), upper={"n": 6}),
        kernel(conv_case("kern_conv2d_pointwise", (2, 5, 3, 19), (11, 5, 1, 1), {}, {})),
        const_conv("kern_conv2d_3x3_pad", (1, 3, 5, 7), (4, 3, 3, 3), 1, {"padding": [1]},
                   ", padding=[1]"),
        const_conv("kern_conv2d_stride_rows", (2, 8, 10, 12), (20, 8, 3, 3), 2,
                   {"strides": (2, 2), "padding": [1]}, ", strides=[2, 2], padding=[1]"),
        const_conv("kern_conv2d_wide", (1, 4, 6, 37), (9, 4, 2, 5), 3,
                   {"padding": [0, 2, 1, 2]}, ", padding=[0, 2, 1, 2]"),
        const_conv("kern_conv2d_groups", (2, 24, 9, 10), (24, 8, 3, 3), 4,
                   {"groups": 3, "padding": [1]}, ", padding=[1], groups=3"),
        const_conv("kern_conv2d_groups_s2", (1, 26, 11, 9), (4, 13, 3, 3), 5,
                   {"groups": 2, "strides": (2, 2), "padding": [1]},
                   ", strides=[2, 2], padding=[1], groups=2"),
        # a weight input read through its window: OIHW's terms (ci, ky, kx)
        # are the digits of one linear term; HWIO's are not in that order
        kernel(conv_case("kern_conv2d_weight_input", (1, 3, 5, 5), (4, 3, 3, 3), {}, {})),
        kernel(conv_case("kern_conv2d_weight_input_pad", (2, 5, 9, 11), (7, 5, 3, 2),
                         {"strides": (2, 1), "padding": [1]}, {"strides": [2, 1], "padding": [1]})),
        kernel(conv_case("kern_conv2d_weight_input_hwio", (1, 5, 5, 3), (3, 3, 3, 4),
                         {"padding": [1]}, {"padding": [1]}, layout="NHWC"), used=False),
    ]
    # band_cases have no loops_ twins: the interpreter's loops over their
    # tens of millions of terms take minutes
    return on + [loops(c) for c in on if getattr(c, "same_bits", False)] + band_cases()
