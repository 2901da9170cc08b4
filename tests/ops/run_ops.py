#!/usr/bin/python3
"""run_ops.py - end-to-end numpy oracle for rxc's operators.

For every case of cases.py: write the one-op module and random inputs (fixed
seed) to a temporary directory, run it with `rxc run`, compare the output
with the numpy reference; then legalize it with `rxc opt --passes
LegalizeOps` and compare again; then run the generated C of the -O2
pipeline, compiled in-process by libtcc (`--via tcc`) and by the system
compiler (`--via cc`), and compare it with the reference and with the
interpreter's output (1e-5 relative).  A case with symbolic dims is also
run at the edges of its bounds (every symbolic dim at its upper bound, and
at 1), through the interpreter and both compilers.  Error cases must be rejected by `rxc
check` with a fitting message.

Without --full (make check), the system compiler, whose every run costs a
process start of gcc (about 0.2 s, twenty times tcc's), sees half of the
cases: those whose name hashes even (crc32), a choice that does not move
when cases are added; the edges go through tcc only.  Everything else
runs as with --full: every case through the interpreter, the legalized
module and tcc, every run error case through tcc, cc and sanitized cc.
`make check-ops-full` (which CI runs) passes --full.  Run error cases must be refused by the
interpreter (with a fitting message) and, alike, by the generated C through
tcc, cc and cc built with -fsanitize=address,undefined: a clean exit 1,
never an exit 0, a crash, a sanitizer report or a module that does not
compile.  Work not written yet is a skip: a run that says "not
implemented", LegalizeOps while the pass does not exist (usage error), an
op LegalizeOps leaves in place, an error case whose op has no inference
yet.  A skip fails the run unless tests/ops/skips.txt lists its case and
half (with the reason); `REQUIRE_ALL=1` in the environment allows none.  A
listed skip whose case and half ran and did not skip fails too (remove its
line).  When the interpreter skips or fails, the compiled code still runs,
against numpy alone.

Usage: /usr/bin/python3 tests/ops/run_ops.py [-v] [--full] [-k SUBSTRING] [--file CASES]
                                            [-j JOBS] [--sample N] [--self-test]
-k runs the cases whose name holds SUBSTRING; --file those of one case
file, tests/ops/CASES.py (`cases` is cases.py's own; `make test
T=cases_conv_pool` runs one); --sample N one case in N, those whose
name's crc32 divided by 256 is a multiple of N (make SAN=1 check runs
one in 2: the sanitized rxc runs them about three times slower, and the
unsanitized make check runs them all).  The rxc binary is $RXC (default build/rxc).  The inputs are drawn in case
order; the cases then run in JOBS threads (default: one per CPU), their
results printed in case order.  The last line printed is
`ops: N passed, M failed, K skipped`; the exit status is 1 when any failed.
"""
import concurrent.futures
import glob
import importlib
import os
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as C  # noqa: E402
import selftest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from compare import compare as shared_compare  # noqa: E402

SEED = 20240611
TIMEOUT = 30
VIAS = ("tcc", "cc")  # the compilers of the generated C
FULL = []  # [True] under --full


def vias(case, edge=False):
    """The compilers a case's generated C goes through (module doc)."""
    if FULL or (not edge and zlib.crc32(case.name.encode()) % 2 == 0):
        return VIAS
    return VIAS[:1]
HEADER = ("# from tvm.script import ir as I\n# from tvm.script import tir as T\n"
          "# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n")


class Skip(Exception):
    """This half cannot run yet; the message says why."""


class Fail(Exception):
    """This half ran and is wrong; the message says how."""


def sinfo_text(sig, dtype):
    dims = ", ".join(f'"{d}"' if isinstance(d, str) else str(d) for d in sig)
    if len(sig) == 1:
        dims += ","
    return f'R.Tensor(({dims}), dtype="{dtype}")'


