#!/usr/bin/python3
"""validate.py - translation validation on random modules (gen.py).

For each seed, writes the module and its inputs, runs the reference
interpreter on the module as written (`rxc run --via interp`, no pass) and
the generated C after the full -O2 pipeline (`--via tcc`, and `--via cc`
for every --cc-every-th seed), and compares every output: shapes and
dtypes exactly, integers and bools exactly, floats within
|c - ref| <= rtol * (|ref| + scale) with rtol 1e-5, where scale is the
output's largest magnitude times 1e-2 (so that a value that cancelled to
near zero is judged against the magnitude of the tensor it came from), NaN
equal to NaN.  A module with a matmul or conv2d gets rtol 1e-4: the
generated code sums those in float32 (as TVM's legalized ops do), the
interpreter in float64, and a float32 sum of K terms is off by up to
K * 2^-24 of the sum of their magnitudes (make check-random found 2 of
10,000 modules between 1e-5 and 1e-4).  So does a module with a
normalization (layer, group, instance, rms or batch norm): it divides by
sqrt(var + eps), so a last-bit difference in what it reads (the generated
code's float32 log_softmax against the interpreter's float64, for one) is
multiplied by up to |gamma| / sqrt(eps) where a group's variance is small
(make check-random's seed 109647: eps 0.1, one ULP of a log_softmax became
3.25e-7 of an output of magnitude 2.6).

A failing seed is kept in --keep (default build/gen-failures/seed-N/: the
module, its inputs and the command lines) and named on a FAIL line; the
exit status is 1 when any seed failed.  Seeds listed in tests/gen/known/
(one file per known bug: its reproducer, with `# seeds: 1 2 3`) are
skipped and counted.

--sanitize builds the generated C with -fsanitize=address,undefined (rxc
run --via cc with [jit] cc_flags, ASan's runtime preloaded): an access
outside a buffer the caller gave (inputs, outputs, the arena) or undefined
behaviour aborts the run.  --wrap runs every rxc under a command
(valgrind).

--poison checks the memory plan's lifetimes instead (codegen/README.md,
`[codegen] poison`): the generated C built with `--set codegen.poison=1`
(each arena storage overwritten with 0xFF bytes where memplan ends its
lifetime, dead bytes and a canary after the arena checked) must return 0
and give exactly the bits of the same build without poison; a reader
after a storage's planned end reads NaN or -1 and changes them.  The
interpreter is not run (check-gen compares it).

usage: validate.py [--start S] [--count N] [--cc-every K] [--rxc PATH] [--sanitize]
                   [--poison] [--wrap CMD] [-v]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from compare import compare as shared_compare  # noqa: E402

RTOL = 1e-5
SUM32_RTOL = 1e-4  # float32 sums (matmul, conv2d) against float64 ones
AMPLIFYING_RTOL = 1e-4  # normalizations: input differences times gamma / sqrt(var + eps)
SUM32_OPS = ("R.matmul(", "R.nn.conv2d(")
AMPLIFYING_OPS = ("R.nn.layer_norm(", "R.nn.group_norm(", "R.nn.instance_norm(",
                  "R.nn.rms_norm(", "R.nn.batch_norm(")
HERE = os.path.dirname(os.path.abspath(__file__))


def known_seeds():
    seeds = {}
    d = os.path.join(HERE, "known")
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, f)) as fh:
            for line in fh:
                m = re.match(r"#\s*seeds:\s*(.*)", line)
                if m:
                    for s in m.group(1).split():
                        seeds[int(s)] = f
    return seeds


def write_case(d, text, inputs):
    with open(os.path.join(d, "m.py"), "w") as f:
        f.write(text)
    args = []
    for name, a in inputs.items():
        path = os.path.join(d, name + ".npy")
        np.save(path, a)
        args += ["--input", f"{name}={path}"]
    return args


SANITIZE_FLAGS = "-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"


def sanitizer_env():
    """The environment for `--via cc` with SANITIZE_FLAGS: rxc is not built
    with ASan, so its runtime is preloaded for the dlopen'ed model."""
    lib = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True).stdout
    env = dict(os.environ, LD_PRELOAD=lib.strip(), ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    return env


class Runner:
    """How rxc is run: the binary, a wrapper (valgrind), sanitized cc."""

    def __init__(self, rxc, wrap="", sanitize=False):
        self.rxc, self.wrap, self.sanitize = rxc, wrap.split(), sanitize
        self.env = sanitizer_env() if sanitize else None

    def command(self, model, args, via, out):
        cmd = [*self.wrap, self.rxc, "run", model, *args, "--via", via, "--output", out]
        if via == "cc" and self.sanitize:
            cmd += ["--set", f"jit.cc_flags={SANITIZE_FLAGS}"]
        return cmd


POISON = ["--set", "codegen.poison=1"]


def run(runner, d, args, via, multi, model="m.py", tag=""):
    out = os.path.join(d, f"out_{via}{tag}.npz" if multi else f"out_{via}{tag}.npy")
    cmd = runner.command(os.path.join(d, model), args, via, out)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=runner.env if via == "cc" else None)
    if p.returncode != 0:
        return None, cmd, p.stderr.strip()
    if multi:
        with np.load(out) as z:
            return [z[str(i)] for i in range(len(z.files))], cmd, ""
    return [np.load(out)], cmd, ""


