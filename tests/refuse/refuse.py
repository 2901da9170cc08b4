#!/usr/bin/python3
"""refuse.py - the generated code refuses what the interpreter refuses.

For each seed, modgen.py builds a random `main` over parameters with
symbolic dims whose ops relate different vars (x:(n,) + w:(m,), a matmul
of (n, k) by (m, 2), a reshape of (n, 4) into (m, 5), a match_cast to
(4,) ...), and draws several sets of var values, about half of them
meeting every relation, the rest breaking one (or the signature, or a
bound).  Each input set runs three ways: `rxc run --via interp`, `--via
cc` and `--via tcc` (the generated C of the -O2 pipeline, built by gcc or
by libtcc in process).

Key idea: the interpreter is the oracle of *whether* a call is valid.  The
rule checked is that every condition under which it refuses a call is
proved at compile time or checked by the generated entry, which then
returns an error before writing anything.  So each input set must end one
way on all three paths:

- refused: exit 1 with a diagnostic (and no output file written);
- ran: exit 0, the outputs (--output out.npy, or out.npz for a tuple)
  equal within rtol 1e-5 (1e-4 for a module with a matmul, conv2d, sum or mean, which
  the C sums in float32), NaN equal to NaN (tests/gen/validate.py's
  compare).

A disagreement is one path refusing and another running, outputs that
differ, `rxc compile` failing on a module the interpreter runs on this
input, or any other end: a signal, exit 2 or 3, a timeout, exit 1 without
a diagnostic, a refusal that wrote its output, a sanitizer report
(--sanitize).  Each is printed as `DISAGREE seed=S input=I: interp=...,
cc=..., tcc=...` and kept (module, inputs, commands) in --keep DIR.  The
last line counts: `refuse: N modules, M runs, R refused by all, A agreed
outputs, D disagreements, T s` (a run is one input set through the three
paths).  Exit status 1 when any disagreement.

usage: refuse.py [--start S] [--count N] [--seconds T] [--jobs J] [--sanitize]
                 [--inputs K] [--families a,b|all] [--via interp,cc,tcc] [--stats]
                 [--keep DIR] [--rxc PATH] [-v]
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import modgen  # noqa: E402
import validate  # noqa: E402  (tests/gen: compare, sanitizer flags)

RTOL, SUM32_RTOL = 1e-5, 1e-4
TIMEOUT = 120
# An exit 1 of the C paths that is not a refusal: building or loading the
# generated C failed (codegen/cc.c, codegen/jit.c), which `rxc compile`
# cannot see.
BUILD_FAILED = ("failed on the generated code", "tcc: ", "cannot load '", "cannot create a")
SANITIZER_WORDS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer",
                   "runtime error:")
VIAS = ("interp", "cc", "tcc")
# rxc run --via fills the outputs with a sentinel and says this when the
# entry refused after writing one (cli/compile.c)
WROTE_OUTPUT = "before refusing"



class Outcome:
    """How one path ended: kind is "ran", "refused", "compile" (rxc compile
    failed, so the C path was not run) or "fail" (anything else)."""

    def __init__(self, kind, msg="", outputs=None):
        self.kind, self.msg, self.outputs = kind, msg, outputs

    def __str__(self):
        if self.kind == "ran":
            return "ran"
        word = {"refused": "refused", "compile": "compile error", "fail": "FAILED"}[self.kind]
        return f"{word} ({self.msg})" if self.msg else word


def first_error(stderr, d=None):
    """The first line of stderr that says error (temporary paths cut)."""
    if d:
        stderr = stderr.replace(d + "/", "")
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    for l in lines:
        if "error" in l:
            return l[:200]
    return lines[0][:200] if lines else ""


def ended(p_rc, stderr, sanitize):
    """The Outcome for an rxc exit that is neither 0 nor a clean refusal, or
    None when it is one of those."""
    if sanitize and any(w in stderr for w in SANITIZER_WORDS):
        line = next(l for l in stderr.splitlines() if any(w in l for w in SANITIZER_WORDS))
        return Outcome("fail", "sanitizer: " + line.strip()[:200])
    if p_rc < 0:
        return Outcome("fail", f"signal {-p_rc}: {first_error(stderr)}")
    if p_rc not in (0, 1):
        return Outcome("fail", f"exit {p_rc}: {first_error(stderr)}")
    if p_rc == 1 and "error" not in stderr:
        return Outcome("fail", "exit 1 without a diagnostic")
    if p_rc == 1 and WROTE_OUTPUT in stderr:
        line = next(l for l in stderr.splitlines() if WROTE_OUTPUT in l)
        return Outcome("fail", line.strip()[:200])
    return None


class Runner:
    """Runs rxc on one module: `rxc run --via V` (cc under the sanitizers
    with --sanitize) and `rxc compile`, each classified as an Outcome."""

    def __init__(self, rxc, sanitize):
        self.rxc, self.sanitize = rxc, sanitize
        self.env = validate.sanitizer_env() if sanitize else None

    def run(self, d, model, args, via, multi):
        out = os.path.join(d, f"out_{via}.npz" if multi else f"out_{via}.npy")
        if os.path.exists(out):
            os.remove(out)
        cmd = [self.rxc, "run", model, *args, "--via", via, "--output", out]
        san = via == "cc" and self.sanitize
        if san:
            cmd += ["--set", f"jit.cc_flags={validate.SANITIZE_FLAGS}"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT,
                               env=self.env if san else None)
        except subprocess.TimeoutExpired:
            return Outcome("fail", f"timeout after {TIMEOUT} s"), cmd
        bad = ended(p.returncode, p.stderr, san)
        if bad:
            return bad, cmd
        if p.returncode == 1:
            if via != "interp" and any(w in p.stderr for w in BUILD_FAILED):
                return Outcome("fail", "C build: " + first_error(p.stderr, d)), cmd
            if os.path.exists(out):
                return Outcome("fail", "refused but wrote " + os.path.basename(out)), cmd
            return Outcome("refused", first_error(p.stderr, d)), cmd
        try:
            if multi:
                with np.load(out) as z:
                    outputs = [z[str(i)] for i in range(len(z.files))]
            else:
                outputs = [np.load(out)]
        except Exception as e:  # noqa: BLE001 - any unreadable output is a failure
            return Outcome("fail", f"exit 0 but output unreadable: {e}"), cmd
        return Outcome("ran", outputs=outputs), cmd

    def compile(self, d, model):
        """None when `rxc compile` succeeds, else the Outcome of its failure."""
        cmd = [self.rxc, "compile", model, "-o", os.path.join(d, "c")]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return Outcome("fail", f"rxc compile: timeout after {TIMEOUT} s")
        bad = ended(p.returncode, p.stderr, False)
        if bad:
            bad.msg = "rxc compile: " + bad.msg
            return bad
        return Outcome("compile", first_error(p.stderr, d)) if p.returncode else None


def judge(outs, rtol):
    """None when the three outcomes agree, else what differs."""
    kinds = {o.kind for o in outs.values()}
    if "fail" in kinds:
        return "failure"
    if kinds == {"ran"}:
        ref, differ = outs["interp"].outputs, None
        for via in [v for v in outs if v != "interp"]:
            why = validate.compare(ref, outs[via].outputs, rtol)
            if why:
                outs[via] = Outcome("fail", f"ran, differs: {why}", outs[via].outputs)
                differ = "outputs differ"
        return differ
    if kinds <= {"refused", "compile"}:
        return None
    return "refuse/ran"


def keep_case(keep, seed, i, d, text, idir, cmds, line, first):
    """Copies the module and input set i to keep/seed-S/ (emptied at the
    seed's first disagreement) with the commands; returns the module path."""
    dest = os.path.join(keep, f"seed-{seed}")
    if first:
        shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "m.py"), "w") as f:
        f.write(text)
    shutil.copytree(idir, os.path.join(dest, f"input-{i}"), dirs_exist_ok=True)
    with open(os.path.join(dest, "README"), "a") as f:
        f.write(line + "\n")
        for c in cmds:
            f.write("  " + " ".join(c).replace(d + "/", "") + "\n")
    return os.path.join(dest, "m.py")


