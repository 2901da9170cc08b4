#!/usr/bin/python3
"""print_check.py - R.print in generated C against the interpreter (make
check, check-print).

Compiles tests/agree/print_values.py (R.print of float32, float64, float16,
int32 and bool tensors, more than 16 elements, a scalar, prim values, a
shape with a symbolic dim, a string; a format with "{}" and quotes, and
values left over) and builds two drivers with the system compiler under
-Wall -Wextra -Werror -pedantic: one that defines NAME_PRINT(text) as
fputs(text, stdout) before including NAME.c, as the header tells a user,
and one without it.  The first must print exactly what `rxc run` prints
(the interpreter) on the same inputs, then the same output tensor; the
second must print nothing (R.print compiles to nothing) and the same
output.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
MODEL = os.path.join(ROOT, "tests", "agree", "print_values.py")

DRIVER = r"""
#include <stdio.h>
%(define)s
#include "print_values.c"

int
main(int argc, char **argv)
{
  static float x[3 * 4];
  static rxc_i32 k[20];
  static rxc_f16 h[2];
  static float out[3 * 4];
  static _Alignas(64) unsigned char arena[1 << 16];
  FILE *f = fopen(argv[1], "rb");
  if (argc < 2 || !f || fread(x, sizeof x, 1, f) != 1 || fread(k, sizeof k, 1, f) != 1 ||
      fread(h, sizeof h, 1, f) != 1)
    return 3;
  fclose(f);
  int rc = print_values_main(arena, sizeof arena, x, k, h, 3, out);
  if (rc)
    return 4;
  for (int i = 0; i < 12; i++)
    printf("out %%a\n", (double)out[i]);
  return 0;
}
"""


def run(args, **kw):
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"print_check: {' '.join(args[:3])} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def main():
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((3, 4)) * 100).astype("float32")
    x[0, 0], x[0, 1] = 0.5, -0.0
    k = rng.integers(-1000, 1000, 20).astype("int32")
    h = np.array([0.1, -65504.0], dtype="float16")
    with tempfile.TemporaryDirectory() as work:
        files = []
        for name, a in (("x", x), ("k", k), ("h", h)):
            path = os.path.join(work, name + ".npy")
            np.save(path, a)
            files += ["--input", f"{name}={path}"]
        out = os.path.join(work, "out.npy")
        expected = run([RXC, "run", MODEL, *files, "--output", out])
        want = np.load(out)
        run([RXC, "compile", MODEL, "-o", work])
        with open(os.path.join(work, "in.bin"), "wb") as f:
            f.write(x.tobytes() + k.tobytes() + h.tobytes())
        cc = os.environ.get("CC", "cc")
        for define, text in (("#define print_values_PRINT(s) fputs(s, stdout)", expected), ("", "")):
            src = os.path.join(work, "driver.c")
            with open(src, "w") as f:
                f.write(DRIVER % {"define": define})
            exe = os.path.join(work, "driver")
            run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", work, src, "-o", exe])
            got = run([exe, os.path.join(work, "in.bin")])
            printed = "".join(l + "\n" for l in got.splitlines() if not l.startswith("out "))
            outs = np.array([float.fromhex(l[4:]) for l in got.splitlines() if l.startswith("out ")])
            if printed != text:
                sys.exit(f"print_check: with{'out' if not define else ''} NAME_PRINT the C printed\n"
                         f"{printed}where the interpreter printed\n{text}")
            if not np.array_equal(outs.astype("float32"), want.ravel()):
                sys.exit("print_check: the output differs from the interpreter's")
        print(f"print_check: {len(expected.splitlines())} lines as the interpreter prints them; "
              "nothing without NAME_PRINT")


if __name__ == "__main__":
    main()
