"""cases_nn_norm_loss_attention.py - cases of the nn ops added for issue
20 (ops/nn.c, norm.c, loss.c, attention.c): gelu_tanh, selu, softplus, prelu, the group, instance and RMS norms, nll_loss,
cross_entropy_with_logits and the attention ops.

References compute in float64 and round once to the input dtype, as the
kernels do."""
from cases import *

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def gelu_tanh(v):
    return 0.5 * v * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (v + 0.044715 * v ** 3)))


def selu(v):
    return SELU_SCALE * np.where(v > 0, v, SELU_ALPHA * np.expm1(np.minimum(v, 0)))


def softplus(v, beta=1.0, threshold=20.0):
    with np.errstate(over="ignore"):
        return np.where(beta * v > threshold, v, np.log1p(np.exp(beta * v)) / beta)


def half(name, call, inputs, ref, **kw):
    return Case(name, call, inputs, ref, rtol=1e-3, atol=1e-4, **kw)


def activation_cases():
    sym = lambda shape, sig: inp("x", shape, sig=sig)
    c = []
    for op, fn in {"gelu_tanh": gelu_tanh, "selu": selu, "softplus": softplus}.items():
        c += [
            Case(f"{op}", f"R.nn.{op}(x)", [x_((2, 3, 4))], refs.unary(fn)),
            Case(f"{op}_wide", f"R.nn.{op}(x)", [x_((7,), kind="wide")], refs.unary(fn)),
            Case(f"{op}_scalar", f"R.nn.{op}(x)", [x_(())], refs.unary(fn)),
            Case(f"{op}_empty", f"R.nn.{op}(x)", [x_((0, 3))], refs.unary(fn)),
            Case(f"{op}_f64", f"R.nn.{op}(x)", [x_((3, 5), F64, "large")], refs.unary(fn)),
            half(f"{op}_f16", f"R.nn.{op}(x)", [x_((2, 3, 4), F16, "wide")], refs.unary(fn)),
            Case(f"{op}_sym", f"R.nn.{op}(x)", [sym((3, 5), ("n", 5))], refs.unary(fn), upper={"n": 8}),
        ]
    c += [
        Case("softplus_beta", "R.nn.softplus(x, beta=2.0, threshold=5.0)", [x_((4, 6), kind="wide")],
             refs.unary(lambda v: softplus(v, 2.0, 5.0))),
        Case("softplus_large", "R.nn.softplus(x, beta=0.5)", [x_((3, 8), kind="large")],
             refs.unary(lambda v: softplus(v, 0.5))),
        Case("softplus_special", "R.nn.softplus(x)", [x_((4,), kind="special")], refs.unary(softplus)),
    ]
    return c


def channel_affine(y, g, b, ch, center, scale, x):
    """y * gamma + beta with one gamma and beta per channel (axis ch), in
    x's dtype."""
    shape = [1] * y.ndim
    shape[ch] = y.shape[ch]
    if scale:
        y = y * refs.f64(g).reshape(shape)
    if center:
        y = y + refs.f64(b).reshape(shape)
    return refs.like(y, x)


