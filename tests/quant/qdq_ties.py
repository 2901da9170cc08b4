"""qdq_ties.py - FakeQuantizationToInteger's requantization against exact
rational arithmetic, on values that land exactly halfway.

qdq_integer.py checks the pass against digits_reference.requantize, which
restates the pass's own fixed-point method (m = M * 2^-S, then
(acc * M + 2^(S-1)) >> S); random scales almost never give an exact tie,
so a rounding rule changed in both, or changed in the pass alone at ties,
passes there.  This test is independent of the method: every scale is a
power of two or 3 * 2^-k (float32 and M * 2^-S hold them exactly), the
inputs are built from chosen integers so that each accumulator is known,
and the reference is Python's fractions.Fraction:

    pass (integer road):  q = clamp(zy + floor(acc * m + 1/2), lo, hi)
                          round half up, toward +infinity, as
                          opt/fake_quant_to_int.c documents (CMSIS-NN's
                          rounding; TVM's qnn.requantize default "UPWARD")
    float QDQ road:       q = clamp(zy + round_half_even(v / sy), lo, hi)
                          R.quantize, ONNX QuantizeLinear's rule

with acc * m = v / sy exactly.  The two rules differ exactly at the ties
whose lower neighbour is even, so the test also counts them: the pass
knowingly departs from QuantizeLinear there (its file comment says why).

Cases: matmul layers (one shift for all channels, and a shift per channel
when one multiplier is 2^12 times smaller), int8 and uint8 outputs, zero
points not zero, ties positive and negative and at both clamp edges
(zy + v = hi + 1/2, lo - 1/2, ...), a negative weight; and the sum of two
activations (each zero point folded into the rounding constant).  Each
runs through the interpreter on the rewritten module and the generated C
(--via tcc, --via cc), and the float module without the pass.

    RXC=build/rxc /usr/bin/python3 tests/quant/qdq_ties.py
"""
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
RANGE = {"int8": (-128, 127), "uint8": (0, 255)}


def half_up(v):
    return math.floor(v + Fraction(1, 2))


def half_even(v):
    f = math.floor(v)
    d = v - f
    return f + 1 if d > Fraction(1, 2) or (d == Fraction(1, 2) and f % 2) else f


def exact(v, zy, out_dtype, rule):
    """The quantized value of the exact real v / sy (given as v), by rule."""
    lo, hi = RANGE[out_dtype]
    return min(hi, max(lo, zy + rule(v)))


def lit(a):
    return np.array2string(np.asarray(a), separator=", ", threshold=1 << 30,
                           floatmode="unique").replace("\n", "")


def const(a, dtype):
    return 'R.const(%s, "%s")' % (lit(a), dtype)


def module(params, out_shape, out_dtype, lines):
    body = "\n".join("            " + line for line in lines)
    return ('# from tvm.script import ir as I\n# from tvm.script import tir as T\n'
            '# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n'
            '    def main(%s) -> R.Tensor(%s, dtype="%s"):\n        with R.dataflow():\n%s\n'
            '            R.output(gv)\n        return gv\n' % (params, out_shape, out_dtype, body))


