#!/usr/bin/python3
"""How much of TVM v0.26.0's own Relax test TVMScript rxc reads (issue 22).

Reads tests/python/relax/*.py of TVM v0.26.0 from the bare mirror
(/work/.mirror/apache+tvm/repo, or $TVM_MIRROR), extracts every module
written as pure TVMScript, and for each runs `rxc check` (read) and a round
trip in each output dialect D (v0.23, v0.26; --dialect D picks one):
`rxc opt --dialect D --passes Normalize` gives text t1; reading t1 and
Normalize again gives t2; `rxc equal t1 t2` must hold and t1 == t2 (the
same check as tests/unit/test_roundtrip.c, through the command line).
With both dialects it also counts the modules whose two texts t1 are
structurally equal ("dialects agree": not so where v0.26 moves call_tir's
tir_vars into its arguments, docs/text-format.md).  Prints the counts
and the most frequent first error lines.  The modules stay in the mirror:
nothing of TVM's text is copied into this repository.  Without the mirror
it prints "SKIPPED: no TVM mirror" and exits 0 (CI has none), or 1 under
REQUIRE_ALL=1.  With it, a whole run (no -k) exits 1 when fewer modules
are pure, read or round-trip than MINIMUM (the rates tests/README.md
states).  `make check-tvm-tests` runs it.

Extraction rules (Python's ast module on each test file):
- a module is a class decorated `@I.ir_module`, `@ir.ir_module`,
  `@tvm.script.ir_module` or `@ir_module` (with or without call arguments),
  or a function decorated `@R.function` / `@T.prim_func` (with or without
  arguments) that is not inside such a class or another decorated function;
  nested classes/functions are found wherever they sit (in test functions,
  in classes);
- it is pure when every name it loads is bound inside the block itself (a
  parameter, an assignment, a loop or with target, a function or class
  defined in it) or is one of R, T, I, True, False, None, range; a name
  from the enclosing Python (a shape, a dtype, a helper) makes it impure
  ("python variable"), and so does the Python API (`relax.op.add`,
  `tvm.tir.IntImm`: "python api"; `tvm.script` in decorators is fine);
- also impure: f-strings, comprehensions, lambdas, `*`/`**` arguments,
  R.emit_te, T.meta_var, T.macro, T.inline, decorator arguments that are not
  literals, and `metadata[...]` (constants kept out of the text);
- a block's text is its source lines (decorators included) dedented, with
  the three TVMScript import comments in front.
Options: -j N (parallel rxc runs), -v (print each failure), -k WORD (only
files whose name contains WORD), --show N (reasons listed, default 15),
--dump DIR (write the pure modules to DIR to look at; not in the repo),
--log FILE (each failing module and its reason).
"""
import argparse
import ast
import collections
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import textwrap

MIRROR = os.environ.get("TVM_MIRROR", "/work/.mirror/apache+tvm/repo")
TAG = "refs/tags/v0.26.0"
TESTDIR = "tests/python/relax"
RXC = os.environ.get("RXC", "build/rxc")
DIALECTS = ("v0.23", "v0.26")  # the printer's output dialects (docs/text-format.md)
HEADER = ("# from tvm.script import ir as I\n# from tvm.script import tir as T\n"
          "# from tvm.script import relax as R\n\n")
GLOBAL_NAMES = {"R", "T", "I", "True", "False", "None", "range"}
IMPURE_ATTRS = {"emit_te", "meta_var", "macro", "inline"}


def git(*args):
    return subprocess.run(["git", "--git-dir=" + MIRROR] + list(args), capture_output=True,
                          text=True, check=True).stdout


