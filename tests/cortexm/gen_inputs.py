"""gen_inputs.py - writes the held-out digits the test images run on.

    /usr/bin/python3 tests/cortexm/gen_inputs.py OUTDIR

Takes TEST_INDICES of samples/digits_test.npz and writes OUTDIR/inputs.h
(`MODEL_x` of every model of MODELS from its layout's entry, row-major
float32 as exact C99 hex floats, and TEST_DIGITS) for main.c, and
OUTDIR/MODEL_x.npy, the same values for `rxc run --input x=...` in the
interpreter.  For the accuracy run it adds all ALL_DIGITS held-out digits
as `all_pixels`, one byte a pixel (the pixels are k/16 with k in 0..16, so
main.c's k * 0.0625f is exact), and writes OUTDIR/all_x.npy and
OUTDIR/all_labels.npy.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIGITS = os.path.join(ROOT, "samples", "digits_test.npz")
# model -> the entry of digits_test.npz with its input layout
MODELS = {"digits_mlp": "x_mlp", "digits_cnn": "x_cnn", "digits_cnn_int8": "x_cnn"}
# the models main.c also runs on all held-out digits, for their accuracy
ACCURACY_MODELS = ["digits_cnn", "digits_cnn_int8"]
ALL_DIGITS = 360
# The batch bound the models are compiled for (memplan.upper_bound.n): one a
# microcontroller can afford; with the models' own (512) digits_cnn's arena
# is 1.3 MB, above cortex-m4.ini's arena_limit.  main.c runs the accuracy
# pass in batches of this many digits.
BOUND = 16
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


def pixel_array(x):
    """x (k/16 values) as the C array all_pixels of the k; raises when a
    value is not such a multiple (the bytes would not be exact)."""
    k = x.reshape(-1).astype(np.float64) * 16
    if not (np.all(k == np.rint(k)) and k.min() >= 0 and k.max() <= 16):
        raise ValueError("digits_test.npz: x_cnn is not k/16 with k in 0..16")
    k = k.astype(int)
    body = ",\n".join("    " + ", ".join(str(v) for v in k[i:i + 32]) for i in range(0, len(k), 32))
    return "static const unsigned char all_pixels[%d] = {\n%s};\n" % (len(k), body)


def write_inputs(outdir):
    """Writes inputs.h, MODEL_x.npy, all_x.npy and all_labels.npy into
    outdir; returns {model: x}."""
    data = np.load(DIGITS)
    inputs = {m: data[key][TEST_INDICES].astype(np.float32) for m, key in MODELS.items()}
    parts = ["/* inputs.h - written by tests/cortexm/gen_inputs.py: held-out digits\n"
             " * %s of samples/digits_test.npz (labels %s), and the first %d\n"
             " * of its x_cnn as pixel codes k (the pixel is k/16). */\n"
             % (TEST_INDICES, [int(v) for v in data["labels"][TEST_INDICES]], ALL_DIGITS),
             "#define TEST_DIGITS %d\n" % len(TEST_INDICES),
             "#define ALL_DIGITS %d\n" % ALL_DIGITS,
             "#define BATCH_DIGITS %d /* the bound of n the models are compiled for */\n" % BOUND]
    for model, x in inputs.items():
        parts.append(c_array(model + "_x", x.reshape(-1)))
        np.save(os.path.join(outdir, model + "_x.npy"), x)
    all_x = data["x_cnn"][:ALL_DIGITS].astype(np.float32)
    parts.append(pixel_array(all_x))
    np.save(os.path.join(outdir, "all_x.npy"), all_x)
    np.save(os.path.join(outdir, "all_labels.npy"), data["labels"][:ALL_DIGITS])
    with open(os.path.join(outdir, "inputs.h"), "w") as f:
        f.write("\n".join(parts))
    return inputs


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_inputs.py OUTDIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    write_inputs(sys.argv[1])
