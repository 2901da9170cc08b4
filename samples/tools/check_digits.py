"""check_digits.py - the digits models in rxc against numpy, prediction by
prediction.

Runs `rxc run samples/<model>.py --params samples/<model>.npz` on all 360
held-out digits in one call (the batch n is symbolic), takes the argmax of
each output row and compares it with numpy's (digits_reference.py).  Also
checks that each output row is a distribution (finite, sums to 1).  Exits 1
on any difference.

    RXC=build/rxc /usr/bin/python3 samples/tools/check_digits.py
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import digits_reference as ref  # noqa: E402

ROOT = os.path.dirname(ref.SAMPLES)


def rxc_probabilities(rxc, model, x, extra):
    """The model's output on x through `rxc run` (plus extra options)."""
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "x.npy"), os.path.join(tmp, "out.npy")
        np.save(inp, x)
        cmd = [rxc, "run", os.path.join(ref.SAMPLES, model + ".py"),
               "--params", os.path.join(ref.SAMPLES, model + ".npz"),
               "--input", "x=" + inp, "--output", out] + extra
        subprocess.run(cmd, check=True)
        return np.load(out)


def check(rxc, model, test, extra):
    """Prints the comparison; returns True when every prediction agrees."""
    labels = test["labels"]
    start = time.time()
    prob = rxc_probabilities(rxc, model, ref.test_input(model, test), extra)
    seconds = time.time() - start
    pred, want = prob.argmax(axis=1), ref.predictions(model)
    sane = np.isfinite(prob).all() and np.allclose(prob.sum(axis=1), 1, atol=1e-5)
    agree = (pred == want).sum()
    print("%s: rxc %d/%d = %.4f, numpy %d/%d = %.4f, predictions agree %d/%d, "
          "rows are distributions: %s (%.2f s)"
          % (model, (pred == labels).sum(), len(labels), (pred == labels).mean(),
             (want == labels).sum(), len(labels), (want == labels).mean(),
             agree, len(labels), "yes" if sane else "NO", seconds))
    return sane and agree == len(labels)


def main():
    rxc = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
    extra = sys.argv[1:]  # e.g. --via cc once rxc has it
    test = np.load(os.path.join(ref.SAMPLES, "digits_test.npz"))
    ok = all([check(rxc, model, test, extra) for model in ref.FORWARD])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
