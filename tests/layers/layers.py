#!/usr/bin/python3
"""layers.py BUILD - do rxc's folders depend on each other in README's order?

README.md's "Architecture" section states the order as one line,
    Dependencies point down: `ir < ops < frontend, interp < ...`
(folders joined by ',' share a level and may not depend on each other).
A folder may use only folders below it, and this script checks both kinds
of use:
  - includes: every #include "..." of a .c or .h under the library and
    cli/ folders, resolved relative to the including file;
  - calls and data: every undefined symbol of an object file in BUILD,
    looked up among the global symbols the other folders' objects define.
It also checks that every global symbol of librxc.a's objects starts with
its folder's prefix (README's Layout table: `prefix` column), so that a
user linking librxc.a meets no rxc name outside those prefixes.
Prints one line per violation and exits 1 when there is one.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def readme_rules():
    """The level of each folder and its symbol prefixes, from README.md."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"Dependencies point down: `([^`]+)`", text)
    if not m:
        sys.exit("layers: README.md has no 'Dependencies point down: `...`' line")
    level = {}
    for i, group in enumerate(m.group(1).split("<")):
        for folder in group.split(","):
            level[folder.strip()] = i
    prefixes = {}
    for row in re.finditer(r"^\| `(\w+)/` \| ([^|]*)\|", text, re.M):
        found = re.findall(r"`(\w+_)`", row.group(2))
        if row.group(1) in level and found:
            prefixes[row.group(1)] = tuple(found)
    return level, prefixes


def folder_of(path):
    rel = os.path.relpath(path, ROOT)
    return rel.split(os.sep)[0]


def include_edges(level):
    for folder in level:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    target = os.path.normpath(os.path.join(dirpath, m.group(1)))
                    yield path, n, folder_of(target), m.group(1)


def objects(build, folder):
    out = []
    for dirpath, _, files in os.walk(os.path.join(build, folder)):
        out += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".o")]
    return out


def nm(obj):
    defined, undefined = [], []
    for line in subprocess.check_output(["nm", obj], text=True).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCV":
            defined.append(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.append(parts[1])
    return defined, undefined


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    level, prefixes = readme_rules()
    bad = []

    def against(a, b):
        return b in level and a != b and level[b] >= level[a]

    for path, n, target, text in include_edges(level):
        a = folder_of(path)
        if against(a, target):
            bad.append(f"{os.path.relpath(path, ROOT)}:{n}: {a}/ includes \"{text}\" ({target}/ is not below {a}/)")

    owner, uses = {}, []
    for folder in level:
        for obj in objects(build, folder):
            defined, undefined = nm(obj)
            for s in defined:
                if s.startswith("__"):
                    continue  # reserved: the compiler's own (ASan's __odr_asan.X, ...)
                owner[s] = folder
                want = prefixes.get(folder)
                if folder != "cli" and want and not s.startswith(want):
                    bad.append(f"{obj}: {s} lacks {folder}/'s prefix ({', '.join(want)})")
            uses += [(obj, folder, s) for s in undefined]
    if not owner:
        sys.exit(f"layers: no object files under {build}: build first")
    for obj, a, s in uses:
        b = owner.get(s)
        if b and against(a, b):
            bad.append(f"{obj}: {a}/ uses {s} of {b}/ ({b}/ is not below {a}/)")

    for line in bad:
        print(line)
    print(f"layers: {len(level)} folders, {len(owner)} symbols: {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
