#!/usr/bin/python3
"""Checks that kill planted bugs of tests/mutate/catalogue.py no other test
noticed (issue 33); part of make check (check-mutants), about a second.

  fold_keeps_print     opt-fold-impure: FoldConstant leaves an R.print of a
                       constant in place, and running the folded module
                       still prints (an impure call is not a value).
  storages_aligned     cg-outputs-unaligned: every storage the generated
                       entry carves out of the arena starts at a multiple
                       of NAME_ARENA_ALIGN, the result storages the code
                       generator puts after the plan too (a split of
                       which only one part is returned leaves two).
  plan_aligned         mp-buffers-unaligned: every storage offset of `rxc
                       plan -O0` on a module of 3-byte intermediates is a
                       multiple of the plan's alignment.

usage: kill_checks.py [NAME...]   (RXC=build/rxc)
Exit status 1 when a check fails.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

RXC = os.environ.get("RXC", "build/rxc")

PRINT_MODULE = '''\
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        c = R.const(1.5, "float32")
        _ = R.print(c, format="c = {}")
        y = R.add(x, c)
        return y
'''

SPLIT_MODULE = '''\
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 3), dtype="int8")) -> R.Tensor((1, 3), dtype="int8"):
        with R.dataflow():
            lv = R.split(x, indices_or_sections=3, axis=0)
            gv: R.Tensor((1, 3), dtype="int8") = lv[0]
            R.output(gv)
        return gv
'''

ODD_MODULE = '''\
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="int8")) -> R.Tensor((3,), dtype="int8"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(x, x)
            c = R.add(a, b)
            d = R.subtract(c, a)
            gv = R.add(d, b)
            R.output(gv)
        return gv
'''


def rxc(*args):
    return subprocess.run([RXC, *args], capture_output=True, text=True, timeout=120)


def fold_keeps_print(work):
    src = os.path.join(work, "print.py")
    with open(src, "w") as f:
        f.write(PRINT_MODULE)
    folded = os.path.join(work, "print_folded.py")
    r = rxc("opt", "--passes", "FoldConstant", src, "-o", folded)
    if r.returncode != 0:
        return "rxc opt failed: " + r.stderr.strip()
    if "c = " in r.stdout + r.stderr:
        return "FoldConstant ran the R.print (it printed while folding)"
    with open(folded) as f:
        text = f.read()
    if "R.print(" not in text:
        return "FoldConstant removed the R.print"
    x = os.path.join(work, "x.npy")
    import numpy as np
    np.save(x, np.zeros(2, np.float32))
    r = rxc("run", folded, "--input", "x=" + x, "--output", os.path.join(work, "out.npy"))
    if r.returncode != 0 or "c = " not in r.stdout or "1.5" not in r.stdout:
        return "the folded module does not print c = 1.5 when run: " + (r.stdout + r.stderr).strip()
    return None


def storages_aligned(work):
    src = os.path.join(work, "split.py")
    with open(src, "w") as f:
        f.write(SPLIT_MODULE)
    out = os.path.join(work, "split_c")
    r = rxc("compile", src, "-o", out)
    if r.returncode != 0:
        return "rxc compile failed: " + r.stderr.strip()
    with open(os.path.join(out, "split.h")) as f:
        m = re.search(r"#define \w+_ARENA_ALIGN (\d+)u", f.read())
    if not m:
        return "no NAME_ARENA_ALIGN in split.h"
    align = int(m.group(1))
    with open(os.path.join(out, "split.c")) as f:
        offsets = [int(o) for o in re.findall(r"char \*storage\w* = base \+ (\d+);", f.read())]
    if len(offsets) < 2:
        return "expected the two parts no output takes in the arena, found %d storages" % len(offsets)
    bad = [o for o in offsets if o % align]
    if bad:
        return "storages at offsets %s, not multiples of the arena's alignment %d" % (bad, align)
    return None


def plan_aligned(work):
    src = os.path.join(work, "odd.py")
    with open(src, "w") as f:
        f.write(ODD_MODULE)
    r = rxc("plan", "-O0", "--format", "json", src)
    if r.returncode != 0:
        return "rxc plan failed: " + r.stderr.strip()
    plan = json.loads(r.stdout)
    align = plan["align"]
    offsets = [s["offset"] for f in plan["functions"] for s in f["storages"]]
    if len(offsets) < 3 or len(set(offsets)) < 2:
        return "expected several storages at different offsets, found %s" % offsets
    bad = [o for o in offsets if o % align]
    if bad or plan["arena_bytes"] % align:
        return "offsets %s or arena %d not multiples of the alignment %d" % (
            bad, plan["arena_bytes"], align)
    return None


CHECKS = {"fold_keeps_print": fold_keeps_print, "storages_aligned": storages_aligned,
          "plan_aligned": plan_aligned}


def main(argv):
    names = argv or list(CHECKS)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="rxc_kill_") as work:
        for name in names:
            why = CHECKS[name](work)
            print("%s %s%s" % ("FAIL" if why else "ok  ", name, ": " + why if why else ""))
            failed += bool(why)
    print("kill checks: %d passed, %d failed" % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
