"""check_seeded.py - the seeded sample models in rxc give sane outputs.

Runs `rxc run` on mobilenet_v2, kws_dscnn and transformer_block with their
seeded weights (make samples) and seeded normal inputs, and checks what
holds whatever the weights: every output is finite; a softmax output is a
distribution (non-negative, sums to 1); the transformer block's output rows
are layer-normed (mean 0, variance 1) at sequence lengths 1, 37 and 128
(its tir_var_upper_bound).  Prints shape, time and peak memory of each run;
exits 1 on a failed check.

    RXC=build/rxc /usr/bin/python3 samples/tools/check_seeded.py
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

SAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (model, input shape, kind of output)
RUNS = [("mobilenet_v2", (1, 3, 224, 224), "softmax"),
        ("kws_dscnn", (1, 1, 49, 10), "softmax"),
        ("transformer_block", (1, 1, 64), "layer_norm"),
        ("transformer_block", (1, 37, 64), "layer_norm"),
        ("transformer_block", (1, 128, 64), "layer_norm")]


def run(rxc, model, x, tmp):
    inp, out = os.path.join(tmp, "x.npy"), os.path.join(tmp, "out.npy")
    np.save(inp, x)
    start = time.time()
    subprocess.run([rxc, "run", os.path.join(SAMPLES, model + ".py"), "--params",
                    os.path.join(SAMPLES, model + ".npz"), "--input", "x=" + inp,
                    "--output", out], check=True)
    return np.load(out), time.time() - start


def sane(y, kind):
    if not np.isfinite(y).all():
        return False
    if kind == "softmax":
        return (y >= 0).all() and np.allclose(y.sum(axis=-1), 1, atol=1e-5)
    return (np.allclose(y.mean(axis=-1), 0, atol=1e-4)
            and np.allclose(y.var(axis=-1), 1, atol=1e-3))


def main():
    rxc = os.environ.get("RXC", os.path.join(os.path.dirname(SAMPLES), "build", "rxc"))
    rng = np.random.RandomState(2024)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for model, shape, kind in RUNS:
            y, seconds = run(rxc, model, rng.randn(*shape).astype(np.float32), tmp)
            good = sane(y, kind)
            ok = ok and good
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print("%s: input %s -> output %s, %s: %s (%.2f s; peak rss of runs so far %.0f MB)"
                  % (model, shape, y.shape, kind, "ok" if good else "FAILED", seconds, peak))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
