#!/usr/bin/python3
"""bench/planner.py - the memory planner's benchmark: writes bench/planner.md.

Problems: MiniMalloc's eleven challenging problems (capacity 1 MiB) from
../shared/bench-data/minimalloc (or $RXC_MINIMALLOC), and every sample
model's problem (`rxc plan MODEL --emit-lifetimes`, weights from
samples/*.npz when `make samples` wrote them).  Each problem goes through
`rxc plan --lifetimes` once per algorithm; the table gives each arena and
the CPU time of that run, and rxc's final choice (`best`): its arena, the
algorithm whose plan it kept, and whether it fits the capacity.

Run from the repository root after `make`:  /usr/bin/python3 bench/planner.py
Options: --budget-ms N (best's and exact's budget, default 60000),
         --local-ms N (the local search's alone, default 2000),
         --only A,B (MiniMalloc problems to run), --no-samples.
"""
import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RXC = os.path.join(ROOT, "build", "rxc")
CAPACITY = 1048576
GREEDY = ["greedy_size", "greedy_breadth", "greedy_length", "greedy_area", "greedy_glow",
          "best_fit"]


def minimalloc_dir():
    for d in (os.environ.get("RXC_MINIMALLOC"),
              os.path.join(ROOT, "..", "shared", "bench-data", "minimalloc"),
              os.path.join(ROOT, "..", "..", "shared", "bench-data", "minimalloc")):
        if d and os.path.isfile(os.path.join(d, "A.1048576.csv")):
            return os.path.normpath(d)
    return None


def run_plan(csv, algorithm, budget_ms, capacity):
    """One `rxc plan --lifetimes` run: (report dict, CPU seconds, wall seconds)."""
    cmd = [RXC, "--set", "memplan.budget_ms=%d" % budget_ms, "plan", "--lifetimes", csv,
           "--algorithm", algorithm, "--format", "json"]
    if capacity:
        cmd += ["--capacity", str(capacity)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out), cpu, wall


def bench_problem(name, csv, capacity, args):
    """Every algorithm on one problem: a row of the table."""
    row = {"name": name, "runs": {}}
    for a in GREEDY + ["local", "exact", "best"]:
        budget = args.local_ms if a == "local" else args.budget_ms
        report, cpu, wall = run_plan(csv, a, budget, capacity)
        row["runs"][a] = (report["arena"], cpu, wall)
        row["buffers"] = report["buffers"]
        row["lower"] = report["lower_bound"]
        if a == "best":
            row["chosen"] = report["chosen"]
            row["optimal"] = report["optimal"]
        print("%-22s %-15s %10d  %7.2f s cpu  %7.2f s wall" % (name, a, report["arena"], cpu,
                                                                wall), file=sys.stderr)
    return row


def sample_problems(tmp):
    """(name, csv) of every sample model's problem."""
    samples = os.path.join(ROOT, "samples")
    for f in sorted(os.listdir(samples)):
        if not f.endswith(".py"):
            continue
        model = os.path.join(samples, f)
        csv = os.path.join(tmp, f[:-3] + ".csv")
        cmd = [RXC, "plan", model, "--emit-lifetimes", csv, "-o", os.devnull]
        weights = model[:-3] + ".npz"
        if os.path.isfile(weights):
            cmd += ["--params", weights]
        if subprocess.run(cmd, capture_output=True).returncode == 0:
            yield f[:-3], csv
        else:
            print("skipped %s: rxc plan failed" % f, file=sys.stderr)


def cell(run):
    arena, cpu, _ = run
    return "%d (%.2f s)" % (arena, cpu)


def table(rows, capacity):
    head = ["problem", "buffers", "lower bound"] + GREEDY + ["local", "exact", "best: arena",
                                                             "kept", "cpu", "wall"]
    if capacity:
        head.append("fits 1 MiB")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        best = r["runs"]["best"]
        cells = [r["name"], str(r["buffers"]), str(r["lower"])]
        cells += [cell(r["runs"][a]) for a in GREEDY + ["local", "exact"]]
        cells += ["**%d**%s" % (best[0], " (optimal)" if r["optimal"] else ""), r["chosen"],
                  "%.2f s" % best[1], "%.2f s" % best[2]]
        if capacity:
            cells.append("yes" if best[0] <= capacity else "**no**")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget-ms", type=int, default=60000)
    p.add_argument("--local-ms", type=int, default=2000)
    p.add_argument("--only", default="")
    p.add_argument("--no-samples", action="store_true")
    p.add_argument("-o", default=os.path.join(ROOT, "bench", "planner.md"))
    args = p.parse_args()
    if not os.access(RXC, os.X_OK):
        sys.exit("bench/planner.py: build/rxc is missing: run make first")
    mm_rows, sample_rows = [], []
    d = minimalloc_dir()
    if d:
        for c in "ABCDEFGHIJK":
            if args.only and c not in args.only.split(","):
                continue
            mm_rows.append(bench_problem(c, os.path.join(d, "%s.1048576.csv" % c), CAPACITY,
                                         args))
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_samples:
            for name, csv in sample_problems(tmp):
                sample_rows.append(bench_problem(name, csv, 0, args))
    load = os.getloadavg()
    text = ["# Memory planner benchmark", "",
            "Written by `bench/planner.py` (%s, %s, %d cores, load average %.1f during the run)."
            % (time.strftime("%Y-%m-%d"), platform.platform(terse=True), os.cpu_count(), load[1]),
            "Each cell: the arena in bytes and the CPU time of that `rxc plan --lifetimes` run",
            "(wall time on a shared machine varies with its load; the plans do not: budgets",
            "count work, not time).  `best` and `exact` ran with `budget_ms = %d`, `local`"
            % args.budget_ms,
            "with %d; `kept` is the algorithm whose plan `best` kept." % args.local_ms, ""]
    if mm_rows:
        text += ["## MiniMalloc's challenging problems (capacity 1 MiB = 1048576 bytes)", "",
                 "Run with `--capacity 1048576`: the search stops at the first plan that fits.",
                 "", table(mm_rows, CAPACITY)]
    if sample_rows:
        text += ["## Sample models (`rxc plan MODEL --emit-lifetimes`, default pipeline -O2)", "",
                 "No capacity: the searches stop at the lower bound.", "",
                 table(sample_rows, 0)]
    with open(args.o, "w") as f:
        f.write("\n".join(text))
    print("wrote %s" % args.o, file=sys.stderr)


if __name__ == "__main__":
    main()
