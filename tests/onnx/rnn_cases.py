#!/usr/bin/python3
"""rnn_cases.py - ONNX's recurrent operators (RNN, GRU, LSTM) in the forms
the ONNX backend tests leave out: reverse and bidirectional directions,
sequence_lens (shorter sequences, in both directions), layout 1, clip,
input_forget, linear_before_reset, peepholes and other activations.

Each case is a one-node model built with onnx.helper and random inputs;
the expected outputs come from rnn_reference below, a direct numpy
transcription of the equations of ONNX's operator documentation (float64,
one direction at a time; a reverse direction reads each batch's sequence
backwards from its own last step).  The model runs through `rxc run
--via tcc` and `--via cc`; outputs (float32, the reference rounded to
float32) must match within 1e-4 relative plus 1e-5 absolute.

usage: rnn_cases.py [-v]      (RXC=build/rxc)
"""
import os
import sys
import zlib

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_cases  # noqa: E402
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def act(name, alpha=None, beta=None):
    fs = {
        "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
        "Tanh": np.tanh,
        "Relu": lambda x: np.maximum(x, 0),
        "HardSigmoid": lambda x: np.clip((0.2 if alpha is None else alpha) * x
                                         + (0.5 if beta is None else beta), 0, 1),
        "LeakyRelu": lambda x: np.where(x >= 0, x, (0.01 if alpha is None else alpha) * x),
        "Softsign": lambda x: x / (1 + np.abs(x)),
    }
    return fs[name]


def one_direction(op, x, w, r, b, h0, c0, p, lens, reverse, acts, clip, attrs):
    """x (seq, batch, in) float64; the rest of one direction.  Returns
    Y (seq, batch, hidden), Y_h, Y_c."""
    seq, batch, _ = x.shape
    hid = r.shape[-1]
    lens = np.full(batch, seq) if lens is None else lens
    h = np.zeros((batch, hid)) if h0 is None else h0.copy()
    c = np.zeros((batch, hid)) if c0 is None else c0.copy()
    b = np.zeros(2 * GATES[op] * hid) if b is None else b
    wb, rb = np.split(b, 2)
    y = np.zeros((seq, batch, hid))
    f, g, hh = (acts + [None, None])[:3]

    def cl(v):
        return np.clip(v, -clip, clip) if clip else v
    for n in range(batch):
        hn, cn = h[n].copy(), c[n].copy()
        order = range(lens[n] - 1, -1, -1) if reverse else range(lens[n])
        for t in order:
            xt = x[t, n]
            if op == "RNN":
                hn = f(cl(xt @ w.T + hn @ r.T + wb + rb))
            elif op == "GRU":
                wz, wr, wh = np.split(w, 3)
                rz, rr, rh = np.split(r, 3)
                wbz, wbr, wbh = np.split(wb, 3)
                rbz, rbr, rbh = np.split(rb, 3)
                z = f(cl(xt @ wz.T + hn @ rz.T + wbz + rbz))
                rt = f(cl(xt @ wr.T + hn @ rr.T + wbr + rbr))
                if attrs.get("linear_before_reset"):
                    ht = g(cl(xt @ wh.T + rt * (hn @ rh.T + rbh) + wbh))
                else:
                    ht = g(cl(xt @ wh.T + (rt * hn) @ rh.T + rbh + wbh))
                hn = (1 - z) * ht + z * hn
            else:
                wi, wo, wf, wc = np.split(w, 4)
                ri, ro, rf, rc = np.split(r, 4)
                bi, bo, bf, bc = np.split(wb + rb, 4)
                pi, po, pf = np.split(np.zeros(3 * hid) if p is None else p, 3)
                i = f(cl(xt @ wi.T + hn @ ri.T + pi * cn + bi))
                if attrs.get("input_forget"):
                    fg = 1 - i
                else:
                    fg = f(cl(xt @ wf.T + hn @ rf.T + pf * cn + bf))
                ct = g(cl(xt @ wc.T + hn @ rc.T + bc))
                cn = fg * cn + i * ct
                o = f(cl(xt @ wo.T + hn @ ro.T + po * cn + bo))
                hn = o * hh(cn)
            y[t, n] = hn
        h[n], c[n] = hn, cn
    return y, h, c


