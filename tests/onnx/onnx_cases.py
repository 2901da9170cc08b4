"""onnx_cases.py - runs small ONNX models made by a test script through
rxc's generated C and compares the outputs with the script's own
references: rnn_cases.py and quant_cases.py share it.

A run is (name, model, feeds, expected): an onnx ModelProto, the arrays
given as graph inputs by name, and the expected outputs in order.  Each
model runs through `rxc run --via tcc` and `--via cc` (RXC, default
build/rxc); an output must have the expected shape and dtype and lie
within 1e-4 relative plus 1e-5 absolute of it (integers exactly).
"""
import os
import subprocess
import tempfile

import numpy as np
import onnx

RXC = os.environ.get("RXC", "build/rxc")


def excess(got, want):
    """How far got lies outside the tolerance around want (0: inside)."""
    if got.shape != want.shape or (got.dtype != want.dtype and want.dtype.kind in "iub"):
        return np.inf
    if want.dtype.kind in "iub":
        return float(np.max(np.abs(got.astype(np.int64) - want.astype(np.int64)), initial=0))
    return float(np.max(np.abs(got - want) - 1e-4 * np.abs(want) - 1e-5, initial=0))


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
                got = np.load(out)
                worst = max(excess(got[str(i)], w) for i, w in enumerate(want))
                if worst > 0:
                    print(f"FAIL {name} [{via}]: off by {worst:.3g} beyond the tolerance")
                    failed += 1
                elif verbose:
                    print(f"ok   {name} [{via}]")
    print(f"{title}: {2 * len(runs) - failed} passed, {failed} failed")
    return 1 if failed else 0