def module_text(case):
    """One Relax function main: annotated params, one op call bound in a
    dataflow block (plus a tuple get when case.get is set), return.  A
    case's tvars are declared (`k = T.int64()`) before the block and its pre
    bindings come first in it.  A case with `dataflow = False` (impure ops:
    R.assert_op) has no block: an impure function with the bindings in its
    body."""
    params = ", ".join(f"{i.name}: {sinfo_text(i.sig, i.dtype)}" for i in case.inputs)
    body = [f"def main({params}):"]
    if case.upper:
        bounds = ", ".join(f'"{k}": {v}' for k, v in case.upper.items())
        body.append(f'    R.func_attr({{"tir_var_upper_bound": {{{bounds}}}}})')
    body += [f"    {v} = T.int64()" for v in getattr(case, "tvars", ())]
    flow = getattr(case, "dataflow", True)
    pad = "        " if flow else "    "
    if flow:
        body.append("    with R.dataflow():")
    body += [f"{pad}{line}" for line in getattr(case, "pre", ())]
    annot = getattr(case, "annot", None)
    gv = f"gv: {annot}" if annot else "gv"
    if case.get is None:
        body.append(f"{pad}{gv} = {case.call}")
    else:
        body += [f"{pad}lv = {case.call}", f"{pad}{gv} = lv[{case.get}]"]
    body += ["        R.output(gv)"] if flow else []
    body += ["    return gv"]
    decorator = "@R.function" if flow else "@R.function(pure=False)"
    return HEADER + f"    {decorator}\n" + "".join(f"    {line}\n" for line in body)


def draw(rng, inp, shape=None):
    """Random values for an input, of a kind that keeps the op well defined
    (positive for log/sqrt, nonzero divisors, indices in range...)."""
    shape = inp.shape if shape is None else shape
    dt, k = np.dtype(inp.dtype), inp.kind
    if k == "bool" or dt == np.bool_:
        return rng.random(shape) < 0.5
    if k == "pos":
        v = rng.uniform(0.5, 2.0, shape)
    elif k == "nonzero":
        v = rng.choice([-3, -2, -1, 1, 2, 3], shape) * (1.0 if dt.kind == "f" else 1)
        if dt.kind == "f":
            v = v * rng.uniform(0.5, 1.5, shape)
    elif k.startswith("vals:"):  # given values (begin/end/strides, a dim that is data), tiled
        v = np.resize(np.array([int(t) for t in k[5:].split(",")]), shape)
    elif k == "smallint":
        v = rng.integers(-3, 4, shape)
    elif k == "wide":
        v = rng.uniform(-10.0, 10.0, shape)
    elif k == "halftenths":  # k.5 tenths: 0.35, -1.25, ...
        v = (rng.integers(-40, 40, shape) + 0.5) * 0.1
    elif k == "special":
        v = np.array([0.0, -1.0, np.inf, 1.0])
    elif k == "zeros":
        v = np.array([0.0, 0.0, 0.0, 4.0])
    elif k == "large":
        v = rng.standard_normal(shape) * 60.0
    elif k == "huge":  # past float16's 65504 now and then
        v = rng.standard_normal(shape) * 4e4
    elif k == "tiny":  # float16's subnormals (below 6.1e-5) and ties between them
        v = rng.integers(-64, 64, shape) * 2.0**-25 + rng.standard_normal(shape) * 1e-9 * (rng.random(shape) < 0.5)
    elif k == "ties":  # exact midpoints between float16 neighbours, and beside them
        v = (1.0 + (2 * rng.integers(0, 1024, shape) + 1) * 2.0**-11) * rng.choice([2.0**-10, 1.0, 256.0], shape)
        v = v * (1.0 + rng.choice([0.0, 1e-12, -1e-12], shape))
    elif k == "bigint":
        v = rng.integers(-2**40, 2**40, shape)
    elif k == "nan":
        v = np.array([np.nan, 1.0, -np.nan, 2.0])
    elif k == "neg":
        v = -rng.uniform(0.5, 2.0, shape)
    elif k == "unit":  # inside (-1, 1): asin, acos, atanh
        v = rng.uniform(-0.99, 0.99, shape)
    elif k == "ge1":  # acosh's domain, 1 included
        v = np.where(rng.random(shape) < 0.1, 1.0, rng.uniform(1.0, 6.0, shape))
    elif k == "edge":  # every special float and the ties of rounding, tiled to the shape
        v = np.resize(np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, -0.5, 1.5, -2.5, 2.5, 1e-30,
                                -7.25, 3.0, -1.0]), shape)
    elif k == "anyint":  # the whole range of the integer dtype
        ii = np.iinfo(dt)
        return rng.integers(ii.min, ii.max, shape, dtype=dt, endpoint=True)
    elif k == "shiftamt":  # shift amounts, some negative or past the width
        v = rng.integers(-2, dt.itemsize * 8 + 3, shape)
    elif k.startswith("index"):
        v = rng.integers(0, int(k[5:]), shape)
    elif k.startswith("oob") or k.startswith("negoob"):  # in range but the last: N, or -N - 1
        n = int(k.lstrip("negob"))
        v = np.array(rng.integers(0, n, shape))
        v.flat[-1] = -n - 1 if k.startswith("neg") else n
    elif k == "zerolast":  # a divisor whose last element is 0
        v = np.array(rng.integers(1, 5, shape) * rng.choice([-1, 1], shape))
        v.flat[-1] = 0
    elif k == "wildindex":
        v = rng.integers(-7, 12, shape)
    elif k == "distinct":
        v = rng.permutation(int(np.prod(shape))).reshape(shape) - 4
    else:
        v = rng.standard_normal(shape)
    with np.errstate(over="ignore"):  # "huge" past float16's range is meant
        return np.asarray(v).astype(dt)


