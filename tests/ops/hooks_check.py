#!/usr/bin/python3
"""hooks_check.py - is each operator's code in one place (STYLE.md 5)?

Reads the sources only.  For every OP(IR_OP_X, "name", ...) entry of the
files in the Makefile's OP_TABLE_SRCS it finds the entry's hooks, the
`.impl = {infer, eval, legalize}` written in the entry or in a macro of the
same file that the entry uses (elementwise's UNARY, nn's POOL_PARAMS), and
the ops/*.c file that defines each hook (the name at column 0 followed by
'(', as the project's style writes a definition).

An op's home is the file that holds most of its own hooks (those not in a
shared helper file), the entry's file winning a tie: the entry's file, or
one family file beside it that holds all the op's hooks (manip_index.c for
gather and scatter, whose entries stay in manip.c because the table's
order numbers the ops).  Shared helpers are infer_util.c and tir_build.c
for every op and nn_util.c for the ops of nn.c.  A hook elsewhere is an
exception, a line "op facet file" (facet: infer, eval or legalize).

tests/ops/hooks_exceptions.txt lists the known exceptions.  The check
fails on an exception not listed there and on a listed one that no longer
occurs, so the list only shrinks.  --print writes the current list.
"""
import os
import re
import sys
from collections import Counter

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BASELINE = os.path.join(ROOT, "tests", "ops", "hooks_exceptions.txt")
FACETS = ("infer", "eval", "legalize")
HELPERS_ALL = {"ops/infer_util.c", "ops/tir_build.c"}
HELPERS_OF = {"ops/nn.c": {"ops/nn_util.c"}}


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def table_srcs():
    text = read("Makefile").replace("\\\n", " ")
    m = re.search(r"^OP_TABLE_SRCS\s*:?=\s*(.*)$", text, re.M)
    if not m:
        sys.exit("hooks_check: no OP_TABLE_SRCS in the Makefile")
    return m.group(1).split()


def definitions():
    """Function name -> the ops/ file defining it."""
    where = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "ops"))):
        if name.endswith(".c"):
            path = "ops/" + name
            for m in re.finditer(r"^([A-Za-z_]\w*)\(", read(path), re.M):
                where.setdefault(m.group(1), path)
    return where


IMPL = re.compile(r"\.impl\s*=\s*\{([^}]*)\}", re.S)


def impl_of(text):
    m = IMPL.search(text)
    if not m:
        return None
    hooks = [h.strip() for h in m.group(1).split(",")]
    if len(hooks) != 3:
        sys.exit("hooks_check: .impl without three hooks: " + m.group(0))
    return hooks


def entries(path):
    """(op name, [infer, eval, legalize]) of each entry of a table file."""
    text = re.sub(r"/\*.*?\*/", " ", read(path), flags=re.S)
    macros = {}
    for m in re.finditer(r"^#define\s+(\w+)(?:\([^)]*\))?((?:.*\\\n)*.*)$", text, re.M):
        hooks = impl_of(m.group(2))
        if hooks:
            macros[m.group(1)] = hooks
    starts = [m.start() for m in re.finditer(r"\bOP\(IR_OP_\w+,", text)]
    out = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else text.find("};", s)
        body = text[s:end]
        name = re.match(r'OP\(IR_OP_\w+,\s*"([^"]+)"', body).group(1)
        hooks = impl_of(body)
        if hooks is None:
            used = [w for w in re.findall(r"\b[A-Z_][A-Z0-9_]*\b", body) if w in macros]
            hooks = macros[used[0]] if used else [None, None, None]
        out.append((name, hooks))
    return out


def exceptions():
    where = definitions()
    found = []
    for path in table_srcs():
        helpers = HELPERS_ALL | HELPERS_OF.get(path, set())
        for name, hooks in entries(path):
            files = {}
            for facet, hook in zip(FACETS, hooks):
                if not hook or hook == "NULL":
                    continue
                f = where.get(hook)
                if f is None:
                    sys.exit("hooks_check: %s's %s hook %s is defined in no ops/*.c" % (name, facet, hook))
                if f not in helpers:
                    files[facet] = f
            count = Counter(files.values())
            home = max(count, key=lambda f: (count[f], f == path)) if count else path
            for facet, f in files.items():
                if f != home:
                    found.append("%s %s %s" % (name, facet, f))
    return found


def main():
    found = exceptions()
    if "--print" in sys.argv[1:]:
        print("\n".join(found))
        return 0
    with open(BASELINE, encoding="utf-8") as f:
        known = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    new = [e for e in found if e not in known]
    gone = [e for e in known if e not in found]
    for e in new:
        print("hooks_check: new exception (move the hook to its op's file): " + e)
    for e in gone:
        print("hooks_check: no longer an exception, delete its line in " + os.path.relpath(BASELINE, ROOT) + ": " + e)
    if new or gone:
        return 1
    print("hooks_check: %d known exceptions" % len(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
