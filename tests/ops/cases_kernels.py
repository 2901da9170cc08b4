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
are not linear in memory, the flat rows of a batched matmul), so a lowering
that silently stops calling the kernel, or calls it where the addresses
are not linear, fails here.  The shapes reach each form of the kernel:
8-row blocks of 16 columns, columns left over in an 8-row block, one-row
tiles of 64, 16, 4 and single columns, k of 1, symbolic rows.  conv2d's
weights are constants (R.const, as after BindParams): a weight input read
through its window (t // 9, ...) is not linear and keeps its loops.

The switch is on by default (issue 35), so every other matmul and conv2d
case of the harness runs the kernel too; the `loops_` twins of the cases
that call it set `opt.kernels=false` and require the loops (no
T.call_extern in the legalized module), so the loop form the switch
turns off stays checked against numpy on the same shapes.
"""
import copy
from cases import *  # noqa: F401,F403  (Case, inp, x_, y_, np, refs, ...)

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
    return kernel(Case(name, call, [x_(xs)], lambda x: refs.conv2d(x, w, **(ref_kw or {})), atol=1e-5))


def loops(case):
    """case's twin with the switch off: the same op and inputs, its loops."""
    twin = copy.copy(case)
    twin.name = "loops_" + case.name[len("kern_"):]
    twin.sets, twin.legal_has, twin.legal_lacks = OFF, (), ("T.call_extern",)
    twin.same_bits = False
    return twin


def CASES():
    on = [
        mm("kern_matmul_2d", (3, 4), (4, 5)),
        mm("kern_matmul_tile_edges", (19, 37), (37, 17)),
        mm("kern_matmul_tile_primes", (13, 7), (7, 131)),
        mm("kern_matmul_tile_ones", (1, 1), (1, 1)),
        mm("kern_matmul_tile_k1", (9, 1), (1, 33)),
        mm("kern_matmul_blocks", (70, 96), (96, 150)),
        mm("kern_matmul_batched", (2, 3, 4), (2, 4, 5)),
        mm("kern_matmul_batch_bcast", (2, 1, 11, 20), (3, 20, 33)),
        mm("kern_matmul_flat_rows1", (13, 1, 20), (20, 33)),
        mm("kern_matmul_symbolic_rows", (13, 20), (20, 21), sig=("n", 20), upper={"n": 40}),
        mm("kern_matmul_flat_2batch", (2, 3, 9, 20), (20, 17), used=False),
        kernel(conv_case("kern_conv2d_pointwise", (2, 5, 3, 19), (11, 5, 1, 1), {}, {})),
        const_conv("kern_conv2d_3x3_pad", (1, 3, 5, 7), (4, 3, 3, 3), 1, {"padding": [1]},
                   ", padding=[1]"),
        const_conv("kern_conv2d_stride_rows", (2, 8, 10, 12), (20, 8, 3, 3), 2,
                   {"strides": (2, 2), "padding": [1]}, ", strides=[2, 2], padding=[1]"),
        const_conv("kern_conv2d_wide", (1, 4, 6, 37), (9, 4, 2, 5), 3,
                   {"padding": [0, 2, 1, 2]}, ", padding=[0, 2, 1, 2]"),
        kernel(conv_case("kern_conv2d_weight_input", (1, 3, 5, 5), (4, 3, 3, 3), {}, {}), used=False),
    ]
    return on + [loops(c) for c in on if getattr(c, "same_bits", False)]