def compare(ref, got, rtol=RTOL):
    """None when got matches ref, else a description of the first output
    that does not: tests/lib/compare.py with rtol relative to each element
    plus rtol of 1% of the largest finite |ref| (atol), so that values
    near zero after a cancellation are judged at the output's scale."""
    if len(ref) != len(got):
        return f"{len(got)} outputs, expected {len(ref)}"
    for i, (r, c) in enumerate(zip(ref, got)):
        atol = 0.0
        if r.dtype.kind == "f" and r.size:
            finite = np.isfinite(r)
            if finite.any():
                atol = rtol * 1e-2 * float(np.max(np.abs(r[finite].astype(np.float64))))
        why = shared_compare(c, r, rtol, atol)
        if why:
            return f"output {i}: {why}"
    return None


def poison_problem(runner, d, args, via, multi, model="m.py"):
    """None when the poisoned build (POISON) returns 0 with the bits of
    the plain one, else what differs."""
    plain, _, err = run(runner, d, args, via, multi, model)
    if plain is None:
        return f"--via {via} failed: {err}"
    got, _, err = run(runner, d, args + POISON, via, multi, model, "_poison")
    if got is None:
        return f"--via {via} with poison failed: {err}"
    for i, (r, c) in enumerate(zip(plain, got)):
        if r.shape != c.shape or r.dtype != c.dtype or r.tobytes() != c.tobytes():
            bad = np.argwhere(np.frombuffer(r.tobytes(), np.uint8) != np.frombuffer(c.tobytes(), np.uint8)) \
                if r.shape == c.shape and r.dtype == c.dtype else []
            return (f"--via {via}: output {i} with poison is not the bits without "
                    f"({len(bad)} bytes differ; a storage read after memplan ended its lifetime?)")
    return None


def module_rtol(text):
    """The relative tolerance of a module's outputs (the docstring says why)."""
    if any(op in text for op in SUM32_OPS):
        return SUM32_RTOL
    if any(op in text for op in AMPLIFYING_OPS):
        return AMPLIFYING_RTOL
    return RTOL


def check_seed(runner, seed, vias, keep, poison=False):
    text, inputs, _ = gen.gen_module(seed)
    multi = "R.Tuple(" in text.split("\n")[3]
    d = tempfile.mkdtemp(prefix=f"rxc-gen-{seed}-")
    try:
        args = write_case(d, text, inputs)
        ref, cmd, err = (None, None, "") if poison else run(runner, d, args, "interp", multi)
        problems = []
        if poison:
            problems = [p for p in (poison_problem(runner, d, args, via, multi) for via in vias) if p]
        elif ref is None:
            problems.append(f"interp failed: {err}")
        else:
            for via in vias:
                got, cmd, err = run(runner, d, args, via, multi)
                rtol = module_rtol(text)
                why = f"--via {via} failed: {err}" if got is None else compare(ref, got, rtol)
                if why:
                    problems.append(f"--via {via}: {why}" if got is not None else why)
        if problems:
            dest = os.path.join(keep, f"seed-{seed}")
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(d, dest)
            with open(os.path.join(dest, "README"), "w") as f:
                f.write(f"seed {seed}\n" + "\n".join(problems) + "\n")
            return [f"FAIL seed {seed} ({dest}/m.py): {p}" for p in problems]
        return []
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--cc-every", type=int, default=10, help="also --via cc on every K-th seed (0: never)")
    ap.add_argument("--rxc", default=os.environ.get("RXC", "build/rxc"))
    ap.add_argument("--keep", default="build/gen-failures")
    ap.add_argument("--wrap", default="", help="command prefix for every rxc run (valgrind ...)")
    ap.add_argument("--sanitize", action="store_true",
                    help="only --via cc, the generated C built with -fsanitize=address,undefined")
    ap.add_argument("--poison", action="store_true",
                    help="the build with [codegen] poison against the same build without, bit for bit")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    known = known_seeds()
    runner = Runner(a.rxc, a.wrap, a.sanitize)
    t0 = time.time()
    failed = skipped = ran_cc = 0
    for seed in range(a.start, a.start + a.count):
        if seed in known:
            skipped += 1
            continue
        vias = ["cc"] if a.sanitize else ["tcc"]
        if not a.sanitize and a.cc_every and seed % a.cc_every == 0:
            vias.append("cc")
        ran_cc += "cc" in vias
        lines = check_seed(runner, seed, vias, a.keep, a.poison)
        for line in lines:
            print(line, flush=True)
        failed += bool(lines)
        if a.v and not lines:
            print(f"ok seed {seed}", flush=True)
    n = a.count - skipped
    what = "poisoned builds give the same bits" if a.poison else "agree"
    print(f"random modules: {n - failed} of {n} {what} (seeds {a.start}..{a.start + a.count - 1}, "
          f"{ran_cc} also through cc, {skipped} known skipped) in {time.time() - t0:.0f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
