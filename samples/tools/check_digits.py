"""check_digits.py - the digits models in rxc against numpy, prediction by
prediction.

Runs `rxc run samples/<model>.py --params samples/<model>.npz` on all 360
held-out digits in one call (the batch n is symbolic), takes the argmax of
each output row and compares it with numpy's (digits_reference.py).  Also
checks that each output row is a distribution (finite, sums to 1).  Each
model runs twice: as written (the interpreter's op kernels) and after
`rxc opt --passes Normalize,LegalizeOps` (the TIR interpreter on the
lowered prim_funcs).  Exits 1 on any difference.

The quantized model also runs on the integer road: in the interpreter
after `--passes Normalize,BindParams,FakeQuantizationToInteger`, and
through the generated C (whose -O2 pipeline runs that pass).  There its
int8 logits, read back from the probabilities (log p / scale is the logit
up to one constant per row), must equal numpy's integer forward
(digits_reference.cnn_int8_integer_forward) exactly: integer kernels are
bit exact.

With --onnx, the models are exported as ONNX first (export_onnx.py) and
run from the .onnx files instead (rxc's ONNX import), through the
interpreter and through the generated C (--via tcc and --via cc, with
--set memplan.default_upper_bound=512 for the symbolic batch).

    RXC=build/rxc /usr/bin/python3 samples/tools/check_digits.py [--onnx] [--model NAME] [--via cc]
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import digits_reference as ref  # noqa: E402

ROOT = os.path.dirname(ref.SAMPLES)
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from compare import compare  # noqa: E402


def rxc_probabilities(rxc, model, x, passes, extra):
    """The model's output on x through `rxc run` (plus extra options),
    after `rxc opt --passes passes` when passes is given; model may be the
    path of an .onnx file (its weights inside)."""
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "x.npy"), os.path.join(tmp, "out.npy")
        np.save(inp, x)
        if model.endswith(".onnx"):
            cmd = [rxc, "run", model, "--input", "x=" + inp, "--output", out] + extra
            subprocess.run(cmd, check=True)
            return np.load(out)
        script = os.path.join(ref.SAMPLES, model + ".py")
        params = ["--params", os.path.join(ref.SAMPLES, model + ".npz")]
        if passes:
            lowered = os.path.join(tmp, "lowered.py")
            bind = params if "BindParams" in passes else []
            subprocess.run([rxc, "opt", script, "--passes", passes, "-o", lowered] + bind, check=True)
            script = lowered
            params = [] if bind else params
        cmd = [rxc, "run", script] + params + ["--input", "x=" + inp, "--output", out] + extra
        subprocess.run(cmd, check=True)
        return np.load(out)


INTEGER_PASS = "FakeQuantizationToInteger"


def integer_road(passes, extra):
    """Does the run compute quantized layers in integers?  The generated
    C's pipeline (-O2) has the pass, the interpreter only what passes
    lists."""
    return INTEGER_PASS in (passes or "") or ("--via" in extra and not passes)


def int_logits(prob, scale):
    """Each row's int8 logits minus the row's largest, from softmax
    probabilities of logits (q - zp) * scale."""
    z = np.log(prob.astype(np.float64)) / float(scale)
    z -= z.max(axis=1, keepdims=True)
    r = np.rint(z)
    return r.astype(np.int64) if np.abs(z - r).max() < 0.05 else None


def check(rxc, model, test, passes, extra, onnx_dir=None):
    """Prints the comparison; returns True when every prediction agrees
    (and, on the integer road of a quantized model, every logit).  With
    onnx_dir, runs onnx_dir/model.onnx instead of the .py."""
    labels = test["labels"]
    start = time.time()
    source = os.path.join(onnx_dir, model + ".onnx") if onnx_dir else model
    prob = rxc_probabilities(rxc, source, ref.test_input(model, test), passes, extra)
    seconds = time.time() - start
    want_prob = ref.probabilities(model)
    pred, want = prob.argmax(axis=1), want_prob.argmax(axis=1)
    sane = (prob.shape == want_prob.shape and np.isfinite(prob).all()
            and np.allclose(prob.sum(axis=1), 1, atol=1e-5))
    agree = (pred == want).sum()
    differ = compare(pred, want)
    if differ:
        print("  predictions differ from numpy's: %s" % differ)
    exact = ""
    if model in ref.INTEGER_FORWARD and integer_road(passes, extra):
        p = ref.params(model)
        _, q = ref.INTEGER_FORWARD[model](p, ref.test_input(model, test))
        got, q = int_logits(prob, p["fc2_scale"]), q.astype(np.int64)
        why = "not integers" if got is None else compare(got, q - q.max(axis=1, keepdims=True))
        same = why is None
        exact = ", int8 logits equal numpy's integer forward: %s" % ("yes" if same else "NO: " + why)
        sane = sane and same
    print("%s%s: rxc %d/%d = %.4f, numpy %d/%d = %.4f, predictions agree %d/%d, "
          "max |p - p_numpy| %.1e, rows are distributions: %s (%.2f s)%s"
          % (model + (".onnx " + " ".join(extra) if onnx_dir else ""), " after " + passes if passes else "", (pred == labels).sum(), len(labels), (pred == labels).mean(),
             (want == labels).sum(), len(labels), (want == labels).mean(),
             agree, len(labels), np.abs(prob - want_prob).max(), "yes" if sane else "NO", seconds,
             exact))
    # float32 probabilities against numpy's float64: at most 1.1e-6 seen
    # (digits_cnn), so 1e-5 leaves a margin and still catches a wrong kernel
    close = np.abs(prob - want_prob).max() <= P_TOLERANCE
    if not close:
        print("FAIL: max |p - p_numpy| %.1e is above %.0e" % (np.abs(prob - want_prob).max(), P_TOLERANCE))
    return sane and close and differ is None


P_TOLERANCE = 1e-5  # largest |p - p_numpy| allowed, absolute (probabilities are in [0, 1])


def main():
    rxc = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
    extra = sys.argv[1:]  # e.g. --via cc
    models = list(ref.FORWARD)
    if "--model" in extra:  # --model NAME: that model only
        i = extra.index("--model")
        models = [extra[i + 1]]
        del extra[i:i + 2]
    test = np.load(os.path.join(ref.SAMPLES, "digits_test.npz"))
    if "--onnx" in extra:
        # the batch dim_param "n" has no bound in the file: the generated
        # C's fused buffers take the configuration's default
        bound = ["--set", "memplan.default_upper_bound=512"]
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, os.path.join(ref.SAMPLES, "tools", "export_onnx.py"), tmp],
                           check=True)
            ok = all([check(rxc, model, test, None, via, tmp)
                      for model in ref.FORWARD for via in ([], bound + ["--via", "tcc"], bound + ["--via", "cc"])])
        sys.exit(0 if ok else 1)
    ok = all([check(rxc, model, test, passes, extra)
              for model in models for passes in (None, "Normalize,LegalizeOps")])
    if not extra:
        ok = all([check(rxc, model, test, "Normalize,BindParams," + INTEGER_PASS, extra)
                  for model in ref.INTEGER_FORWARD if model in models]) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
