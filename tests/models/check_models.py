#!/usr/bin/python3
"""check_models.py - real models through rxc's ONNX importer and generated
C, against torch (`make check-models`; issue 21).

Each model is built by torch with seeded random weights (no downloads) in
eval mode, exported by torch.onnx at opsets 13 and 17, imported by rxc and
run through the generated C (`rxc run MODEL.onnx --via tcc`), on one
seeded random input.  The output must match torch's: max |rxc - torch|
over max |torch| at most 1e-4.

Needs torch and torchvision (Debian's python3-torch, python3-torchvision:
`make bench-deps` installs them; this installs nothing).  Without them it
says so and exits 0.

usage: check_models.py [--write-readme] [NAME...]     (RXC=build/rxc)
  --write-readme  replace the model table in tests/README.md
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build/rxc"))
TOL = 1e-4
OPSETS = (13, 17)


def models(torch, tv):
    """(name, constructor, input shape, what): small inputs keep the run short."""
    nn = torch.nn

    def gelu(t):  # a function of our own: torch's eval fast path, which
        return nn.functional.gelu(t)  # torch.onnx cannot export, then stays off

    class Encoder(nn.Module):
        """Two post-norm transformer encoder layers (4 heads, GELU) over a
        sequence of 16 tokens of width 64 with a causal mask (which also
        keeps attention off its fast path), then a linear head."""

        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0,
                                               activation=gelu, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = nn.Linear(64, 10)

            self.register_buffer("causal", torch.triu(torch.full((16, 16), float("-inf")), 1))

        def forward(self, x):
            return self.head(self.enc(x, mask=self.causal))

    class KeywordLstm(nn.Module):
        """Keyword spotting as on microcontrollers: 2-layer LSTM over 49
        frames of 10 MFCCs, the last step's state into 12 classes."""

        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(10, 32, num_layers=2, batch_first=True)
            self.fc = nn.Linear(32, 12)

        def forward(self, x):
            y, _ = self.lstm(x)
            return self.fc(y[:, -1])

    class BiGru(nn.Module):
        """A bidirectional GRU tagger: per-step classes."""

        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(8, 16, batch_first=True, bidirectional=True)
            self.fc = nn.Linear(32, 5)

        def forward(self, x):
            y, _ = self.gru(x)
            return self.fc(y)

    class Lraspp(nn.Module):
        def __init__(self):
            super().__init__()
            self.m = tv.models.segmentation.lraspp_mobilenet_v3_large(
                weights=None, weights_backbone=None, num_classes=4)

        def forward(self, x):
            return self.m(x)["out"]

    return [
        ("resnet18", lambda: tv.models.resnet18(weights=None), (1, 3, 64, 64)),
        ("mobilenet_v2", lambda: tv.models.mobilenet_v2(weights=None), (1, 3, 64, 64)),
        ("mobilenet_v3_small", lambda: tv.models.mobilenet_v3_small(weights=None), (1, 3, 64, 64)),
        ("squeezenet1_1", lambda: tv.models.squeezenet1_1(weights=None), (1, 3, 64, 64)),
        ("densenet121", lambda: tv.models.densenet121(weights=None), (1, 3, 64, 64)),
        ("lraspp_mobilenet_v3_large", Lraspp, (1, 3, 96, 96)),
        ("transformer_encoder", Encoder, (2, 16, 64)),
        ("lstm_keyword", KeywordLstm, (2, 49, 10)),
        ("gru_bidirectional", BiGru, (2, 12, 8)),
    ]


def check(torch, name, make, shape, opset, tmp):
    """(status, error, seconds): status ok, FAIL or the failing step."""
    torch.manual_seed(0)
    model = make().eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        want = model(x).numpy()
    path = os.path.join(tmp, f"{name}_{opset}.onnx")
    with torch.no_grad():
        torch.onnx.export(model, (x,), path, opset_version=opset, input_names=["x"],
                          output_names=["y"], do_constant_folding=True)
    np.save(os.path.join(tmp, "x.npy"), x.numpy())
    out = os.path.join(tmp, "y.npy")
    start = time.time()
    p = subprocess.run([RXC, "run", path, "--via", "tcc", "--input", f"x={tmp}/x.npy", "--output", out],
                       capture_output=True, text=True)
    took = time.time() - start
    if p.returncode != 0:
        lines = [s for s in p.stderr.splitlines() if "error" in s] or p.stderr.splitlines() or [""]
        return "rxc: " + lines[0].strip()[:160], None, took
    got = np.load(out)
    if got.shape != want.shape:
        return f"shape {got.shape}, torch {want.shape}", None, took
    err = float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30))
    return ("ok" if err <= TOL else "FAIL"), err, took


def main(argv):
    try:
        import torch
        import torchvision as tv
    except ImportError:
        print("check_models: SKIPPED: torch or torchvision missing (make bench-deps installs them)")
        return 1 if os.environ.get("REQUIRE_ALL") == "1" else 0
    torch.set_num_threads(1)
    only = [a for a in argv if not a.startswith("-")]
    rows, failed = [], 0
    with tempfile.TemporaryDirectory(prefix="rxc_models_") as tmp:
        for name, make, shape in models(torch, tv):
            if only and name not in only:
                continue
            for opset in OPSETS:
                status, err, took = check(torch, name, make, shape, opset, tmp)
                shown = "-" if err is None else f"{err:.1e}"
                print(f"{'ok  ' if status == 'ok' else 'FAIL'} {name} opset {opset}: "
                      f"{status if status != 'ok' else 'max error ' + shown} ({took:.1f} s)", flush=True)
                failed += status != "ok"
                rows.append(f"| {name} | {'x'.join(map(str, shape))} | {opset} | {shown} | "
                            f"{'pass' if status == 'ok' else status} |")
    print(f"models: {len(rows) - failed} passed, {failed} failed")
    if "--write-readme" in argv and not only:
        table = ("| model | input | opset | max error (relative to max abs of torch) | result |\n"
                 "|---|---|---:|---:|---|\n" + "\n".join(rows) + "\n")
        path = os.path.join(ROOT, "tests/README.md")
        text = open(path).read()
        begin, end = "<!-- models-begin -->\n", "<!-- models-end -->"
        i, j = text.index(begin) + len(begin), text.index(end)
        with open(path, "w") as f:
            f.write(text[:i] + table + text[j:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