def matmul_case(name, out_dtype, zx, zy, sx, sy, chans):
    """A layer quantize(matmul(dq(xq), dq(w)) + dq(bias)) with K = 1: xq runs
    over all 256 int8 values (one a row), channel c has weight w, weight
    scale ws and bias b, so acc[r, c] = (xq[r] - zx) * w + b and the exact
    value is acc * sx * ws / sy."""
    n = len(chans)
    w = np.array([[c[0] for c in chans]], np.int8)
    ws = np.array([c[1] for c in chans], np.float32)
    bias = np.array([c[2] for c in chans], np.int32)
    bscale = (np.float32(sx) * ws).astype(np.float32)
    xq = np.arange(-128, 128, dtype=np.int64).reshape(256, 1)
    x = ((xq - zx).astype(np.float64) * float(sx)).astype(np.float32)
    lines = [
        'xq: R.Tensor((256, 1), dtype="int8") = R.quantize(x, %s, %s, axis=-1, out_dtype="int8")'
        % (const(np.float32(sx), "float32"), const(zx, "int8")),
        'xd: R.Tensor((256, 1), dtype="float32") = R.dequantize(xq, %s, %s, axis=-1, out_dtype="float32")'
        % (const(np.float32(sx), "float32"), const(zx, "int8")),
        'wd: R.Tensor((1, %d), dtype="float32") = R.dequantize(%s, %s, R.const(0, "int8"), axis=1, '
        'out_dtype="float32")' % (n, const(w, "int8"), const(ws, "float32")),
        'y0: R.Tensor((256, %d), dtype="float32") = R.matmul(xd, wd, out_dtype="void")' % n,
        'bd: R.Tensor((%d,), dtype="float32") = R.dequantize(%s, %s, R.const(0, "int32"), axis=0, '
        'out_dtype="float32")' % (n, const(bias, "int32"), const(bscale, "float32")),
        'y1: R.Tensor((256, %d), dtype="float32") = R.add(y0, bd)' % n,
        'gv: R.Tensor((256, %d), dtype="%s") = R.quantize(y1, %s, %s, axis=-1, out_dtype="%s")'
        % (n, out_dtype, const(np.float32(sy), "float32"), const(zy, out_dtype), out_dtype),
    ]
    text = module('x: R.Tensor((256, 1), dtype="float32")', "(256, %d)" % n, out_dtype, lines)
    values = [[Fraction(int((xq[r, 0] - zx) * c[0] + c[2])) * Fraction(float(sx)) * Fraction(float(c[1]))
               / Fraction(float(sy)) for c in chans] for r in range(256)]
    return name, text, {"x": x}, values, zy, out_dtype


def add_case(name, out_dtype, za, zb, zy, sa, sb, sy, bcols):
    """quantize(dq(aq) + dq(bq)): aq runs over all int8 values (rows), bq is
    the constant bcols[j] down column j."""
    n = len(bcols)
    aq = np.repeat(np.arange(-128, 128, dtype=np.int64).reshape(256, 1), n, axis=1)
    bq = np.tile(np.array(bcols, np.int64), (256, 1))
    inputs = {"a": ((aq - za).astype(np.float64) * float(sa)).astype(np.float32),
              "b": ((bq - zb).astype(np.float64) * float(sb)).astype(np.float32)}
    lines = []
    for v, s, z in (("a", sa, za), ("b", sb, zb)):
        lines.append('%sq: R.Tensor((256, %d), dtype="int8") = R.quantize(%s, %s, %s, axis=-1, out_dtype="int8")'
                     % (v, n, v, const(np.float32(s), "float32"), const(z, "int8")))
        lines.append('%sd: R.Tensor((256, %d), dtype="float32") = R.dequantize(%sq, %s, %s, axis=-1, '
                     'out_dtype="float32")' % (v, n, v, const(np.float32(s), "float32"), const(z, "int8")))
    lines.append('y0: R.Tensor((256, %d), dtype="float32") = R.add(ad, bd)' % n)
    lines.append('gv: R.Tensor((256, %d), dtype="%s") = R.quantize(y0, %s, %s, axis=-1, out_dtype="%s")'
                 % (n, out_dtype, const(np.float32(sy), "float32"), const(zy, out_dtype), out_dtype))
    text = module('a: R.Tensor((256, %d), dtype="float32"), b: R.Tensor((256, %d), dtype="float32")'
                  % (n, n), "(256, %d)" % n, out_dtype, lines)
    values = [[(Fraction(int(aq[r, j] - za)) * Fraction(float(sa)) + Fraction(int(bq[r, j] - zb))
                * Fraction(float(sb))) / Fraction(float(sy)) for j in range(n)] for r in range(256)]
    return name, text, inputs, values, zy, out_dtype


