#!/usr/bin/python3
"""A newcomer's friction with the rxc command (issue 32), each point with
its check: the exit status and the exact text.

  plan      each storage named by the binding that produced its bytes, the
            weights (flash) total, in text, JSON and SVG alike
  list      rxc list ops|passes|onnx PATTERN filters; no match is status 1
  help      every option a parser accepts is in --help (help_options.py)
  folders   -o a/b/c creates the missing folders, for every verb that writes;
            -o onto a pipe or device (/dev/null) writes into it, never
            renames a file over it
  open      a file that cannot be opened says why (the OS's reason)
  location  a wrong-shaped input is reported at the parameter's declaration
  status    0 success, 1 bad input, 2 bad usage, as README promises

Runs in a few seconds; prints one line per failure and exits 1 if any.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

RXC = os.environ.get("RXC", "build/rxc")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
failures = []


def rxc(*args):
    r = subprocess.run([RXC] + list(args), capture_output=True, text=True, cwd=ROOT)
    return r.returncode, r.stdout, r.stderr


def check(what, ok, detail=""):
    if not ok:
        failures.append("%s%s" % (what, ": " + detail if detail else ""))


def expect(args, status, out=None, err=None, out_has=None, err_has=None):
    """rxc args exits with status; out/err exactly, or holding *_has."""
    got, o, e = rxc(*args)
    what = "rxc " + " ".join(args)
    check(what + " exit status", got == status, "%d, want %d; stderr: %s" % (got, status, e))
    if out is not None:
        check(what + " stdout", o == out, "got %r, want %r" % (o, out))
    if err is not None:
        check(what + " stderr", e == err, "got %r, want %r" % (e, err))
    if out_has is not None:
        check(what + " stdout", out_has in o, "%r not in %r" % (out_has, o[:2000]))
    if err_has is not None:
        check(what + " stderr", err_has in e, "%r not in %r" % (err_has, e))
    return o, e


def test_plan():
    """Storages named by their bindings; weights in every format, equal to
    what the generated C declares."""
    o, _ = expect(["plan", "tests/cli/plan_names.py"], 0)
    check("plan: the storage row names lv1 and its storage var",
          "\n  binding storage      bytes  live           offset\n"
          "  lv1     storage  unbounded  1..7       0  bytes = n * 32\n" in o, o)
    check("plan: weights line", "\nweights (flash): 0 bytes of constants, held as static const\n"
          in o, o)
    dm = ["samples/digits_mlp.py", "--params", "samples/digits_mlp.npz"]
    o, _ = expect(["plan"] + dm, 0)
    check("plan --params: weights 9640", "weights (flash): 9640 bytes of constants" in o, o)
    rows = re.findall(r"^  (\S+) +(storage\S*) +\d", o, re.M)
    check("plan: bindings", rows == [("lv3", "storage"), ("alloc", "storage_1"),
                                     ("lv6", "storage_2"), ("alloc_1", "storage_3")], str(rows))
    o, _ = expect(["plan", "--format", "json"] + dm, 0)
    d = json.loads(o)
    s = d["functions"][0]["storages"]
    check("plan json: weights_bytes", d.get("weights_bytes") == 9640, str(d.get("weights_bytes")))
    check("plan json: binding, storage",
          [(x["binding"], x.get("storage")) for x in s] == [(a, b) for a, b in rows], str(s))
    o, _ = expect(["plan", "--format", "svg"] + dm, 0)
    check("plan svg: weights in the title", "<title>rxc memory plan (weights: 9640 bytes)</title>"
          in o)
    check("plan svg: storages by binding", "<title>lv3 (storage): 65536 bytes at offset 0" in o)
    out = tempfile.mkdtemp(prefix="rxc-cli-")
    try:
        expect(["compile"] + dm + ["-o", out], 0)
        with open(os.path.join(out, "digits_mlp.h")) as f:
            check("plan's weights = NAME_WEIGHTS_BYTES",
                  "#define digits_mlp_WEIGHTS_BYTES 9640u" in f.read())
    finally:
        shutil.rmtree(out)


def names(md):
    return [line.split("`")[1] for line in md.splitlines()[2:]]


def test_list():
    """PATTERN: a substring, or a glob for the whole name; case ignored."""
    _, all_ops, _ = rxc("list", "ops")
    ops = names(all_ops)
    o, _ = expect(["list", "ops", "*_backward"], 0)
    want = [n for n in ops if n.endswith("_backward")]
    check("list ops '*_backward'", names(o) == want and len(want) >= 3, str(names(o)))
    check("list ops: the header first", o.startswith("| operator | struct info | interpreter | C |\n"
                                                     "|---|---|---|---|\n"), o)
    o, _ = expect(["list", "ops", "CONV2D"], 0)
    check("list ops CONV2D (any case, any part)", names(o) == [n for n in ops if "conv2d" in n],
          str(names(o)))
    o, _ = expect(["list", "ops", "nn.relu"], 0)  # a glob-free name matches anywhere
    check("list ops nn.relu", "R.nn.relu" in names(o), o)
    o, _ = expect(["list", "ops", "nn.relu", "--format", "csv"], 0)
    check("list ops --format csv PATTERN", o.splitlines()[0] == "operator,struct info,interpreter,C"
          and o.splitlines()[1].startswith("R.nn.relu,"), o)
    o, _ = expect(["list", "onnx", "reduce*"], 0)
    check("list onnx reduce*", names(o) and all(n.startswith("Reduce") for n in names(o)), o)
    o, _ = expect(["list", "passes", "Fuse"], 0)
    check("list passes Fuse", names(o) and all("Fuse" in n for n in names(o)), o)
    expect(["list", "ops", "no_such_op"], 1, out="",
           err="rxc: no operator matches 'no_such_op' (rxc list ops lists them all)\n")
    expect(["list", "passes", "zzz"], 1, out="",
           err="rxc: no pass matches 'zzz' (rxc list passes lists them all)\n")
    expect(["list", "ops", "a", "b"], 2, err_has="list takes one PATTERN, got another: 'b'")


def test_help():
    r = subprocess.run([sys.executable, os.path.join(HERE, "help_options.py")], cwd=ROOT,
                       capture_output=True, text=True, env=dict(os.environ, RXC=RXC))
    check("help_options.py", r.returncode == 0, r.stdout + r.stderr)
    o, _ = expect(["plan", "--help"], 0)
    for word in ["--format text|json|svg|csv", "--emit-lifetimes", "--lifetimes", "--capacity"]:
        check("plan --help shows " + word, word in o)
    o, _ = expect(["--help"], 0)
    for word in ["--dim-bound N", "--via interp|tcc|cc", "--dump DIR", "[--format text|json|svg|csv]",
                 "codegen.weights=inline|separate|bytes|blob", "memplan.default_upper_bound=N",
                 "  list ops|passes|onnx [PATTERN]"]:
        check("--help shows " + word, word in o)


def test_folders():
    """-o a/b/c: the missing folders are made, for every verb that writes."""
    tmp = tempfile.mkdtemp(prefix="rxc-cli-")
    try:
        t = lambda *p: os.path.join(tmp, *p)
        expect(["opt", "tests/cli/a.py", "-o", t("o", "p", "a.py")], 0)
        expect(["plan", "tests/cli/a.py", "-o", t("p", "q", "plan.txt")], 0)
        expect(["plan", "samples/digits_mlp.py", "--emit-lifetimes", t("e", "f", "l.csv")], 0)
        expect(["import", "tests/onnx/dyn_shape.onnx", "-o", t("i", "j", "m.py"),
                "--params", t("k", "w.npz")], 0)
        expect(["compile", "tests/cli/a.py", "-o", t("c", "d")], 0)
        expect(["compile", "samples/digits_mlp.py", "-o", t("c", "d")], 0)  # exists: fine
        expect(["run", "tests/cli/a.py", "--output", t("r", "s", "out.npy")] + a_inputs(tmp), 0)
        expect(["run", "tests/cli/a.py", "--dump", t("u", "v")] + a_inputs(tmp), 0)
        for p in [("o", "p", "a.py"), ("p", "q", "plan.txt"), ("e", "f", "l.csv"),
                  ("i", "j", "m.py"), ("k", "w.npz"), ("c", "d", "a.h"), ("c", "d", "digits_mlp.c"),
                  ("r", "s", "out.npy"), ("u", "v", "order.txt")]:
            check("wrote " + "/".join(p), os.path.isfile(t(*p)))
        open(t("file"), "w").close()
        expect(["opt", "tests/cli/a.py", "-o", t("file", "x.py")], 1,
               err="rxc: error: cannot write '%s': Not a directory\n" % t("file", "x.py"))
        expect(["compile", "tests/cli/a.py", "-o", t("file", "c")], 1,
               err="rxc: error: cannot create folder '%s': Not a directory\n" % t("file", "c"))
        # a FIFO stands for /dev/null: as root, a rename over the device replaced it
        os.mkfifo(t("fifo"))
        got = []
        reader = threading.Thread(target=lambda: got.append(open(t("fifo")).read()), daemon=True)
        reader.start()
        expect(["opt", "tests/cli/a.py", "-o", t("fifo")], 0)
        reader.join(10)
        check("-o FIFO: still a FIFO", stat.S_ISFIFO(os.stat(t("fifo")).st_mode))
        check("-o FIFO: the module written into it", bool(got) and "@I.ir_module" in got[0], str(got)[:200])
    finally:
        shutil.rmtree(tmp)


def a_inputs(tmp):
    """--input x=, y= for tests/cli/a.py (x: (n, 4), y: (1, 4) float32)."""
    import numpy as np
    x, y = os.path.join(tmp, "x.npy"), os.path.join(tmp, "y.npy")
    np.save(x, np.ones((2, 4), np.float32))
    np.save(y, np.ones((1, 4), np.float32))
    return ["--input", "x=" + x, "--input", "y=" + y]


def test_open():
    """The OS's reason after 'cannot open'."""
    nope = "build/no_such_dir/nope"
    reason = "No such file or directory"
    expect(["check", nope + ".py"], 1,
           err="rxc: error: cannot open '%s.py': %s\n" % (nope, reason))
    expect(["check", nope + ".onnx"], 1,
           err="rxc: error: cannot open '%s.onnx': %s\n" % (nope, reason))
    expect(["--config", nope + ".ini", "check", "tests/cli/a.py"], 1,
           err="rxc: error: cannot open '%s.ini': %s\n" % (nope, reason))
    expect(["run", "tests/interp/kernels.py", "--fn", "elementwise", "--input",
            "x=%s.npy" % nope], 1, err="%s.npy: error: cannot open file: %s\n" % (nope, reason))
    expect(["run", "tests/cli/a.py", "--params", nope + ".npz"], 1,
           err="%s.npz: error: cannot open file: %s\n" % (nope, reason))
    expect(["compile", "tests/cli/a.py", "--params", nope + ".npz", "-o", "build/cli-never"], 1,
           err="%s.npz: error: cannot open file: %s\n" % (nope, reason))
    check("nothing written on error", not os.path.exists(os.path.join(ROOT, "build/cli-never")))
    expect(["plan", "--lifetimes", nope + ".csv"], 1,
           err="rxc: error: cannot open '%s.csv': %s\n" % (nope, reason))
    expect(["run", "tests/cli/a.py", "--params", "tests"], 1,
           err="tests: error: cannot read file: Is a directory\n")
    expect(["check", "tests"], 1, err="rxc: error: cannot read 'tests': Is a directory\n")


