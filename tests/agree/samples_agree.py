#!/usr/bin/python3
"""samples_agree.py - every sample model gives the same outputs three ways.

For each sample of samples/ (the large ones only with --all): the
reference interpreter on the module as written, and the generated C of the
-O2 pipeline compiled in-process by libtcc and by the system compiler
(`rxc run --via interp|tcc|cc`).  Weights come from the sample's .npz when
it has one (`make samples` writes the seeded ones), every other parameter
gets seeded random values.  A symbolic dim is run at 1, at a value inside
its bound, and at its tir_var_upper_bound.  Outputs must agree within 1e-4
relative plus 1e-6 of the output's largest magnitude (at least 1) absolute
(float32; integers exactly) with the interpreter's: the generated
matmul and conv2d sum in float32 where the interpreter's kernels sum in
float64, and a float32 sum of K terms of random sign is off by about
K * 2^-24 of its value, 8e-5 for the samples' longest (K = 1280;
tests/unit/testutil.h, tu_close_f32_sums).

A sample marked "# rxc: quantized" is left out (and named): its fake
quantization turns a last-bit difference into a whole quantization step,
so check_digits.py compares its predictions instead.

    RXC=build/rxc /usr/bin/python3 tests/agree/samples_agree.py [--all] [-v]

Exits 1 when any run fails or disagrees; the last line counts the runs.
"""
import os
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "samples")
VIAS = ("tcc", "cc")
RTOL, ATOL = 1e-4, 1e-6  # float32 sums against float64 ones (see above)
SEED = 20261122

sys.path.insert(0, os.path.join(ROOT, "tests", "ops"))
from run_ops import compare  # noqa: E402  (the oracle's comparison: NaN == NaN, ints exact)


def main_params(text):
    """[(name, dims, dtype)] of def main; a dim is an int or a name."""
    head = re.search(r"def main\((.*?)\)\s*(->|:)", text, re.S).group(1)
    params = []
    for m in re.finditer(r'(\w+): R\.Tensor\(\(([^)]*)\), dtype="(\w+)"\)', head):
        dims = [d.strip().strip('"') for d in m.group(2).split(",") if d.strip()]
        params.append((m.group(1), [int(d) if d.isdigit() else d for d in dims], m.group(3)))
    return params


def upper_bounds(text):
    m = re.search(r'"tir_var_upper_bound": \{([^}]*)\}', text)
    return {k: int(v) for k, v in re.findall(r'"(\w+)": (\d+)', m.group(1))} if m else {}


def dim_values(names, bounds, rng):
    """One assignment of the symbolic dims per run: all at 1, all inside
    their bounds, all at the bound.  Unbounded dims take 3."""
    if not names:
        return [{}]
    runs = [{n: 1 for n in names}]
    runs.append({n: int(rng.integers(2, bounds[n])) if bounds.get(n, 0) > 2 else 3 for n in names})
    if all(n in bounds for n in names):
        runs.append({n: bounds[n] for n in names})
    return runs


def run(rxc, model, npz, files, via, out):
    args = [rxc, "run", model, "--via", via, "--output", out]
    if npz:
        args += ["--params", npz]
    for name, path in files:
        args += ["--input", f"{name}={path}"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"--via {via} exited {p.returncode}: {p.stderr.strip()[:400]}")
    return np.load(out)


def scale(ref):
    """The absolute tolerance's unit: the output's largest magnitude, at
    least 1 (a float32 sum errs in proportion to its terms, which are as
    large as the output's largest values where small ones cancel)."""
    arrays = ref.values() if isinstance(ref, dict) else [ref]
    top = [float(np.max(np.abs(a), initial=0)) for a in arrays if np.asarray(a).dtype.kind == "f"]
    return max([1.0] + [t for t in top if np.isfinite(t)])


def check_sample(rxc, name, work, verbose):
    """Failures (messages) of every run of one sample; prints progress.
    Its inputs come from a generator of its own (SEED and the crc32 of its
    name), so adding a sample changes no other sample's draws."""
    rng = np.random.default_rng([SEED, zlib.crc32(name.encode())])
    model = os.path.join(SAMPLES, name + ".py")
    with open(model) as f:
        text = f.read()
    npz = os.path.join(SAMPLES, name + ".npz")
    weights = set(np.load(npz).files) if os.path.exists(npz) else set()
    inputs = [p for p in main_params(text) if p[0] not in weights]
    names = sorted({d for _, dims, _ in inputs for d in dims if isinstance(d, str)})
    failures, count = [], 0
    for dims in dim_values(names, upper_bounds(text), rng):
        files = []
        for pname, shape, dtype in inputs:
            path = os.path.join(work, f"{pname}.npy")
            np.save(path, rng.standard_normal([dims.get(d, d) for d in shape]).astype(dtype))
            files.append((pname, path))
        tag = f"{name} {dims}" if dims else name
        try:
            ref = run(rxc, model, npz if weights else None, files, "interp", os.path.join(work, "ref.npy"))
            for via in VIAS:
                got = run(rxc, model, npz if weights else None, files, via, os.path.join(work, via + ".npy"))
                count += 1
                msg = compare(got, ref, RTOL, ATOL * scale(ref))
                if msg:
                    failures.append(f"{tag} --via {via}: {msg}")
                elif verbose:
                    print(f"ok   {tag} --via {via}")
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            failures.append(f"{tag}: {e}")
    return failures, count


def main(argv):
    rxc = os.environ.get("RXC", os.path.join(ROOT, "build/rxc"))
    everything, verbose = "--all" in argv, "-v" in argv
    failures, count, skipped = [], 0, []
    for file in sorted(os.listdir(SAMPLES)):
        if not file.endswith(".py"):
            continue
        with open(os.path.join(SAMPLES, file)) as f:
            text = f.read()
        large = "# rxc: large" in text
        if large and not everything:
            continue
        if "# rxc: quantized" in text:
            # fake quantization rounds to a step: a float32 sum of the
            # generated C that lands on the other side of a rounding
            # boundary than the interpreter's float64 one moves a value
            # by a whole step; check_digits.py compares its predictions
            skipped.append(file[:-3])
            continue
        with tempfile.TemporaryDirectory(prefix="rxc_agree_") as work:
            fails, n = check_sample(rxc, file[:-3], work, verbose)
        failures += fails
        count += n
    for f in failures:
        print("FAIL " + f)
    if skipped:
        print("not compared here (quantized: check_digits.py compares predictions): " + ", ".join(skipped))
    print(f"samples agree: {count - len(failures)} of {count} compiled runs equal the interpreter's")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
