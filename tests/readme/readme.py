#!/usr/bin/python3
"""Keeps README.md true to rxc.

1. The tables between `<!-- rxc list WHAT -->` and `<!-- end -->` must be
   exactly what `rxc list WHAT` prints now, and those between `<!-- output
   of tests/PATH.py -->` and `<!-- end -->` what that script prints (run
   with /usr/bin/python3 and $RXC: figures such as the embedded section's
   bytes); --update rewrites them.
2. The complete C program of "## The generated C" must compile and print
   what the README says: the model named by the section's `rxc compile`
   command is compiled with rxc, the header excerpt's lines must appear in
   the generated header, the program is built with the section's cc
   command plus -std=c11 -Wall -Werror, run, and its output compared with
   the ```text block after it.
3. Quick start's sentence on `make deps` names every package of the
   Makefile's DEB_PACKAGES (what `make deps` installs).

Usage: readme.py [--update] [README.md]   (rxc is $RXC, else build/rxc)
Exit status 0 when the README is true, 1 with a diff or a message.
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.path.abspath(os.environ.get("RXC") or os.path.join(ROOT, "build", "rxc"))
MARKED = re.compile(r"(<!-- (rxc list \w+|output of tests/[\w/]+\.py) -->\n)(.*?)(<!-- end -->)", re.S)


def marked_output(what):
    """What the marker's command prints: `rxc list WHAT`, or `output of
    tests/PATH.py` (the script run from the repository's root)."""
    if what.startswith("rxc list "):
        cmd = [RXC, "list", what.split()[2]]
    else:
        cmd = ["/usr/bin/python3", os.path.join(ROOT, what.split()[2])]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, RXC=RXC))
    return "\n" + out.stdout + "\n"


def check_tables(text):
    """The README text with its tables as rxc prints them, and the diffs."""
    diffs = []

    def replace(m):
        want = marked_output(m.group(2))
        if m.group(3) != want:
            diffs.extend(difflib.unified_diff(
                m.group(3).splitlines(True), want.splitlines(True),
                "README.md (%s)" % m.group(2), m.group(2)))
        return m.group(1) + want + m.group(4)

    new = MARKED.sub(replace, text)
    if not MARKED.search(text):
        diffs.append("README.md: no <!-- rxc list WHAT --> tables\n")
    return new, diffs


def section(text, title):
    start = text.index("\n## " + title + "\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def fenced(text, lang):
    """The bodies of the ```lang blocks of text, in order."""
    return re.findall(r"^```" + lang + r"\n(.*?)^```$", text, re.S | re.M)


def fail(msg):
    print("readme.py: " + msg, file=sys.stderr)
    return 1


def check_program(text):
    """Builds and runs the README's C program; 0, or 1 after a message."""
    sec = section(text, "The generated C")
    compile_cmd = re.search(r"`(rxc compile [^`]*)`", sec)
    cc_cmd = re.search(r"A complete program \(`(cc [^`]*)`\)", sec)
    blocks = fenced(sec, "c")
    program = [b for b in blocks if "int main(" in b]
    output = fenced(sec[sec.find("int main("):], "text")
    if not (compile_cmd and cc_cmd and len(blocks) >= 2 and program and output):
        return fail("'The generated C' needs an `rxc compile` command, a header excerpt, "
                    "a complete program with its `cc` command, and a ```text block of its output")
    with tempfile.TemporaryDirectory(prefix="rxc-readme-") as tmp:
        args = shlex.split(compile_cmd.group(1))[2:]
        # sample paths are relative to the repository; OUTDIR to the program
        args = [os.path.join(ROOT, a) if os.path.isfile(os.path.join(ROOT, a)) else a
                for a in args]
        r = subprocess.run([RXC, "compile"] + args, cwd=tmp, capture_output=True, text=True)
        if r.returncode != 0:
            return fail("%s failed:\n%s" % (compile_cmd.group(1), r.stderr))
        header = re.search(r'#include "([^"]+\.h)"', program[0])
        if not header or not os.path.exists(os.path.join(tmp, header.group(1))):
            return fail("the program includes no header that rxc compile wrote")
        with open(os.path.join(tmp, header.group(1))) as f:
            generated = f.read()
        missing = [line for line in blocks[0].splitlines()
                   if line.strip() not in ("", "...") and line not in generated]
        if missing:
            return fail("header excerpt lines not in the generated %s:\n  %s"
                        % (header.group(1), "\n  ".join(missing)))
        with open(os.path.join(tmp, "main.c"), "w") as f:
            f.write(program[0])
        cc = shlex.split(cc_cmd.group(1)) + ["-std=c11", "-Wall", "-Werror", "-o", "prog"]
        r = subprocess.run(cc, cwd=tmp, capture_output=True, text=True)
        if r.returncode != 0:
            return fail("%s failed:\n%s" % (" ".join(cc), r.stderr))
        r = subprocess.run([os.path.join(tmp, "prog")], capture_output=True, text=True)
        if r.returncode != 0 or r.stdout != output[0]:
            return fail("the program printed (exit %d):\n%sthe README says:\n%s"
                        % (r.returncode, r.stdout, output[0]))
    return 0


def check_deps(text):
    """Every package of the Makefile's DEB_PACKAGES in Quick start's
    paragraph on `make deps`; 0, or 1 after a message."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        m = re.search(r"^DEB_PACKAGES :?= ((?:.*\\\n)*.*)$", f.read(), re.M)
    packages = m.group(1).replace("\\\n", " ").split()
    quick = section(text, "Quick start (fresh Debian machine)")
    para = next((p for p in quick.split("\n\n") if p.startswith("`make deps` installs")), "")
    named = set(re.findall(r"[\w.+-]+", para))
    missing = [p for p in packages if p not in named]
    if missing:
        return fail("README.md's Quick start does not name what `make deps` installs: "
                    + " ".join(missing))
    return 0


def main(argv):
    update = "--update" in argv
    paths = [a for a in argv if a != "--update"]
    path = paths[0] if paths else os.path.join(ROOT, "README.md")
    with open(path) as f:
        text = f.read()
    new, diffs = check_tables(text)
    status = 0
    if update and new != text:
        with open(path, "w") as f:
            f.write(new)
        print("readme.py: updated the tables of " + path)
    elif diffs:
        sys.stdout.writelines(diffs)
        status = fail("README.md's tables differ from what their commands print (run %s --update)"
                      % os.path.relpath(__file__, ROOT))
    status |= check_program(new)
    status |= check_deps(new)
    if status == 0:
        print("readme.py: README.md's tables and C program are true")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
