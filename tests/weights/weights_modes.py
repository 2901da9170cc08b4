#!/usr/bin/python3
"""weights_modes.py - the four forms of the weights compute the same bits.

For each model below, `rxc compile` writes the C with [codegen] weights =
inline, separate, bytes and blob; tests/weights/driver.c calls main on the
same seeded inputs through each, built by gcc and by clang (the generated
C with -std=c99 -Wall -Wextra -Werror -pedantic) and by tcc, and the
outputs of the four forms must be equal byte for byte, per compiler (the
kernels are the same C; only where the constants live differs).  The
inline form is the one the other tests hold to numpy and the interpreter.
With blob, the driver first checks the refusals of m_set_weights (see
driver.c), with another model's blob as the stranger, and under gcc and
clang once more with the blob linked in by README's .incbin recipe.

    RXC=build/rxc /usr/bin/python3 tests/weights/weights_modes.py [-v]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "tests", "weights")
RXC = os.environ.get("RXC", os.path.join(ROOT, "build", "rxc"))
MODES = ("inline", "separate", "bytes", "blob")
STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2"]
SEED = 20261126

# (model, weights .npz or None)
MODELS = [
    ("tests/weights/dtypes.py", None),
    ("tests/codegen/half_types.py", None),
    ("samples/digits_mlp.py", "samples/digits_mlp.npz"),
    ("samples/digits_cnn.py", "samples/digits_cnn.npz"),
    ("samples/kws_dscnn.py", "samples/kws_dscnn.npz"),
]

DTYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16,
          "bfloat16": np.uint16, "int64": np.int64, "int32": np.int32, "int8": np.int8,
          "uint8": np.uint8, "bool": np.uint8}


def run(cmd, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def signature(header):
    """main's tensors [(name, kind, dtype, dims)] and dims {name: bound}
    from the header's documentation of m_main."""
    doc = header.split("/* m_main: ", 1)[1].split("*/", 1)[0]
    tensors, dims = [], {}
    for m in re.finditer(r"\*\s+(\w+)\s+(input|output),\s+(\w+) \(([^)]*)\)", doc):
        shape = [d.strip() for d in m.group(4).split(",") if d.strip()]
        tensors.append((m.group(1), m.group(2), m.group(3), shape))
    for m in re.finditer(r"\*\s+(\w+)\s+dim,\s+(\d+) <= \w+ <= (\d+)", doc):
        dims[m.group(1)] = int(m.group(3))
    return tensors, dims


def tensor_bytes(dtype, shape, dimvals):
    n = 1
    for d in shape:
        n *= int(d) if d.isdigit() else dimvals[d]
    return n * np.dtype(DTYPES[dtype]).itemsize


