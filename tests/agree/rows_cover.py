#!/usr/bin/python3
"""rows_cover.py - the loops [codegen] rows converts (codegen/gen_row.c,
gen_reduce.c), and that they keep the loops' bits.

Each module of tests/codegen/rows_cover_*.py holds loops of a kind the row
kernel once left as scalar loops under libtcc (where tcc compiles them
10-50x slower than gcc).  For each:

  coverage  the C generated with rows = on has exactly the expected number
            of innermost `for (rxc_i64 ...)` loops left that neither call
            the row kernel nor hold another loop (0 for most: every loop
            of the kind is a call; the modules with loop-carried
            dependences expect theirs), and at least the expected number
            of row calls;
  shapes    in the nests' module, each function's calls run over the
            expected rows and elements (the loops that run as one); in
            the convs', the long sums split into the expected calls; in
            the reductions', each loop runs the expected reductions at a
            time (gen_reduce.c);
  strict    the C, rows on and auto, compiles under gcc's and clang's
            -Wall -Wextra -Werror -pedantic;
  bits      rows_bits.py's comparison: libtcc with rows off (the loops),
            libtcc with rows = auto (the calls) and the system compiler
            with rows = on (the kernel's vector form) give the same bits
            on inputs holding NaNs, infinities and -0, with [opt] kernels
            off and on, and so does the interpreter where its operations
            are the C's.

Usage: RXC=build/rxc /usr/bin/python3 tests/agree/rows_cover.py
Exit 0 when every check holds; otherwise 1, naming each failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rows_bits  # noqa: E402  (its comparison, reused)

RXC = rows_bits.RXC


def inputs_dw(rng):
    s = rows_bits.special
    return {"x": s(rng, (1, 8, 23, 37), 2.0), "w5": s(rng, (8, 1, 5, 5), 0.5),
            "w3": rng.normal(0, 1, (8, 1, 3, 3)).astype(np.float32),
            "w7": rng.normal(0, 0.3, (8, 1, 7, 7)).astype(np.float32),
            "b": s(rng, (1, 8, 1, 1), 1.0)}


def inputs_nest(rng):
    s = rows_bits.special
    return {"x": s(rng, (2, 3, 5, 7), 2.0), "y": s(rng, (2, 3, 5, 7), 2.0),
            "k": s(rng, (3,), 1.0), "z": s(rng, (3, 4, 5), 1.0), "w": s(rng, (3, 4, 5), 1.0),
            "f": s(rng, (40,), 1.0), "p": s(rng, (6, 12), 1.0), "acc": s(rng, (8, 16), 1.0),
            "c": s(rng, (3, 4, 16), 1.0), "lx": s(rng, (48,), 1.0),
            "lw": rng.normal(1, 0.1, (25,)).astype(np.float32), "tx": s(rng, (6, 10), 2.0),
            "b": s(rng, (8,), 1.0), "s": s(rng, (37, 8), 1.0)}


def inputs_reduce(rng):
    s = rows_bits.special
    return {"x": s(rng, (1, 16, 5, 7), 2.0), "y": s(rng, (1, 12, 3, 5), 2.0),
            "z": s(rng, (1, 6, 4, 8), 2.0), "w": s(rng, (1, 7, 3, 3), 2.0),
            "v": s(rng, (8, 5), 1.0), "u": rng.normal(0, 1, (8,)).astype(np.float32)}


# module: (inputs, loops rows = on must leave, row calls at least, outputs
# the interpreter must match: not the convs, whose sums run in another order)
MODULES = [
    ("rows_cover_dw.py", inputs_dw, 0, 17, []),
    # flat's x * y - x: the interpreter's differs from C's loops in the last bit; carried: a loop
    ("rows_cover_nest.py", inputs_nest, 1, 19, [str(i) for i in range(1, 9)]),
    # the reductions' loops stay loops, 3 of them several at a time (LANES);
    # sum's float32 sums: the interpreter's differ from C's loops
    ("rows_cover_reduce.py", inputs_reduce, 6, 0, ["0", "1", "3"]),
]

# module: {function: the calls its sum is split into, 0: none}: a sum
# whose weights do not all keep a register runs as calls over pieces of
# its terms (25 taps: 15 and 10)
PIECES = {
    # conv2d and conv2d3 compute their rows where the copy-out reads them
    # (inline_row), a call over rows, which keeps the sum whole
    "rows_cover_dw.py": {"conv2d": 0, "conv2d1": 2, "conv2d3": 0, "fused_conv2d2_add_relu": 0},
    "rows_cover_nest.py": {"lopsided": 0},
}

# module: {function: the reductions its loop runs at a time, 0: one}
LANES = {
    "rows_cover_reduce.py": {"mean": 8, "max": 4, "sum": 8, "mean1": 0, "chain": 0, "behind": 0},
}

# module: {function: the row kernel's (rows, n) in it, in order}: how the
# loops of a nest run as the kernel's two
SHAPES = {
    "rows_cover_nest.py": {
        "flat": ["1, 210"], "per_b": ["3, 35"], "inplace": ["1, 60"], "padded": ["6, 10"],
        "tile1": ["1, 8"], "tile5": ["1, 20"], "tile3": ["4, 3"], "sym": ["1, (n * 8)"],
        "carried": [], "chunks": ["1, 64"] * 4, "lopsided": ["1, 32"],
        "two_pass": ["1, 60"], "shifted": ["1, 10", "1, 10"], "reread": ["1, 10", "1, 10", "1, 10"],
    },
}


def leftovers(text):
    """The innermost `for (rxc_i64 ...)` loops of the generated functions
    (rt's loops declare no rxc_i64) without a row call: (line, head)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if not re.match(r"\s*for \(rxc_i64 ", line):
            continue
        depth = line.count("{") - line.count("}")
        body, k = [], i + 1
        if depth == 0:  # a body of one statement
            body = lines[k:k + 1]
        while depth > 0 and k < len(lines):
            depth += lines[k].count("{") - lines[k].count("}")
            body.append(lines[k])
            k += 1
        text_body = "\n".join(body)
        if "for (" not in text_body and "rxc_k_row_f32(" not in text_body:
            out.append((i + 1, line.strip()))
    return out


STRICT = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1", "-c", "-o", os.devnull]


def check_strict(tmp, name):
    """The module's C, rows on and auto, compiles cleanly with gcc and clang
    under the strict flags (STYLE.md's generated C): the failures."""
    bad = 0
    path = os.path.join(rows_bits.HERE, name)
    for rows in ("on", "auto"):
        gen = os.path.join(tmp, "strict_" + rows)
        rows_bits.run(["--set", "codegen.rows=" + rows, "compile", path, "-o", gen, "--name", "m",
                       "-q"], "compile")
        for cc in ("gcc", "clang"):
            if not shutil.which(cc):
                continue
            p = subprocess.run([cc] + STRICT + [os.path.join(gen, "m.c")], capture_output=True,
                               text=True)
            if p.returncode != 0:
                print("%s: %s with rows = %s is not clean:\n%s" % (name, cc, rows, p.stderr[:2000]))
                bad += 1
    return bad


def check_cover(tmp, name, left, calls_min):
    gen = os.path.join(tmp, "cover")
    path = os.path.join(rows_bits.HERE, name)
    p = subprocess.run([RXC, "--set", "codegen.rows=on", "compile", path, "-o", gen, "--name",
                        "m", "-q"], capture_output=True, text=True)
    if p.returncode != 0:
        print("%s: compile failed:\n%s%s" % (name, p.stdout, p.stderr))
        return 1
    with open(os.path.join(gen, "m.c")) as f:
        text = f.read()
    loops = leftovers(text)
    calls = len(re.findall(r"rxc_k_row_f32\([^;]*row_scalars\);", text))
    bad = 0
    if len(loops) != left:
        print("%s: %d loops left without the row kernel, expected %d:" % (name, len(loops), left))
        for line, head in loops:
            print("  m.c:%d: %s" % (line, head))
        bad += 1
    if calls < calls_min:
        print("%s: %d row calls, expected at least %d" % (name, calls, calls_min))
        bad += 1
    for fn, want in SHAPES.get(name, {}).items():
        m = re.search(r"\nm_%s\(.*?\n}\n" % fn, text, re.S)
        got = re.findall(r"rxc_k_row_f32\((.*?, .*?), row_prog", m.group(0)) if m else None
        if got != want:
            print("%s: %s calls the row kernel over %s, expected %s" % (name, fn, got, want))
            bad += 1
    for fn, want in PIECES.get(name, {}).items():
        m = re.search(r"\nm_%s\(.*?\n}\n" % fn, text, re.S)
        got = len(re.findall(r"{ /\* (the first terms of the sum|and on) \*/", m.group(0))) if m else -1
        if got != want:
            print("%s: %s's sum is %d calls, expected %d" % (name, fn, got, want))
            bad += 1
    for fn, want in LANES.get(name, {}).items():
        m = re.search(r"\nm_%s\(.*?\n}\n" % fn, text, re.S)
        got = re.findall(r"(\d+) at a time: their reductions", m.group(0)) if m else None
        if got != ([str(want)] if want else []):
            print("%s: %s runs its reductions %s at a time, expected %d" % (name, fn, got, want))
            bad += 1
    print("%s: %d loops left, %d row calls%s" % (name, len(loops), calls, "" if not bad else
                                                   " (WRONG)"))
    return bad


def main():
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, make_inputs, left, calls_min, interp in MODULES:
            bad += check_cover(tmp, name, left, calls_min)
            bad += check_strict(tmp, name)
            bad += rows_bits.check_module(tmp, name, make_inputs, interp, min(calls_min, 2))
    if bad:
        print("rows_cover.py: %d failure(s)" % bad)
        return 1
    print("rows_cover.py: every module's loops are as expected, with the loops' bits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
