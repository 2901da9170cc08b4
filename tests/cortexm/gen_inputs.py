"""gen_inputs.py - writes the held-out digits the test images run on.

    /usr/bin/python3 tests/cortexm/gen_inputs.py OUTDIR

Takes TEST_INDICES of samples/digits_test.npz and writes OUTDIR/inputs.h
(`digits_mlp_x` from x_mlp, `digits_cnn_x` from x_cnn, row-major float32 as
exact C99 hex floats, and TEST_DIGITS) for main.c, and OUTDIR/MODEL_x.npy,
the same values for `rxc run --input x=...` in the interpreter.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGITS = os.path.join(ROOT, "samples", "digits_test.npz")
# model -> the entry of digits_test.npz with its input layout
MODELS = {"digits_mlp": "x_mlp", "digits_cnn": "x_cnn"}
# eight held-out digits spread over the 360
TEST_INDICES = [0, 45, 90, 135, 180, 225, 270, 315]


def c_float(v):
    """v (a float32) as a C float literal that reads back bit for bit."""
    v = float(v)
    mantissa, exponent = float.hex(abs(v)).split("p")  # "0x1.4000000000000", "-1"
    return "%s%sp%sf" % ("-" if np.signbit(v) else "", mantissa.rstrip("0").rstrip("."), exponent)


def c_array(name, values):
    body = ",\n".join("    " + ", ".join(c_float(v) for v in values[i:i + 8])
                      for i in range(0, len(values), 8))
    return "static const float %s[%d] = {\n%s};\n" % (name, len(values), body)


def write_inputs(outdir):
    """Writes inputs.h and MODEL_x.npy into outdir; returns {model: x}."""
    data = np.load(DIGITS)
    inputs = {m: data[key][TEST_INDICES].astype(np.float32) for m, key in MODELS.items()}
    parts = ["/* inputs.h - written by tests/cortexm/gen_inputs.py: held-out digits\n"
             " * %s of samples/digits_test.npz (labels %s). */\n"
             % (TEST_INDICES, [int(v) for v in data["labels"][TEST_INDICES]]),
             "#define TEST_DIGITS %d\n" % len(TEST_INDICES)]
    for model, x in inputs.items():
        parts.append(c_array(model + "_x", x.reshape(-1)))
        np.save(os.path.join(outdir, model + "_x.npy"), x)
    with open(os.path.join(outdir, "inputs.h"), "w") as f:
        f.write("\n".join(parts))
    return inputs


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_inputs.py OUTDIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    write_inputs(sys.argv[1])
