"""qdq_integer.py - FakeQuantizationToInteger (opt/fake_quant_to_int.c)
against numpy's integer arithmetic.

Writes random QDQ layers (conv2d padded or not, strided, grouped,
depthwise; matmul with weights (K, N) or transposed (N, K); with or
without bias; relu, clip or no activation; int8 or uint8 output; one
weight scale or one per channel; a symbolic batch) with their scales and
zero points as constants, and checks that

- the pass rewrites each (the output has an int32 conv2d or matmul, or
  for a sum of two activations an int64 sum, and no R.quantize of the
  layer left);
- the interpreter on the rewritten module, and the generated C (--via tcc
  and --via cc, whose -O2 pipeline runs the pass) give exactly numpy's
  integer forward: sum (xq - zx) * wq + bias in int64, requantized by
  digits_reference.requantize (the rule: m = M * 2^-S, round half up);
  every other cc run with `[target] vector_bytes = 4`, a Cortex-M's narrow
  register tiles;
- the float QDQ module as written (the interpreter, no pass) is within one
  quantization step of it everywhere, and equal almost everywhere.

    RXC=build/rxc /usr/bin/python3 tests/quant/qdq_integer.py
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "samples", "tools"))
import digits_reference as ref  # noqa: E402

RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))


def lit(a):
    return np.array2string(np.asarray(a), separator=", ", threshold=1 << 30,
                           floatmode="unique").replace("\n", "")


def const(a, dtype):
    return 'R.const(%s, "%s")' % (lit(a), dtype)


def conv_ref(xq, zx, w, stride, pad, groups):
    """sum (xq - zx) * w over each window, xq padded with zx, in int64."""
    x = np.pad(xq.astype(np.int64) - zx, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.int64)
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(kh):
            for j in range(kw):
                patch = x[:, g * cg:(g + 1) * cg, i:i + stride * oh:stride, j:j + stride * ow:stride]
                out[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, i, j].astype(np.int64))
    return out


def add_case(rng, idx):
    """quantize(act(dq(aq) + dq(bq))): two activations of their own scales
    and zero points."""
    out_dtype = "int8" if idx % 2 else "uint8"
    qlo, qhi = (-128, 127) if out_dtype == "int8" else (0, 255)
    sa, sb = np.float32(rng.uniform(0.02, 0.1)), np.float32(rng.uniform(0.02, 0.1))
    za, zb = int(rng.integers(-30, 30)), int(rng.integers(-30, 30))
    sy = np.float32(rng.uniform(0.05, 0.2))
    zy = int(rng.integers(qlo + 10, qhi - 10))
    relu = bool(idx % 3 == 0)
    n = 4
    lines = []
    for v, s, z in (("a", sa, za), ("b", sb, zb)):
        lines.append('%sq: R.Tensor((n, 6), dtype="int8") = R.quantize(%s, %s, %s, axis=-1, out_dtype="int8")'
                     % (v, v, const(s, "float32"), const(z, "int8")))
        lines.append('%sd: R.Tensor((n, 6), dtype="float32") = R.dequantize(%sq, %s, %s, axis=-1, '
                     'out_dtype="float32")' % (v, v, const(s, "float32"), const(z, "int8")))
    lines.append('y0: R.Tensor((n, 6), dtype="float32") = R.add(ad, bd)')
    last = "y0"
    if relu:
        lines.append('y1: R.Tensor((n, 6), dtype="float32") = R.nn.relu(y0)')
        last = "y1"
    lines.append('gv: R.Tensor((n, 6), dtype="%s") = R.quantize(%s, %s, %s, axis=-1, out_dtype="%s")'
                 % (out_dtype, last, const(sy, "float32"), const(zy, out_dtype), out_dtype))
    text = module_text('a: R.Tensor((n, 6), dtype="float32"), b: R.Tensor((n, 6), dtype="float32")',
                       "(n, 6)", out_dtype, lines)
    x = {v: (rng.uniform(-140, 140, (n, 6)) * s).astype(np.float32) for v, s in (("a", sa), ("b", sb))}
    aq = ref.quantize(x["a"], sa, za).astype(np.int64) - za
    bq = ref.quantize(x["b"], sb, zb).astype(np.int64) - zb
    # one shift for both multipliers (the larger's), each rounded half up
    m = np.array([np.float64(sa) / np.float64(sy), np.float64(sb) / np.float64(sy)])
    shift = 31 - np.frexp(m)[1].max()
    big = np.floor(np.ldexp(m, shift) + 0.5).astype(np.int64)
    t = aq * big[0] + bq * big[1]
    r = (t + (1 << (shift - 1))) // (1 << shift) + zy
    want = np.clip(r, zy if relu else qlo, qhi).astype(out_dtype)
    return text, x, want


def module_text(params, yshape, out_dtype, lines):
    body = "\n".join("            " + l for l in lines)
    return ('# from tvm.script import ir as I\n# from tvm.script import tir as T\n'
            '# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n'
            '    def main(%s) -> R.Tensor(%s, dtype="%s"):\n'
            '        n = T.int64()\n        R.func_attr({"tir_var_upper_bound": {"n": 8}})\n'
            '        with R.dataflow():\n%s\n            R.output(gv)\n        return gv\n'
            % (params, yshape, out_dtype, body))


def layer_case(rng, kind, idx):
    """(module text, x, integer reference, float lo/hi bounds) of one layer."""
    out_dtype = rng.choice(["int8", "uint8"])
    qlo, qhi = (-128, 127) if out_dtype == "int8" else (0, 255)
    sx = np.float32(rng.uniform(0.01, 0.1))
    zx = int(rng.integers(-20, 20))
    sy = np.float32(rng.uniform(0.05, 0.5))
    zy = int(rng.integers(qlo + 10, qhi - 10))
    act = rng.choice(["none", "relu", "clip"])
    lines, n = [], 3
    if kind == "conv":
        groups = int(rng.choice([1, 2, 4])) if idx % 3 else 4
        cin = 4
        o = int(rng.choice([4, 8])) if groups != 4 or idx % 2 else 4
        k = int(rng.choice([1, 3]))
        stride = int(rng.choice([1, 2]))
        pad = [int(p) for p in rng.integers(0, 2, 4)] if k == 3 else [0, 0, 0, 0]
        h = 6
        w = rng.integers(-127, 128, (o, cin // groups, k, k)).astype(np.int8)
        xshape, wshape = "(n, %d, %d, %d)" % (cin, h, h), (o, cin // groups, k, k)
        oh = (h + pad[0] + pad[2] - k) // stride + 1
        ow = (h + pad[1] + pad[3] - k) // stride + 1
        yshape = "(n, %d, %d, %d)" % (o, oh, ow)
        chans, bshape = o, "(1, %d, 1, 1)" % o
    else:
        K, N = int(rng.choice([5, 16, 33])), int(rng.choice([3, 8, 17]))
        w = rng.integers(-127, 128, (K, N)).astype(np.int8)
        transposed = bool(idx % 2)
        xshape, yshape = "(n, %d)" % K, "(n, %d)" % N
        chans, bshape = N, "(%d,)" % N
    per_channel = bool(rng.integers(0, 2))
    ws = (rng.uniform(0.002, 0.02, chans) if per_channel else np.full(chans, rng.uniform(0.002, 0.02))
          ).astype(np.float32)
    has_bias = bool(rng.integers(0, 3))
    bias = rng.integers(-3000, 3000, chans).astype(np.int32)
    bscale = (np.float32(sx) * ws).astype(np.float32)
    wscale_text = const(ws, "float32") if per_channel else const(ws[0], "float32")

    lines.append('xq: R.Tensor(%s, dtype="int8") = R.quantize(x, %s, %s, axis=-1, out_dtype="int8")'
                 % (xshape, const(sx, "float32"), const(zx, "int8")))
    lines.append('xd: R.Tensor(%s, dtype="float32") = R.dequantize(xq, %s, %s, axis=-1, out_dtype="float32")'
                 % (xshape, const(sx, "float32"), const(zx, "int8")))
    if kind == "conv":
        lines.append('wd: R.Tensor(%s, dtype="float32") = R.dequantize(%s, %s, R.const(0, "int8"), axis=0, '
                     'out_dtype="float32")' % (str(wshape), const(w, "int8"), wscale_text))
        lines.append('y0: R.Tensor(%s, dtype="float32") = R.nn.conv2d(xd, wd, strides=[%d, %d], padding=%s, '
                     'groups=%d, out_dtype="void")' % (yshape, stride, stride, lit(pad), groups))
    else:
        wt = w.T.copy() if transposed else w
        lines.append('wd: R.Tensor(%s, dtype="float32") = R.dequantize(%s, %s, R.const(0, "int8"), axis=%d, '
                     'out_dtype="float32")' % (str(wt.shape), const(wt, "int8"), wscale_text,
                                               0 if transposed else 1))
        if transposed:
            lines.append('wk: R.Tensor((%d, %d), dtype="float32") = R.permute_dims(wd, axes=None)' % w.shape)
        lines.append('y0: R.Tensor(%s, dtype="float32") = R.matmul(xd, %s, out_dtype="void")'
                     % (yshape, "wk" if transposed else "wd"))
    last = "y0"
    if has_bias:
        lines.append('bd: R.Tensor((%d,), dtype="float32") = R.dequantize(%s, %s, R.const(0, "int32"), axis=0, '
                     'out_dtype="float32")' % (chans, const(bias, "int32"), const(bscale, "float32")))
        if kind == "conv":
            lines.append('br: R.Tensor(%s, dtype="float32") = R.reshape(bd, R.shape([1, %d, 1, 1]))' % (bshape, chans))
        lines.append('y1: R.Tensor(%s, dtype="float32") = R.add(y0, %s)' % (yshape, "br" if kind == "conv" else "bd"))
        last = "y1"
    lo_real, hi_real = None, None
    if act == "relu":
        lines.append('y2: R.Tensor(%s, dtype="float32") = R.nn.relu(%s)' % (yshape, last))
        last, lo_real = "y2", 0.0
    elif act == "clip":
        lo_real, hi_real = -float(sy) * 20, float(sy) * 30
        lines.append('y2: R.Tensor(%s, dtype="float32") = R.clip(%s, R.prim_value(T.float32(%r)), '
                     'R.prim_value(T.float32(%r)))' % (yshape, last, lo_real, hi_real))
        last = "y2"
    lines.append('gv: R.Tensor(%s, dtype="%s") = R.quantize(%s, %s, %s, axis=-1, out_dtype="%s")'
                 % (yshape, out_dtype, last, const(sy, "float32"), const(zy, out_dtype), out_dtype))
    text = module_text('x: R.Tensor(%s, dtype="float32")' % xshape, yshape, out_dtype, lines)

    # the input: spread over the int8 range of xq (some saturate)
    shape = (n, cin, h, h) if kind == "conv" else (n, K)
    x = (rng.uniform(-140, 140, shape) * sx).astype(np.float32) + np.float32(zx) * sx
    xq = ref.quantize(x, sx, zx)
    if kind == "conv":
        acc = conv_ref(xq, zx, w, stride, pad, groups)
        bshape_np = (1, chans, 1, 1)
    else:
        acc = (xq.astype(np.int64) - zx) @ w.astype(np.int64)
        bshape_np = (1, chans)
    if has_bias:
        acc = acc + bias.astype(np.int64).reshape(bshape_np)
    m = np.float64(sx) * ws.astype(np.float64) / np.float64(sy)
    lo, hi = qlo, qhi
    if lo_real is not None:
        lo = max(qlo, int(np.rint(np.float32(lo_real / np.float64(sy)))) + zy)
    if hi_real is not None:
        hi = min(qhi, int(np.rint(np.float32(hi_real / np.float64(sy)))) + zy)
    want = ref.requantize(acc, m.reshape(bshape_np), zy, lo, hi, out_dtype)
    return text, {"x": x}, want


def run(args, inputs, tmp):
    out, flags = os.path.join(tmp, "y.npy"), []
    for name, value in inputs.items():
        np.save(os.path.join(tmp, name + ".npy"), value)
        flags += ["--input", "%s=%s" % (name, os.path.join(tmp, name + ".npy"))]
    subprocess.run([RXC, "run"] + args + flags + ["--output", out], check=True)
    return np.load(out)


def main():
    rng = np.random.default_rng(20261126)
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for idx in range(20):
            kind = "conv" if idx < 9 else "matmul" if idx < 16 else "add"
            text, x, want = layer_case(rng, kind, idx) if kind != "add" else add_case(rng, idx)
            src, lowered = os.path.join(tmp, "m.py"), os.path.join(tmp, "int.py")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run([RXC, "opt", src, "--passes", "Normalize,FakeQuantizationToInteger,DeadCodeElimination",
                            "-o", lowered], check=True)
            with open(lowered) as f:
                rewritten = f.read()
            fired = (('out_dtype="int32"' in rewritten or "q_sum" in rewritten)
                     and "R.quantize(y" not in rewritten)
            # every other layer with a Cortex-M's 4-byte vectors: narrow tiles
            narrow = ["--set", "target.vector_bytes=4"] if idx % 2 else []
            results = {"interp": run([lowered], x, tmp), "tcc": run([src, "--via", "tcc"], x, tmp),
                       "cc": run([src, "--via", "cc"] + narrow, x, tmp)}
            fake = run([src], x, tmp).astype(np.int64)
            step = np.abs(fake - want.astype(np.int64))
            ok = fired and all(r.dtype == want.dtype and (r == want).all() for r in results.values())
            ok = ok and step.max() <= 1 and (step == 0).mean() > 0.95
            total += 1
            failed += not ok
            print("%s %s %d: rewritten %s, integer road equal (interp, tcc, cc) %s, float QDQ within one step %s "
                  "(%.1f%% equal)" % ("ok  " if ok else "FAIL", kind, idx, "yes" if fired else "NO",
                                      "/".join("yes" if (r == want).all() else "NO" for r in results.values()),
                                      "yes" if step.max() <= 1 else "NO", 100 * (step == 0).mean()))
            if not ok:
                print(text)
    print("qdq_integer: %d passed, %d failed" % (total - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
