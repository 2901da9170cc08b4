#!/usr/bin/python3
"""check_runner.py - the ONNX test runners must fail when they should
(issue 33): plants bugs without rebuilding rxc and checks that each one
makes its runner exit non-zero and name what went wrong.

  - tests/lib/compare.py on hand-made arrays: a NaN or infinity where a
    finite value is expected, float32 against float64, a shape, an
    integer off by one all differ; values within the tolerance, NaN
    against NaN and equal infinities do not;
  - run_onnx.py --fast with rxc_no_atanh as RXC (rxc as if the Atanh
    converter were gone): fails and names node/test_atanh, where the same
    subset through the real rxc passes;
  - run_onnx.py with the ONNX data folder missing or empty, and with a
    baseline that lists a test with another reason, does not list it, or
    lists a passing test as unsupported: each fails;
  - run_onnx.py and onnx_cases.py with rxc_bad_output.py as RXC (an
    output spoiled with a NaN, written as float64, or left out): fail.

usage: RXC=build/rxc /usr/bin/python3 tests/onnx/plant/check_runner.py [-v]
Exit status 0 when every planted bug is caught.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, os.path.dirname(HERE))
from compare import compare  # noqa: E402
import onnx_cases  # noqa: E402

REAL_RXC = os.path.abspath(os.environ.get("RXC", os.path.join(ROOT, "build", "rxc")))
RUN_ONNX = os.path.join(ROOT, "tests", "onnx", "run_onnx.py")
VERBOSE = "-v" in sys.argv
failures = []


def expect(ok, what, output=""):
    """Records a failure (with the runner's output) unless ok."""
    print("%s %s" % ("ok  " if ok else "FAIL", what))
    if not ok:
        failures.append(what)
        print("    " + output.strip().replace("\n", "\n    "))
    elif VERBOSE and output:
        print("    " + output.strip().replace("\n", "\n    "))


def run_onnx(args, rxc=REAL_RXC, **env):
    """(exit status, stdout + stderr) of run_onnx.py args."""
    e = dict(os.environ, RXC=rxc, REAL_RXC=REAL_RXC, **env)
    p = subprocess.run([sys.executable, RUN_ONNX] + args, env=e, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def check_compare():
    f32 = np.array([1.0, 2.0, -3.0], np.float32)
    differ = {
        "NaN where a finite value is expected": (np.array([1, np.nan, -3], np.float32), f32),
        "infinity where a finite value is expected": (np.array([1, np.inf, -3], np.float32), f32),
        "-inf where +inf is expected": (np.array([-np.inf]), np.array([np.inf])),
        "finite where NaN is expected": (np.array([0.0]), np.array([np.nan])),
        "float64 where float32 is expected": (f32.astype(np.float64), f32),
        "float32 where float16 is expected": (f32, f32.astype(np.float16)),
        "another shape": (f32[:2], f32),
        "an integer off by one": (np.array([1, 2, 4], np.int32), np.array([1, 2, 3], np.int32)),
        "int64 where int32 is expected": (np.array([1], np.int64), np.array([1], np.int32)),
        "a bool flipped": (np.array([True]), np.array([False])),
        "a value beyond rtol": (np.array([1.01], np.float32), np.array([1.0], np.float32)),
    }
    for what, (got, want) in differ.items():
        why = compare(got, want)
        expect(why is not None, "compare: %s differs (%s)" % (what, why))
    same = {
        "a value within rtol": (np.array([1.0005], np.float32), np.array([1.0], np.float32)),
        "NaN where NaN is expected": (np.array([np.nan]), np.array([np.nan])),
        "equal infinities": (np.array([-np.inf, np.inf]), np.array([-np.inf, np.inf])),
        "empty arrays": (np.zeros((0, 3), np.float16), np.zeros((0, 3), np.float16)),
    }
    for what, (got, want) in same.items():
        why = compare(got, want)
        expect(why is None, "compare: %s matches" % what, why or "")


def check_run_onnx(tmp):
    plant = os.path.join(HERE, "rxc_no_atanh")
    status, out = run_onnx(["--fast"], plant)
    expect(status != 0 and "node/test_atanh" in out,
           "run_onnx.py --fast fails with Atanh unsupported, naming node/test_atanh", out)
    status, out = run_onnx(["--fast", "-k", "atanh"])
    expect(status == 0, "run_onnx.py --fast -k atanh passes with the real rxc", out)

    status, out = run_onnx(["--fast"], ONNX_TESTDATA=os.path.join(tmp, "missing"))
    expect(status != 0 and "no ONNX test" in out, "run_onnx.py fails on a missing data folder", out)
    os.mkdir(os.path.join(tmp, "empty"))
    status, out = run_onnx(["--all"], ONNX_TESTDATA=os.path.join(tmp, "empty"))
    expect(status != 0 and "no ONNX test" in out, "run_onnx.py fails on an empty data folder", out)

    with open(os.path.join(ROOT, "tests", "onnx", "baseline.txt")) as f:
        lines = f.read().splitlines()
    det = "node/test_det_2d"
    cases = {
        "lists %s with another reason" % det: [l.replace("Det", "Dot") if l.startswith(det + " ")
                                               else l for l in lines],
        "does not list %s" % det: [l for l in lines if not l.startswith(det + " ")],
        "lists node/test_relu as unsupported": [
            "node/test_relu unsupported test_data_set_0: (Relu): operator not supported"
            if l == "node/test_relu pass" else l for l in lines],
    }
    for i, (what, text) in enumerate(cases.items()):
        path = os.path.join(tmp, "baseline%d.txt" % i)
        with open(path, "w") as f:
            f.write("\n".join(text) + "\n")
        status, out = run_onnx([det, "node/test_relu"], ONNX_BASELINE=path)
        expect(status != 0, "run_onnx.py fails when the baseline %s" % what, out)
    status, out = run_onnx([det, "node/test_relu"])
    expect(status == 0, "run_onnx.py %s node/test_relu passes with the real baseline" % det, out)

    bad = os.path.join(HERE, "rxc_bad_output.py")
    for how in ("nan", "float64"):
        status, out = run_onnx(["--fast", "-k", "test_relu"], bad, PLANT=how)
        expect(status != 0 and "node/test_relu" in out,
               "run_onnx.py fails on an output spoiled by PLANT=%s" % how, out)


def small_model():
    """Y = X + X (float32) and Z = argmax(X) (int64): two outputs, one
    float, one integer."""
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])
    z = helper.make_tensor_value_info("Z", TensorProto.INT64, [2])
    nodes = [helper.make_node("Add", ["X", "X"], ["Y"]),
             helper.make_node("ArgMax", ["X"], ["Z"], axis=1, keepdims=0)]
    g = helper.make_graph(nodes, "small", [x], [y, z])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def check_onnx_cases():
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    runs = [("small", small_model(), {"X": x}, [x + x, np.argmax(x, axis=1)])]
    bad = os.path.join(HERE, "rxc_bad_output.py")
    for rxc, how, want in ((REAL_RXC, None, 0), (bad, "nan", 1), (bad, "float64", 1),
                           (bad, "drop", 1)):
        onnx_cases.RXC = rxc
        os.environ["REAL_RXC"] = REAL_RXC
        if how:
            os.environ["PLANT"] = how
        status = onnx_cases.run("planted %s" % (how or "nothing"), runs, VERBOSE)
        expect(status == want, "onnx_cases.run %s with %s" % (
            "passes" if want == 0 else "fails", "the real rxc" if not how else "PLANT=" + how))


def main():
    check_compare()
    with tempfile.TemporaryDirectory(prefix="rxc_check_runner_") as tmp:
        check_run_onnx(tmp)
    check_onnx_cases()
    print("check_runner: %d planted bugs missed" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
