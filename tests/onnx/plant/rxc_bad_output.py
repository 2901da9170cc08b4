#!/usr/bin/python3
"""rxc_bad_output.py - rxc with a planted wrong output, for check_runner.py.

Forwards the call to the real rxc ($REAL_RXC); when that succeeds and the
call has `--output FILE` (.npy or .npz), spoils FILE's first float array
as $PLANT says:
  nan      its first element becomes NaN (a NaN compares false with any
           tolerance, so a runner that tests |got - want| > tol passes it)
  float64  it is written as float64 instead of its own dtype
  drop     (.npz only) the last array is left out
"""
import os
import subprocess
import sys

import numpy as np


def spoil(arrays, how):
    """arrays: list of (name, array); returns the spoiled list."""
    if how == "drop":
        return arrays[:-1]
    for i, (name, a) in enumerate(arrays):
        if a.dtype.kind == "f":
            if how == "nan":
                a = a.copy()
                a.flat[0] = np.nan
            elif how == "float64":
                a = a.astype(np.float64)
            arrays[i] = (name, a)
            break
    return arrays


def main(argv):
    r = subprocess.run([os.environ["REAL_RXC"]] + argv)
    if r.returncode != 0 or "--output" not in argv:
        return r.returncode
    out = argv[argv.index("--output") + 1]
    how = os.environ.get("PLANT", "nan")
    if out.endswith(".npz"):
        with np.load(out) as z:
            arrays = [(k, z[k]) for k in z.files]
        np.savez(out, **dict(spoil(arrays, how)))
    else:
        np.save(out, spoil([("", np.load(out))], how)[0][1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
