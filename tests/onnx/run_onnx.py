#!/usr/bin/python3
"""ONNX conformance: Debian's libonnx-testdata through rxc, checked
against a committed baseline.

Each test is a directory with model.onnx and test_data_set_*/ holding
input_*.pb and output_*.pb (TensorProto).  For each test:
  1. rxc import model.onnx      -> exit 1 with "node ... (Op): ..." or
                                   "... not supported" is UNSUPPORTED (the
                                   reason is kept);
  2. rxc run model.onnx --via tcc (the -O2 pipeline, generated C compiled
     in process by libtcc) on every data set, outputs compared with the
     expected ones by tests/lib/compare.py: same shape and dtype,
     |got - want| <= atol + rtol*|want| (the ONNX backend test defaults:
     rtol 1e-3, atol 1e-7), NaN equal only to NaN; the largest error is
     reported in ULP of the expected value's type.
A data set that is not all tensors (sequences, optionals) makes the test
unsupported.  Anything else (a crash, a wrong value, a run-time error) is
a FAIL.

tests/onnx/baseline.txt holds every test's expected status, one a line:
`NAME pass`, `NAME unsupported REASON` (REASON is the runner's detail,
e.g. "test_data_set_0: (Det): operator not supported") or `NAME fail
REASON` (a known failure, any failure accepted).  A run is checked
against it: a test expected to pass that does not, an UNSUPPORTED test
the baseline does not list as unsupported or lists with another reason, a
FAIL not listed as fail, a test missing from the baseline and (with
--all) a baseline test missing from the data are failures.  A test that
passes where the baseline expects otherwise is reported as "newly
passing" and is a failure too, so that the baseline (and the README
table) stay exact: rerun with --write-baseline.  A missing or empty data
folder is a failure.

usage: run_onnx.py [--all | --fast | TEST...] [-k TEXT] [--via tcc|cc] [-j N]
                   [--write-baseline] [--write-readme] [-v]
  --all             every test of node/, pytorch-converted/,
                    pytorch-operator/, simple/
  --fast            the fixed subset FAST (make check)
  -k TEXT           keep only the tests whose name contains TEXT (repeatable)
  --write-baseline  record this run's statuses in the baseline instead of
                    checking them (with --all the file is rewritten whole,
                    else only the tests run are updated)
  --write-readme    replace the ONNX summary in tests/README.md
Environment: RXC (default build/rxc), ONNX_TESTDATA (default
/usr/share/libonnx-testdata/data), ONNX_BASELINE (default
tests/onnx/baseline.txt).
Exit status 0 when every test matches the baseline.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("ONNX_TESTDATA", "/usr/share/libonnx-testdata/data")
BASELINE = os.environ.get("ONNX_BASELINE", os.path.join(ROOT, "tests", "onnx", "baseline.txt"))
RXC = os.environ.get("RXC", "build/rxc")
RTOL, ATOL = 1e-3, 1e-7

sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from compare import compare  # noqa: E402

# A fixed list of passing tests that together touch most converters; make
# check runs them (about 30 s on a 2-core box).
FAST = [
    "node/test_add_bcast", "node/test_sub", "node/test_mul_bcast", "node/test_div",
    "node/test_pow", "node/test_relu", "node/test_sigmoid", "node/test_tanh",
    "node/test_leakyrelu", "node/test_softmax_axis_1", "node/test_softmax_example",
    "node/test_logsoftmax_axis_0", "node/test_gemm_all_attributes", "node/test_matmul_3d",
    "node/test_conv_with_strides_and_asymmetric_padding", "node/test_basic_conv_with_padding",
    "node/test_maxpool_2d_ceil", "node/test_maxpool_2d_same_upper",
    "node/test_averagepool_2d_pads_count_include_pad", "node/test_globalaveragepool",
    "node/test_batchnorm_epsilon", "node/test_reshape_negative_dim",
    "node/test_flatten_axis2", "node/test_concat_2d_axis_1", "node/test_split_equal_parts_1d",
    "node/test_transpose_all_permutations_2", "node/test_reduce_mean_keepdims_example",
    "node/test_clip", "node/test_resize_upsample_scales_nearest", "node/test_unsqueeze_axis_0",
    "node/test_gather_0", "node/test_cast_FLOAT_to_DOUBLE", "node/test_cast_DOUBLE_to_FLOAT16",
    "node/test_max_float16", "node/test_mod_mixed_sign_int32", "node/test_mod_mixed_sign_float32",
    "node/test_bitshift_right_uint64", "node/test_isinf_negative", "node/test_atanh",
    "node/test_gathernd_example_int32_batch_dim1", "node/test_scatter_elements_with_duplicate_indices",
    "node/test_scatternd_add", "node/test_reversesequence_batch",
    "node/test_sce_mean_weight_ii_3d_log_prob", "node/test_hardmax_axis_1", "node/test_lrn",
    "node/test_hannwindow_symmetric", "node/test_dynamicquantizelinear", "node/test_shrink_soft",
    "node/test_spacetodepth", "node/test_mvn", "node/test_lstm_with_peepholes",
    "node/test_gru_seq_length", "node/test_simple_rnn_batchwise", "node/test_qlinearconv",
    "node/test_qlinearmatmul_3D", "node/test_convinteger_with_padding",
]


# Inputs an ahead-of-time compiler needs as constants: shapes, axes, sizes,
# slice bounds, Range's bounds, OneHot's depth and values, a window's length
# (rxc plans memory statically, so a shape may
# not depend on data), and Trilu's k (R.tril/R.triu take it as a prim
# value, not a tensor).  Where a test feeds one from a graph input, the
# runner freezes it into an initializer holding the data set's value and
# says so.
STATIC_INPUTS = {
    "Reshape": [1], "Expand": [1], "Unsqueeze": [1], "Squeeze": [1], "Slice": [1, 2, 3, 4],
    "ReduceSum": [1], "ReduceMean": [1], "ReduceMax": [1], "ReduceMin": [1], "Split": [1],
    "Resize": [1, 2, 3], "Upsample": [1], "ConstantOfShape": [0], "Tile": [1], "Pad": [1, 2],
    "Dropout": [1, 2], "Range": [0, 1, 2], "Trilu": [1], "ReduceProd": [1], "CumSum": [1], "TopK": [1],
    "OneHot": [1, 2], "HannWindow": [0], "HammingWindow": [0], "BlackmanWindow": [0],
}


def static_inputs(model):
    """Names of graph inputs used where a constant is needed."""
    inits = {t.name for t in model.graph.initializer}
    graph_inputs = {i.name for i in model.graph.input} - inits
    names = set()
    for n in model.graph.node:
        for k in STATIC_INPUTS.get(n.op_type, []):
            if k < len(n.input) and n.input[k] in graph_inputs:
                names.add(n.input[k])
    return names


def freeze(model_path, input_names, arrays, frozen, out_path):
    """Writes model_path with the graph inputs in frozen made initializers
    of the given values."""
    model = onnx.load(model_path)
    keep = [i for i in model.graph.input if i.name not in frozen]
    del model.graph.input[:]
    model.graph.input.extend(keep)
    for name, a in zip(input_names, arrays):
        if name in frozen:
            model.graph.initializer.append(numpy_helper.from_array(a, name))
    onnx.save(model, out_path)


def tensor_from_pb(path):
    """The numpy array of a TensorProto file, or None when it is not one."""
    t = TensorProto()
    with open(path, "rb") as f:
        data = f.read()
    try:
        t.ParseFromString(data)
    except Exception:
        return None
    if not t.HasField("data_type") or t.data_type == TensorProto.STRING:
        return None
    try:
        return numpy_helper.to_array(t)
    except Exception:
        return None


def signature_names(text):
    """main's parameter names from the printed module."""
    m = re.search(r"def main\((.*)\)\s*->", text)
    return re.findall(r"(\w+): R\.", m.group(1)) if m else []


