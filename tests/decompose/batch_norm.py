"""batch_norm.py - DecomposeOpsForInference against numpy's batch norm.

The pass (opt/decompose_ops.c) rewrites an inference R.nn.batch_norm into
y = x * scale + shift with scale = gamma / sqrt(var + eps) and shift =
beta - mean * scale, and the call's tuple into (y, mean, var).  Here each
case is a module returning all three fields of the tuple (and relu of y,
as the pre-activation layers of densenet121 use it), run by `rxc run`:

  1. with gamma, beta, mean and var as parameters: the interpreter on the
     module as written (the batch_norm kernel) and on the module after
     `rxc opt --passes DecomposeOpsForInference`, which must hold no
     batch_norm; both against numpy;
  2. with them as constants (as BindParams leaves a model's weights):
     after DecomposeOpsForInference,FoldConstant no sqrt or divide is left
     and the scale and shift are float32 constants; the -O2 pipeline's
     generated C (--via tcc and --via cc) against numpy;
  3. a batch_norm with training=True (rxc normalizes with the batch's own
     statistics) comes out of the pass unchanged (`rxc equal`).

numpy's reference is computed in float64 from the float32 inputs:
(x - mean) / sqrt(var + eps) * gamma + beta.  A result passes when every
element is within 4 float32 epsilons of |x * scale| + |shift| (the
rewrite's two roundings, and the kernel's one, are each below 1 epsilon of
that; the constants scale and shift are 3 roundings each) -- absolute in
the size of the terms, so exact where they cancel to near zero.  The
moving-statistic outputs must equal the inputs bit for bit.

Cases: batch 2, float32; axis 1 (NCHW) and 3 (NHWC, also written -1) and
a (N, C) input; gamma with negative entries; var 0 and 1e-9 with epsilon
1e-5, epsilon 1e-3 and 0.1; center=False and scale=False.

    RXC=build/rxc /usr/bin/python3 tests/decompose/batch_norm.py
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
EPS32 = float(np.finfo(np.float32).eps)

# name, x shape, axis attribute, epsilon, center, scale
CASES = [
    ("nchw", (2, 6, 5, 4), 1, 1e-5, True, True),
    ("nhwc", (2, 5, 4, 6), 3, 1e-3, True, True),
    ("nhwc_neg_axis", (2, 3, 4, 6), -1, 0.1, True, True),
    ("nc", (2, 6), 1, 1e-5, True, True),
    ("no_center", (2, 6, 3, 3), 1, 1e-5, False, True),
    ("no_scale", (2, 6, 3, 3), 1, 1e-5, True, False),
]


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def rxc(*args, check=True):
    p = subprocess.run([RXC, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        fail("rxc %s: exit %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p


def tensor(shape):
    return 'R.Tensor((%s), dtype="float32")' % "".join("%d, " % d for d in shape)


def const(a):
    return 'R.const(%s, "float32")' % repr([float(v) for v in a])


def module(shape, axis, eps, center, scale, params=None, training=False):
    """A main(x[, g, b, m, v]) returning (y, mean_out, var_out, relu(y)); the
    four vectors are constants when params is given."""
    c = shape[axis]
    sig = "x: " + tensor(shape)
    if params is None:
        sig += "".join(", %s: %s" % (n, tensor((c,))) for n in "gbmv")
        g, b, m, v = "g", "b", "m", "v"
    else:
        g, b, m, v = (const(p) for p in params)
    tup = "R.Tuple(%s, %s, %s, %s)" % (tensor(shape), tensor((c,)), tensor((c,)), tensor(shape))
    return f"""# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main({sig}) -> {tup}:
        with R.dataflow():
            t = R.nn.batch_norm(x, {g}, {b}, {m}, {v}, axis={axis}, epsilon={eps!r}, center={center}, scale={scale}, momentum=0.1, training={training})
            y = t[0]
            mo = t[1]
            vo = t[2]
            r = R.nn.relu(y)
            out = (y, mo, vo, r)
            R.output(out)
        return out