def rxc(*args):
    exe = os.environ.get("RXC", "build/rxc")
    try:
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Fail(f"rxc {args[0]} timed out after {TIMEOUT}s")


def first_error(text):
    lines = [line for line in text.splitlines() if line.strip()]
    for line in lines:
        if "error" in line:
            return line.strip()
    return lines[0].strip() if lines else "(no message)"


def run_module(path, inputs, tuple_out, work, via="interp", sets=()):
    """rxc run --via VIA on the .npy inputs, with the configuration keys
    of sets ("section.key=value": a case's `sets`); the outputs as a list
    of arrays."""
    out = os.path.join(work, "out.npz" if tuple_out else "out.npy")
    if os.path.exists(out):
        os.remove(out)
    args = ["run", path, "--via", via]
    if via != "interp":
        # the memory plan checked end to end: each storage poisoned when
        # its last use ends, canaries checked (codegen/README.md)
        args += ["--set", "codegen.poison=1"]
    if via == "cc":
        # the flags these comparisons (bit-exact for the kernels) are made
        # for, not [jit] cc_flags = auto's -O3 -march=native, where gcc 12
        # fuses a*b+c (a case's sets may ask for other flags: the shifts)
        args += ["--set", "jit.cc_flags=-O2"]
    for name, file in inputs:
        args += ["--input", f"{name}={file}"]
    for s in sets:
        args += ["--set", s]
    p = rxc(*args, "--output", out)
    if p.returncode != 0:
        if "not implemented" in p.stderr:
            raise Skip("run: " + first_error(p.stderr))
        if p.returncode < 0:
            raise Fail(f"rxc run --via {via} crashed (signal {-p.returncode}): {first_error(p.stderr)}")
        raise Fail(f"rxc run --via {via} exited {p.returncode}: {first_error(p.stderr)}")
    if not os.path.exists(out):
        raise Fail("rxc run wrote no output")
    if tuple_out:
        with np.load(out) as z:
            return [z[str(i)] if str(i) in z else None for i in range(len(z.files))]
    return [np.load(out)]


def compare(got, exp, rtol, atol):
    """None when got matches exp (tests/lib/compare.py: shape, dtype,
    values; NaN only equal to NaN), else a message saying why not."""
    if got is None:
        return "missing output"
    return shared_compare(got, exp, rtol, atol)


def check_outputs(outs, case, expected, rtol=None, atol=None, what=""):
    exp = list(expected) if case.tuple_out else [expected]
    if len(outs) != len(exp):
        raise Fail(f"got {len(outs)} outputs, expected {len(exp)}")
    rtol = case.rtol if rtol is None else rtol
    atol = case.atol if atol is None else atol
    for i, (g, e) in enumerate(zip(outs, exp)):
        msg = compare(g, np.asarray(e), rtol, atol)
        if msg:
            raise Fail(what + ("" if len(exp) == 1 else f"output {i}: ") + msg)