def test_location():
    """A wrong-shaped input: file:line:col of the parameter, through the
    interpreter and the compiled code (tests/hostile has the whole text)."""
    tmp = tempfile.mkdtemp(prefix="rxc-cli-")
    try:
        import numpy as np
        x = os.path.join(tmp, "x.npy")
        np.save(x, np.zeros((3, 4), np.float32))
        for via in ["interp", "tcc"]:
            _, e = expect(["run", "tests/cli/a.py", "--input", "x=" + x, "--input", "y=" + x,
                           "--via", via], 1)
            check("run --via %s: at y's declaration" % via,
                  e.startswith("tests/cli/a.py:7:54: error: "), e)
        _, e = expect(["run", "tests/cli/prim_param.py", "--input", "x=" + x, "--input", "s=2",
                       "--via", "tcc"], 1)
        check("run --via tcc: a prim parameter at its declaration", e.startswith(
            "tests/cli/prim_param.py:6:50: error: parameter 's' is not a tensor: "), e)
    finally:
        shutil.rmtree(tmp)


def test_status():
    """README: 0 success, 1 bad input, 2 bad usage."""
    for args in [[], ["bogus"], ["plan"], ["opt", "tests/cli/a.py", "--bogus"], ["-O3", "opt",
                 "tests/cli/a.py"], ["run", "tests/cli/a.py", "--via", "gpu"], ["list"],
                 ["list", "everything"], ["compile", "tests/cli/a.py"], ["import"],
                 ["equiv", "tests/cli/a.py"], ["check", "a.py", "b.py"], ["plan", "--capacity", "0",
                 "--lifetimes", "x.csv"], ["--set", "nosuchkey"], ["run", "tests/cli/a.py",
                 "--output", "out.txt"]]:
        got, _, e = rxc(*args)
        check("rxc %s: bad usage is 2" % " ".join(args), got == 2, "%d: %s" % (got, e))
    expect(["check", "tests/cli/bad.py"], 1)
    expect(["equal", "tests/cli/a.py", "tests/cli/b.py"], 1)
    expect(["check", "tests/cli/a.py"], 0, out="", err="")
    expect(["--version"], 0)


def main():
    for test in [test_plan, test_list, test_help, test_folders, test_open, test_location,
                 test_status]:
        before = len(failures)
        try:
            test()
        except Exception as e:  # a test that cannot go on is one failure
            failures.append("%s: %s: %s" % (test.__name__, type(e).__name__, e))
        print("%-14s %s" % (test.__name__[5:], "ok" if len(failures) == before else "FAILED"))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
