#!/usr/bin/python3
"""Mutation testing: plant each bug of tests/mutate/catalogue.py, see a test fail.

Each catalogue entry replaces one exact source snippet (which must occur
exactly once in its file, or the entry is stale: a failure) and names the
narrowest commands that should notice.  For each entry, in a scratch copy
of HEAD (`git worktree add --detach` under build/mutate/wtN, reused across
runs and mutants), the runner applies the mutation, rebuilds incrementally
(`make all` plus the test programs the commands name), runs the commands
in turn with a timeout, and puts the file back.  The mutant is

  killed          a command failed (exit status not 0);
  killed (build)  it did not compile (counted as killed, but a catalogue
                  should prefer mutations that compile);
  killed (timeout) a command ran past --timeout;
  SURVIVED        every command passed;
  stale           the snippet does not occur exactly once (a failure).

Entries with `equivalent` set are mutants no test can kill (the program
means the same); they run and are reported but leave the denominator.
Entries with `expect` set are known survivors whose test comes from
another branch; they count as survivors until it lands.

Before the mutants, each distinct command runs once on the unmutated copy
(the baseline): a command that fails there would "kill" every mutant, so
the run stops.  --no-baseline skips it.

usage: mutate.py [--list] [--only ID,...] [--jobs N] [--timeout S]
                 [--no-baseline] [--write-readme] [-v]
Exit status: 0 when the score is at least 90% and nothing is stale.
"""
import argparse
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from catalogue import MUTANTS  # noqa: E402

THRESHOLD = 0.90
TEST_BIN = re.compile(r"\bbuild/tests/test_\w+")


