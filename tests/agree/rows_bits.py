#!/usr/bin/python3
"""rows_bits.py - the row kernel ([codegen] rows, codegen/gen_row.c) gives
the bits of the loops it replaces.

Each module of tests/codegen/rows_*.py runs through `rxc run` on inputs
that hold NaNs, infinities, -0 and large values: compiled by libtcc with
rows off (the plain loops: the reference), by libtcc with rows as
configured by default (auto: the row calls under tcc), and by the system
compiler with rows forced on (the vector form of rt/rt_kern_row.h, inline
in the generated C), and by the system compiler with rows = auto (the
plain C, where a nest the kernel would take as one row is one loop over
its elements when its rows leave tails or a guarded store calls math: at
least one such nest in rows_elem.py and rows_tir.py), each
also with [opt] kernels on.  Every output must
be bit for bit the reference's, except that any NaN equals any NaN (C
does not define which NaN an operation on two NaNs returns).  The
outputs the interpreter computes with the generated C's operations (not
the products, whose sums run in another order, nor the math functions,
which the interpreter evaluates in double) must also equal the
interpreter's bit for bit.  Before comparing, the generated C is checked
to call the row kernel, so that the comparison tests something.

Usage: RXC=build/rxc /usr/bin/python3 tests/agree/rows_bits.py
Exit 0 when every comparison holds; otherwise 1, naming each difference.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

RXC = os.environ.get("RXC", "build/rxc")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "codegen")


def special(rng, shape, scale):
    """Normal values with the edge cases sprinkled in."""
    x = rng.normal(0, scale, shape).astype(np.float32)
    flat = x.reshape(-1)
    n = flat.size
    for i, v in enumerate([np.nan, np.inf, -np.inf, -0.0, 0.0, 100.0, -100.0, np.nan]):
        flat[(i * 7919 + 3) % n] = v
    return x


# module: (inputs, outputs the interpreter must match, extra --set options)
def inputs_elem(rng):
    # a bound of -0: a broadcast scalar keeps its sign
    return {"x": special(rng, (1, 8, 19, 21), 3.0), "b": special(rng, (1, 8, 1, 1), 1.0),
            "lo": np.float32(-0.0), "hi": np.float32(1.5)}


def inputs_ops(rng):
    return {"x": special(rng, (1, 3, 19, 21), 2.0),
            "w": rng.normal(0, 1, (8, 3, 3, 3)).astype(np.float32),
            "b": special(rng, (1, 8, 1, 1), 1.0), "lo": np.float32(-0.5), "hi": np.float32(1.5)}


def inputs_tir(rng):
    # a symbolic n = 37, not a multiple of 16
    return {"x": special(rng, (37, 2), 2.0), "y": special(rng, (37,), 2.0),
            "k": np.array([0.25, -3.0], dtype=np.float32)}


MODULES = [  # name, inputs, outputs the interpreter must match, nests as one loop at least
    ("rows_elem.py", inputs_elem, ["0", "1"], 1),  # max pool, clip: the interpreter's bits
    ("rows_ops.py", inputs_ops, [], 0),            # conv epilogues: the loops' bits
    ("rows_tir.py", inputs_tir, [], 1),            # the loops' bits (guarded's exp)
]

VARIANTS = [  # name, --set options, via
    ("tcc rows=off", ["codegen.rows=off"], "tcc"),
    ("tcc", [], "tcc"),
    # the system compiler's vector code, without contraction (cc_flags =
    # auto's -O3 -march=native would fuse a*b+c in the loops and the
    # kernel differently: not the bits of the loops under tcc)
    ("cc rows=on", ["codegen.rows=on", "jit.cc_flags=-O3 -march=native -ffp-contract=off"], "cc"),
    # rows = auto under the system compiler: RXC_ROWS is 0, so the plain C
    # runs, a nest the kernel takes as one row written as one loop of its
    # elements (gen_row.c's emit_flat)
    ("cc rows=auto", ["jit.cc_flags=-O3 -march=native -ffp-contract=off"], "cc"),
]


def run(args, what):
    p = subprocess.run([RXC] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("rows_bits.py: %s failed (%s):\n%s%s" % (what, " ".join(args), p.stdout, p.stderr))


def load(path):
    if path.endswith(".npz"):
        z = np.load(path)
        return {k: z[k] for k in z.files}
    return {"0": np.load(path)}


def differ(a, b):
    """Elements whose bits differ, NaN equal to NaN."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return a.size + 1
    bits = a.view(np.uint32) != b.view(np.uint32)
    return int((bits & ~(np.isnan(a) & np.isnan(b))).sum())


def check_module(tmp, name, make_inputs, interp_outputs, min_calls=2, min_flat=0):
    """The differences of module name's variants (and the row calls'
    check: at least min_calls, and min_flat nests as one plain loop in the
    C of rows = auto); 0 when none."""
    path = os.path.join(HERE, name)
    rng = np.random.default_rng(20261128)
    args = []
    for key, value in make_inputs(rng).items():
        f = os.path.join(tmp, "%s_%s.npy" % (name, key))
        np.save(f, value)
        args += ["--input", "%s=%s" % (key, f)]
    out_ext = ".npz"  # a tuple
    total = 0
    for kernels in (False, True):
        bad = 0
        sets = ["--set", "opt.kernels=true"] if kernels else []
        gen = os.path.join(tmp, "gen")
        run(sets + ["--set", "codegen.rows=on", "compile", path, "-o", gen, "--name", "m", "-q"],
            "compile")
        with open(os.path.join(gen, "m.c")) as f:
            calls = len(re.findall(r"rxc_k_row_f32\([^;]*row_scalars\);", f.read()))
        if calls < min_calls:
            print("%s: the generated C calls the row kernel %d times" % (name, calls))
            bad += 1
        run(sets + ["compile", path, "-o", gen, "--name", "m", "-q"], "compile (rows = auto)")
        with open(os.path.join(gen, "m.c")) as f:
            flat = f.read().count("rows of all their elements in one loop")
        if flat < min_flat:
            print("%s: the C of rows = auto writes %d nests as one loop" % (name, flat))
            bad += 1
        results = {}
        for vname, vset, via in VARIANTS:
            out = os.path.join(tmp, "out_%s_%d%s" % (via, len(results), out_ext))
            opts = sets + sum((["--set", s] for s in vset), [])
            run(opts + ["run", path] + args + ["--via", via, "-o", out], vname)
            results[vname] = load(out)
        ref = results["tcc rows=off"]
        for vname in results:
            for k in ref:
                d = differ(ref[k], results[vname][k])
                if d:
                    print("%s%s output %s: %s differs from the loops in %d elements"
                          % (name, " (kernels)" if kernels else "", k, vname, d))
                    bad += 1
        if interp_outputs:
            out = os.path.join(tmp, "interp" + out_ext)
            run(sets + ["run", path] + args + ["-o", out], "the interpreter")
            mine = load(out)
            for k in interp_outputs:
                d = differ(mine[k], results["tcc"][k])
                if d:
                    print("%s output %s: tcc with rows differs from the interpreter in %d elements"
                          % (name, k, d))
                    bad += 1
        print("%s%s: %d row calls, %d nests as one loop, %s"
              % (name, " (kernels)" if kernels else "", calls, flat,
                 "same bits" if not bad else "DIFFERENT"))
        total += bad
    return total


def main():
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, make_inputs, interp_outputs, min_flat in MODULES:
            bad += check_module(tmp, name, make_inputs, interp_outputs, min_flat=min_flat)
    if bad:
        print("rows_bits.py: %d difference(s)" % bad)
        return 1
    print("rows_bits.py: every variant gives the loops' bits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
