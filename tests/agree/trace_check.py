#!/usr/bin/python3
"""trace_check.py - the generated C's NAME_TRACE hook against the
interpreter's `rxc run --dump` (make check, check-trace).

Compiles samples/digits_mlp.py with its weights, builds a driver that
defines digits_mlp_TRACE before including digits_mlp.c (as the generated
header tells a user to), runs main on random digits and writes each traced
tensor to DIR/NAME.bin.  Then runs the interpreter on the same module
after the same -O2 pipeline (`rxc opt`, then `rxc run --dump`) and checks:
every traced name is a binding the interpreter dumped, in the order it
bound them, with the same bytes count, and values within rtol 1e-4 (the
generated code sums in float32, the interpreter in float64; the kernel's
scratch tile ends with the same partial sums).  The last traced tensor is
the output the caller got.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
MODEL, PARAMS, N = "samples/digits_mlp.py", "samples/digits_mlp.npz", 5

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *trace_dir;
static char trace_order[4096];
static void
trace(const char *name, const void *p, size_t bytes)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s.bin", trace_dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, bytes, f) != bytes || fclose(f) != 0)
    exit(3);
  strncat(trace_order, name, sizeof trace_order - strlen(trace_order) - 2);
  strcat(trace_order, "\n");
}
#define digits_mlp_TRACE(name, ptr, bytes) trace(name, ptr, bytes)
#include "digits_mlp.c"

int
main(int argc, char **argv)
{
  trace_dir = argv[1];
  int n = atoi(argv[2]);
  static float x[512 * 64], out[512 * 10];
  FILE *f = fopen(argv[3], "rb");
  if (!f || fread(x, sizeof(float), (size_t)n * 64, f) != (size_t)n * 64)
    return 4;
  fclose(f);
  static _Alignas(64) unsigned char arena[digits_mlp_ARENA_BYTES];
  int rc = digits_mlp_main(arena, sizeof arena, x, n, out);
  if (rc != 0)
    return 5;
  f = fopen(argv[4], "wb");
  fwrite(out, sizeof(float), (size_t)n * 10, f);
  fclose(f);
  fputs(trace_order, stdout);
  return 0;
}
"""


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, **kw)
    if p.returncode != 0:
        sys.exit(f"trace_check: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def main():
    with tempfile.TemporaryDirectory() as d:
        gen, traces, dump = (os.path.join(d, s) for s in ("gen", "trace", "dump"))
        os.mkdir(traces)
        run([RXC, "compile", MODEL, "--params", PARAMS, "-o", gen])
        with open(os.path.join(gen, "driver.c"), "w") as f:
            f.write(DRIVER)
        exe = os.path.join(d, "driver")
        run(["cc", "-std=c11", "-O1", "-Wall", "-Werror", "-I", gen, "-o", exe,
             os.path.join(gen, "driver.c"), "-lm"])
        x = np.random.default_rng(7).random((N, 64), dtype=np.float32) * 16
        xbin, xnpy, outbin = (os.path.join(d, s) for s in ("x.bin", "x.npy", "out.bin"))
        x.tofile(xbin)
        np.save(xnpy, x)
        order = run([exe, traces, str(N), xbin, outbin]).split()
        opt = os.path.join(d, "opt.py")
        with open(opt, "w") as f:
            f.write(run([RXC, "opt", "-O2", MODEL, "--params", PARAMS]))
        run([RXC, "run", opt, "--input", f"x={xnpy}", "--dump", dump])
        with open(os.path.join(dump, "order.txt")) as f:
            dumped = [n[:-len(".npy")] if n.endswith(".npy") else n for n in f.read().split()]
        problems = []
        if not order:
            problems.append("nothing was traced")
        missing = [name for name in order if name not in dumped]
        if missing:
            problems.append(f"traced but not bound by the interpreter: {missing}")
        elif [dumped.index(name) for name in order] != sorted(dumped.index(name) for name in order):
            problems.append(f"trace order {order} is not the binding order {dumped}")
        for name in order:
            if name in missing:
                continue
            want = np.load(os.path.join(dump, name + ".npy"))
            got = np.fromfile(os.path.join(traces, name + ".bin"), dtype=want.dtype)
            if got.size != want.size:
                problems.append(f"{name}: {got.size} elements traced, the interpreter has {want.size}")
                continue
            w = want.astype(np.float64).ravel()
            scale = 1e-2 * np.max(np.abs(w), initial=0.0)
            if not np.all(np.abs(got.astype(np.float64) - w) <= 1e-4 * (np.abs(w) + scale)):
                i = int(np.argmax(np.abs(got.astype(np.float64) - w)))
                problems.append(f"{name}: values differ from the interpreter's "
                                f"(element {i}: {got[i]!r} against {w[i]!r})")
        out = np.fromfile(outbin, dtype=np.float32)
        last = np.fromfile(os.path.join(traces, order[-1] + ".bin"), dtype=np.float32) if order else None
        if last is None or not np.array_equal(last, out):
            problems.append("the last traced tensor is not the output main returned")
        for p in problems:
            print("FAIL trace:", p)
        print(f"trace: {len(order)} tensors traced ({', '.join(order)}), "
              f"{'all' if not problems else 'not all'} as the interpreter computed them")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