def group_norm(x, g, b, groups, channel, axes, eps=1e-5, center=True, scale=True):
    """TVM's group_norm: channel split into groups, each group with the
    axes normalized together; gamma and beta per channel."""
    z = refs.f64(x)
    nd, ch = z.ndim, channel % z.ndim
    shape = z.shape[:ch] + (groups, z.shape[ch] // groups) + z.shape[ch + 1:]
    zs = z.reshape(shape)
    red = tuple([ch + 1] + [a % nd + (1 if a % nd > ch else 0) for a in axes])
    mean = zs.mean(axis=red, keepdims=True)
    var = ((zs - mean) ** 2).mean(axis=red, keepdims=True)
    y = ((zs - mean) / np.sqrt(var + eps)).reshape(z.shape)
    return channel_affine(y, g, b, ch, center, scale, x)


def instance_norm(x, g, b, channel, axes, eps=1e-5, center=True, scale=True):
    z = refs.f64(x)
    nd, ch = z.ndim, channel % z.ndim
    red = tuple(a % nd for a in axes)
    mean = z.mean(axis=red, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=red, keepdims=True)
    y = (z - mean) / np.sqrt(var + eps)
    return channel_affine(y, g, b, ch, center, scale, x)


def rms_norm(x, w, axes=(-1,), eps=1e-5):
    z = refs.f64(x)
    red = tuple(sorted(a % z.ndim for a in axes))
    ms = (z * z).mean(axis=red, keepdims=True)
    wshape = [z.shape[d] if d in red else 1 for d in range(z.ndim)]
    return refs.like(z / np.sqrt(ms + eps) * refs.f64(w).reshape(wshape), x)


def norm_cases():
    g_, b_ = (lambda n, dt=F32, sig=None: inp("g", (n,), dt, sig=sig)), (lambda n, dt=F32, sig=None: inp("b", (n,), dt, sig=sig))
    cn = lambda shape, ch, dt=F32: [x_(shape, dt), g_(ch, dt), b_(ch, dt)]
    at = dict(atol=1e-5)
    c = [
        Case("group_norm", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2, 3])",
             cn((2, 4, 3, 3), 4), lambda x, g, b: group_norm(x, g, b, 2, 1, [2, 3]), **at),
        Case("group_norm_one_group", "R.nn.group_norm(x, g, b, num_groups=1, channel_axis=1, axes=[2])",
             cn((3, 6, 5), 6), lambda x, g, b: group_norm(x, g, b, 1, 1, [2]), **at),
        Case("group_norm_per_channel", "R.nn.group_norm(x, g, b, num_groups=4, channel_axis=-1, axes=[1], epsilon=0.01)",
             cn((2, 5, 4), 4), lambda x, g, b: group_norm(x, g, b, 4, -1, [1], 0.01), **at),
        Case("group_norm_no_affine",
             "R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2, 3], center=False, scale=False)",
             cn((1, 6, 2, 2), 6), lambda x, g, b: group_norm(x, g, b, 3, 1, [2, 3], center=False, scale=False), **at),
        Case("group_norm_f64", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
             cn((2, 4, 7), 4, F64), lambda x, g, b: group_norm(x, g, b, 2, 1, [2]), **at),
        half("group_norm_f16", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
             cn((2, 4, 5), 4, F16), lambda x, g, b: group_norm(x, g, b, 2, 1, [2])),
        Case("group_norm_sym", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
             [inp("x", (3, 4, 5), sig=("n", 4, "m")), g_(4), b_(4)],
             lambda x, g, b: group_norm(x, g, b, 2, 1, [2]), upper={"n": 8, "m": 8}, **at),
        Case("instance_norm", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2, 3])",
             cn((2, 3, 4, 4), 3), lambda x, g, b: instance_norm(x, g, b, 1, [2, 3]), **at),
        Case("instance_norm_nhwc", "R.nn.instance_norm(x, g, b, channel_axis=-1, axes=[1, 2], epsilon=0.001)",
             cn((2, 3, 4, 5), 5), lambda x, g, b: instance_norm(x, g, b, -1, [1, 2], 1e-3), **at),
        Case("instance_norm_1d", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2], center=False)",
             cn((1, 2, 9), 2), lambda x, g, b: instance_norm(x, g, b, 1, [2], center=False), **at),
        Case("instance_norm_size1", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
             cn((2, 3, 1), 3), lambda x, g, b: instance_norm(x, g, b, 1, [2]), **at),
        Case("instance_norm_f64", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
             cn((2, 3, 6), 3, F64), lambda x, g, b: instance_norm(x, g, b, 1, [2]), **at),
        half("instance_norm_f16", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
             cn((2, 3, 6), 3, F16), lambda x, g, b: instance_norm(x, g, b, 1, [2])),
        Case("instance_norm_sym", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
             [inp("x", (2, 3, 5), sig=(2, "c", "n")), g_(3, sig=("c",)), b_(3, sig=("c",))],
             lambda x, g, b: instance_norm(x, g, b, 1, [2]), upper={"n": 8, "c": 8}, at_edges=False, **at),
        Case("rms_norm", "R.nn.rms_norm(x, w)", [x_((2, 3, 8)), inp("w", (8,))], rms_norm, **at),
        Case("rms_norm_two_axes", "R.nn.rms_norm(x, w, axes=[1, 2], epsilon=0.001)",
             [x_((2, 3, 4)), inp("w", (3, 4))], lambda x, w: rms_norm(x, w, [1, 2], 1e-3), **at),
        Case("rms_norm_axis0", "R.nn.rms_norm(x, w, axes=[0])", [x_((5, 3)), inp("w", (5,))],
             lambda x, w: rms_norm(x, w, [0]), **at),
        Case("rms_norm_zero", "R.nn.rms_norm(x, w)", [x_((4,), kind="zeros"), inp("w", (4,))], rms_norm, **at),
        Case("rms_norm_f64", "R.nn.rms_norm(x, w)", [x_((3, 6), F64), inp("w", (6,), F64)], rms_norm, **at),
        half("rms_norm_f16", "R.nn.rms_norm(x, w)", [x_((3, 16), F16), inp("w", (16,), F16)], rms_norm),
        Case("rms_norm_sym", "R.nn.rms_norm(x, w)", [inp("x", (3, 6), sig=("n", 6)), inp("w", (6,))], rms_norm,
             upper={"n": 8}, **at),
        Case("rms_norm_sym_axis", "R.nn.rms_norm(x, w)", [inp("x", (3, 6), sig=(3, "n")), inp("w", (6,), sig=("n",))],
             rms_norm, upper={"n": 8}, **at),
    ]
    return c


