#!/usr/bin/python3
"""check_dynamic.py - a dim without an upper bound, end to end (issue 32;
make check, check-dynamic).

mlp_dyn.py (a hand-written MLP, batch dim n) and cnn_dyn.onnx (a CNN
exported by torch.onnx with a dynamic batch dim, by gen_dynamic.py) run
through `rxc run --via cc` and `--via tcc`, without a bound (the arena
sized at run time from the actual dims) and with one (`--set
memplan.upper_bound.DIM=N`: a static arena, and a batch above the bound
refused by the entry).  The MLP's outputs are compared with numpy's
arithmetic in float64, the CNN's with torch's outputs saved beside it
(rtol 1e-4).  One CNN run goes under valgrind when it is on PATH (not with
--no-valgrind: make SAN=1 passes it, valgrind cannot run a sanitized rxc).

Then what the compiler says about such a model: `rxc compile` prints the
arena as the same formula `rxc plan` prints and names the key that bounds
it; the header has no `_ARENA_BYTES 0u` but says which function sizes the
arena; `[memplan] require_static` (`--set`, or config/cortex-m4.ini)
refuses it with FILE: error: naming the dim and the fix, exit 1, no file
written; an upper_bound of a dim the model does not have is an error
listing its dims; and arena_limit is checked at compile time with a bound,
at run time without one, and over the result storages the code generator
places after the plan (split_extra.py).  Last, the generated entry called
from C with an absurd dim (2^59 + 1, at which the arena formula n * 32
wraps int64 to 32 bytes) refuses it instead of trusting a 64-byte arena.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from compare import compare  # noqa: E402
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
MLP = os.path.join(HERE, "mlp_dyn.py")
CNN = os.path.join(HERE, "cnn_dyn.onnx")
VIAS = ["cc", "tcc"]


class Checks:
    """Counts checks and collects the failures."""

    def __init__(self):
        self.n = 0
        self.failures = []

    def expect(self, ok, what):
        self.n += 1
        if not ok:
            self.failures.append(what)
            print("FAIL:", what)


def rxc(*args, wrap=()):
    return subprocess.run([*wrap, RXC, *args], capture_output=True, text=True)


def close(got, want, rtol, atol):
    """tests/lib/compare.py's verdict (shape, dtype, NaN) as a bool."""
    why = compare(got, want, rtol, atol)
    if why:
        print("  " + why)
    return why is None


