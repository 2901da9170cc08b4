#!/usr/bin/python3
"""npy_seeds.py OUTDIR - small .npy and .npz files for the npy fuzzer's
seed corpus: every dtype rxc reads, 0-d and empty shapes, an .npz of
several entries.  Deterministic."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
arrays = {
    "f32": rng.standard_normal((2, 3)).astype(np.float32),
    "f64": rng.standard_normal((4,)),
    "f16": rng.standard_normal((3,)).astype(np.float16),
    "i8": np.arange(-3, 3, dtype=np.int8),
    "i16": np.arange(4, dtype=np.int16).reshape(2, 2),
    "i32": np.arange(6, dtype=np.int32).reshape(1, 2, 3),
    "i64": np.array(7, dtype=np.int64),
    "u8": np.arange(5, dtype=np.uint8),
    "bool": np.array([True, False, True]),
    "empty": np.zeros((0, 3), np.float32),
    "big_endian": np.arange(3, dtype=">f4"),
    "fortran": np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)),
}
for name, a in arrays.items():
    np.save(os.path.join(out, name + ".npy"), a)
np.savez(os.path.join(out, "several.npz"), **{k: arrays[k] for k in ("f32", "i64", "bool")})
np.savez(os.path.join(out, "one.npz"), x=arrays["i8"])