def check_seed(opts, seed):
    """Runs one seed; returns (seed, printed lines, counters)."""
    g = modgen.gen_module(seed, opts.families)
    text = g.text()
    rtol = SUM32_RTOL if g.sum32 else RTOL
    runner = Runner(opts.rxc, opts.sanitize)
    stats = dict(modules=1, runs=0, refused=0, agreed=0, disagree=0, interp_ran=0,
                 predicted_valid=0, mispredicted=0)
    for f in set(g.families_used):
        stats["family/" + f] = 1
    lines = []
    d = tempfile.mkdtemp(prefix=f"rxc-refuse-{seed}-")
    try:
        model = os.path.join(d, "m.py")
        with open(model, "w") as f:
            f.write(text)
        compiled = runner.compile(d, model) if opts.via != ["interp"] else None
        for i, env in enumerate(g.draw_sizes(opts.inputs)):
            arrays, shapes = g.inputs(env, perturb=g.rng.random() < 0.1)
            idir = os.path.join(d, f"input-{i}")
            os.makedirs(idir)
            args = []
            for name, a in arrays.items():
                np.save(os.path.join(idir, name + ".npy"), a)
                args += ["--input", f"{name}={os.path.join(idir, name + '.npy')}"]
            outs, cmds = {}, []
            for via in opts.via:
                if via != "interp" and compiled is not None:
                    outs[via] = compiled
                    continue
                outs[via], cmd = runner.run(d, model, args, via, g.multi)
                cmds.append(cmd)
            if compiled is not None:
                cmds.append([opts.rxc, "compile", model, "-o", "c"])
            stats["runs"] += 1
            valid, fam = g.predict(shapes, arrays)
            stats["refused_at/" + (fam or "none")] = stats.get("refused_at/" + (fam or "none"), 0) + 1
            stats["predicted_valid"] += valid
            stats["interp_ran"] += outs["interp"].kind == "ran"
            sizes = " ".join(f"{k}={v}" for k, v in env.items())
            if outs["interp"].kind in ("ran", "refused") and valid != (outs["interp"].kind == "ran"):
                stats["mispredicted"] += 1
                if opts.v:
                    lines.append(f"note seed={seed} input={i}: predicted "
                                 f"{'valid' if valid else 'refusal (' + fam + ')'}, interp {outs['interp']}")
            why = judge(outs, rtol)
            if why is None:
                all_refused = outs["interp"].kind == "refused"
                stats["refused" if all_refused else "agreed"] += 1
                if opts.v:
                    how = ", ".join(f"{v}={outs[v]}" for v in opts.via) if all_refused else "agreed"
                    lines.append(f"ok seed={seed} input={i} [{sizes}]: {how}")
                continue
            stats["disagree"] += 1
            line = (f"DISAGREE seed={seed} input={i}: " + ", ".join(f"{v}={outs[v]}" for v in opts.via)
                    + f" [{sizes}{' perturbed' if shapes != g.shapes(env) else ''}]")
            path = keep_case(opts.keep, seed, i, d, text, idir, cmds, line, stats["disagree"] == 1)
            lines.append(f"{line} {path}")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return seed, lines, stats