"""


def inputs(rng, shape, axis):
    c = shape[axis]
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    g = rng.uniform(-2, 2, c).astype(np.float32)
    g[0] = -abs(g[0]) - 0.5  # a negative gamma for sure
    b = rng.uniform(-1, 1, c).astype(np.float32)
    m = rng.uniform(-1, 1, c).astype(np.float32)
    v = rng.uniform(0.01, 4, c).astype(np.float32)
    v[1] = 0.0  # var 0: only epsilon under the root
    v[2] = 1e-9
    # a few x exactly at the mean, where y is beta and the terms cancel
    xm = np.moveaxis(x, axis, -1)
    xm[0, ..., 3] = m[3]
    return x, g, b, m, v


def reference(x, g, b, m, v, axis, eps, center, scale):
    """numpy's batch norm in float64, and the size of the rewrite's terms."""
    nd = x.ndim
    shp = [1] * nd
    shp[axis] = -1
    x64 = x.astype(np.float64)
    g64 = g.astype(np.float64) if scale else np.ones_like(g, dtype=np.float64)
    b64 = b.astype(np.float64) if center else np.zeros_like(b, dtype=np.float64)
    inv = 1.0 / np.sqrt(v.astype(np.float64) + eps)
    y = (x64 - m.reshape(shp)) * inv.reshape(shp) * g64.reshape(shp) + b64.reshape(shp)
    s = (g64 * inv).reshape(shp)
    size = np.abs(x64 * s) + np.abs(b64.reshape(shp) - m.reshape(shp) * s) + np.abs(y)
    return y, size


def check(name, got, x, g, b, m, v, axis, eps, center, scale):
    want, size = reference(x, g, b, m, v, axis, eps, center, scale)
    y = got["0"]
    if y.dtype != np.float32 or y.shape != x.shape:
        fail("%s: y is %s %s" % (name, y.dtype, y.shape))
    err = np.abs(y.astype(np.float64) - want)
    bound = 4 * EPS32 * size
    if not np.all(err <= bound):
        i = np.unravel_index(np.argmax(err - bound), err.shape)
        fail("%s: y%s = %r, numpy %r (|err| %.3g > %.3g)" % (name, i, y[i], want[i], err[i], bound[i]))
    r = got["3"].astype(np.float64)
    if not np.all(np.abs(r - np.maximum(want, 0)) <= bound):
        fail("%s: relu(y) differs from numpy" % name)
    for k, ref in (("1", m), ("2", v)):
        if got[k].dtype != np.float32 or got[k].tobytes() != ref.tobytes():
            fail("%s: moving statistic output %s is not the input" % (name, k))
    return float((err / np.maximum(size, 1e-30)).max())


def run(path, feeds, d, via=None):
    args = ["run", path, "-o", os.path.join(d, "out.npz")]
    for k, a in feeds.items():
        p = os.path.join(d, k + ".npy")
        np.save(p, a)
        args += ["--input", "%s=%s" % (k, p)]
    if via:
        args += ["--via", via]
    rxc(*args)
    with np.load(os.path.join(d, "out.npz")) as z:
        return {k: z[k] for k in z.files}


def one_case(rng, d, case):
    name, shape, axis_attr, eps, center, scale = case
    axis = axis_attr % len(shape)
    x, g, b, m, v = inputs(rng, shape, axis)
    worst = 0.0

    # 1. parameters: the kernel and the rewrite, both in the interpreter
    src = os.path.join(d, name + ".py")
    with open(src, "w") as f:
        f.write(module(shape, axis_attr, eps, center, scale))
    feeds = {"x": x, "g": g, "b": b, "m": m, "v": v}
    worst = max(worst, check(name + " (kernel)", run(src, feeds, d), x, g, b, m, v, axis, eps, center, scale))
    dec = os.path.join(d, name + "_dec.py")
    rxc("opt", src, "--passes", "DecomposeOpsForInference", "-o", dec)
    text = open(dec).read()
    if "batch_norm" in text:
        fail("%s: batch_norm left after DecomposeOpsForInference" % name)
    worst = max(worst, check(name + " (decomposed)", run(dec, feeds, d), x, g, b, m, v, axis, eps, center, scale))

    # 2. constants: scale and shift folded, then the generated C
    csrc = os.path.join(d, name + "_const.py")
    with open(csrc, "w") as f:
        f.write(module(shape, axis_attr, eps, center, scale, params=(g, b, m, v)))
    folded = rxc("opt", csrc, "--passes", "Normalize,DecomposeOpsForInference,FoldConstant,"
                 "DeadCodeElimination").stdout
    for op in ("batch_norm", "R.sqrt", "R.divide", "R.subtract", "R.expand_dims", "float64"):
        if op in folded:
            fail("%s: %s left after FoldConstant:\n%s" % (name, op, folded))
    if "R.multiply(x, " not in folded:
        fail("%s: no multiply of x by a constant scale:\n%s" % (name, folded))
    for via in ("tcc", "cc"):
        got = run(csrc, {"x": x}, d, via)
        worst = max(worst, check("%s (constants, %s)" % (name, via), got, x, g, b, m, v, axis, eps,
                                 center, scale))

    # 3. training: untouched
    tsrc = os.path.join(d, name + "_train.py")
    with open(tsrc, "w") as f:
        f.write(module(shape, axis_attr, eps, center, scale, training=True))
    tout = os.path.join(d, name + "_train_out.py")
    rxc("opt", tsrc, "--passes", "Normalize", "-o", os.path.join(d, "norm.py"))
    rxc("opt", tsrc, "--passes", "Normalize,DecomposeOpsForInference", "-o", tout)
    if rxc("equal", os.path.join(d, "norm.py"), tout, check=False).returncode != 0:
        fail("%s: a training batch_norm was rewritten" % name)
    return worst


def main():
    rng = np.random.default_rng(36)
    with tempfile.TemporaryDirectory() as d:
        for case in CASES:
            worst = one_case(rng, d, case)
            print("ok %-14s worst |err| / (|x*scale| + |shift| + |y|) = %.2g eps32" % (case[0], worst / EPS32))
    print("decompose batch_norm: %d cases passed" % len(CASES))


if __name__ == "__main__":
    main()