def run(cmd, cwd, timeout, log):
    """Runs a shell command in its own process group; returns (status, seconds),
    status None on a timeout (the group is killed)."""
    t0 = time.time()
    env = dict(os.environ, RXC="build/rxc")
    p = subprocess.Popen(cmd, shell=True, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        rc = None
    return rc, time.time() - t0


class Scratch:
    """One detached worktree of HEAD, with its own build/ kept between runs."""

    def __init__(self, index, head, make_jobs):
        self.path = os.path.join(ROOT, "build", "mutate", "wt%d" % index)
        self.make_jobs = make_jobs
        if not os.path.isdir(os.path.join(self.path, ".git")) and not os.path.isfile(
                os.path.join(self.path, ".git")):
            if os.path.exists(self.path):
                shutil.rmtree(self.path)
            subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
            subprocess.run(["git", "worktree", "add", "--detach", "-f", self.path, head], cwd=ROOT,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        else:
            subprocess.run(["git", "checkout", "-q", "-f", "--detach", head], cwd=self.path, check=True)
        # tracked files as in HEAD; build/ (ignored) stays for incremental builds
        subprocess.run(["git", "reset", "-q", "--hard", head], cwd=self.path, check=True)
        subprocess.run(["git", "clean", "-q", "-fd"], cwd=self.path, check=True)

    def build(self, commands, log):
        bins = sorted({b for c in commands for b in TEST_BIN.findall(c)})
        cmd = "make -j%d all %s" % (self.make_jobs, " ".join(bins))
        return run(cmd, self.path, 1800, log)

    def restore(self, path):
        subprocess.run(["git", "checkout", "-q", "--", path], cwd=self.path, check=True)


def apply(scratch, m):
    """Plants m in the scratch copy; False when its snippet is stale."""
    p = os.path.join(scratch.path, m.file)
    try:
        with open(p, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return False
    if text.count(m.find) != 1:
        return False
    with open(p, "w", encoding="utf-8") as f:
        f.write(text.replace(m.find, m.replace))
    return True


def stale_entries(mutants):
    """Entries whose snippet does not occur exactly once in HEAD."""
    out = []
    for m in mutants:
        r = subprocess.run(["git", "show", "HEAD:" + m.file], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0 or r.stdout.count(m.find) != 1:
            out.append(m)
    return out


def test_mutant(scratch, m, timeout, logdir):
    """Returns a result dict for one mutant (the scratch copy is clean after)."""
    res = {"m": m, "build_s": 0.0, "test_s": 0.0, "killer": ""}
    log = open(os.path.join(logdir, m.id + ".log"), "w")
    try:
        if not apply(scratch, m):
            res["status"] = "stale"
            return res
        rc, res["build_s"] = scratch.build(m.kill, log)
        if rc != 0:
            res["status"] = "killed (build)"
            return res
        for c in m.kill:
            log.write("\n$ %s\n" % c)
            log.flush()
            rc, s = run(c, scratch.path, timeout, log)
            res["test_s"] += s
            if rc is None:
                res["status"], res["killer"] = "killed (timeout)", c
                return res
            if rc != 0:
                res["status"], res["killer"] = "killed", c
                return res
        res["status"] = "SURVIVED"
        return res
    finally:
        log.close()
        scratch.restore(m.file)


def baseline(scratch, commands, timeout, logdir):
    """Runs each command on the unmutated copy; returns the ones that fail."""
    with open(os.path.join(logdir, "baseline.log"), "w") as log:
        rc, _ = scratch.build(commands, log)
        if rc != 0:
            return ["(build)"]
        bad = []
        for c in commands:
            log.write("\n$ %s\n" % c)
            log.flush()
            rc, s = run(c, scratch.path, timeout, log)
            print("baseline %6.1f s  %s%s" % (s, c, "" if rc == 0 else "  FAILED"), flush=True)
            if rc != 0:
                bad.append(c)
        return bad


def killed(status):
    return status.startswith("killed")


def score(results):
    counted = [r for r in results if not r["m"].equivalent]
    k = sum(killed(r["status"]) for r in counted)
    return k, len(counted)


def table(results):
    lines = ["| id | file | result | killed by | build s | test s |", "|---|---|---|---|---:|---:|"]
    for r in results:
        m = r["m"]
        status = r["status"]
        if m.equivalent:
            status += " (equivalent)"
        elif m.expect and not killed(r["status"]):
            status += " (expected: %s)" % m.expect
        lines.append("| %s | %s | %s | %s | %.0f | %.0f |" % (
            m.id, m.file, status, ("`%s`" % r["killer"]) if r["killer"] else "", r["build_s"], r["test_s"]))
    return lines


def write_readme(results, wall, jobs):
    path = os.path.join(ROOT, "tests", "README.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    k, n = score(results)
    surv = [r for r in results if not killed(r["status"])]
    body = ["## Mutation score", "",
            "Written by `tests/mutate/mutate.py --write-readme` (`make mutate`) on %s, %s: "
            "%d of %d mutants killed (%.1f%%), %d equivalent left out, in %.0f s with --jobs %d." % (
                head, time.strftime("%Y-%m-%d"), k, n, 100.0 * k / max(n, 1),
                len(results) - n, wall, jobs), ""]
    if surv:
        body.append("Survivors:")
        body.append("")
        for r in surv:
            m = r["m"]
            why = m.equivalent or m.expect or "no reason given: add a test"
            body.append("- `%s` (%s, %s): %s. %s" % (m.id, m.file, r["status"], m.desc, why))
    else:
        body.append("No survivors.")
    body.append("")
    section = "\n".join(body)
    pat = re.compile(r"^## Mutation score\n.*?(?=^## |\Z)", re.S | re.M)
    if pat.search(text):
        text = pat.sub(lambda _: section + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="print the catalogue and exit")
    ap.add_argument("--only", default="", help="comma-separated ids")
    ap.add_argument("--jobs", type=int, default=1, help="scratch copies run side by side")
    ap.add_argument("--make-jobs", type=int, default=0, help="make -j per copy (default: CPUs / jobs)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per command")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--write-readme", action="store_true")
    ap.add_argument("-v", action="store_true", help="print each result as it comes")
    a = ap.parse_args()

    ids = [m.id for m in MUTANTS]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit("catalogue: duplicate ids %s" % ", ".join(sorted(dup)))
    mutants = MUTANTS
    if a.only:
        want = a.only.split(",")
        unknown = [w for w in want if w not in ids]
        if unknown:
            sys.exit("unknown ids: %s" % ", ".join(unknown))
        mutants = [m for m in MUTANTS if m.id in want]

    if a.list:
        for m in mutants:
            tag = " [equivalent]" if m.equivalent else (" [expected survivor]" if m.expect else "")
            print("%-22s %-34s %s%s\n%22s kill: %s" % (m.id, m.file, m.desc, tag, "", " ; ".join(m.kill)))
        print("%d mutants" % len(mutants))
        return 0

    stale = stale_entries(mutants)
    for m in stale:
        print("STALE %s: the snippet does not occur exactly once in %s (HEAD)" % (m.id, m.file))
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    logdir = os.path.join(ROOT, "build", "mutate", "logs")
    os.makedirs(logdir, exist_ok=True)
    jobs = max(1, a.jobs)
    make_jobs = a.make_jobs or max(1, (os.cpu_count() or 1) // jobs)
    scratches = [Scratch(i, head, make_jobs) for i in range(jobs)]
    t0 = time.time()

    if not a.no_baseline:
        commands = []
        for m in mutants:
            commands += [c for c in m.kill if c not in commands]
        bad = baseline(scratches[0], commands, a.timeout, logdir)
        if bad:
            print("baseline: %s fail on the unmutated tree; fix them first (build/mutate/logs/baseline.log)"
                  % ", ".join(bad))
            return 1

    todo = queue.Queue()
    for m in mutants:
        if m not in stale:
            todo.put(m)
    results = {}
    lock = threading.Lock()

    def worker(scratch):
        while True:
            try:
                m = todo.get_nowait()
            except queue.Empty:
                return
            r = test_mutant(scratch, m, a.timeout, logdir)
            with lock:
                results[m.id] = r
                print("%-22s %-18s build %5.1f s  tests %6.1f s  %s" % (
                    m.id, r["status"], r["build_s"], r["test_s"], r["killer"]), flush=True)

    threads = [threading.Thread(target=worker, args=(s,)) for s in scratches]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - t0
    for m in stale:
        results[m.id] = {"m": m, "status": "stale", "build_s": 0.0, "test_s": 0.0, "killer": ""}
    ordered = [results[m.id] for m in mutants]

    print()
    print("\n".join(table(ordered)))
    k, n = score(ordered)
    pct = 100.0 * k / max(n, 1)
    mutant_s = sum(r["build_s"] + r["test_s"] for r in ordered)
    print("\nmutation score: %d/%d killed (%.1f%%); %d equivalent left out; %d stale; %.0f s wall, "
          "%.1f s per mutant (build + tests)" % (k, n, pct, len(ordered) - n, len(stale), wall,
                                                  mutant_s / max(len(ordered), 1)))
    if a.write_readme:
        write_readme(ordered, wall, jobs)
    return 0 if pct >= 100 * THRESHOLD and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
