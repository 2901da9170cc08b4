"""cmtest.py - what the firmware test (run.py) and the -nostdlib host test
(freestanding.py) share: generating the digits models' C, their inputs,
the interpreter's outputs and the host's (--via cc) predictions on all
held-out digits, and comparing a test program's printout (main.c's
format) with those.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import gen_inputs

ROOT = gen_inputs.ROOT
HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(ROOT, "config", "cortex-m4.ini")
BOUND = gen_inputs.BOUND
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


def compile_model(model, outdir, extra=()):
    """rxc compile of samples/MODEL.py with its weights for cortex-m4.ini at
    n <= BOUND into outdir; returns the path of the .c."""
    run([rxc_path(), "compile", os.path.join(ROOT, "samples", model + ".py"),
         "--params", os.path.join(ROOT, "samples", model + ".npz"), "--config", CONFIG,
         "--set", "memplan.upper_bound.n=%d" % BOUND, "-o", outdir] + list(extra))
    return os.path.join(outdir, model + ".c")


def header_bytes(model, outdir):
    """(NAME_ARENA_BYTES, NAME_WEIGHTS_BYTES) of the header compile_model
    wrote."""
    with open(os.path.join(outdir, model + ".h")) as f:
        text = f.read()
    found = [re.search(r"^#define %s_%s_BYTES (\d+)u" % (model, what), text, re.M)
             for what in ("ARENA", "WEIGHTS")]
    if not all(found):
        raise RuntimeError("%s.h: no %s_ARENA_BYTES or %s_WEIGHTS_BYTES" % (model, model, model))
    return tuple(int(m.group(1)) for m in found)


def host_classes(model, x_path):
    """The argmaxes of samples/MODEL.py on x through `rxc run --via cc`
    (the host's C compiler, the model's own bound of n)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.npy")
        run([rxc_path(), "run", os.path.join(ROOT, "samples", model + ".py"),
             "--params", os.path.join(ROOT, "samples", model + ".npz"), "--via", "cc",
             "--input", "x=" + x_path, "--output", out])
        return np.load(out).argmax(axis=1)


def prepare(outdir):
    """Generates into outdir the models' C (cortex-m4.ini, n <= BOUND),
    inputs.h and the interpreter's outputs; returns (C files, refs), refs
    {model: interpreter's outputs on the TEST_DIGITS, "labels": labels of
    all digits, "all": {model: host's predictions on all digits}}."""
    os.makedirs(outdir, exist_ok=True)
    inputs = gen_inputs.write_inputs(outdir)
    sources, refs = [], {"rows": {}, "all": {}}
    for model in inputs:
        sources.append(compile_model(model, outdir))
        ref = os.path.join(outdir, model + "_ref.npy")
        run([rxc_path(), "run", os.path.join(ROOT, "samples", model + ".py"),
             "--params", os.path.join(ROOT, "samples", model + ".npz"), "--via", "interp",
             "--input", "x=" + os.path.join(outdir, model + "_x.npy"), "--output", ref])
        refs["rows"][model] = np.load(ref)
    for model in gen_inputs.ACCURACY_MODELS:
        refs["all"][model] = host_classes(model, os.path.join(outdir, "all_x.npy"))
    refs["labels"] = np.load(os.path.join(outdir, "all_labels.npy"))
    return sources, refs


def parse(text):
    """main.c's printout as {model: {"status": int, "arena_short": int,
    "canaries": str, "rows": {i: (class, float32 array)}, "classes":
    {first digit: [class, ...]}}} and the count on the end line (None
    without one)."""
    models, end = {}, None
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "end":
            end = int(words[1])
            continue
        if len(words) < 3:
            continue
        m = models.setdefault(words[0], {"rows": {}, "classes": {}})
        if words[1] in ("status", "arena_short"):
            m[words[1]] = int(words[2])
        elif words[1] == "canaries":
            m["canaries"] = words[2]
        elif words[1] == "row" and words[3] == "class":
            bits = np.array([int(w, 16) for w in words[5:]], dtype=np.uint32)
            m["rows"][int(words[2])] = (int(words[4]), bits.view(np.float32))
        elif words[1] == "classes":
            m["classes"][int(words[2])] = [int(w) for w in words[3:]]
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


def batch_classes(got):
    """The classes lines of one model joined in digit order; None when a
    batch is missing or out of order."""
    joined = []
    for first in sorted(got["classes"]):
        if first != len(joined):
            return None
        joined += got["classes"][first]
    return np.array(joined, dtype=np.int64)


def compare_accuracy(models, refs):
    """The errors of the accuracy pass: each model's predictions on all
    digits must be the host's (rxc run --via cc) exactly; prints each
    model's accuracy and requires the quantized one's within 1 point of
    the float one's (issue 23)."""
    errors, accuracy = [], {}
    labels = refs["labels"]
    for name, want in refs["all"].items():
        got = batch_classes(models.get(name, {"classes": {}}))
        if got is None or len(got) != len(want):
            errors.append("%s: the classes of %s digits printed, want %d"
                          % (name, "some" if got is None else len(got), len(want)))
            continue
        differ = np.flatnonzero(got != want)
        if len(differ):
            errors.append("%s: %d predictions differ from the host's (cc), digits %s"
                          % (name, len(differ), differ[:10].tolist()))
        accuracy[name] = (got == labels).mean()
        print("  %s on all %d held-out digits: %d correct = %.2f%%, predictions %s the host's (cc)"
              % (name, len(labels), (got == labels).sum(), 100 * accuracy[name],
                 "differ from" if len(differ) else "equal to"))
    float_name, int8_name = gen_inputs.ACCURACY_MODELS
    if float_name in accuracy and int8_name in accuracy:
        f, q = accuracy[float_name], accuracy[int8_name]
        if q < f - 0.01:
            errors.append("%s: accuracy %.2f%% is more than 1 point below %s's %.2f%%"
                          % (int8_name, 100 * q, float_name, 100 * f))
    return errors


def compare(text, refs):
    """The errors of a whole printout (empty when it matches)."""
    models, end = parse(text)
    errors = []
    for name, ref in refs["rows"].items():
        if name not in models:
            errors.append("%s: no output" % name)
        else:
            errors += compare_model(name, models[name], ref)
    errors += compare_accuracy(models, refs)
    if end != 0:
        errors.append("end line: %s" % ("missing" if end is None else "%d failures" % end))
    return errors


def report(check, errors):
    """Prints each error and the verdict; returns the exit status."""
    for e in errors:
        print("FAIL " + e)
    print("%s: %s" % (check, "FAILED" if errors else "passed"))
    return 1 if errors else 0