def check_mlp(c, work):
    """(a) the MLP at batch 1, 37 and 300 without a bound and with n <= 64."""
    rng = np.random.default_rng(32)
    w = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    w2 = rng.uniform(-1, 1, (8, 2)).astype(np.float32)
    np.save(os.path.join(work, "w.npy"), w)
    np.save(os.path.join(work, "w2.npy"), w2)
    for n in (1, 37, 300):
        x = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
        xp = os.path.join(work, "x%d.npy" % n)
        np.save(xp, x)
        want = np.maximum(x.astype(np.float64) @ w, 0) @ w2
        for via in VIAS:
            for bound in ([], ["--set", "memplan.upper_bound.n=64"]):
                out = os.path.join(work, "y_%d_%s_%d.npy" % (n, via, len(bound)))
                p = rxc("run", MLP, "--input", "x=" + xp, "--input", "w=" + os.path.join(work, "w.npy"),
                        "--input", "w2=" + os.path.join(work, "w2.npy"), "--output", out,
                        "--via", via, *bound)
                name = "mlp n=%d --via %s%s" % (n, via, " n<=64" if bound else "")
                if bound and n > 64:  # above the bound: the entry refuses, nothing written
                    c.expect(p.returncode == 1 and "returned -4: a symbolic dim is outside its "
                             "bounds" in p.stderr and not os.path.exists(out),
                             "%s: want exit 1 and NAME_ERR_DIM, got %d: %s" % (name, p.returncode,
                                                                              p.stderr.strip()))
                    continue
                c.expect(p.returncode == 0, "%s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
                if p.returncode == 0:
                    got = np.load(out)
                    c.expect(close(got, want.astype(np.float32), 1e-5, 1e-6),
                             "%s: differs from numpy by %g" % (name, np.abs(got - want).max()))


def check_cnn(c, work, valgrind):
    """(b) the torch-exported CNN at batch 2 and 5 against torch's outputs."""
    for batch in (2, 5):
        x = os.path.join(HERE, "x_b%d.npy" % batch)
        want = np.load(os.path.join(HERE, "y_b%d.npy" % batch))
        for via in VIAS:
            for bound in ([], ["--set", "memplan.upper_bound.batch=8"]):
                out = os.path.join(work, "cnn_%d_%s_%d.npy" % (batch, via, len(bound)))
                p = rxc("run", CNN, "--input", "x=" + x, "--output", out, "--via", via, *bound)
                name = "cnn batch=%d --via %s%s" % (batch, via, " batch<=8" if bound else "")
                c.expect(p.returncode == 0, "%s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
                if p.returncode == 0:
                    got = np.load(out)
                    c.expect(close(got, want, 1e-4, 1e-6),
                             "%s: differs from torch by %g" % (name, np.abs(got - want).max()))
    if not valgrind:  # make SAN=1: valgrind cannot run a sanitized rxc
        print("valgrind: not run (--no-valgrind)")
        return
    if not shutil.which("valgrind"):  # platform: make deps installs it
        print("valgrind: SKIPPED: not on PATH")
        c.expect(os.environ.get("REQUIRE_ALL") != "1", "valgrind missing under REQUIRE_ALL=1")
        return
    out = os.path.join(work, "cnn_valgrind.npy")
    p = rxc("run", CNN, "--input", "x=" + os.path.join(HERE, "x_b5.npy"), "--output", out,
            "--via", "tcc", wrap=["valgrind", "-q", "--error-exitcode=99"])
    c.expect(p.returncode == 0 and close(np.load(out), np.load(os.path.join(HERE, "y_b5.npy")),
                                         1e-4, 1e-6),
             "cnn under valgrind: exit %d: %s" % (p.returncode, p.stderr.strip()[-2000:]))


FORMULA = re.compile(r"^cnn_dyn_main: arena (.*) bytes \(alignment 64\); give a bound for a static "
                     r"arena: --set memplan\.upper_bound\.batch=N$", re.M)


def check_compile(c, work):
    """(c) rxc compile prints plan's formula; the header names the function."""
    out = os.path.join(work, "cnn")
    p = rxc("compile", CNN, "-o", out)
    m = FORMULA.search(p.stdout)
    c.expect(p.returncode == 0 and m is not None,
             "compile: exit %d, no arena formula in: %s" % (p.returncode, p.stdout + p.stderr))
    plan = rxc("plan", CNN)
    pm = re.search(r"^  arena +(.*) bytes \(computed at run time\)$", plan.stdout, re.M)
    c.expect(m is not None and pm is not None and pm.group(1) == m.group(1),
             "compile's formula %r is not plan's %r" % (m and m.group(1), pm and pm.group(1)))
    c.expect("\n  give a bound for a static arena: --set memplan.upper_bound.batch=N\n" in plan.stdout,
             "plan does not name the key that bounds the arena: %s" % plan.stdout)
    if m:  # the formula grows with the batch (a Python expression of batch)
        sizes = [eval(m.group(1), {"batch": b}) for b in (1, 2, 100)]
        c.expect(0 < sizes[0] < sizes[1] < sizes[2] and all(s % 64 == 0 for s in sizes),
                 "the formula's sizes %s" % sizes)
    header = open(os.path.join(out, "cnn_dyn.h")).read() if p.returncode == 0 else ""
    c.expect("_ARENA_BYTES 0u" not in header and "#define cnn_dyn_ARENA_BYTES" not in header and
             "#define cnn_dyn_main_ARENA_BYTES" not in header,
             "the header of an unbounded arena defines an ARENA_BYTES macro")
    c.expect("No cnn_dyn_ARENA_BYTES: the arena of cnn_dyn_main grows with a dim that has no\n"
             " * upper bound: size it with cnn_dyn_main_arena_bytes(dims...)." in header and
             "cnn_dyn_main_arena_bytes(batch) bytes (no upper bound on batch)" in header and
             "size_t\ncnn_dyn_main_arena_bytes_packed(const rxc_i64 *dims);" in header,
             "the header does not say which function sizes the arena")
    # with a bound the macros are back, and compile prints bytes
    p = rxc("compile", CNN, "-o", os.path.join(work, "cnn8"), "--set", "memplan.upper_bound.batch=8")
    m = re.search(r"^cnn_dyn_main: arena (\d+) bytes \(alignment 64\)$", p.stdout, re.M)
    header = open(os.path.join(work, "cnn8", "cnn_dyn.h")).read() if p.returncode == 0 else ""
    c.expect(m is not None and "#define cnn_dyn_main_ARENA_BYTES %su" % m.group(1) in header and
             "#define cnn_dyn_ARENA_BYTES %su" % m.group(1) in header,
             "compile with a bound: %s" % (p.stdout + p.stderr))


def check_refused(c, work, name, args, want, status=1):
    """p exits with status, stderr holds each of want, nothing in out/."""
    out = os.path.join(work, "refused")
    shutil.rmtree(out, ignore_errors=True)
    p = rxc(*args[:1], *args[1:], *(["-o", out] if args[0] == "compile" else []))
    missing = [w for w in want if w not in p.stderr]
    c.expect(p.returncode == status and not missing and not os.path.exists(out),
             "%s: exit %d (want %d), missing %s in: %s" % (name, p.returncode, status, missing,
                                                         p.stderr.strip()))


def check_errors(c, work):
    """(d) require_static, (e) unknown dims, (f) arena_limit."""
    fix = "--set memplan.upper_bound.batch=N"
    static = ["cnn_dyn.onnx:", ": error: in function 'main': the arena grows with dim 'batch', "
              "which has no upper bound, and [memplan] require_static asks for a static arena", fix]
    check_refused(c, work, "require_static", ["compile", CNN, "--set", "memplan.require_static=true"],
                  static)
    check_refused(c, work, "cortex-m4.ini",
                  ["compile", CNN, "--config", os.path.join(ROOT, "config", "cortex-m4.ini")], static)
    check_refused(c, work, "riscv.ini run",
                  ["run", CNN, "--input", "x=" + os.path.join(HERE, "x_b2.npy"), "--via", "tcc",
                   "--config", os.path.join(ROOT, "config", "riscv.ini")], static)
    p = rxc("compile", CNN, "-o", os.path.join(work, "static"), "--set", "memplan.require_static=true",
            "--set", "memplan.upper_bound.batch=4")
    c.expect(p.returncode == 0, "require_static with a bound: exit %d: %s" % (p.returncode, p.stderr))
    dims = ["cnn_dyn.onnx: error: [memplan] upper_bound.n names no dim of the model; its dims are: "
            "'batch'"]
    check_refused(c, work, "unknown dim (compile)", ["compile", CNN, "--set", "memplan.upper_bound.n=4"],
                  dims)
    check_refused(c, work, "unknown dim (plan)", ["plan", MLP, "--set", "memplan.upper_bound.batch=4"],
                  ["mlp_dyn.py: error: [memplan] upper_bound.batch names no dim of the model; its dims "
                   "are: 'n'"])
    check_refused(c, work, "arena_limit with a bound",
                  ["compile", CNN, "--set", "memplan.upper_bound.batch=8", "--set",
                   "memplan.arena_limit=4k"], ["above arena_limit of 4096 bytes"])
    check_refused(c, work, "arena_limit over the result's storages",
                  ["compile", os.path.join(HERE, "split_extra.py"), "--set", "memplan.arena_limit=1k"],
                  ["the arena needs 8192 bytes with the result's storages that no output returns, "
                   "above arena_limit of 1024 bytes"])
    # without a bound the limit is the entry's check: batch 2 fits 8 KiB, batch 5 does not
    for batch, ok in ((2, True), (5, False)):
        p = rxc("run", CNN, "--input", "x=" + os.path.join(HERE, "x_b%d.npy" % batch), "--via", "tcc",
                "--set", "memplan.arena_limit=8k", "--output", os.path.join(work, "lim.npy"))
        c.expect(p.returncode == 0 if ok else
                 p.returncode == 1 and "returned -6: a runtime precondition" in p.stderr,
                 "arena_limit at run time, batch %d: exit %d: %s" % (batch, p.returncode, p.stderr))


HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include "mlp_dyn.h"
static _Alignas(64) unsigned char arena[64];
int main(void)
{
  float x[4] = {0}, w[32] = {0}, w2[16] = {0}, out[2] = {0};
  rxc_i64 huge = ((rxc_i64)1 << 59) + 1, dims[1] = {huge};
  printf("%d %d %d\n", mlp_dyn_main(arena, sizeof arena, x, w, w2, huge, out),
         mlp_dyn_main_arena_bytes(huge) == SIZE_MAX, mlp_dyn_main_arena_bytes(-1) == SIZE_MAX);
  printf("%zu %zu %d\n", mlp_dyn_main_arena_bytes(3), mlp_dyn_main_arena_bytes_packed(dims) ==
         SIZE_MAX, mlp_dyn_main(arena, sizeof arena, x, w, w2, 1, out));
  return 0;
}
"""


def check_absurd_dim(c, work):
    """(g) an absurd unbounded dim is refused, not wrapped to a small arena."""
    out = os.path.join(work, "absurd")
    p = rxc("compile", MLP, "-o", out)
    c.expect(p.returncode == 0, "compile mlp: %s" % p.stderr)
    if p.returncode:
        return
    with open(os.path.join(out, "main.c"), "w") as f:
        f.write(HARNESS)
    exe = os.path.join(out, "absurd")
    b = subprocess.run(["cc", "-std=c11", "-O1", "-I", out, "-o", exe, os.path.join(out, "main.c"),
                        os.path.join(out, "mlp_dyn.c")], capture_output=True, text=True)
    c.expect(b.returncode == 0, "build the harness: %s" % b.stderr)
    if b.returncode:
        return
    r = subprocess.run([exe], capture_output=True, text=True)
    # -2: the arena is too small; SIZE_MAX: no size_t counts it; n = 3
    # needs (3 * 32 + 63) // 64 * 64 = 128 bytes; n = 1 fits 64 bytes
    c.expect(r.returncode == 0 and r.stdout == "-2 1 1\n128 1 0\n",
             "absurd dim: exit %d, printed %r (want '-2 1 1\\n128 1 0\\n')" % (r.returncode, r.stdout))


def main():
    valgrind = "--no-valgrind" not in sys.argv[1:]
    c = Checks()
    with tempfile.TemporaryDirectory() as work:
        check_mlp(c, work)
        check_cnn(c, work, valgrind)
        check_compile(c, work)
        check_errors(c, work)
        check_absurd_dim(c, work)
    print("check_dynamic: %d checks, %d failed" % (c.n, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