def check_same_bits(outs, legal_outs, what):
    """Fails unless every output has the legalized interpreter's bytes."""
    for i, (g, e) in enumerate(zip(outs, legal_outs)):
        if g is None or g.dtype != e.dtype or g.shape != e.shape:
            raise Fail(f"{what}output {i}: not the legalized module's dtype and shape")
        differ = int(np.count_nonzero(g.view(np.uint8) != e.view(np.uint8)))
        if differ:
            raise Fail(f"{what}output {i}: {differ} bytes differ from the legalized module's")


def check_compiled(target, files, case, expected, interp_outs, work, edge=False, legal_outs=None):
    """The generated C through the case's compilers (vias): equal to the
    reference (the case's tolerance) and to the interpreter (1e-5
    relative); against the reference alone when interp_outs is None (the
    interpreter skipped or failed: its half reports that).  A case with
    `same_bits` (cases_kernels.py) must also give the legalized module's
    bits in the interpreter (legal_outs), when that ran."""
    for via in vias(case, edge):
        outs = run_module(target, files, case.tuple_out, work, via, getattr(case, "sets", ()))
        check_outputs(outs, case, expected, what=f"{via}: ")
        if interp_outs is not None:
            check_outputs(outs, case, interp_outs if case.tuple_out else interp_outs[0],
                          rtol=1e-5, atol=case.atol, what=f"{via} vs interp: ")
        if getattr(case, "same_bits", False) and legal_outs:
            check_same_bits(outs, legal_outs, f"{via} vs the legalized module in interp: ")


def check_edge(target, files, case, expected, work, interp):
    """One edge: the interpreter, then the compiled code whatever the
    interpreter did (against numpy alone when it skipped or failed); the
    interpreter's Skip or Fail is raised after the compiled code passed."""
    try:
        interp_outs, why = interp(target, files, expected), None
    except (Skip, Fail) as e:
        interp_outs, why = None, e
    check_compiled(target, files, case, expected, interp_outs, work, edge=True)
    if why is not None:
        raise type(why)("interp: " + str(why))


# The ops the code generator emits itself (`built in` in `rxc list ops`):
# LegalizeOps leaves them in place by design.
BUILT_IN = {"R.assert_op(", "R.print(", "R.memory.alloc_storage(", "R.memory.alloc_tensor(",
            "R.memory.kill_storage(", "R.memory.kill_tensor("}


def op_names(case):
    """The op calls of the case's bindings (what LegalizeOps must lower);
    match_cast is a binding, not an op, and the code generator emits
    R.tensor_to_shape itself (its dims are read where a match_cast binds
    them)."""
    text = " ".join([case.call, *case.pre])
    return set(re.findall(r"\bR\.[a-z_.0-9]+[a-z_0-9]\(", text)) - {
        "R.const(", "R.prim_value(", "R.shape(", "R.str(", "R.match_cast(", "R.tensor_to_shape("} - BUILT_IN


def legalize(path, case, work):
    """The legalized module's path; Skip while LegalizeOps is unavailable
    or leaves the op in place.  With the case's `sets` (configuration
    keys); Fail when the text lacks one of the case's `legal_has` strings
    or holds one of its `legal_lacks` (a kernel call that must, or must
    not, be there: cases_kernels.py)."""
    legal = path[:-3] + "_legal.py"
    sets = [a for s in getattr(case, "sets", ()) for a in ("--set", s)]
    p = rxc("opt", path, "--passes", "LegalizeOps", *sets, "-o", legal)
    if p.returncode == 2:
        raise Skip("LegalizeOps unavailable")
    if p.returncode != 0:
        if "not implemented" in p.stderr:
            raise Skip("legalize: " + first_error(p.stderr))
        raise Fail(f"rxc opt --passes LegalizeOps exited {p.returncode}: {first_error(p.stderr)}")
    with open(legal) as f:
        text = f.read()
    left = [op for op in op_names(case) if op in text]
    if left:
        raise Skip(f"not legalized: {left[0][:-1]}")
    for want in getattr(case, "legal_has", ()):
        if want not in text:
            raise Fail(f"the legalized module has no {want}")
    for unwanted in getattr(case, "legal_lacks", ()):
        if unwanted in text:
            raise Fail(f"the legalized module has {unwanted}")
    return legal


