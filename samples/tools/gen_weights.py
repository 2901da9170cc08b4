"""gen_weights.py - seeded weights for the sample models that are not trained.

mobilenet_v2, kws_dscnn and transformer_block are there for their size and
their ops, not their accuracy, so their weights are random from a fixed
seed (one RandomState per model, so a model's weights do not depend on the
others'): convs and dense layers He-normal (std sqrt(2 / fan_in)), which
keeps activations of the order of 1 through the 52 convs of MobileNetV2;
biases (batch norm folded) normal with std 0.01; layer norm gamma 1, beta 0.
The parameter names and shapes come from gen_models.py, so they match the
TVMScript.  The files are not committed (mobilenet_v2.npz is 14 MB):

    /usr/bin/python3 samples/tools/gen_weights.py [MODEL...]    # or: make samples
"""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_models  # noqa: E402

SEEDED = ["mobilenet_v2", "kws_dscnn", "transformer_block"]


def seeded(shape, kind, rng):
    if kind in ("conv", "dense"):
        fan_in = int(np.prod(shape[1:]))
        return rng.randn(*shape) * np.sqrt(2.0 / fan_in)
    if kind == "bias":
        return rng.randn(*shape) * 0.01
    if kind == "ones":
        return np.ones(shape)
    assert kind == "zeros", kind
    return np.zeros(shape)


def write(model):
    rng = np.random.RandomState(zlib.crc32(model.encode()))
    weights = {name: seeded(shape, kind, rng).astype(np.float32)
               for name, shape, kind in gen_models.params(model)}
    path = os.path.join(gen_models.SAMPLES, model + ".npz")
    np.savez(path, **weights)
    count = sum(w.size for w in weights.values())
    print("wrote %s: %d tensors, %d weights, %.1f MB"
          % (path, len(weights), count, os.path.getsize(path) / 1e6))


def main():
    for model in sys.argv[1:] or SEEDED:
        write(model)


if __name__ == "__main__":
    main()