def inputs(tensors, dimvals, rng):
    data = b""
    for name, kind, dtype, shape in tensors:
        if kind != "input":
            continue
        n = tensor_bytes(dtype, shape, dimvals) // np.dtype(DTYPES[dtype]).itemsize
        if dtype in ("float32", "float64", "float16"):
            a = rng.standard_normal(n).astype(DTYPES[dtype])
        elif dtype == "bfloat16":
            a = (rng.standard_normal(n).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        else:
            info = np.iinfo(DTYPES[dtype])
            a = rng.integers(max(info.min, -100), min(info.max, 100), n).astype(DTYPES[dtype])
        data += a.tobytes()
    return data


# README's recipe for a blob linked into the program (flash on a device)
INCBIN = """    .section .rodata
    .balign 64
    .global model_weights
model_weights:
    .incbin "%s"
"""


def build(compiler, mode, gen, exe, incbin=False):
    """The driver and m.c (and m_weights.c) of gen built by compiler."""
    blob = ["-DBLOB"] if mode == "blob" else []
    sources = [os.path.join(gen, f) for f in sorted(os.listdir(gen)) if f.endswith(".c")]
    if incbin:
        asm = os.path.join(gen, "weights.S")
        with open(asm, "w") as f:
            f.write(INCBIN % os.path.join(gen, "m.weights.bin"))
        blob.append("-DINCBIN")
        sources.append(asm)
    driver = os.path.join(HERE, "driver.c")
    if compiler == "tcc":
        return run(["tcc", "-I", gen] + blob + ["-o", exe, driver] + sources + ["-lm"])
    objs = []
    for s in sources:
        o = s[:-2] + "." + compiler + ".o"
        rc, out = run([compiler] + (STRICT if s.endswith(".c") else []) + ["-c", s, "-o", o])
        if rc:
            return rc, out
        objs.append(o)
    return run([compiler, "-std=c11", "-O2", "-I", gen] + blob + ["-o", exe, driver] + objs
               + ["-lm"])


def check_model(tmp, index, model, params, other_blob, verbose):
    """Failures of one model (a list of strings)."""
    name = os.path.splitext(os.path.basename(model))[0]
    fails = []
    gens = {}
    for mode in MODES:
        gen = os.path.join(tmp, f"{name}-{mode}")
        cmd = [RXC, "compile", os.path.join(ROOT, model), "-o", gen, "--name", "m",
               "--set", f"codegen.weights={mode}"]
        if params:
            cmd += ["--params", os.path.join(ROOT, params)]
        rc, out = run(cmd)
        if rc:
            return [f"{model}: rxc compile with weights = {mode} failed:\n{out}"]
        gens[mode] = gen
    files = sorted(os.listdir(gens["blob"]))
    if files != ["m.c", "m.h", "m.weights.bin"]:
        fails.append(f"{model}: blob wrote {files}")
    with open(os.path.join(gens["inline"], "m.h")) as f:
        tensors, bounds = signature(f.read())
    rng = np.random.default_rng(SEED + index)
    dimvals = {d: min(b, 3) for d, b in bounds.items()}
    with open(os.path.join(tmp, f"{name}.in"), "wb") as f:
        f.write(inputs(tensors, dimvals, rng))
    nin = sum(1 for t in tensors if t[1] == "input")
    args = [str(nin), str(len(tensors) - nin), str(len(dimvals))]
    args += [str(tensor_bytes(t[2], t[3], dimvals)) for t in tensors]
    args += [str(dimvals[d]) for d in bounds]  # the header lists dims in signature order
    for compiler in ("gcc", "clang", "tcc"):
        outs = {}
        forms = list(MODES) + (["blob+incbin"] if compiler != "tcc" else [])
        for form in forms:
            mode = form.split("+")[0]
            gen, exe = gens[mode], os.path.join(gens[mode], f"driver-{compiler}-{form}")
            rc, out = build(compiler, mode, gen, exe, incbin=form != mode)
            if rc:
                fails.append(f"{model}: {compiler} on weights = {form}:\n{out}")
                continue
            res = os.path.join(gen, f"out-{compiler}-{form}.bin")
            extra = [os.path.join(gen, "m.weights.bin"), other_blob] if mode == "blob" else []
            rc, out = run([exe, os.path.join(tmp, f"{name}.in"), res] + args + extra)
            if rc:
                fails.append(f"{model}: {compiler}, weights = {form}: exit {rc}\n{out}")
                continue
            with open(res, "rb") as f:
                outs[form] = f.read()
        for mode in forms[1:]:
            if mode in outs and "inline" in outs and outs[mode] != outs["inline"]:
                fails.append(f"{model}: {compiler}: weights = {mode} computes other bits than "
                             f"inline")
        if verbose:
            print(f"  {model} {compiler}: {len(outs)} forms, "
                  f"{len(outs.get('inline', b''))} output bytes")
    return fails


def main():
    verbose = "-v" in sys.argv
    tmp = tempfile.mkdtemp(prefix="rxc-weights-")
    try:
        # another model's blob, for the refusals
        other = os.path.join(tmp, "other")
        rc, out = run([RXC, "compile", os.path.join(ROOT, "samples/mlp.py"), "-o", other,
                       "--name", "m", "--set", "codegen.weights=blob"])
        if rc:
            print(out)
            return 1
        fails = []
        for i, (model, params) in enumerate(MODELS):
            fails += check_model(tmp, i, model, params, os.path.join(other, "m.weights.bin"),
                                 verbose)
        for f in fails:
            print("FAILED:", f)
        print(f"weights_modes: {len(MODELS)} models x {len(MODES)} forms x 3 compilers, "
              f"{len(fails)} failures")
        return 1 if fails else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
