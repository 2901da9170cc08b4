"""jit_int8.py - the 8-bit products with and without `[opt] kernels`
(issue 35): an int8 matmul (256 x 256 x 256) and an int8 conv2d (64 to 64
channels, 3x3, padded, 32 x 32, constant weights as after BindParams),
each beside its float32 twin, compiled in process by librxc's JIT
(python/rxc.py) through libtcc and through gcc -O3 -march=native (use_cc),
kernels off (the loops) and on (rt/rt_kern_gemm*.h: under libtcc the copy
librxc carries for this CPU, VNNI's where the CPU has it; under gcc the
text, with vpdpbusd when -march=native has VNNI).

    /usr/bin/python3 bench/jit_int8.py [SECONDS]

Prints one line a configuration: GOP/s (a multiply-add is 2 ops), the
median of calls timed for SECONDS (default 1) after one warm-up, through
python/rxc.py (its per-call overhead, tens of microseconds, is included).
Every configuration's output must equal numpy's (exact integers; the
float32 operands are small integers, so their sums are exact too).
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rxc  # noqa: E402

HEAD = "# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n"


def matmul_text(dt, out, n):
    return HEAD + (
        "    @R.function\n"
        f'    def main(x: R.Tensor(({n}, {n}), dtype="{dt}"), y: R.Tensor(({n}, {n}), dtype="{dt}")):\n'
        "        with R.dataflow():\n"
        f'            gv = R.matmul(x, y, out_dtype="{out}")\n'
        "            R.output(gv)\n"
        "        return gv\n")


def literal(a):
    return "[" + ", ".join(literal(b) for b in a) + "]" if a.ndim else str(a.item())


def conv_text(dt, out, w, hw):
    c = w.shape[1]
    return HEAD + (
        "    @R.function\n"
        f'    def main(x: R.Tensor((1, {c}, {hw}, {hw}), dtype="{dt}")):\n'
        "        with R.dataflow():\n"
        f'            gv = R.nn.conv2d(x, R.const({literal(w)}, "{dt}"), padding=[1, 1, 1, 1], '
        f'out_dtype="{out}")\n'
        "            R.output(gv)\n"
        "        return gv\n")


def conv_ref(x, w):
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    o, _, kh, kw = w.shape
    h, wd = x.shape[2] - kh + 1, x.shape[3] - kw + 1
    y = np.zeros((1, o, h, wd), np.int64)
    for ky in range(kh):
        for kx in range(kw):
            y += np.einsum("nchw,oc->nohw", x[:, :, ky:ky + h, kx:kx + wd], w[:, :, ky, kx].astype(np.int64))
    return y


def timed(m, args, seconds):
    m(*args)
    times, start = [], time.perf_counter()
    while time.perf_counter() - start < seconds or len(times) < 5:
        t = time.perf_counter()
        out = m(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times)), out


def main(argv):
    seconds = float(argv[1]) if len(argv) > 1 else 1.0
    rng = np.random.default_rng(1)
    n, c, hw = 256, 64, 32
    xm, ym = rng.integers(-128, 128, (n, n)), rng.integers(-128, 128, (n, n))
    xc, wc = rng.integers(-128, 128, (1, c, hw, hw)), rng.integers(-128, 128, (c, c, 3, 3))
    small = lambda a: (a % 16 - 8)  # noqa: E731  exact float32 sums
    problems = [
        ("matmul 256^3", 2.0 * n ** 3, lambda dt, out: matmul_text(dt, out, n),
         lambda i8: (xm, ym) if i8 else (small(xm), small(ym)),
         lambda a, b: a.astype(np.int64) @ b),
        ("conv2d 64x64x3x3 32x32", 2.0 * c * c * 9 * hw * hw,
         lambda dt, out: conv_text(dt, out, wc if dt == "int8" else small(wc).astype(np.float32), hw),
         lambda i8: (xc,) if i8 else (small(xc),),
         lambda x: conv_ref(x, wc if x.min() < -8 or x.max() > 7 else small(wc))),
    ]
    for name, ops, text, inputs, ref in problems:
        for dt, out in (("int8", "int32"), ("float32", "float32")):
            i8 = dt == "int8"
            args = [a.astype(np.int8 if i8 else np.float32) for a in inputs(i8)]
            want = ref(*[a.astype(np.int64) for a in inputs(i8)])
            if i8:
                want = want.astype(np.int64).astype(np.int32)
            for via, use_cc, flags in (("tcc", False, None), ("gcc -O3 -march=native", True,
                                                               "jit.cc_flags=-O3 -march=native")):
                for kernels in ("false", "true"):
                    sets = [f"opt.kernels={kernels}"] + ([flags] if flags else [])
                    m = rxc.jit(text(dt, out), use_cc=use_cc, set=sets)
                    s, got = timed(m, args, seconds)
                    ok = np.array_equal(np.asarray(got).astype(np.int64), want.astype(np.int64))
                    print(f"{name:24s} {dt:8s} {via:22s} kernels={kernels:5s} "
                          f"{ops / s / 1e9:8.2f} GOP/s  {s * 1e3:9.3f} ms  {'exact' if ok else 'WRONG'}",
                          flush=True)
                    m.close()


if __name__ == "__main__":
    main(sys.argv)