def prelu(x, a, axis=1):
    z = refs.f64(x)
    shape = [1] * z.ndim
    shape[axis % z.ndim] = a.shape[0]
    return refs.like(np.where(z > 0, z, refs.f64(a).reshape(shape) * z), x)


def prelu_cases():
    a_ = lambda n, dt=F32, sig=None: inp("a", (n,), dt, sig=sig)
    return [
        Case("prelu", "R.nn.prelu(x, a)", [x_((2, 3, 4, 4)), a_(3)], prelu),
        Case("prelu_axis_last", "R.nn.prelu(x, a, axis=-1)", [x_((3, 5), kind="wide"), a_(5)],
             lambda x, a: prelu(x, a, -1)),
        Case("prelu_axis0", "R.nn.prelu(x, a, axis=0)", [x_((4, 3)), a_(4)], lambda x, a: prelu(x, a, 0)),
        Case("prelu_one_alpha", "R.nn.prelu(x, a)", [x_((2, 6, 3)), a_(1)], prelu),
        Case("prelu_special", "R.nn.prelu(x, a, axis=0)", [x_((4,), kind="special"), a_(1)],
             lambda x, a: prelu(x, a, 0)),
        Case("prelu_f64", "R.nn.prelu(x, a)", [x_((2, 3, 5), F64), a_(3, F64)], prelu),
        half("prelu_f16", "R.nn.prelu(x, a)", [x_((2, 3, 5), F16, "wide"), a_(3, F16)], prelu),
        Case("prelu_empty", "R.nn.prelu(x, a)", [x_((0, 3)), a_(3)], prelu),
        Case("prelu_sym", "R.nn.prelu(x, a)", [inp("x", (3, 4, 2), sig=("n", "c", 2)), a_(4, sig=("c",))], prelu,
             upper={"n": 8, "c": 8}),
        Case("prelu_sym_alpha", "R.nn.prelu(x, a)", [x_((3, 4, 2)), a_(4, sig=("m",))], prelu, upper={"m": 8},
             at_edges=False),
    ]