def rnn_reference(op, ins, attrs):
    x = ins["X"].astype(np.float64)
    layout = attrs.get("layout", 0)
    if layout:
        x = x.swapaxes(0, 1)
    direction = attrs.get("direction", "forward")
    ndir = 2 if direction == "bidirectional" else 1
    names = attrs.get("activations", DEFAULT_ACTS[op] * ndir)
    per = len(DEFAULT_ACTS[op])
    alphas = list(attrs.get("activation_alpha", []))
    ys, hs, cs = [], [], []
    for d in range(ndir):
        acts = []
        for name in names[d * per:(d + 1) * per]:
            a = alphas.pop(0) if name in ("HardSigmoid", "LeakyRelu") and alphas else None
            acts.append(act(name, a))

        def get(k):
            v = ins.get(k)
            if v is None:
                return None
            v = v.astype(np.float64)
            if k in ("initial_h", "initial_c") and layout:
                v = v.swapaxes(0, 1)
            return v[d]
        y, h, c = one_direction(op, x, get("W"), get("R"), get("B"), get("initial_h"),
                                get("initial_c"), get("P"), ins.get("sequence_lens"),
                                direction == "reverse" or d == 1, acts, attrs.get("clip"), attrs)
        ys.append(y)
        hs.append(h)
        cs.append(c)
    y, yh, yc = np.stack(ys, 1), np.stack(hs, 0), np.stack(cs, 0)
    if layout:
        y, yh, yc = y.transpose(2, 0, 1, 3), yh.swapaxes(0, 1), yc.swapaxes(0, 1)
    return [y, yh, yc][:3 if op == "LSTM" else 2]


def case(name, op, seq, batch, inp, hid, attrs, with_b=True, with_h0=False, lens=None,
         with_p=False, with_c0=False):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    ndir = 2 if attrs.get("direction") == "bidirectional" else 1
    g = GATES[op]
    layout = attrs.get("layout", 0)
    ins = {"X": rng.standard_normal((batch, seq, inp) if layout else (seq, batch, inp))}
    ins["W"] = rng.standard_normal((ndir, g * hid, inp)) * 0.5
    ins["R"] = rng.standard_normal((ndir, g * hid, hid)) * 0.5
    if with_b:
        ins["B"] = rng.standard_normal((ndir, 2 * g * hid)) * 0.3
    if lens is not None:
        ins["sequence_lens"] = np.array(lens, np.int32)
    if with_h0:
        ins["initial_h"] = rng.standard_normal((batch, ndir, hid) if layout else (ndir, batch, hid))
    if with_c0:
        ins["initial_c"] = rng.standard_normal((batch, ndir, hid) if layout else (ndir, batch, hid))
    if with_p:
        ins["P"] = rng.standard_normal((ndir, 3 * hid)) * 0.3
    for k in ins:
        if k != "sequence_lens":
            ins[k] = ins[k].astype(np.float32)
    return name, op, ins, dict(attrs, hidden_size=hid)


CASES = [
    case("lstm_bidirectional_lens", "LSTM", 5, 3, 4, 3, {"direction": "bidirectional"},
         lens=[5, 2, 0], with_h0=True, with_c0=True),
    case("lstm_reverse_peepholes_input_forget", "LSTM", 4, 2, 3, 2,
         {"direction": "reverse", "input_forget": 1}, with_p=True),
    case("lstm_layout1_clip", "LSTM", 6, 2, 3, 4, {"layout": 1, "clip": 0.7}, with_h0=True,
         with_c0=True, lens=[3, 6]),
    case("gru_bidirectional_lbr", "GRU", 4, 2, 3, 3,
         {"direction": "bidirectional", "linear_before_reset": 1}),
    case("gru_reverse_lens_acts", "GRU", 5, 3, 2, 2,
         {"direction": "reverse", "activations": ["HardSigmoid", "Softsign"],
          "activation_alpha": [0.3]}, lens=[1, 5, 3], with_h0=True),
    case("gru_layout1_no_bias", "GRU", 3, 2, 4, 2, {"layout": 1}, with_b=False),
    case("rnn_bidirectional_relu", "RNN", 4, 2, 3, 3,
         {"direction": "bidirectional", "activations": ["Relu", "LeakyRelu"],
          "activation_alpha": [0.2]}, with_h0=True),
    case("rnn_reverse_lens", "RNN", 5, 2, 2, 4, {"direction": "reverse"}, lens=[4, 2]),
]

ORDER = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]


def model(name, op, ins, attrs):
    present = [k for k in ORDER if k in ins]
    last = max(ORDER.index(k) for k in present)
    node_in = [k if k in ins else "" for k in ORDER[:last + 1]]
    outs = ["Y", "Y_h", "Y_c"][:3 if op == "LSTM" else 2]
    node = helper.make_node(op, node_in, outs, **attrs)
    graph_in = [helper.make_tensor_value_info(
        k, TensorProto.INT32 if k == "sequence_lens" else TensorProto.FLOAT, list(ins[k].shape))
        for k in present if k not in ("W", "R", "B", "P")]
    inits = [numpy_helper.from_array(ins[k], k) for k in ("W", "R", "B", "P") if k in ins]
    graph_out = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs]
    g = helper.make_graph([node], name, graph_in, graph_out, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])


def main(argv):
    runs = []
    for name, op, ins, attrs in CASES:
        feeds = {k: v for k, v in ins.items() if k not in ("W", "R", "B", "P")}
        # the model's outputs are FLOAT: the float64 reference rounded to
        # float32 is what a correct float32 computation approximates
        want = [y.astype(np.float32) for y in rnn_reference(op, ins, attrs)]
        runs.append((name, model(name, op, ins, attrs), feeds, want))
    return onnx_cases.run("rnn cases", runs, "-v" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
