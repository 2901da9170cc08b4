#!/usr/bin/python3
"""samples.py - translation validation on the sample models: for each, the
interpreter on the model as written against the generated C after -O2
(`--via tcc`, or with --sanitize `--via cc` built with
-fsanitize=address,undefined), on random inputs (seed 0), with the trained
weights where samples/ has them and random weights otherwise.  Compared as
validate.py compares, with rtol 1e-4 for 1e-5: the generated matmul and
conv2d sum in float32 where the interpreter's kernels sum in float64, and
a float32 sum of K terms of random sign is off by about K * 2^-24 of its
value, 8e-5 for the samples' longest (K = 1280; tests/unit/testutil.h,
tu_close_f32_sums).  RXC may hold a wrapper (valgrind ... build/rxc).

--poison checks the memory plan's lifetimes instead, as validate.py
--poison does: each sample's generated C (`--via tcc` and `--via cc`) with
`--set codegen.poison=1` must return 0 with exactly the bits of the same
build without it.

usage: samples.py [--sanitize | --poison]
"""
import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402

SUM32_RTOL = validate.SUM32_RTOL  # float32 sums against float64 ones (see above)

# model, params (or None), {input: shape}, other parameters get random weights
SAMPLES = [
    ("samples/mlp.py", None, {"inp_0": (3, 784)}),
    ("samples/mlp_lowered.py", None, {"inp_0": (1, 784)}),
    ("samples/digits_mlp.py", "samples/digits_mlp.npz", {"x": (5, 64)}),
    ("samples/digits_cnn.py", "samples/digits_cnn.npz", {"x": (2, 1, 8, 8)}),
    ("samples/tiny_cnn.py", None, {"inp_0": (1, 1, 28, 28)}),
    ("samples/transformer_block.py", None, {"x": (1, 5, 64)}),
    ("tests/codegen/int_wrap.py", None, {"x": (4,)}),  # integer overflow under UBSan
]
# with --poison also: the integer road (FakeQuantizationToInteger), a
# depthwise network, and the largest arena
POISON_ALSO = [
    ("samples/digits_cnn_int8.py", "samples/digits_cnn_int8.npz", {"x": (3, 1, 8, 8)}),
    ("samples/kws_dscnn.py", None, {"x": (1, 1, 49, 10)}),
    ("samples/mobilenet_v2.py", None, {"x": (1, 3, 224, 224)}),
]


def weight_shapes(model):
    """Parameter name -> literal shape, from main's signature."""
    import re
    text = open(model).read()
    sig = text[text.index("def main("):text.index("->", text.index("def main("))]
    out = {}
    for name, dims in re.findall(r'(\w+): R\.Tensor\(\(([^)]*)\)', sig):
        if all(d.strip().isdigit() for d in dims.split(",") if d.strip()):
            out[name] = tuple(int(d) for d in dims.split(",") if d.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sanitize", action="store_true")
    ap.add_argument("--poison", action="store_true")
    a = ap.parse_args()
    rxc = os.environ.get("RXC", "build/rxc").split()
    runner = validate.Runner(rxc[-1], " ".join(rxc[:-1]), a.sanitize)
    via = "cc" if a.sanitize else "tcc"
    rng = np.random.default_rng(0)
    failed = 0
    samples = SAMPLES + POISON_ALSO if a.poison else SAMPLES
    for model, params, inputs in samples:
        d = tempfile.mkdtemp(prefix="rxc-sample-")
        try:
            shutil.copy(model, os.path.join(d, "m.py"))
            shapes = dict(inputs)
            given = set(np.load(params).files) if params else set()
            for name, shape in weight_shapes(model).items():
                if name not in given:
                    shapes.setdefault(name, shape)
            args = []
            for name, shape in shapes.items():
                path = os.path.join(d, name + ".npy")
                np.save(path, rng.uniform(-1, 1, shape).astype(np.float32))
                args += ["--input", f"{name}={path}"]
            if params:
                args += ["--params", os.path.abspath(params)]
            multi = "-> R.Tuple(" in open(model).read()
            if a.poison:
                why = "; ".join(p for p in (validate.poison_problem(runner, d, args, v, multi)
                                            for v in ("tcc", "cc")) if p)
                print(f"{'FAIL' if why else 'ok'} {model} with poison{': ' + why if why else ''}", flush=True)
                failed += bool(why)
                continue
            ref, _, err = validate.run(runner, d, args, "interp", multi)
            got, _, err2 = validate.run(runner, d, args, via, multi) if ref is not None else (None, 0, "")
            why = (f"interp: {err}" if ref is None else f"--via {via}: {err2}" if got is None
                   else validate.compare(ref, got, SUM32_RTOL))
            print(f"{'FAIL' if why else 'ok'} {model} --via {via}{': ' + why if why else ''}", flush=True)
            failed += bool(why)
        finally:
            shutil.rmtree(d, ignore_errors=True)
    print(f"samples: {len(samples) - failed} of {len(samples)} "
          f"{'give the same bits with poison' if a.poison else 'agree'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
