"""gen_dynamic.py - writes the torch-exported model of tests/dynamic (run
once by hand, after `make bench-deps`: torch is not part of `make deps`;
the outputs are committed, so make check needs no torch).

A small CNN on 8x8 one-channel images (conv 3x3 -> relu -> max pool ->
conv 3x3 -> relu -> flatten -> linear -> softmax) exported by
torch.onnx.export with the batch dim dynamic (dynamic_axes: ONNX
dim_param "batch"), and for batch sizes 2 and 5 an input and torch's
output, the expectation check_dynamic.py compares rxc with.

    /usr/bin/python3 tests/dynamic/gen_dynamic.py   # from the repository root
"""
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(4, 8, 3)
        self.fc = torch.nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.relu(self.conv2(x))
        return torch.softmax(self.fc(torch.flatten(x, 1)), dim=1)


def main():
    torch.manual_seed(32)
    model = SmallCnn().eval()
    path = os.path.join(HERE, "cnn_dyn.onnx")
    torch.onnx.export(model, torch.zeros(1, 1, 8, 8), path, input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}},
                      opset_version=13)
    rng = np.random.default_rng(32)
    for batch in (2, 5):
        x = rng.uniform(0, 1, (batch, 1, 8, 8)).astype(np.float32)
        with torch.no_grad():
            y = model(torch.from_numpy(x)).numpy()
        np.save(os.path.join(HERE, "x_b%d.npy" % batch), x)
        np.save(os.path.join(HERE, "y_b%d.npy" % batch), y)
    print("wrote %s (%d bytes) and the inputs and outputs of batch 2 and 5"
          % (path, os.path.getsize(path)))


if __name__ == "__main__":
    main()