def write_inputs(case, rng, work, shapes, tag=""):
    """Random inputs of the given shapes saved as .npy: (arrays, [(name, file)])."""
    arrays, files = [], []
    for inp, shape in zip(case.inputs, shapes):
        a = draw(rng, inp, shape)
        file = os.path.join(work, f"{case.name}{tag}_{inp.name}.npy")
        np.save(file, a)
        arrays.append(a)
        files.append((inp.name, file))
    return arrays, files


def edges(case):
    """(tag, shapes) for each edge of the symbolic bounds: every symbolic
    dim at its upper bound, then every one at 1; none without bounds, nor
    for a case whose relation between dims does not hold there (at_edges
    off)."""
    names = {d for i in case.inputs for d in i.sig if isinstance(d, str)}
    if not case.at_edges or not names or not case.upper or not names <= set(case.upper):
        return []
    out = []
    for tag, value in (("hi", lambda v: case.upper[v]), ("lo", lambda v: 1)):
        shapes = [tuple(value(d) if isinstance(d, str) else d for d in i.sig) for i in case.inputs]
        out.append((tag, shapes))
    return out


def run_half(half, job):
    try:
        job()
        return (half, "pass", "")
    except Skip as s:
        return (half, "skip", str(s))
    except Fail as e:
        return (half, "fail", str(e))


def case_dir(work, case):
    """The case's own directory (jobs run side by side)."""
    d = os.path.join(work, case.name)
    os.makedirs(d, exist_ok=True)
    return d


def run_case(case, rng, work):
    """Draws the case's inputs (from rng, in order: the inputs do not depend
    on how many jobs run) and returns the job running every half:
    [(half, outcome, message)]; outcome is one of pass, fail, skip."""
    work = case_dir(work, case)
    path = os.path.join(work, case.name + ".py")
    with open(path, "w") as f:
        f.write(module_text(case))
    arrays, files = write_inputs(case, rng, work, [i.shape for i in case.inputs])
    with np.errstate(all="ignore"):
        expected = case.ref(*arrays)
    p = rxc("check", path)
    if p.returncode != 0 and "not implemented" not in p.stderr:
        return lambda: [(half, "fail", f"rxc check rejected it: {first_error(p.stderr)}")
                        for half in ("direct", "legalized", "compiled")]
    at_edges = []
    for tag, shapes in edges(case):
        arr, fil = write_inputs(case, rng, work, shapes, "_" + tag)
        with np.errstate(all="ignore"):
            at_edges.append((tag, fil, case.ref(*arr)))

    def interp(target, files, expected):
        outs = run_module(target, files, case.tuple_out, work, sets=getattr(case, "sets", ()))
        check_outputs(outs, case, expected)
        return outs

    def job():
        direct, legal = [], []
        results = [run_half("direct", lambda: direct.append(interp(path, files, expected))),
                   run_half("legalized", lambda: legal.append(
                       interp(legalize(path, case, work), files, expected)))]
        unlowered = [m for half, outcome, m in results if outcome == "skip" and "not legalized" in m]
        if unlowered:  # the generated C cannot hold an op LegalizeOps leaves: skipped alike
            return results + [(half, "skip", unlowered[0]) for half in
                              ["compiled"] + ["edge_" + tag for tag, _, _ in at_edges]]
        # run even when the interpreter skipped or failed: against numpy alone then
        results.append(run_half("compiled", lambda: check_compiled(
            path, files, case, expected, direct[0] if direct else None, work,
            legal_outs=legal[0] if legal else None)))
        for tag, fil, exp in at_edges:
            results.append(run_half("edge_" + tag, lambda fil=fil, exp=exp: check_edge(
                path, fil, case, exp, work, interp)))
        return results
    return job