def seeds(opts, t0):
    s = opts.start
    while (opts.count is None or s < opts.start + opts.count) and \
            (opts.seconds is None or time.time() - t0 < opts.seconds):
        yield s
        s += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=None, help="seeds (default 20 without --seconds)")
    ap.add_argument("--seconds", type=float, default=None, help="start new seeds until T seconds passed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--inputs", type=int, default=6, help="input sets per module")
    ap.add_argument("--families", default=None,
                    help="only these op families (comma-separated: " + ",".join(modgen.FAMILIES)
                    + "), or all (the default); the data-dependent ones: " + ",".join(sorted(modgen.DATA_FAMILIES)))
    ap.add_argument("--via", default=",".join(VIAS),
                    help="the paths run (interp always; e.g. interp,tcc to skip gcc)")
    ap.add_argument("--stats", action="store_true",
                    help="per op family: modules, input sets refused there (predicted)")
    ap.add_argument("--sanitize", action="store_true",
                    help="build the C of --via cc with -fsanitize=address,undefined")
    ap.add_argument("--rxc", default=os.environ.get("RXC", "build/rxc"))
    ap.add_argument("--keep", default="build/refuse-failures")
    ap.add_argument("-v", action="store_true")
    opts = ap.parse_args()
    if opts.count is None and opts.seconds is None:
        opts.count = 20
    if opts.families == "all":
        opts.families = list(modgen.FAMILIES)
    elif opts.families:
        opts.families = opts.families.split(",")
        unknown = [f for f in opts.families if f not in modgen.FAMILIES]
        if unknown:
            ap.error(f"unknown families: {', '.join(unknown)}")
    opts.via = ["interp"] + [v for v in opts.via.split(",") if v in ("cc", "tcc")]
    opts.rxc = os.path.abspath(opts.rxc)
    opts.keep = os.path.abspath(opts.keep)
    t0 = time.time()
    total = dict(modules=0, runs=0, refused=0, agreed=0, disagree=0, interp_ran=0,
                 predicted_valid=0, mispredicted=0)
    done, next_seed = {}, opts.start

    def report(result):
        nonlocal next_seed
        done[result[0]] = result
        while next_seed in done:  # print in seed order
            _, lines, stats = done.pop(next_seed)
            for line in lines:
                print(line, flush=True)
            for k, v in stats.items():
                total[k] = total.get(k, 0) + v
            next_seed += 1

    if opts.jobs <= 1:
        for s in seeds(opts, t0):
            report(check_seed(opts, s))
    else:
        with concurrent.futures.ProcessPoolExecutor(opts.jobs) as pool:
            pending = set()
            gen = seeds(opts, t0)
            for s in gen:
                pending.add(pool.submit(check_seed, opts, s))
                if len(pending) >= 2 * opts.jobs:
                    finished, pending = concurrent.futures.wait(
                        pending, return_when=concurrent.futures.FIRST_COMPLETED)
                    for f in finished:
                        report(f.result())
            for f in concurrent.futures.as_completed(pending):
                report(f.result())
    t = total
    times = os.times()  # after the pool's shutdown: its workers and their rxc, gcc
    cpu = times.user + times.system + times.children_user + times.children_system
    if opts.stats:
        print("refuse: family: modules with it, input sets predicted refused there")
        for f in list(modgen.FAMILIES) + ["signature", "bound", "none"]:
            print(f"  {f:14} {t.get('family/' + f, 0):6} {t.get('refused_at/' + f, 0):6}")
    if t["runs"]:
        print(f"refuse: the interpreter ran {t['interp_ran']} of {t['runs']} input sets "
              f"({100 * t['interp_ran'] / t['runs']:.0f}%); predicted {t['predicted_valid']}, "
              f"{t['mispredicted']} mispredicted; {cpu / 60:.1f} CPU minutes")
    print(f"refuse: {t['modules']} modules, {t['runs']} runs, {t['refused']} refused by all, "
          f"{t['agreed']} agreed outputs, {t['disagree']} disagreements, {time.time() - t0:.0f} s"
          + (" (sanitized cc)" if opts.sanitize else ""))
    return 1 if t["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
