"""onnx_cases.py - runs small ONNX models made by a test script through
rxc's generated C and compares the outputs with the script's own
references: rnn_cases.py and quant_cases.py share it.

A run is (name, model, feeds, expected): an onnx ModelProto, the arrays
given as graph inputs by name, and the expected outputs in order.  Each
model runs through `rxc run --via tcc` and `--via cc` (RXC, default
build/rxc); tests/lib/compare.py compares each output with the expected
one: the same shape and dtype (float32 is not float64), within 1e-4
relative plus 1e-5 absolute (integers exactly), a NaN only where a NaN is
expected; rxc must write exactly as many outputs as expected.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

RXC = os.environ.get("RXC", "build/rxc")
RTOL, ATOL = 1e-4, 1e-5

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from compare import compare  # noqa: E402


def mismatch(got, want):
    """Why the outputs in the .npz got differ from the list want, or None."""
    if len(got.files) != len(want):
        return "%d outputs, expected %d" % (len(got.files), len(want))
    for i, w in enumerate(want):
        why = compare(got[str(i)], np.asarray(w), RTOL, ATOL)
        if why:
            return "output %d: %s" % (i, why)
    return None


def run(title, runs, verbose=False):
    """Prints a FAIL line per failing half and `TITLE: N passed, M failed`;
    returns the exit status."""
    failed = 0
    with tempfile.TemporaryDirectory(prefix="rxc_onnx_cases_") as tmp:
        for name, model, feeds, want in runs:
            path = os.path.join(tmp, name + ".onnx")
            onnx.save(model, path)
            args = []
            for k, v in feeds.items():
                f = os.path.join(tmp, f"{name}_{k}.npy")
                np.save(f, v)
                args += ["--input", f"{k}={f}"]
            for via in ("tcc", "cc"):
                out = os.path.join(tmp, f"{name}_{via}.npz")
                p = subprocess.run([RXC, "run", path, "--via", via, *args, "--output", out],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
                    print(f"FAIL {name} [{via}]: rxc run exited {p.returncode}: {last}")
                    failed += 1
                    continue
                why = mismatch(np.load(out), want)
                if why:
                    print(f"FAIL {name} [{via}]: {why}")
                    failed += 1
                elif verbose:
                    print(f"ok   {name} [{via}]")
    print(f"{title}: {2 * len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0