def dotted(node):
    """'a.b.c' for a Name/Attribute chain, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return head + "." + node.attr if head else None
    return None


def deco_name(d):
    return dotted(d.func if isinstance(d, ast.Call) else d)


def is_module_class(node):
    return isinstance(node, ast.ClassDef) and any(
        (deco_name(d) or "").endswith("ir_module") for d in node.decorator_list)


def is_script_func(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        deco_name(d) in ("R.function", "T.prim_func", "relax.function", "tir.prim_func",
                         "tirx.prim_func") for d in node.decorator_list)


def find_blocks(tree):
    """The outermost module classes and free-standing script functions."""
    out = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if is_module_class(child) or is_script_func(child):
                out.append(child)
            else:
                visit(child)
    visit(tree)
    return out


def bound_names(block):
    names = set()
    for n in ast.walk(block):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, ast.TypeVar if hasattr(ast, "TypeVar") else ()):
            names.add(n.name)
    return names


def impurity(block):
    """Why block is not pure TVMScript, or None."""
    for d in getattr(block, "decorator_list", []):
        if isinstance(d, ast.Call):
            for a in list(d.args) + [k.value for k in d.keywords]:
                if not isinstance(a, ast.Constant):
                    return "decorator argument"
    bound = bound_names(block)
    # `tvm.script.ir_module` and the like are allowed in decorators only
    allowed = set()
    for n in ast.walk(block):
        for d in getattr(n, "decorator_list", []):
            allowed.update(id(x) for x in ast.walk(d) if isinstance(x, ast.Name))
    for n in ast.walk(block):
        if isinstance(n, ast.JoinedStr):
            return "f-string"
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return "comprehension"
        if isinstance(n, ast.Lambda):
            return "lambda"
        if isinstance(n, (ast.Starred,)) or (isinstance(n, ast.keyword) and n.arg is None):
            return "star argument"
        if isinstance(n, ast.Attribute) and n.attr in IMPURE_ATTRS:
            return n.attr
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id == "metadata":
                return "metadata"
            if n.id in ("relax", "tir", "tirx", "tvm") and id(n) not in allowed:
                return "python api"
            if n.id not in bound and n.id not in GLOBAL_NAMES and id(n) not in allowed:
                return "python variable"
    return None


def block_text(src_lines, block):
    first = min([d.lineno for d in getattr(block, "decorator_list", [])] + [block.lineno])
    body = "".join(src_lines[first - 1:block.end_lineno])
    return HEADER + textwrap.dedent(body)


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            # drop the file:line:col prefix so equal reasons group
            parts = line.split(": ", 1)
            return parts[1] if len(parts) == 2 and parts[0].count(":") >= 1 else line
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0] if lines else "(no message)"


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


def round_trip(d, src, dialect):
    """None when src round-trips in dialect, else the reason."""
    t1, t2 = os.path.join(d, dialect + ".t1.py"), os.path.join(d, dialect + ".t2.py")
    opt = [RXC, "opt", "--dialect", dialect, "--passes", "Normalize"]
    r = run(opt + [src, "-o", t1])
    if r.returncode != 0:
        return "normalize: " + first_error(r.stderr + r.stdout)
    r = run(opt + [t1, "-o", t2])
    if r.returncode != 0:
        return "reread: " + first_error(r.stderr + r.stdout)
    r = run([RXC, "equal", t1, t2])
    if r.returncode != 0:
        return "reread differs: " + first_error(r.stdout + r.stderr)
    if open(t1).read() != open(t2).read():
        return "printing is not a fixed point"
    return None


def check_one(item, dialects=DIALECTS):
    """(read_ok, {dialect: trip_ok}, agree, reason) for one module text."""
    name, text = item
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "m.py")
        with open(src, "w") as f:
            f.write(text)
        trips, reason, agree = {D: False for D in dialects}, None, False
        try:
            r = run([RXC, "check", src])
            if r.returncode != 0:
                return False, trips, False, "read: " + first_error(r.stderr + r.stdout)
            for D in dialects:
                why = round_trip(d, src, D)
                trips[D] = why is None
                if why and not reason:
                    reason = "%s %s" % (D, why)
            if len(dialects) == 2 and all(trips.values()):
                t1s = [os.path.join(d, D + ".t1.py") for D in dialects]
                agree = run([RXC, "equal"] + t1s).returncode == 0
        except subprocess.TimeoutExpired:
            return False, trips, False, "timeout"
        return True, trips, agree, reason


# The counts tests/README.md states (2026-11-26, merged main): a whole run
# below any of them fails.
MINIMUM = {"pure": 3376, "read": 3247, "v0.23": 3245, "v0.26": 3245, "agree": 3241}


def below_minimum(counts):
    """The lines naming each count under its MINIMUM."""
    return ["%s: %d, below the %d tests/README.md states" % (k, counts[k], MINIMUM[k])
            for k in MINIMUM if k in counts and counts[k] < MINIMUM[k]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("-k", default="")
    ap.add_argument("--show", type=int, default=15)
    ap.add_argument("--dump", default="")
    ap.add_argument("--log", default="")
    ap.add_argument("--dialect", choices=DIALECTS, help="round-trip in this dialect only")
    opt = ap.parse_args()
    dialects = (opt.dialect,) if opt.dialect else DIALECTS
    if not os.path.isdir(MIRROR):
        print("tvm_tests: SKIPPED: no TVM mirror at %s (set TVM_MIRROR)" % MIRROR)
        return 1 if os.environ.get("REQUIRE_ALL") == "1" else 0
    files = [p for p in git("ls-tree", "-r", "--name-only", TAG, "--", TESTDIR).split()
             if p.endswith(".py") and opt.k in os.path.basename(p)]
    found, pure, impure = 0, [], collections.Counter()
    for path in files:
        src = git("show", TAG + ":" + path)
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        lines = src.splitlines(keepends=True)
        for block in find_blocks(tree):
            found += 1
            why = impurity(block)
            if why:
                impure[why] += 1
                continue
            name = "%s:%d:%s" % (os.path.basename(path), block.lineno, block.name)
            pure.append((name, block_text(lines, block)))
    if opt.dump:
        os.makedirs(opt.dump, exist_ok=True)
        for name, text in pure:
            with open(os.path.join(opt.dump, name.replace(":", "_") + ".py"), "w") as f:
                f.write(text)
    with concurrent.futures.ThreadPoolExecutor(max(1, opt.j)) as ex:
        results = list(ex.map(lambda item: check_one(item, dialects), pure))
    reasons = collections.Counter()
    log = open(opt.log, "w") if opt.log else None
    for (name, _), (read_ok, trips, agree, why) in zip(pure, results):
        if why:
            reasons[why] += 1
            if log:
                log.write("%s\t%s\n" % (name, why))
            if opt.v:
                print("FAIL %s: %s" % (name, why))
    nread = sum(r[0] for r in results)
    pct = lambda a: 100.0 * a / len(pure) if pure else 0.0
    print("TVM v0.26.0 %s: %d files, %d modules found, %d pure (impure: %s)" % (
        TESTDIR, len(files), found, len(pure),
        ", ".join("%s %d" % kv for kv in impure.most_common())))
    print("read OK: %d (%.1f%%)" % (nread, pct(nread)))
    for D in dialects:
        ntrip = sum(r[1][D] for r in results)
        print("round-trip OK in %s: %d (%.1f%%)" % (D, ntrip, pct(ntrip)))
    if len(dialects) == 2:
        nagree = sum(r[2] for r in results)
        print("dialects agree (both texts equal): %d (%.1f%%)" % (nagree, pct(nagree)))
    print("top failure reasons:")
    for why, n in reasons.most_common(opt.show):
        print("%5d  %s" % (n, why[:160]))
    if opt.k:
        return 0  # a part of the modules: no rate to hold
    counts = {"pure": len(pure), "read": nread}
    for D in dialects:
        counts[D] = sum(r[1][D] for r in results)
    if len(dialects) == 2:
        counts["agree"] = sum(r[2] for r in results)
    low = below_minimum(counts)
    for line in low:
        print("tvm_tests: FAIL: " + line)
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