def gv_annotated(path, case):
    """Whether `rxc opt --passes Normalize` prints gv with inferred struct info (inference of
    the op exists) or bare (no inference yet), for the case's module
    without a written annotation."""
    if case.annot:
        path = path[:-3] + "_bare.py"
        with open(path, "w") as f:
            f.write(module_text(C.ErrorCase(case.name, case.call, case.inputs, [], upper=case.upper)))
    p = rxc("opt", path, "--passes", "Normalize")
    return p.returncode == 0 and re.search(r"^\s*gv: ", p.stdout, re.M) is not None


def run_error_case(case, work):
    path = os.path.join(case_dir(work, case), case.name + ".py")
    with open(path, "w") as f:
        f.write(module_text(case))
    p = rxc("check", path)
    msg = p.stderr
    if p.returncode == 0:
        if not gv_annotated(path, case):
            return [("check", "skip", "no inference yet")]
        return [("check", "fail", "rxc check accepted it")]
    if p.returncode != 1:
        return [("check", "fail", f"rxc check exited {p.returncode}: {first_error(msg)}")]
    if "not implemented" in msg:
        return [("check", "skip", first_error(msg))]
    low = re.sub(r"r\.[a-z_.]+: ", "", msg.lower())  # the op's own name proves nothing
    if not any(w.lower() in low for w in case.words):
        return [("check", "fail", f"message lacks any of {case.words}: {first_error(msg)}")]
    if case.names_binding and "'gv'" not in msg:
        return [("check", "fail", f"message does not name binding 'gv': {first_error(msg)}")]
    return [("check", "pass", "")]


# An exit 1 of --via cc/tcc that is no refusal: building or loading the
# generated C failed (codegen/cc.c, codegen/jit.c), which `rxc compile`,
# writing the C only, cannot see.
BUILD_FAILED = ("failed on the generated code", "tcc: ", "cannot load '", "cannot create a")
SANITIZER_REPORT = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                              r"SUMMARY: (Address|UndefinedBehavior)Sanitizer|ASan runtime does not come first")