def classify_import(r):
    """(status, detail) of a failed rxc import."""
    if r.returncode == 1 and "node '" in r.stderr:
        return "UNSUPPORTED", unsupported_reason(r.stderr)
    if r.returncode == 1 and re.search(r"not supported|only tensor types", r.stderr):
        return "UNSUPPORTED", first_error(r.stderr).split("error: ", 1)[-1]
    return "FAIL", "rxc import exit %d: %s" % (r.returncode, first_error(r.stderr))


def run_set(model_path, set_dir, tmp, via):
    """Imports and runs one data set; (status, detail)."""
    key = lambda p: int(re.findall(r"\d+", os.path.basename(p))[0])
    inputs = sorted(glob.glob(os.path.join(set_dir, "input_*.pb")), key=key)
    outputs = sorted(glob.glob(os.path.join(set_dir, "output_*.pb")), key=key)
    model = onnx.load(model_path)
    inits = {t.name for t in model.graph.initializer}
    onnx_names = [i.name for i in model.graph.input if i.name not in inits]
    arrays = [tensor_from_pb(p) for p in inputs]
    if any(a is None for a in arrays) or len(arrays) != len(onnx_names):
        return "UNSUPPORTED", "an input is not a tensor"
    wants = [tensor_from_pb(p) for p in outputs]
    if any(w is None for w in wants):
        return "UNSUPPORTED", "an output is not a tensor"
    frozen = static_inputs(model)
    note = ""
    if frozen:
        frozen_path = os.path.join(tmp, "frozen.onnx")
        freeze(model_path, onnx_names, arrays, frozen, frozen_path)
        model_path = frozen_path
        note = " (constant inputs frozen: %s)" % ", ".join(sorted(frozen))
    r, text = import_text(model_path, tmp)
    if text is None:
        return classify_import(r)
    names = signature_names(text)
    live = [(n, a) for n, a in zip(onnx_names, arrays) if n not in frozen]
    if len(live) != len(names):
        return "FAIL", "%d inputs, main takes %d" % (len(live), len(names))
    args = [RXC, "run", model_path, "--via", via]
    for i, ((_, a), name) in enumerate(zip(live, names)):
        path = os.path.join(tmp, "in%d.npy" % i)
        np.save(path, a)
        args += ["--input", "%s=%s" % (name, path)]
    out = os.path.join(tmp, "out.npz" if len(wants) > 1 else "out.npy")
    args += ["--output", out]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if r.returncode == 1 and "C code generation does not support" in r.stderr:
        return "UNSUPPORTED", "codegen: " + first_error(r.stderr).split("error: ", 1)[-1]
    if r.returncode != 0:
        return "FAIL", "rxc run exit %d: %s%s" % (r.returncode, first_error(r.stderr), note)
    if len(wants) == 1:
        gots = [np.load(out)]
    else:
        z = np.load(out)
        gots = [z[str(i)] for i in range(len(wants))]
    for i, (g, w) in enumerate(zip(gots, wants)):
        why = compare(g, w, RTOL, ATOL)
        if why:
            return "FAIL", "output %d: %s%s" % (i, why, note)
    return "PASS", note.strip()


