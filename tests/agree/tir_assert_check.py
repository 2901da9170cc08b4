#!/usr/bin/python3
"""tir_assert_check.py - TIR assert three ways (make check, check-tir-assert).

Runs tests/script/tvm26_tir_assert.py (main = sqrt(x + 1), its sqrt kernel
asserting that every element is >= 0) through `rxc run` with the
interpreter, `--via tcc` and `--via cc` on inputs chosen so that x + 1 is
non-negative (they must run and give numpy's sqrt(x + 1), the three alike)
or negative or NaN somewhere (the first element, the last, all of them:
they must refuse together, exit 1, the interpreter naming the failed
assert's kind and message, the compiled ones NAME_ERR_ASSERT's text).
Then compiles the module and checks the C: the kernel with asserts is a
`static int` function whose call returns NAME_ERR_ASSERT, the kernel
without one stays `static void`.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
MODEL = os.path.join(ROOT, "tests", "script", "tvm26_tir_assert.py")
VIAS = [[], ["--via", "tcc"], ["--via", "cc"]]

GOOD = [[0, 1, 2, 3], [-1, -1, -1, -1], [1e6, 0.25, -0.5, 7]]
BAD = [[-2, 0, 0, 0], [0, 0, 0, -1.5], [-3, -3, -3, -3], [0, float("nan"), 0, 0],
       [0, 0, float("-inf"), 0]]
INTERP_MESSAGE = "assertion failed: ValueError: sqrt of a negative element"
C_MESSAGE = "returned -9: an assertion is false"


def main():
    failures = []
    with tempfile.TemporaryDirectory() as work:
        x_path, out = os.path.join(work, "x.npy"), os.path.join(work, "out.npy")
        for i, x in enumerate(GOOD + BAD):
            x = np.array(x, dtype="float32")
            np.save(x_path, x)
            want_fail = not np.all(x + 1 >= 0)  # NaN too
            assert want_fail == (i >= len(GOOD)), x
            for via in VIAS:
                p = subprocess.run([RXC, "run", MODEL, *via, "--input", f"x={x_path}",
                                    "--output", out], capture_output=True, text=True)
                name = f"{x.tolist()} {' '.join(via) or 'interp'}"
                if want_fail:
                    message = C_MESSAGE if via else INTERP_MESSAGE
                    if p.returncode != 1 or message not in p.stderr:
                        failures.append(f"{name}: exit {p.returncode}, wanted 1 with '{message}': "
                                        f"{p.stderr.strip()}")
                elif p.returncode != 0:
                    failures.append(f"{name}: exit {p.returncode}: {p.stderr.strip()}")
                elif not np.array_equal(np.load(out), np.sqrt(x + np.float32(1))):
                    failures.append(f"{name}: {np.load(out)} is not sqrt(x + 1)")
        subprocess.run([RXC, "compile", MODEL, "-o", work], check=True, capture_output=True)
        with open(os.path.join(work, "tvm26_tir_assert.c")) as f:
            c = f.read()
        for pattern in [r"static int\ntvm26_tir_assert_checked_sqrt\(",
                        r"static void\ntvm26_tir_assert_add_one\(",
                        r"if \(tvm26_tir_assert_checked_sqrt\([^\n]*\) != 0\)\n\s*return "
                        r"tvm26_tir_assert_ERR_ASSERT;",
                        r"\n  tvm26_tir_assert_add_one\("]:
            if not re.search(pattern, c):
                failures.append(f"the generated C has no match for {pattern!r}")
    for f in failures:
        print("FAIL", f)
    runs = (len(GOOD) + len(BAD)) * len(VIAS)
    print(f"tir_assert_check: {runs} runs, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