def nll_loss(p, t, w=None, reduction="mean", ignore_index=-100):
    z = refs.f64(p)
    classes = z.shape[0] if z.ndim == 1 else z.shape[1]
    w = np.ones(classes) if w is None else refs.f64(w)
    tt = np.asarray(t).astype(np.int64)
    valid = tt != ignore_index
    tc = np.where(valid, tt, 0)
    if z.ndim == 1:
        picked = z[tc]
    else:
        picked = np.take_along_axis(z, np.expand_dims(tc, 1), axis=1).squeeze(1)
    loss = np.where(valid, -picked * w[tc], 0.0)
    wt = np.where(valid, w[tc], 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {"none": loss, "sum": loss.sum(), "mean": loss.sum() / wt.sum()}[reduction]
    return refs.like(out, p)


def cross_entropy(x, y):
    z = -(refs.f64(x) * refs.f64(y)).sum()
    return refs.like(z / x.shape[0] if x.ndim >= 2 else z, x)


def loss_cases():
    t_ = lambda shape, c, dt=I64, sig=None: inp("t", shape, dt, f"index{c}", sig=sig)
    w_ = lambda c, dt=F32, sig=None: inp("w", (c,), dt, "pos", sig=sig)
    at = dict(atol=1e-5)
    return [
        Case("nll_loss", "R.nn.nll_loss(p, t)", [inp("p", (4, 5)), t_((4,), 5)], nll_loss, **at),
        Case("nll_loss_weights", "R.nn.nll_loss(p, t, w)", [inp("p", (6, 3)), t_((6,), 3), w_(3)],
             nll_loss, **at),
        Case("nll_loss_sum_2d", 'R.nn.nll_loss(p, t, w, reduction="sum")',
             [inp("p", (2, 4, 3, 2)), t_((2, 3, 2), 4, I32), w_(4)],
             lambda p, t, w: nll_loss(p, t, w, "sum"), **at),
        Case("nll_loss_none", 'R.nn.nll_loss(p, t, reduction="none", ignore_index=1)',
             [inp("p", (5, 3, 4)), t_((5, 4), 3)], lambda p, t: nll_loss(p, t, None, "none", 1), **at),
        Case("nll_loss_ignore_mean", "R.nn.nll_loss(p, t, w, ignore_index=0)",
             [inp("p", (8, 2)), t_((8,), 2, I32), w_(2)], lambda p, t, w: nll_loss(p, t, w, "mean", 0), **at),
        Case("nll_loss_one_sample", 'R.nn.nll_loss(p, t, w, reduction="none")',
             [inp("p", (5,)), t_((), 5), w_(5)], lambda p, t, w: nll_loss(p, t, w, "none"), **at),
        Case("nll_loss_one_sample_mean", "R.nn.nll_loss(p, t)", [inp("p", (5,)), t_((), 5)], nll_loss, **at),
        Case("nll_loss_f64", 'R.nn.nll_loss(p, t, w, reduction="sum")',
             [inp("p", (3, 4), F64), t_((3,), 4), w_(4, F64)], lambda p, t, w: nll_loss(p, t, w, "sum"), **at),
        half("nll_loss_f16", "R.nn.nll_loss(p, t, w)", [inp("p", (4, 3), F16), t_((4,), 3), w_(3, F16)], nll_loss),
        Case("nll_loss_sym", 'R.nn.nll_loss(p, t, reduction="none")',
             [inp("p", (3, 4), sig=("n", 4)), t_((3,), 4, sig=("n",))],
             lambda p, t: nll_loss(p, t, None, "none"), upper={"n": 8}, **at),
        Case("nll_loss_sym_mean", "R.nn.nll_loss(p, t, w)",
             [inp("p", (3, 4), sig=("n", "c")), t_((3,), 2, sig=("n",)), w_(4, sig=("c",))],
             nll_loss, upper={"n": 8, "c": 8}, at_edges=False, **at),
        Case("cross_entropy_with_logits", "R.nn.cross_entropy_with_logits(x, y)", [x_((3, 5)), y_((3, 5))],
             cross_entropy, **at),
        Case("cross_entropy_with_logits_1d", "R.nn.cross_entropy_with_logits(x, y)", [x_((7,)), y_((7,))],
             cross_entropy, **at),
        Case("cross_entropy_with_logits_3d", "R.nn.cross_entropy_with_logits(x, y)",
             [x_((2, 3, 4)), y_((2, 3, 4), kind="pos")], cross_entropy, **at),
        Case("cross_entropy_with_logits_scalar", "R.nn.cross_entropy_with_logits(x, y)", [x_(()), y_(())],
             cross_entropy, **at),
        Case("cross_entropy_with_logits_f64", "R.nn.cross_entropy_with_logits(x, y)",
             [x_((4, 3), F64), y_((4, 3), F64)], cross_entropy, **at),
        half("cross_entropy_with_logits_f16", "R.nn.cross_entropy_with_logits(x, y)",
             [x_((2, 6), F16), y_((2, 6), F16)], cross_entropy),
        Case("cross_entropy_with_logits_sym", "R.nn.cross_entropy_with_logits(x, y)",
             [inp("x", (3, 4), sig=("n", 4)), inp("y", (3, 4), sig=("n", 4))], cross_entropy,
             upper={"n": 8}, **at),
    ]


def attention(q, k, v, bias=None, scale=None, causal=None, window=None):
    """Per batch, head and query: softmax over the allowed keys of the
    scaled scores (plus bias), times the values; grouped heads share
    key/value heads; a query with no allowed key gives zeros."""
    qd, kd, vd = refs.f64(q), refs.f64(k), refs.f64(v)
    b_, sq, h, d = qd.shape
    skv, hk, hv, dv = kd.shape[1], kd.shape[2], vd.shape[2], vd.shape[3]
    out = np.zeros((b_, sq, h, dv))
    off = abs(sq - skv) if causal == "BottomRight" else 0
    for bt in range(b_):
        for hh in range(h):
            kk, vv = kd[bt, :, hh // (h // hk), :], vd[bt, :, hh // (h // hv), :]
            s_ = qd[bt, :, hh, :] @ kk.T
            s_ = s_ / np.sqrt(d) if scale is None else s_ * scale
            if bias is not None:
                bb = refs.f64(bias)
                s_ = s_ + np.broadcast_to(bb[min(bt, bb.shape[0] - 1), min(hh, bb.shape[1] - 1)], s_.shape)
            i, j = np.indices(s_.shape)
            ok = np.ones(s_.shape, bool)
            if causal:
                ok &= j <= i + off
            if window:
                ok &= j >= i + off - window + 1
            s_ = np.where(ok, s_, -np.inf)
            m = s_.max(axis=1, keepdims=True, initial=-np.inf)
            e = np.where(ok, np.exp(s_ - np.where(np.isfinite(m), m, 0)), 0.0)
            tot = e.sum(axis=1, keepdims=True)
            out[bt, :, hh, :] = np.where(tot > 0, (e @ vv) / np.where(tot > 0, tot, 1), 0.0)
    return refs.like(out, q)


def attention_cases():
    qkv = lambda b, sq, skv, h, d, hk=None, dv=None, dt=F32: [
        inp("q", (b, sq, h, d), dt), inp("k", (b, skv, hk or h, d), dt), inp("v", (b, skv, hk or h, dv or d), dt)]
    at = dict(atol=1e-5)
    return [
        Case("attention", "R.nn.attention(q, k, v)", qkv(2, 3, 4, 2, 5), attention, **at),
        Case("attention_scale_dv", "R.nn.attention(q, k, v, scale=0.25)", qkv(1, 4, 6, 3, 4, dv=7),
             lambda q, k, v: attention(q, k, v, scale=0.25), **at),
        Case("attention_top_left", 'R.nn.attention(q, k, v, causal_mask="TopLeft")', qkv(2, 5, 3, 2, 4),
             lambda q, k, v: attention(q, k, v, causal="TopLeft"), **at),
        Case("attention_bottom_right", 'R.nn.attention(q, k, v, causal_mask="BottomRight")', qkv(1, 3, 6, 2, 4),
             lambda q, k, v: attention(q, k, v, causal="BottomRight"), **at),
        Case("attention_window", 'R.nn.attention(q, k, v, causal_mask="BottomRight", window_size=2)',
             qkv(1, 4, 6, 1, 3), lambda q, k, v: attention(q, k, v, causal="BottomRight", window=2), **at),
        Case("attention_grouped_heads", "R.nn.attention(q, k, v)", qkv(1, 3, 5, 4, 4, hk=2),
             attention, **at),
        Case("attention_large", "R.nn.attention(q, k, v, scale=4.0)",
             [inp("q", (1, 2, 1, 3), kind="large"), inp("k", (1, 5, 1, 3), kind="large"), inp("v", (1, 5, 1, 3))],
             lambda q, k, v: attention(q, k, v, scale=4.0), **at),
        Case("attention_bias", "R.nn.attention_bias(q, k, v, b)",
             qkv(2, 3, 4, 2, 5) + [inp("b", (2, 2, 3, 4))], attention, **at),
        Case("attention_bias_bcast", 'R.nn.attention_bias(q, k, v, b, causal_mask="TopLeft")',
             qkv(2, 4, 4, 3, 2) + [inp("b", (1, 3, 1, 4))],
             lambda q, k, v, b: attention(q, k, v, b, causal="TopLeft"), **at),
        Case("attention_bias_kw", "R.nn.attention(q, k, v, bias=b, scale=0.5)",
             qkv(1, 2, 3, 1, 4) + [inp("b", (1, 1, 2, 3))],
             lambda q, k, v, b: attention(q, k, v, b, scale=0.5), **at),
        Case("attention_f64", "R.nn.attention(q, k, v)", qkv(1, 3, 3, 2, 4, dt=F64), attention, **at),
        half("attention_f16", "R.nn.attention(q, k, v)", qkv(1, 3, 4, 2, 8, dt=F16), attention),
        Case("attention_sym", 'R.nn.attention(q, k, v, causal_mask="BottomRight")',
             [inp("q", (1, 3, 2, 4), sig=(1, "n", 2, 4)), inp("k", (1, 5, 2, 4), sig=(1, "m", 2, 4)),
              inp("v", (1, 5, 2, 4), sig=(1, "m", 2, 4))],
             lambda q, k, v: attention(q, k, v, causal="BottomRight"), upper={"n": 8, "m": 8}, **at),
        Case("attention_empty_keys", "R.nn.attention(q, k, v)", qkv(1, 2, 0, 1, 3), attention, **at),
    ]


def attention_var_len(q, k, v, sq, sk=None, **kw):
    """Each sequence s attends over its own rows: queries sq[s]..sq[s+1],
    keys sk[s]..sk[s+1]; rows of no sequence are 0."""
    sk = sq if sk is None else sk
    out = np.zeros(q.shape[:3] + (v.shape[3],), q.dtype)
    for s_ in range(len(sq) - 1):
        a, b, c, d = sq[s_], sq[s_ + 1], sk[s_], sk[s_ + 1]
        out[:, a:b] = attention(q[:, a:b], k[:, c:d], v[:, c:d], **kw)
    return out


def var_len_cases():
    qkv = lambda tq, tk, h, d, hk=None, dt=F32: [
        inp("q", (1, tq, h, d), dt), inp("k", (1, tk, hk or h, d), dt), inp("v", (1, tk, hk or h, d), dt)]
    seq = lambda xs: 'R.const([%s], "int32")' % ", ".join(map(str, xs))
    mx = "R.prim_value(T.int32(4))"
    at = dict(atol=1e-5)
    return [
        Case("attention_var_len", f"R.nn.attention_var_len(q, k, v, {seq([0, 3, 7])}, {mx})", qkv(7, 7, 2, 4),
             lambda q, k, v: attention_var_len(q, k, v, [0, 3, 7]), **at),
        Case("attention_var_len_causal",
             f'R.nn.attention_var_len(q, k, v, {seq([0, 2, 3, 6])}, {mx}, causal_mask="TopLeft", scale=0.5)',
             qkv(6, 6, 1, 3), lambda q, k, v: attention_var_len(q, k, v, [0, 2, 3, 6], causal="TopLeft", scale=0.5),
             **at),
        Case("attention_var_len_kv",
             f'R.nn.attention_var_len(q, k, v, {seq([0, 1, 3])}, {mx}, {seq([0, 4, 6])}, {mx}, causal_mask="BottomRight")',
             qkv(3, 6, 2, 4, hk=1), lambda q, k, v: attention_var_len(q, k, v, [0, 1, 3], [0, 4, 6], causal="BottomRight"),
             **at),
        Case("attention_var_len_max_k", f"R.nn.attention_var_len(q, k, v, {seq([0, 2, 5])}, {mx}, max_seqlen_k={mx})",
             qkv(5, 5, 1, 3), lambda q, k, v: attention_var_len(q, k, v, [0, 2, 5]), **at),
        Case("attention_var_len_gap", f"R.nn.attention_var_len(q, k, v, {seq([0, 2, 2, 4])}, {mx})",
             qkv(5, 5, 1, 2), lambda q, k, v: attention_var_len(q, k, v, [0, 2, 2, 4]), **at),
        half("attention_var_len_f16", f"R.nn.attention_var_len(q, k, v, {seq([0, 4, 5])}, {mx})",
             qkv(5, 5, 2, 8, dt=F16), lambda q, k, v: attention_var_len(q, k, v, [0, 4, 5])),
        Case("attention_var_len_sym", f"R.nn.attention_var_len(q, k, v, {seq([0, 1, 4])}, {mx})",
             [inp("q", (1, 4, 2, 4), sig=(1, "n", 2, 4)), inp("k", (1, 5, 2, 4), sig=(1, "m", 2, 4)),
              inp("v", (1, 5, 2, 4), sig=(1, "m", 2, 4))],
             lambda q, k, v: attention_var_len(q, k, v, [0, 1, 4]), upper={"n": 8, "m": 8}, at_edges=False, **at),
        Case("attention_var_len_empty", f"R.nn.attention_var_len(q, k, v, s, {mx})",
             qkv(3, 3, 1, 2) + [inp("s", (2,), I32, "index1")],
             lambda q, k, v, s: attention_var_len(q, k, v, [0, 0]), **at),
    ]


def CASES():
    return (activation_cases() + prelu_cases() + norm_cases() + loss_cases() + attention_cases()
            + var_len_cases())


def ERROR_CASES():
    f = lambda shape, dtype=F32, name="x", sig=None: inp(name, shape, dtype, sig=sig)
    return [
        ErrorCase("gelu_tanh_err_int", "R.nn.gelu_tanh(x)", [f((2, 3), I32)], ["float"]),
        ErrorCase("selu_err_int", "R.nn.selu(x)", [f((2,), I64)], ["float"]),
        ErrorCase("softplus_err_int", "R.nn.softplus(x)", [f((2,), I32)], ["float"]),
        ErrorCase("softplus_err_beta", 'R.nn.softplus(x, beta="a")', [f((2,))], ["beta", "number"]),
        ErrorCase("prelu_err_int", "R.nn.prelu(x, a)", [f((2, 3), I32), f((3,), I32, "a")], ["float"]),
        ErrorCase("prelu_err_axis", "R.nn.prelu(x, a, axis=2)", [f((2, 3)), f((3,), name="a")], ["axis"]),
        ErrorCase("prelu_err_alpha_len", "R.nn.prelu(x, a)", [f((2, 3)), f((2,), name="a")], ["alpha", "length"]),
        ErrorCase("prelu_err_alpha_rank", "R.nn.prelu(x, a)", [f((2, 3)), f((3, 1), name="a")], ["alpha", "rank"]),
        ErrorCase("prelu_err_alpha_dtype", "R.nn.prelu(x, a)", [f((2, 3)), f((3,), F64, "a")], ["dtype"]),
        ErrorCase("nll_loss_err_target_dtype", "R.nn.nll_loss(p, t)", [f((4, 3), name="p"), f((4,), name="t")],
                  ["integer"]),
        ErrorCase("nll_loss_err_rank", "R.nn.nll_loss(p, t)", [f((4, 3), name="p"), f((4, 2), I64, "t")], ["rank"]),
        ErrorCase("nll_loss_err_batch", "R.nn.nll_loss(p, t)", [f((4, 3), name="p"), f((5,), I64, "t")], ["batch"]),
        ErrorCase("nll_loss_err_weights", "R.nn.nll_loss(p, t, w)",
                  [f((4, 3), name="p"), f((4,), I64, "t"), f((4,), name="w")], ["class"]),
        ErrorCase("nll_loss_err_weights_dtype", "R.nn.nll_loss(p, t, w)",
                  [f((4, 3), name="p"), f((4,), I64, "t"), f((3,), F64, "w")], ["dtype"]),
        ErrorCase("nll_loss_err_reduction", 'R.nn.nll_loss(p, t, reduction="max")',
                  [f((4, 3), name="p"), f((4,), I64, "t")], ["reduction"]),
        ErrorCase("nll_loss_err_scalar_pred", "R.nn.nll_loss(p, t)", [f((), name="p"), f((), I64, "t")], ["rank"]),
        ErrorCase("cross_entropy_with_logits_err_shape", "R.nn.cross_entropy_with_logits(x, y)",
                  [f((2, 3)), f((2, 4), name="y")], ["dims", "differ"]),
        ErrorCase("cross_entropy_with_logits_err_rank", "R.nn.cross_entropy_with_logits(x, y)",
                  [f((2, 3)), f((6,), name="y")], ["rank"]),
        ErrorCase("cross_entropy_with_logits_err_dtype", "R.nn.cross_entropy_with_logits(x, y)",
                  [f((2, 3)), f((2, 3), F64, "y")], ["dtype"]),
        ErrorCase("attention_err_rank", "R.nn.attention(q, k, v)",
                  [f((2, 3, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v")], ["rank"]),
        ErrorCase("attention_err_head_dim", "R.nn.attention(q, k, v)",
                  [f((2, 3, 2, 4), name="q"), f((2, 3, 2, 5), name="k"), f((2, 3, 2, 4), name="v")], ["head dims"]),
        ErrorCase("attention_err_batch", "R.nn.attention(q, k, v)",
                  [f((2, 3, 2, 4), name="q"), f((1, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v")], ["batch"]),
        ErrorCase("attention_err_heads", "R.nn.attention(q, k, v)",
                  [f((2, 3, 3, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v")], ["multiple"]),
        ErrorCase("attention_err_kv_len", "R.nn.attention(q, k, v)",
                  [f((2, 3, 2, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 5, 2, 4), name="v")], ["sequence"]),
        ErrorCase("attention_err_mask", 'R.nn.attention(q, k, v, causal_mask="Diagonal")',
                  [f((2, 3, 2, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v")], ["causal_mask"]),
        ErrorCase("attention_err_window", "R.nn.attention(q, k, v, window_size=2)",
                  [f((2, 3, 2, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v")], ["window_size"]),
        ErrorCase("attention_err_int", "R.nn.attention(q, k, v)",
                  [f((2, 3, 2, 4), I32, "q"), f((2, 3, 2, 4), I32, "k"), f((2, 3, 2, 4), I32, "v")], ["float"]),
        ErrorCase("attention_bias_err_bcast", "R.nn.attention_bias(q, k, v, b)",
                  [f((2, 3, 2, 4), name="q"), f((2, 3, 2, 4), name="k"), f((2, 3, 2, 4), name="v"),
                   f((2, 3, 3, 3), name="b")], ["bias"]),
        ErrorCase("attention_var_len_err_seqstart", "R.nn.attention_var_len(q, k, v, s, s)",
                  [f((1, 3, 2, 4), name="q"), f((1, 3, 2, 4), name="k"), f((1, 3, 2, 4), name="v"),
                   f((2,), name="s")], ["seqstart_q", "integer"]),
        ErrorCase("attention_var_len_err_heads", "R.nn.attention_var_len(q, k, v, s, s)",
                  [f((1, 3, 3, 4), name="q"), f((1, 3, 2, 4), name="k"), f((1, 3, 2, 4), name="v"),
                   f((2,), I32, "s")], ["multiple"]),
        ErrorCase("group_norm_err_divisible", "R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2])",
                  [f((2, 4, 5)), f((4,), name="g"), f((4,), name="b")], ["divisible"]),
        ErrorCase("group_norm_err_channel_in_axes", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[1, 2])",
                  [f((2, 4, 5)), f((4,), name="g"), f((4,), name="b")], ["channel_axis"]),
        ErrorCase("group_norm_err_gamma", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
                  [f((2, 4, 5)), f((5,), name="g"), f((4,), name="b")], ["gamma", "length"]),
        ErrorCase("group_norm_err_int", "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
                  [f((2, 4, 5), I32), f((4,), I32, "g"), f((4,), I32, "b")], ["float"]),
        ErrorCase("group_norm_err_groups", "R.nn.group_norm(x, g, b, num_groups=0, channel_axis=1, axes=[2])",
                  [f((2, 4, 5)), f((4,), name="g"), f((4,), name="b")], ["num_groups"]),
        ErrorCase("instance_norm_err_axis", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[3])",
                  [f((2, 4, 5)), f((4,), name="g"), f((4,), name="b")], ["axis"]),
        ErrorCase("instance_norm_err_rank", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
                  [f((2, 4, 5)), f((4, 1), name="g"), f((4,), name="b")], ["rank"]),
        ErrorCase("instance_norm_err_dtype", "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2])",
                  [f((2, 4, 5)), f((4,), F64, "g"), f((4,), name="b")], ["dtype"]),
        ErrorCase("rms_norm_err_weight", "R.nn.rms_norm(x, w)", [f((2, 4)), f((3,), name="w")], ["weight", "length"]),
        ErrorCase("rms_norm_err_rank", "R.nn.rms_norm(x, w, axes=[0, 1])", [f((2, 4)), f((4,), name="w")], ["weight", "rank"]),
        ErrorCase("rms_norm_err_int", "R.nn.rms_norm(x, w)", [f((2, 4), I32), f((4,), I32, "w")], ["float"]),
    ]


def RUN_ERROR_CASES():
    sym = lambda name, shape, sig, dt=F32: inp(name, shape, dt, sig=sig)
    return [
        RunErrorCase("nll_loss_run_err_target", "R.nn.nll_loss(p, t)", [inp("p", (4, 5)), inp("t", (4,), I64, "oob5")],
                     {}, ["out of range"]),
        RunErrorCase("nll_loss_run_err_target_none", 'R.nn.nll_loss(p, t, reduction="none")',
                     [inp("p", (4, 5)), inp("t", (4,), I64, "negoob5")], {}, ["out of range"]),
        RunErrorCase("prelu_run_err_alpha", "R.nn.prelu(x, a)", [x_((2, 3)), sym("a", (3,), ("m",))],
                     {"a": (2,)}, ["alpha"], upper={"m": 8}),
        RunErrorCase("group_norm_run_err_divisible",
                     "R.nn.group_norm(x, g, b, num_groups=2, channel_axis=1, axes=[2])",
                     [sym("x", (2, 4, 3), (2, "c", 3)), sym("g", (4,), ("c",)), sym("b", (4,), ("c",))],
                     {"x": (2, 3, 3), "g": (3,), "b": (3,)}, ["divisible"], upper={"c": 8}),
    ]
