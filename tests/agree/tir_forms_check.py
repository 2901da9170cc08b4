#!/usr/bin/python3
"""tir_forms_check.py - TVM v0.26's TIR assert and buffer declarations three
ways (make check, check-tir-forms).

Assert: runs tests/script/tvm26_tir_assert.py (main = sqrt(x + 1), its sqrt kernel
asserting that every element is >= 0) through `rxc run` with the
interpreter, `--via tcc` and `--via cc` on inputs chosen so that x + 1 is
non-negative (they must run and give numpy's sqrt(x + 1), the three alike)
or negative or NaN somewhere (the first element, the last, all of them:
they must refuse together, exit 1, the interpreter naming the failed
assert's kind and message, the compiled ones NAME_ERR_ASSERT's text).
Then compiles the module and checks the C: the kernel with asserts is a
`static int` function whose call returns NAME_ERR_ASSERT, the kernel
without one stays `static void`.

Declarations: tests/script/tvm26_decl_buffer.py (a view and a T.decl_buffer
over the parameters) must give numpy's (x * 2).ravel() three ways;
tvm26_buffer_view_dtype.py (int32 data viewed as int16) the low halves of
each element in the interpreter, and a clean refusal from the C generator;
tvm26_decl_buffer_symbolic.py (a declaration of n elements over 4) must
run for n = 3 and be refused for n = 5 by the interpreter, and the C
generator must refuse it (it cannot prove n <= 4); with n's upper bound
set to 4 the three must run n = 3 and 4 alike and all refuse n = 5.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
SCRIPTS = os.path.join(ROOT, "tests", "script")
MODEL = os.path.join(SCRIPTS, "tvm26_tir_assert.py")
VIAS = [[], ["--via", "tcc"], ["--via", "cc"]]

GOOD = [[0, 1, 2, 3], [-1, -1, -1, -1], [1e6, 0.25, -0.5, 7]]
BAD = [[-2, 0, 0, 0], [0, 0, 0, -1.5], [-3, -3, -3, -3], [0, float("nan"), 0, 0],
       [0, 0, float("-inf"), 0]]
INTERP_MESSAGE = "assertion failed: ValueError: sqrt of a negative element"
C_MESSAGE = "returned -9: an assertion is false"


def rxc(*args):
    return subprocess.run([RXC, *args], capture_output=True, text=True)


def save(work, name, a):
    path = os.path.join(work, name + ".npy")
    np.save(path, a)
    return ["--input", f"{name}={path}"]


def check_run(failures, name, p, want, out):
    """p ran and wrote want (exactly, dtype included) to out."""
    if p.returncode != 0:
        failures.append(f"{name}: exit {p.returncode}: {p.stderr.strip()}")
        return
    got = np.load(out)
    if got.dtype != want.dtype or not np.array_equal(got, want):
        failures.append(f"{name}: {got!r}, wanted {want!r}")


def check_refused(failures, name, p, message):
    if p.returncode != 1 or message not in p.stderr:
        failures.append(f"{name}: exit {p.returncode}, wanted 1 with '{message}': {p.stderr.strip()}")


def check_declarations(failures, work):
    out = os.path.join(work, "decl.npy")
    x = np.random.default_rng(3).standard_normal((2, 8)).astype("float32")
    args = save(work, "x", x)
    for via in VIAS:
        p = rxc("run", os.path.join(SCRIPTS, "tvm26_decl_buffer.py"), *via, *args, "--output", out)
        check_run(failures, f"decl_buffer {' '.join(via) or 'interp'}", p, (x * 2).ravel(), out)
    dtype_model = os.path.join(SCRIPTS, "tvm26_buffer_view_dtype.py")
    a = np.array([0x10002, -1, 0x7FFF0005, 3 * 65536 + 7], dtype="int32")
    low = np.array([v & 0xFFFF for v in a.tolist()], dtype="uint16").view("int16")
    check_run(failures, "view_dtype interp", rxc("run", dtype_model, *save(work, "a", a), "--output",
                                                 out), low, out)
    check_refused(failures, "view_dtype compile", rxc("compile", dtype_model, "-o", work),
                  "views 'A' as another dtype: not implemented in C")
    symbolic = os.path.join(SCRIPTS, "tvm26_decl_buffer_symbolic.py")
    x4 = np.arange(1, 5, dtype="float32")
    for n in (3, 4, 5):
        p = rxc("run", symbolic, *save(work, "x", x4), *save(work, "y", np.zeros(n, "float32")),
                "--output", out)
        if n <= 4:
            check_run(failures, f"decl_symbolic n={n}", p, x4[:n], out)
        else:
            check_refused(failures, f"decl_symbolic n={n}", p,
                          "T.decl_buffer 'C' covers 20 bytes but 'A' holds 16")
    check_refused(failures, "decl_symbolic compile", rxc("compile", symbolic, "-o", work),
                  "T.decl_buffer 'C': cannot prove it fits in 'A'")
    # with n bounded by 4 the generator proves the fit: the three agree, and
    # refuse n = 5 together (the C by the bound)
    bound = ["--set", "memplan.upper_bound.n=4"]
    for n in (3, 4, 5):
        for via in VIAS:
            p = subprocess.run([RXC, *bound, "run", symbolic, *via, *save(work, "x", x4),
                                *save(work, "y", np.zeros(n, "float32")), "--output", out],
                               capture_output=True, text=True)
            name = f"decl_symbolic bounded n={n} {' '.join(via) or 'interp'}"
            if n <= 4:
                check_run(failures, name, p, x4[:n], out)
            else:
                check_refused(failures, name, p, "error")


def main():
    failures = []
    with tempfile.TemporaryDirectory() as work:
        check_declarations(failures, work)
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
    runs = (len(GOOD) + len(BAD) + 1 + 3) * len(VIAS) + 7
    print(f"tir_forms_check: {runs} runs, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