def cases():
    h, q3, e = 1.0, 0.75, 0.25  # weight scales: m = sx * ws / sy = ws / 2 below
    sx, sy = 2.0 ** -4, 2.0 ** -3
    yield matmul_case(
        "matmul int8, one shift", "int8", -7, 5, sx, sy,
        [(1, h, 0),                      # m = 1/2: ties around 0, both signs
         (1, h, 2 * (127 - 5)),          # zy + v around 127: ties at 126.5, 127.5 (clamped)
         (1, h, 2 * (-128 - 5)),         # around -128: ties at -127.5, -128.5 (clamped)
         (-1, h, 1),                     # a negative weight
         (1, q3, 4),                     # m = 3/8: ties where acc = 4 (mod 8)
         (2, e, 2)])                     # m = 1/8: ties where acc = 4 (mod 8)
    yield matmul_case(
        "matmul uint8, one shift", "uint8", 9, 200, sx, sy,
        [(1, h, 2 * (255 - 200)),        # around 255
         (1, h, 2 * (0 - 200)),          # around 0: ties at 0.5 and -0.5 (clamped)
         (3, q3, -5)])
    yield matmul_case(
        "matmul int8, a shift per channel", "int8", 3, -2, sx, sy,
        [(1, h, 0),
         (1, 2.0 ** -12, 4096 + 8192 * (127 + 2)),   # m = 2^-13: acc = 8192 * 129.5 at xq = zx
         (1, 2.0 ** -12, 4096 + 8192 * (-128 + 2) - 8192),
         (-1, 2.0 ** -12, -4096)])
    yield add_case("add int8", "int8", 5, -3, 3, 2.0 ** -2, 2.0 ** -1, 2.0 ** -1,
                   [124, -128, 0, 7, -1])
    yield add_case("add uint8", "uint8", -6, 4, 10, 2.0 ** -2, 2.0 ** -1, 2.0 ** -1,
                   [-10, 120, 50])


def run(args, inputs, tmp):
    out, flags = os.path.join(tmp, "y.npy"), []
    for name, value in inputs.items():
        np.save(os.path.join(tmp, name + ".npy"), value)
        flags += ["--input", "%s=%s" % (name, os.path.join(tmp, name + ".npy"))]
    subprocess.run([RXC, "run"] + args + flags + ["--output", out], check=True)
    return np.load(out).astype(np.int64)


def main():
    failed = 0
    totals = {"ties": 0, "negative": 0, "edge": 0, "differ": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, inputs, values, zy, out_dtype in cases():
            lo, hi = RANGE[out_dtype]
            up = np.array([[exact(v, zy, out_dtype, half_up) for v in row] for row in values])
            even = np.array([[exact(v, zy, out_dtype, half_even) for v in row] for row in values])
            ties = [v for row in values for v in row if v.denominator == 2]
            edge = [v for v in ties if zy + v in (lo - Fraction(1, 2), lo + Fraction(1, 2),
                                                  hi - Fraction(1, 2), hi + Fraction(1, 2))]
            counts = {"ties": len(ties), "negative": sum(v < 0 for v in ties), "edge": len(edge),
                      "differ": int((up != even).sum())}
            src, lowered = os.path.join(tmp, "m.py"), os.path.join(tmp, "int.py")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run([RXC, "opt", src, "--passes", "Normalize,FakeQuantizationToInteger,DeadCodeElimination",
                            "-o", lowered], check=True)
            with open(lowered) as f:
                rewritten = f.read()
            fired = ('out_dtype="int32"' in rewritten or "q_sum" in rewritten) and "R.quantize(y" not in rewritten
            got = {"interp": run([lowered], inputs, tmp), "tcc": run([src, "--via", "tcc"], inputs, tmp),
                   "cc": run([src, "--via", "cc"], inputs, tmp)}
            fake = run([src], inputs, tmp)
            ok = fired and all((g == up).all() for g in got.values()) and (fake == even).all()
            ok = ok and counts["ties"] > 0 and counts["negative"] > 0 and counts["edge"] > 0
            for k in totals:
                totals[k] += counts[k]
            failed += not ok
            print("%s %s: rewritten %s; integer road = exact half up (interp/tcc/cc) %s; float QDQ = exact "
                  "half even %s; %d ties (%d negative, %d at a clamp edge), %d where the rules differ"
                  % ("ok  " if ok else "FAIL", name, "yes" if fired else "NO",
                     "/".join("yes" if (g == up).all() else "NO (%d off)" % (g != up).sum() for g in got.values()),
                     "yes" if (fake == even).all() else "NO (%d off)" % (fake != even).sum(),
                     counts["ties"], counts["negative"], counts["edge"], counts["differ"]))
            if not ok:
                bad = np.argwhere(got["cc"] != up)
                for r, c in bad[:5]:
                    print("    [%d, %d]: exact %s, want %d (half up), cc %d" % (r, c, values[r][c], up[r, c],
                                                                               got["cc"][r, c]))
    print("qdq_ties: %d cases, %d failed; %d exact ties (%d negative, %d at a clamp edge), %d outputs where "
          "half up and half even differ" % (len(list(cases())), failed, totals["ties"], totals["negative"],
                                            totals["edge"], totals["differ"]))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