def sanitizer_env():
    """tests/gen/validate.py's environment for the sanitized `--via cc`
    (ASan's runtime preloaded: rxc is not built with it) and its cc flags;
    None when gcc has no ASan runtime."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gen"))
    import validate  # noqa: E402
    env = validate.sanitizer_env()
    if not os.path.isabs(env.get("LD_PRELOAD", "")):
        return None
    return env, validate.SANITIZE_FLAGS


_SANITIZER = []


def sanitizer():
    if not _SANITIZER:
        _SANITIZER.append(sanitizer_env())
    return _SANITIZER[0]


def refusal(path, files, work, via, sanitize=False):
    """rxc run --via VIA on the inputs: ("ran", "") on exit 0, ("refused",
    the error line) on exit 1 with an error line, ("skip", why) when it
    says "not implemented", else ("bad", why): a crash (signal), another
    exit status, exit 1 without a diagnostic or from building or loading
    the generated C, or a sanitizer report."""
    args = ["run", path, "--via", via]
    for name, file in files:
        args += ["--input", f"{name}={file}"]
    args += ["--output", os.path.join(work, "refused.npz")]
    env = None
    if sanitize:
        env, flags = sanitizer()
        args += ["--set", f"jit.cc_flags={flags}"]
    exe = os.environ.get("RXC", "build/rxc")
    try:
        p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return "bad", f"timed out after {TIMEOUT}s"
    if "not implemented" in p.stderr:
        return "skip", first_error(p.stderr)
    report = SANITIZER_REPORT.search(p.stderr)
    if report:
        line = next(x for x in p.stderr.splitlines() if report.group(0) in x)
        return "bad", f"sanitizer report (exit {p.returncode}): {line.strip()}"
    if p.returncode < 0:
        return "bad", f"crashed (signal {-p.returncode}): {first_error(p.stderr)}"
    if p.returncode == 0:
        return "ran", ""
    if p.returncode != 1:
        return "bad", f"exited {p.returncode}: {first_error(p.stderr)}"
    if not any("error" in line for line in p.stderr.splitlines()):
        return "bad", f"exit 1 without an error line: {first_error(p.stderr)}"
    if via != "interp" and any(w in p.stderr for w in BUILD_FAILED):
        return "bad", f"building or loading the generated C failed: {first_error(p.stderr)}"
    if "before refusing" in p.stderr:  # rxc run --via saw the entry write an output (its sentinel)
        line = next(x for x in p.stderr.splitlines() if "before refusing" in x)
        return "bad", f"refused after writing an output: {line.strip()}"
    return "refused", first_error(p.stderr)


def run_run_error_case(case, rng, work):
    """The interpreter must refuse the inputs (exit 1, a message holding one
    of the words); the generated C (tcc, cc, and cc again built with
    -fsanitize=address,undefined) must do as the interpreter did: refuse
    cleanly (exit 1 with an error line) where it refuses, run where it runs;
    the sanitized cc with the same message as cc (no sanitizer report, no
    failure to load the sanitized code).  A module that does not compile
    fails the compiled halves: refusing to compile is not refusing the
    inputs.  Draws the inputs now and returns the job."""
    work = case_dir(work, case)
    path = os.path.join(work, case.name + ".py")
    with open(path, "w") as f:
        f.write(module_text(case))
    files = []
    for inp in case.inputs:
        file = os.path.join(work, f"{case.name}_{inp.name}.npy")
        np.save(file, draw(rng, inp, case.shapes.get(inp.name, inp.shape)))
        files.append((inp.name, file))
    return lambda: run_refusals(case, path, files, work)


def run_refusals(case, path, files, work):
    results = []
    status, msg = refusal(path, files, work, "interp")
    # a skipped interpreter leaves the case's expectation (a refusal) for the compiled halves
    interp_refused = status in ("refused", "skip")
    why = msg.split("error:", 1)[-1].strip()
    if status == "skip":
        results.append(("interp", "skip", "run: " + msg))
    elif status == "ran":
        results.append(("interp", "fail", "rxc run accepted the inputs"))
    elif status == "bad":
        results.append(("interp", "fail", msg))
    else:
        text = msg.split("error:", 1)[-1].lower()  # not the file name
        if any(w.lower() in text for w in case.words):
            results.append(("interp", "pass", ""))
        else:
            results.append(("interp", "fail", f"message lacks any of {case.words}: {msg}"))
    p = rxc("compile", path, "-o", os.path.join(work, case.name + "_c"))
    if p.returncode != 0:
        err = first_error(p.stderr)
        outcome = "skip" if "not implemented" in err else "fail"
        return results + [(via, outcome, f"rxc compile: {err}") for via in ("tcc", "cc", "cc_san")]
    said = {}
    for half, via, san in (("tcc", "tcc", False), ("cc", "cc", False), ("cc_san", "cc", True)):
        if san and sanitizer() is None:
            results.append((half, "skip", "no ASan runtime"))
            continue
        status, msg = refusal(path, files, work, via, san)
        said[half] = (status, msg)
        if status == "skip":
            results.append((half, "skip", "run: " + msg))
        elif status == "bad":
            results.append((half, "fail", msg))
        elif status == "ran" and interp_refused:
            results.append((half, "fail", f"ran to exit 0 where the interpreter refuses ({why})"))
        elif status == "refused" and not interp_refused:
            results.append((half, "fail", f"refused where the interpreter runs: {msg}"))
        elif san and said.get("cc", (status, msg)) != (status, msg):
            results.append((half, "fail", f"refused otherwise than unsanitized cc ({said['cc'][1]}): {msg}"))
        else:
            results.append((half, "pass", msg))
    return results


# $OPS_SKIPS replaces it (tests/runner/check_runner_ops.sh tries the rules)
SKIPS_FILE = os.environ.get("OPS_SKIPS") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         "skips.txt")


def load_skips(path=SKIPS_FILE):
    """skips.txt: {(case, half): reason} of the skips allowed; case "*" is
    any case (a platform feature, such as gcc's ASan runtime)."""
    allowed = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit(f"{path}:{n}: expected CASE HALF REASON")
            allowed[(parts[0], parts[1])] = parts[2]
    return allowed


def skip_allowed(allowed, name, half):
    """The reason skips.txt gives for this skip, or None (not listed).
    REQUIRE_ALL=1 in the environment allows none."""
    if os.environ.get("REQUIRE_ALL") == "1":
        return None
    return allowed.get((name, half), allowed.get(("*", half)))


def file_case_names(name):
    """The names of the cases tests/ops/NAME.py defines (NAME may end in
    .py or be a path); for cases.py, those of its own lists."""
    stem = os.path.basename(name)
    stem = stem[:-3] if stem.endswith(".py") else stem
    here = os.path.dirname(os.path.abspath(__file__))
    if stem != "cases" and not (stem.startswith("cases_") and os.path.exists(os.path.join(here, stem + ".py"))):
        raise SystemExit(f"run_ops.py: --file {name}: no tests/ops/{stem}.py of cases")
    kinds = ("CASES", "ERROR_CASES", "RUN_ERROR_CASES")

    def of(module):
        return {c.name for k in kinds if hasattr(module, k) for c in getattr(module, k)()}
    if stem != "cases":
        return of(importlib.import_module(stem))
    names = {c.name for c in C.all_cases() + C.error_cases() + C.run_error_cases()}
    for path in glob.glob(os.path.join(here, "cases_*.py")):
        names -= of(importlib.import_module(os.path.basename(path)[:-3]))
    return names


def main(argv):
    verbose = "-v" in argv
    only = argv[argv.index("-k") + 1] if "-k" in argv else ""
    in_file = file_case_names(argv[argv.index("--file") + 1]) if "--file" in argv else None
    jobs = int(argv[argv.index("-j") + 1]) if "-j" in argv else (os.cpu_count() or 1)
    sample = int(argv[argv.index("--sample") + 1]) if "--sample" in argv else 1
    if "--full" in argv:
        FULL.append(True)
    failures = selftest.run()
    if "--self-test" in argv:
        for f in failures:
            print(f"FAIL self-test {f}")
        print(f"self-test: {selftest.count() - len(failures)} passed, {len(failures)} failed")
        return 1 if failures else 0
    counts = {"pass": 0, "fail": len(failures), "skip": 0}
    reasons = {}
    allowed, seen = load_skips(), {}  # seen: (case, half) -> outcome
    for f in failures:
        print(f"FAIL self-test {f}")
    rng = np.random.default_rng(SEED)
    sanitizer()  # once, before the jobs start
    with tempfile.TemporaryDirectory(prefix="rxc_ops_") as work, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        cases = ([(c, lambda c=c: run_case(c, rng, work)) for c in C.all_cases()]
                 + [(c, lambda c=c: lambda: run_error_case(c, work)) for c in C.error_cases()]
                 + [(c, lambda c=c: run_run_error_case(c, rng, work)) for c in C.run_error_cases()])
        # inputs drawn here, in order; the rxc runs side by side
        running = [(case, pool.submit(prepare())) for case, prepare in cases
                   if only in case.name and (in_file is None or case.name in in_file)
                   and (zlib.crc32(case.name.encode()) >> 8) % sample == 0]
        for case, job in running:
            for half, outcome, msg in job.result():
                seen[(case.name, half)] = outcome
                if outcome == "skip" and skip_allowed(allowed, case.name, half) is None:
                    outcome, msg = "fail", (f"skipped, and {os.path.relpath(SKIPS_FILE)} does not allow it"
                                            + (" (REQUIRE_ALL=1)" if os.environ.get("REQUIRE_ALL") == "1" else "")
                                            + ": " + msg)
                counts[outcome] += 1
                if outcome == "fail":
                    print(f"FAIL {case.name} [{half}]: {msg}", flush=True)
                elif outcome == "skip":
                    key = msg.split(":")[0]
                    reasons[key] = reasons.get(key, 0) + 1
                    if verbose:
                        print(f"skip {case.name} [{half}]: {msg}")
                elif verbose:
                    print(f"ok   {case.name} [{half}]" + (f": {msg}" if msg else ""))
    for (name, half), reason in sorted(allowed.items()):
        if name != "*" and seen.get((name, half), "skip") != "skip":
            counts["fail"] += 1
            print(f"FAIL {name} [{half}]: listed in {os.path.relpath(SKIPS_FILE)} ({reason}) but no longer "
                  f"skips: remove the line", flush=True)
    if reasons:
        print("skipped: " + "; ".join(f"{n} {r}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1])))
    print(f"ops: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
