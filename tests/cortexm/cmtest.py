"""cmtest.py - what the firmware test (run.py) and the -nostdlib host test
(freestanding.py) share: generating the digits models' C, their inputs
and the interpreter's outputs, and comparing a test program's printout
(main.c's format) with those outputs.
"""
import os
import subprocess
import sys

import numpy as np

import gen_inputs

ROOT = gen_inputs.ROOT
HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(ROOT, "config", "cortex-m4.ini")
# A batch bound a microcontroller can afford: with the models' own (512)
# digits_cnn's arena is 1.3 MB, above cortex-m4.ini's arena_limit.
BOUND = 16
STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-ffreestanding"]
RTOL = 1e-5
ERR_ARENA_SIZE = -2


def rxc_path():
    return os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))


def run(cmd, **kwargs):
    """Runs cmd; on failure prints it with its output and raises."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    if r.returncode != 0:
        sys.stderr.write("$ %s\n%s%s" % (" ".join(cmd), r.stdout, r.stderr))
        raise RuntimeError("%s failed with status %d" % (cmd[0], r.returncode))
    return r


def config_cc():
    """The [target] cc of cortex-m4.ini, split into words."""
    text = run([rxc_path(), "--print-config", "--config", CONFIG]).stdout
    for line in text.splitlines():
        if line.startswith("cc = "):
            return line[len("cc = "):].split()
    raise RuntimeError("no [target] cc in rxc --print-config")


def prepare(outdir):
    """Generates into outdir the models' C (cortex-m4.ini, n <= BOUND),
    inputs.h and the interpreter's outputs; returns (C files, {model: ref})."""
    os.makedirs(outdir, exist_ok=True)
    inputs = gen_inputs.write_inputs(outdir)
    sources, refs = [], {}
    for model in inputs:
        script = os.path.join(ROOT, "samples", model + ".py")
        params = os.path.join(ROOT, "samples", model + ".npz")
        run([rxc_path(), "compile", script, "--params", params, "--config", CONFIG,
             "--set", "memplan.upper_bound.n=%d" % BOUND, "-o", outdir])
        sources.append(os.path.join(outdir, model + ".c"))
        ref = os.path.join(outdir, model + "_ref.npy")
        run([rxc_path(), "run", script, "--params", params, "--via", "interp",
             "--input", "x=" + os.path.join(outdir, model + "_x.npy"), "--output", ref])
        refs[model] = np.load(ref)
    return sources, refs


def parse(text):
    """main.c's printout as {model: {"status": int, "arena_short": int,
    "canaries": str, "rows": {i: (class, float32 array)}}} and the count
    on the end line (None without one)."""
    models, end = {}, None
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "end":
            end = int(words[1])
            continue
        if len(words) < 3:
            continue
        m = models.setdefault(words[0], {"rows": {}})
        if words[1] in ("status", "arena_short"):
            m[words[1]] = int(words[2])
        elif words[1] == "canaries":
            m["canaries"] = words[2]
        elif words[1] == "row" and words[3] == "class":
            bits = np.array([int(w, 16) for w in words[5:]], dtype=np.uint32)
            m["rows"][int(words[2])] = (int(words[4]), bits.view(np.float32))
    return models, end


def compare_model(name, got, ref):
    """The errors of one model's printout against the interpreter's ref."""
    errors = []
    if got.get("status") != 0:
        errors.append("%s: entry returned %s" % (name, got.get("status")))
    if got.get("arena_short") != ERR_ARENA_SIZE:
        errors.append("%s: one byte short gave %s, not %d" % (name, got.get("arena_short"), ERR_ARENA_SIZE))
    if got.get("canaries") != "ok":
        errors.append("%s: arena canaries %s" % (name, got.get("canaries")))
    if sorted(got["rows"]) != list(range(len(ref))):
        return errors + ["%s: rows %s printed, want 0..%d" % (name, sorted(got["rows"]), len(ref) - 1)]
    worst = 0.0
    for i, want in enumerate(ref):
        cls, row = got["rows"][i]
        rel = np.abs(row.astype(np.float64) - want) / np.maximum(np.abs(want), 1e-30)
        if row.shape != want.shape or not np.all(rel <= RTOL):
            errors.append("%s row %d: %s, interpreter %s" % (name, i, row.tolist(), want.tolist()))
        else:
            worst = max(worst, float(rel.max()))
        if cls != int(np.argmax(want)):
            errors.append("%s row %d: class %d, interpreter %d" % (name, i, cls, int(np.argmax(want))))
    print("  %s: %d digits, classes %s, largest relative difference %.2g"
          % (name, len(ref), [got["rows"][i][0] for i in range(len(ref))], worst))
    return errors


def compare(text, refs):
    """The errors of a whole printout (empty when it matches)."""
    models, end = parse(text)
    errors = []
    for name, ref in refs.items():
        if name not in models:
            errors.append("%s: no output" % name)
        else:
            errors += compare_model(name, models[name], ref)
    if end != 0:
        errors.append("end line: %s" % ("missing" if end is None else "%d failures" % end))
    return errors


def report(check, errors):
    """Prints each error and the verdict; returns the exit status."""
    for e in errors:
        print("FAIL " + e)
    print("%s: %s" % (check, "FAILED" if errors else "passed"))
    return 1 if errors else 0