def import_text(model_path, tmp):
    """rxc import of model_path: (completed process, module text or None)."""
    py = os.path.join(tmp, "model.py")
    r = subprocess.run([RXC, "import", model_path, "-o", py], capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        return r, None
    with open(py) as f:
        return r, f.read()


def first_error(stderr):
    lines = [l for l in stderr.splitlines() if "error" in l] or stderr.splitlines() or [""]
    return lines[0][:300]


def unsupported_reason(stderr):
    """The distinct "(Op): reason" of each unsupported node, joined."""
    reasons = []
    for l in stderr.splitlines():
        m = re.search(r"node '.*?' (\(\w+\): .*)", l)
        r = m.group(1) if m else None
        if r and r not in reasons:
            reasons.append(r)
    return "; ".join(reasons)[:300]


def run_test(test, via):
    """(test, status, detail) for one test directory name (suite/name)."""
    test_dir = os.path.join(DATA, test)
    sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not sets:
        return test, "UNSUPPORTED", "no data set"
    detail = ""
    with tempfile.TemporaryDirectory(prefix="rxc-onnx-") as tmp:
        for s in sets:
            status, detail = run_set(os.path.join(test_dir, "model.onnx"), s, tmp, via)
            if status != "PASS":
                return test, status, "%s: %s" % (os.path.basename(s), detail)
    return test, "PASS", detail


def all_tests():
    tests = []
    for suite in SUITES:
        for d in sorted(glob.glob(os.path.join(DATA, suite, "*"))):
            if os.path.exists(os.path.join(d, "model.onnx")):
                tests.append("%s/%s" % (suite, os.path.basename(d)))
    return tests


def summary_table(results):
    """The markdown summary: counts per suite and overall."""
    rows = ["| suite | tests | pass | fail | unsupported |", "|---|---:|---:|---:|---:|"]
    total = {"PASS": 0, "FAIL": 0, "UNSUPPORTED": 0}
    for suite in SUITES:
        c = {"PASS": 0, "FAIL": 0, "UNSUPPORTED": 0}
        for t, s, _ in results:
            if t.startswith(suite + "/"):
                c[s] += 1
        n = sum(c.values())
        rows.append("| %s | %d | %d | %d | %d |" % (suite, n, c["PASS"], c["FAIL"], c["UNSUPPORTED"]))
        for k in total:
            total[k] += c[k]
    n = sum(total.values())
    rows.append("| **all** | %d | %d | %d | %d |" % (n, total["PASS"], total["FAIL"], total["UNSUPPORTED"]))
    share = 100.0 * total["PASS"] / n if n else 0
    return "\n".join(rows) + "\n\n%d of %d tests pass (%.1f%%).\n" % (total["PASS"], n, share)


def reason_table(results):
    """The unsupported tests grouped by the first operator they lack."""
    counts = {}
    for _, s, d in results:
        if s == "UNSUPPORTED":
            d = re.sub(r"^test_data_set_\d+: ", "", d)
            m = re.match(r"\((\w+)\): (.*?)(;|$)", d)
            key = "%s: %s" % (m.group(1), m.group(2)) if m else d
            counts[key] = counts.get(key, 0) + 1
    rows = ["| count | first reason |", "|---:|---|"]
    for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rows.append("| %d | %s |" % (v, k.replace("|", "\\|")))
    return "\n".join(rows) + "\n"


def write_readme(results, via):
    path = os.path.join(ROOT, "tests", "README.md")
    with open(path) as f:
        text = f.read()
    begin, end = "<!-- onnx-summary-begin -->", "<!-- onnx-summary-end -->"
    fails = [r for r in results if r[1] == "FAIL"]
    body = "%s\n%s\n" % (begin, summary_table(results))
    body += "Through `rxc run --via %s` (-O2, generated C compiled by libtcc).\n\n" % via
    if fails:
        body += "Failures:\n\n" + "".join("- `%s`: %s\n" % (t, d) for t, _, d in fails) + "\n"
    body += "Unsupported, by first reason:\n\n" + reason_table(results) + end
    if begin in text:
        text = text[:text.index(begin)] + body + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n## ONNX conformance\n\n" + body + "\n"
    with open(path, "w") as f:
        f.write(text)


def read_baseline(path):
    """{test: (status, reason)} from the baseline file ({} when absent)."""
    baseline = {}
    if not os.path.exists(path):
        return baseline
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" ", 2)
            baseline[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return baseline


def write_baseline(path, baseline):
    with open(path, "w") as f:
        f.write("# The expected status of every ONNX conformance test (tests/onnx/run_onnx.py):\n"
                "# NAME pass | NAME unsupported REASON | NAME fail REASON (a known failure).\n"
                "# Written by: RXC=build/rxc /usr/bin/python3 tests/onnx/run_onnx.py --all "
                "--write-baseline\n")
        for t in sorted(baseline):
            status, reason = baseline[t]
            f.write("%s %s%s\n" % (t, status, " " + reason if reason else ""))


def check_baseline(results, baseline, whole):
    """(problems, newly passing): lines saying where results differ from the
    baseline; whole: results are every test of the data (--all), so a
    baseline test absent from them is a problem too."""
    problems, newly = [], []
    for t, s, d in results:
        if t not in baseline:
            problems.append("%s: %s, and not in the baseline" % (t, s))
            continue
        want, reason = baseline[t]
        if s == "PASS":
            if want != "pass":
                newly.append("%s: passes, baseline says %s %s" % (t, want, reason))
        elif s == "UNSUPPORTED" and want == "unsupported":
            if d != reason:
                problems.append("%s: unsupported for another reason: %s\n    baseline: %s"
                                % (t, d, reason))
        elif s == "FAIL" and want == "fail":
            pass
        else:
            problems.append("%s: %s, baseline says %s: %s" % (t, s, want, d))
    if whole:
        ran = {t for t, _, _ in results}
        problems += ["%s: in the baseline, not in %s" % (t, DATA)
                     for t in sorted(baseline) if t not in ran]
    return problems, newly


def main(argv):
    via, jobs, tests, write, verbose = "tcc", 2, [], False, False
    whole, keep, rebase = False, [], False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--all":
            whole = True
        elif a == "--fast":
            tests += FAST
        elif a == "-k":
            i += 1
            keep.append(argv[i])
        elif a == "--via":
            i += 1
            via = argv[i]
        elif a == "-j":
            i += 1
            jobs = int(argv[i])
        elif a == "--write-baseline":
            rebase = True
        elif a == "--write-readme":
            write = True
        elif a == "-v":
            verbose = True
        else:
            tests.append(a)
        i += 1
    if not tests and not whole:
        print(__doc__)
        return 2
    found = all_tests()
    if not found:
        print("run_onnx.py: FAIL: no ONNX test in %s (install Debian's libonnx-testdata: "
              "make deps, or set ONNX_TESTDATA)" % DATA)
        return 1
    if whole:
        tests = found
    if keep:
        tests = [t for t in tests if any(k in t for k in keep)]
        whole = False
    baseline = read_baseline(BASELINE)
    if not baseline and not rebase:
        print("run_onnx.py: FAIL: no baseline in %s (write one with --all --write-baseline)"
              % BASELINE)
        return 1
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(lambda t: run_test(t, via), tests))
    for t, s, d in results:
        if s != "PASS" or verbose:
            print("%-11s %s%s" % (s, t, ("  " + d) if d else ""))
    print(summary_table(results))
    if write:
        write_readme(results, via)
    if rebase:
        if whole:
            baseline = {}
        baseline.update({t: (s.lower(), "" if s == "PASS" else d) for t, s, d in results})
        write_baseline(BASELINE, baseline)
        print("wrote %s (%d tests)" % (BASELINE, len(baseline)))
        return 0
    problems, newly = check_baseline(results, baseline, whole)
    for p in newly:
        print("NEWLY PASSING %s" % p)
    if newly:
        print("newly passing: update the baseline with --write-baseline "
              "(run_onnx.py --all --write-baseline, or name the tests)")
    for p in problems:
        print("BASELINE FAIL %s" % p)
    print("%d tests against %s: %d differences, %d newly passing"
          % (len(results), os.path.relpath(BASELINE, ROOT), len(problems), len(newly)))
    return 1 if problems or newly else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
