"""gen.py - random Relax modules for translation validation (validate.py).

gen_module(seed) builds one `main` function: a random DAG of the operators
rxc supports, over inputs of random shapes, some with a symbolic leading
dim `n` (bounded by tir_var_upper_bound so that `rxc compile` plans it).
It returns the TVMScript text and the input arrays (numpy, drawn from the
same seed), so that one seed always gives the same module and inputs.

Key idea: the generator tracks, for every value, its shape (each dim as
TVMScript text and as the concrete size of this run), its dtype, and a
bound on its magnitude (and, for positive values, a lower bound).  An op is
chosen only where it is valid and numerically tame: log/sqrt/divide see
values bounded away from zero, exp sees bounded values, integer graphs
stay small enough never to overflow.  So every difference between the
interpreter and the generated C is a bug in rxc, not in the module.
"""
import math
import random

import numpy as np

F32, I32, I64, BOOL = "float32", "int32", "int64", "bool"
MAX_ELEMS = 4096  # per value: keeps the interpreter fast
BIG = 1e4         # largest magnitude a float value may reach


class Val:
    """A Relax value of the function: name, dims [(text, size)], dtype,
    magnitude bound `mag`, positive lower bound `lo` (0: may be <= 0)."""

    def __init__(self, name, dims, dtype, mag, lo=0.0):
        self.name, self.dims, self.dtype, self.mag, self.lo = name, list(dims), dtype, mag, lo

    @property
    def shape(self):
        return tuple(s for _, s in self.dims)

    @property
    def static(self):
        return all(t == str(s) for t, s in self.dims)

    def sinfo(self, quote=None):
        """R.Tensor(...) text; dims named quote are written as strings, as a
        signature writes them."""
        inner = ", ".join(f'"{t}"' if t == quote else t for t, _ in self.dims)
        if len(self.dims) == 1:
            inner += ","
        return f'R.Tensor(({inner}), dtype="{self.dtype}")'


def numel(dims):
    return math.prod(s for _, s in dims)


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.params, self.inputs, self.lines, self.vals = [], {}, [], []
        self.count = 0
        self.sym = None  # ("n", concrete size, upper bound) when the module has one
        self.dtype = F32

    # ---- names, inputs and bindings --------------------------------------
    def fresh(self, prefix="lv"):
        self.count += 1
        return f"{prefix}{self.count}"

    def new_input(self, dims, dtype=None, kind="normal"):
        dtype = dtype or self.dtype
        name = f"p{len(self.params)}"
        shape = tuple(s for _, s in dims)
        if kind == "index":
            data = self.np_rng.integers(0, kind_limit(self), size=shape).astype(dtype)
        elif dtype == F32:
            data = self.np_rng.uniform(-1, 1, size=shape).astype(np.float32)
        elif dtype == BOOL:
            data = self.np_rng.integers(0, 2, size=shape).astype(bool)
        else:
            data = self.np_rng.integers(-3, 4, size=shape).astype(dtype)
        v = Val(name, dims, dtype, 1.0 if dtype == F32 else 3.0)
        self.params.append(v)
        self.inputs[name] = data
        return v

    def bind(self, expr, dims, dtype, mag, lo=0.0, keep=True):
        v = Val(self.fresh(), dims, dtype, mag, lo)
        self.lines.append(f"{v.name}: {v.sinfo()} = {expr}")
        if keep:
            self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True):
        cands = [v for v in self.vals if pred(v)]
        if not cands:
            return None
        # prefer recent values: deeper DAGs
        return cands[-1 - min(int(self.rng.expovariate(0.7)), len(cands) - 1)]

    def random_dims(self, rank, allow_sym=True):
        dims = []
        for i in range(rank):
            if i == 0 and allow_sym and self.sym and self.rng.random() < 0.6:
                dims.append((self.sym[0], self.sym[1]))
            else:
                s = self.rng.choice([1, 2, 3, 4, 5, 6, 8])
                dims.append((str(s), s))
        while numel(dims) > MAX_ELEMS // 4:
            dims[-1] = ("1", 1)
        return dims

    # ---- helpers for numerics -------------------------------------------
    def tame(self, v):
        """v itself when its magnitude is moderate, else tanh(v) (float)."""
        if v.dtype != F32 or v.mag <= 8:
            return v
        return self.bind(f"R.tanh({v.name})", v.dims, F32, 1.0)

    def positive(self, v, floor=0.5):
        """A value >= floor made from v: v itself when it is, else
        abs(v) + floor (float) ."""
        if v.lo >= floor:
            return v
        a = self.bind(f"R.abs({v.name})", v.dims, F32, v.mag)
        return self.bind(f'R.add({a.name}, R.const({floor}, "float32"))', v.dims, F32,
                         v.mag + floor, floor)


def kind_limit(g):
    return g.index_limit


# ---- broadcasting -----------------------------------------------------------
def broadcast_partner(g, v):
    """dims of a second operand broadcastable with v: a suffix of v's dims
    with some sizes set to 1."""
    k = g.rng.randint(0, len(v.dims))
    dims = list(v.dims[len(v.dims) - k:])
    for i in range(len(dims)):
        if g.rng.random() < 0.3:
            dims[i] = ("1", 1)
    if g.rng.random() < 0.15 and len(v.dims) < 4:
        dims = [("1", 1)] + list(v.dims)
    return dims


def broadcast_dims(a, b):
    ra, rb = a.dims[::-1], b.dims[::-1]
    out = []
    for i in range(max(len(ra), len(rb))):
        da = ra[i] if i < len(ra) else ("1", 1)
        db = rb[i] if i < len(rb) else ("1", 1)
        out.append(db if da == ("1", 1) else da)
    return out[::-1]


def second_operand(g, v, dtype=None):
    dtype = dtype or v.dtype
    same = [w for w in g.vals if w is not v and w.dtype == dtype and broadcastable(v, w)]
    if same and g.rng.random() < 0.5:
        return g.rng.choice(same)
    if g.rng.random() < 0.2 and dtype == F32:
        c = round(g.rng.uniform(-2, 2), 3)
        return Val(f'R.const({c}, "float32")', [], F32, abs(c), c if c > 0 else 0.0)
    return g.new_input(broadcast_partner(g, v), dtype)


def broadcastable(a, b):
    ra, rb = a.dims[::-1], b.dims[::-1]
    for i in range(min(len(ra), len(rb))):
        if ra[i] != rb[i] and ra[i] != ("1", 1) and rb[i] != ("1", 1):
            return False
    return numel(broadcast_dims(a, b)) <= MAX_ELEMS


# ---- operators: each returns the new Val or None when it does not apply ----
def op_unary(g, v):
    if v.dtype != F32:
        name = g.rng.choice(["negative", "abs"])
        return g.bind(f"R.{name}({v.name})", v.dims, v.dtype, v.mag)
    name = g.rng.choice(["relu", "negative", "abs", "tanh", "sigmoid", "exp", "gelu", "silu",
                         "erf", "log", "sqrt", "rsqrt", "clip"])
    ns = {"relu": "R.nn.", "gelu": "R.nn.", "silu": "R.nn."}.get(name, "R.")
    if name in ("log", "sqrt", "rsqrt"):
        # log is ill-conditioned near 1 (relative error 1/|log x|): keep x >= 1.5
        v = g.positive(v, 1.5 if name == "log" else 0.5)
        mag = {"log": max(abs(math.log(v.lo)), math.log(v.mag + 1)), "sqrt": math.sqrt(v.mag),
               "rsqrt": 1 / math.sqrt(v.lo)}[name]
        lo = {"log": 0.0, "sqrt": math.sqrt(v.lo), "rsqrt": 1 / math.sqrt(v.mag)}[name]
        return g.bind(f"R.{name}({v.name})", v.dims, F32, mag, lo)
    if name == "exp":
        v = g.tame(v)
        return g.bind(f"R.exp({v.name})", v.dims, F32, math.exp(v.mag), math.exp(-v.mag))
    if name == "clip":
        lo_, hi = sorted([round(g.rng.uniform(-1, 1), 2) for _ in range(2)])
        return g.bind(f"R.clip({v.name}, {lo_}, {hi})", v.dims, F32, max(abs(lo_), abs(hi)))
    mag = {"tanh": 1.0, "sigmoid": 1.0, "erf": 1.0, "relu": v.mag, "negative": v.mag, "abs": v.mag,
           "gelu": v.mag, "silu": v.mag}[name]
    lo = v.lo if name == "abs" else 0.0
    return g.bind(f"{ns}{name}({v.name})", v.dims, F32, mag, lo)


def op_binary(g, v):
    ops = ["add", "subtract", "multiply", "maximum", "minimum"]
    if v.dtype == F32:
        ops += ["divide", "power"]
    name = g.rng.choice(ops)
    if name == "multiply" or (v.dtype != F32 and name in ("add", "subtract")):
        v = g.tame(v)
        if v.dtype != F32 and v.mag > 1000:
            return None
    w = second_operand(g, v)
    if name == "divide":
        w = g.positive(w) if not w.name.startswith("R.const") else Val('R.const(1.5, "float32")', [], F32, 1.5, 1.5)
    if name == "power":
        v = g.positive(v)
        w = Val('R.const(%s, "float32")' % g.rng.choice(["0.5", "2.0", "-1.0", "1.5"]), [], F32, 2.0)
    if name == "multiply":
        w = g.tame(w)
    dims = broadcast_dims(v, w)
    if v.dtype != F32 and name == "multiply" and v.mag * w.mag > 1e6:
        return None
    mag = {"add": v.mag + w.mag, "subtract": v.mag + w.mag, "multiply": v.mag * w.mag,
           "maximum": max(v.mag, w.mag), "minimum": max(v.mag, w.mag),
           "divide": v.mag / max(w.lo, 1e-3), "power": max(v.mag, 1 / max(v.lo, 1e-3)) ** 2}[name]
    if v.dtype == F32 and mag > BIG:
        return None
    lo = min(v.lo, w.lo) if name in ("maximum", "minimum", "add") else 0.0
    return g.bind(f"R.{name}({v.name}, {w.name})", dims, v.dtype, mag, lo)


def op_where(g, v):
    w = second_operand(g, v)
    if w.name.startswith("R.const"):
        return None
    u = g.new_input(broadcast_partner(g, v), v.dtype) if g.rng.random() < 0.5 else v
    cmp = g.rng.choice(["less", "greater", "less_equal", "greater_equal", "equal", "not_equal"])
    c = g.bind(f"R.{cmp}({v.name}, {u.name})", broadcast_dims(v, u), BOOL, 1.0, keep=False)
    dims = broadcast_dims(Val("", c.dims, BOOL, 1), w)
    if numel(dims) > MAX_ELEMS:
        return None
    return g.bind(f"R.where({c.name}, {v.name}, {w.name})", broadcast_dims(
        Val("", dims, BOOL, 1), v), v.dtype, max(v.mag, w.mag))


def op_matmul(g, v):
    if len(v.dims) < 1 or v.dims[-1][0] not in [str(v.dims[-1][1])]:
        return None
    v = g.tame(v)
    if v.dtype != F32 and v.mag > 100:
        return None
    k = v.dims[-1]
    n = g.rng.choice([1, 2, 3, 4, 5, 7, 8])
    wdims = [k, (str(n), n)]
    if len(v.dims) >= 3 and g.rng.random() < 0.3:
        wdims = [v.dims[-3]] + wdims
    w = g.new_input(wdims, v.dtype)
    if len(v.dims) == 1:
        dims = [(str(n), n)]
    else:
        lead = broadcast_dims(Val("", v.dims[:-2], F32, 1), Val("", wdims[:-2], F32, 1))
        dims = lead + [v.dims[-2], (str(n), n)]
    if numel(dims) > MAX_ELEMS:
        return None
    return g.bind(f'R.matmul({v.name}, {w.name}, out_dtype="void")', dims, v.dtype,
                  v.mag * w.mag * k[1])


def op_reduce(g, v):
    if not v.dims:
        return None
    name = g.rng.choice(["sum", "mean", "max", "min"] if v.dtype == F32 else ["sum", "max", "min"])
    nax = g.rng.randint(1, len(v.dims))
    axes = sorted(g.rng.sample(range(len(v.dims)), nax))
    keep = g.rng.random() < 0.4
    dims = [(("1", 1) if i in axes else d) for i, d in enumerate(v.dims) if keep or i not in axes]
    count = math.prod(v.dims[i][1] for i in axes)
    if v.dtype != F32 and name == "sum" and v.mag * count > 1e6:
        return None
    mag = v.mag * count if name == "sum" else v.mag
    if name == "sum" and mag > BIG:
        return None
    text = ", ".join(str(a - len(v.dims) if g.rng.random() < 0.3 else a) for a in axes)
    kd = ", keepdims=True" if keep else ""
    return g.bind(f"R.{name}({v.name}, axis=[{text}]{kd})", dims, v.dtype, mag,
                  v.lo if name != "sum" else 0.0)


def op_argmax(g, v):
    if not v.dims or v.dtype != F32:
        return None
    ax = g.rng.randrange(len(v.dims))
    dims = [d for i, d in enumerate(v.dims) if i != ax]
    # ties (relu zeros, clips) could be broken differently by rounding: make values distinct
    return g.bind(f"R.argmax({v.name}, axis={ax})", dims, I64, v.dims[ax][1], keep=False)


def factor(g, total):
    """Random dims whose product is total (static)."""
    dims, rest = [], total
    for _ in range(g.rng.randint(0, 3)):
        divs = [d for d in range(1, rest + 1) if rest % d == 0]
        d = g.rng.choice(divs)
        dims.append(d)
        rest //= d
    dims.append(rest)
    g.rng.shuffle(dims)
    return [(str(d), d) for d in dims]


def op_reshape(g, v):
    if not v.static:
        if len(v.dims) >= 2 and v.dims[0][0] == g.sym[0] and all(t == str(s) for t, s in v.dims[1:]):
            rest = math.prod(s for _, s in v.dims[1:])
            dims = [(f"{g.sym[0]} * {rest}" if rest != 1 else g.sym[0], v.dims[0][1] * rest)]
            return g.bind(f"R.reshape({v.name}, R.shape([{dims[0][0]}]))", dims, v.dtype, v.mag, v.lo)
        return None
    dims = factor(g, numel(v.dims))
    text = ", ".join(t for t, _ in dims)
    if g.rng.random() < 0.3:
        i = g.rng.randrange(len(dims))
        text = ", ".join("-1" if j == i else t for j, (t, _) in enumerate(dims))
        return g.bind(f"R.reshape({v.name}, ({text},))", dims, v.dtype, v.mag, v.lo)
    return g.bind(f"R.reshape({v.name}, R.shape([{text}]))", dims, v.dtype, v.mag, v.lo)


def op_permute(g, v):
    if len(v.dims) < 2:
        return None
    axes = list(range(len(v.dims)))
    g.rng.shuffle(axes)
    return g.bind(f"R.permute_dims({v.name}, axes={axes})", [v.dims[a] for a in axes], v.dtype,
                  v.mag, v.lo)


def op_expand_squeeze(g, v):
    ones = [i for i, d in enumerate(v.dims) if d == ("1", 1)]
    if ones and g.rng.random() < 0.5:
        ax = g.rng.choice(ones)
        dims = [d for i, d in enumerate(v.dims) if i != ax]
        return g.bind(f"R.squeeze({v.name}, axis=[{ax}])", dims, v.dtype, v.mag, v.lo)
    if len(v.dims) >= 5:
        return None
    ax = g.rng.randint(0, len(v.dims))
    dims = v.dims[:ax] + [("1", 1)] + v.dims[ax:]
    return g.bind(f"R.expand_dims({v.name}, axis={ax})", dims, v.dtype, v.mag, v.lo)


def op_concat(g, v):
    if not v.dims:
        return None
    ax = g.rng.randrange(len(v.dims))
    if v.dims[ax][0] != str(v.dims[ax][1]):
        return None
    parts = [v]
    for _ in range(g.rng.randint(1, 2)):
        s = g.rng.randint(1, 4)
        dims = list(v.dims)
        dims[ax] = (str(s), s)
        parts.append(g.new_input(dims, v.dtype) if g.rng.random() < 0.7 else v)
    total = sum(p.dims[ax][1] for p in parts)
    dims = list(v.dims)
    dims[ax] = (str(total), total)
    if numel(dims) > MAX_ELEMS:
        return None
    names = ", ".join(p.name for p in parts)
    return g.bind(f"R.concat(({names}), axis={ax})", dims, v.dtype, max(p.mag for p in parts),
                  min(p.lo for p in parts))


def op_split(g, v):
    axes = [i for i, (t, s) in enumerate(v.dims) if t == str(s) and s >= 2]
    if not axes:
        return None
    ax = g.rng.choice(axes)
    size = v.dims[ax][1]
    if g.rng.random() < 0.5:
        # one section gives the tensor itself, not a tuple (TVM)
        secs = g.rng.choice([d for d in range(2, size + 1) if size % d == 0])
        bounds = [size // secs * i for i in range(secs + 1)]
        arg = str(secs)
    else:
        cut = sorted(set(g.rng.sample(range(1, size), g.rng.randint(1, min(2, size - 1)))))
        bounds = [0] + cut + [size]
        arg = str(cut)
    k = g.rng.randrange(len(bounds) - 1)
    tup = g.fresh()
    outs = []
    for i in range(len(bounds) - 1):
        d = list(v.dims)
        d[ax] = (str(bounds[i + 1] - bounds[i]), bounds[i + 1] - bounds[i])
        outs.append(Val("", d, v.dtype, v.mag).sinfo())
    g.lines.append(f"{tup}: R.Tuple({', '.join(outs)}) = "
                   f"R.split({v.name}, indices_or_sections={arg}, axis={ax})")
    d = list(v.dims)
    d[ax] = (str(bounds[k + 1] - bounds[k]), bounds[k + 1] - bounds[k])
    return g.bind(f"{tup}[{k}]", d, v.dtype, v.mag, v.lo)


def op_slice(g, v):
    axes = [i for i, (t, s) in enumerate(v.dims) if t == str(s)]
    if not axes:
        return None
    ax = g.rng.choice(axes)
    size = v.dims[ax][1]
    step = g.rng.choice([1, 1, 2, -1, 3])
    b = g.rng.randint(-size, size)
    e = g.rng.randint(-size - 2, size + 2)
    n = len(range(*slice(b, e, step).indices(size)))
    if n == 0:
        return None
    dims = list(v.dims)
    dims[ax] = (str(n), n)
    return g.bind(f"R.strided_slice({v.name}, axes=[{ax}], begin=[{b}], end=[{e}], strides=[{step}])",
                  dims, v.dtype, v.mag, v.lo)


def op_softmax(g, v):
    if not v.dims or v.dtype != F32:
        return None
    ax = g.rng.randrange(len(v.dims)) - (len(v.dims) if g.rng.random() < 0.5 else 0)
    name = g.rng.choice(["softmax", "log_softmax"])
    v = g.tame(v)
    mag = 1.0 if name == "softmax" else 2 * v.mag + math.log(numel(v.dims) + 1)
    return g.bind(f"R.nn.{name}({v.name}, axis={ax})", v.dims, F32, mag)


def op_layer_norm(g, v):
    if not v.dims or v.dtype != F32 or not v.dims[-1][0].isdigit():
        return None
    k = g.rng.randint(1, min(2, len(v.dims)))
    if any(not t.isdigit() for t, _ in v.dims[-k:]) or numel(v.dims[-k:]) < 2:
        return None
    gamma = g.new_input(v.dims[-k:])
    beta = g.new_input(v.dims[-k:])
    axes = list(range(len(v.dims) - k, len(v.dims)))
    mag = math.sqrt(numel(v.dims[-k:])) + 1
    return g.bind(f"R.nn.layer_norm({v.name}, {gamma.name}, {beta.name}, axes={axes}, epsilon=0.1)",
                  v.dims, F32, mag)


def to_nchw(g, v):
    """v as a 4-d value with static C, H, W (reshaped when it must be)."""
    if len(v.dims) == 4 and all(t.isdigit() for t, _ in v.dims[1:]) and v.dims[2][1] >= 2:
        return v
    if not v.static:
        return None
    total = numel(v.dims)
    for c in (1, 2, 3, 4):
        for h in (3, 4, 5, 6, 7, 8):
            if total % (c * h * h) == 0:
                n = total // (c * h * h)
                dims = [(str(n), n), (str(c), c), (str(h), h), (str(h), h)]
                return g.bind(f"R.reshape({v.name}, R.shape([{n}, {c}, {h}, {h}]))", dims, v.dtype,
                              v.mag, v.lo)
    return None


def conv_out(size, k, s, p0, p1, d, ceil=False):
    eff = d * (k - 1) + 1
    num = size + p0 + p1 - eff
    return (num + (s - 1 if ceil else 0)) // s + 1


def op_conv2d(g, v):
    if v.dtype != F32:
        return None
    x = to_nchw(g, v)
    if x is None:
        return None
    x = g.tame(x)
    (nt, n), (_, c), (_, h), (_, w) = x.dims
    groups = g.rng.choice([d for d in (1, 2, c) if c % d == 0])
    o = groups * g.rng.randint(1, 3)
    kh, kw = g.rng.randint(1, min(3, h)), g.rng.randint(1, min(3, w))
    s = [g.rng.randint(1, 2), g.rng.randint(1, 2)]
    d = [g.rng.randint(1, 2), 1]
    pad = [g.rng.randint(0, 1) for _ in range(4)]
    oh = conv_out(h, kh, s[0], pad[0], pad[2], d[0])
    ow = conv_out(w, kw, s[1], pad[1], pad[3], d[1])
    if oh < 1 or ow < 1:
        return None
    wt = g.new_input([(str(o), o), (str(c // groups), c // groups), (str(kh), kh), (str(kw), kw)])
    dims = [(nt, n), (str(o), o), (str(oh), oh), (str(ow), ow)]
    return g.bind(f"R.nn.conv2d({x.name}, {wt.name}, strides={s}, padding={pad}, dilation={d}, "
                  f"groups={groups})", dims, F32, x.mag * kh * kw * (c // groups))


def op_pool(g, v):
    if v.dtype != F32:
        return None
    x = to_nchw(g, v)
    if x is None:
        return None
    (nt, n), (ct, c), (_, h), (_, w) = x.dims
    name = g.rng.choice(["max_pool2d", "avg_pool2d", "adaptive_avg_pool2d"])
    if name == "adaptive_avg_pool2d":
        oh, ow = g.rng.randint(1, h), g.rng.randint(1, w)
        return g.bind(f"R.nn.adaptive_avg_pool2d({x.name}, output_size=[{oh}, {ow}])",
                      [(nt, n), (ct, c), (str(oh), oh), (str(ow), ow)], F32, x.mag)
    k = [g.rng.randint(1, min(3, h)), g.rng.randint(1, min(3, w))]
    s = [g.rng.randint(1, 2), g.rng.randint(1, 2)]
    pad = [g.rng.randint(0, min(1, k[0] - 1)), g.rng.randint(0, min(1, k[1] - 1))] * 2
    ceil = g.rng.random() < 0.3
    oh = conv_out(h, k[0], s[0], pad[0], pad[2], 1, ceil)
    ow = conv_out(w, k[1], s[1], pad[1], pad[3], 1, ceil)
    # TVM drops a last window that starts in the padding (ceil mode)
    if ceil and (oh - 1) * s[0] >= h + pad[0]:
        oh -= 1
    if ceil and (ow - 1) * s[1] >= w + pad[1]:
        ow -= 1
    extra = ""
    if name == "avg_pool2d":
        extra = f", count_include_pad={g.rng.choice(['True', 'False'])}"
    return g.bind(f"R.nn.{name}({x.name}, pool_size={k}, strides={s}, padding={pad}, "
                  f"ceil_mode={ceil}{extra})", [(nt, n), (ct, c), (str(oh), oh), (str(ow), ow)],
                  F32, x.mag)


def op_take(g, v):
    if not v.dims or not v.dims[0][0].isdigit():
        return None
    ax = g.rng.randrange(len(v.dims))
    if not v.dims[ax][0].isdigit():
        return None
    g.index_limit = v.dims[ax][1]
    k = g.rng.randint(1, 5)
    idx = g.new_input([(str(k), k)], I64, kind="index")
    dims = v.dims[:ax] + [(str(k), k)] + v.dims[ax + 1:]
    return g.bind(f"R.take({v.name}, {idx.name}, axis={ax})", dims, v.dtype, v.mag, v.lo)


def op_broadcast_to(g, v):
    if len(v.dims) >= 4:
        return None
    dims = []
    for t, s in v.dims:
        n = g.rng.choice([1, 2, 3])
        dims.append((t, s) if t != "1" else (str(n), n))
    if g.rng.random() < 0.5:
        dims = [("2", 2)] + dims
    if numel(dims) > MAX_ELEMS:
        return None
    text = ", ".join(t for t, _ in dims) + ("," if len(dims) == 1 else "")
    return g.bind(f"R.broadcast_to({v.name}, R.shape([{text.rstrip(',')}]))", dims, v.dtype, v.mag,
                  v.lo)


OPS = [(op_unary, 6), (op_binary, 6), (op_where, 1), (op_matmul, 2), (op_reduce, 2),
       (op_argmax, 0.3), (op_reshape, 2), (op_permute, 2), (op_expand_squeeze, 1),
       (op_concat, 1.5), (op_split, 1), (op_slice, 1.5), (op_softmax, 1), (op_layer_norm, 1),
       (op_conv2d, 1), (op_pool, 1), (op_take, 0.7), (op_broadcast_to, 0.7)]
INT_OPS = {op_unary, op_binary, op_where, op_matmul, op_reduce, op_reshape, op_permute,
           op_expand_squeeze, op_concat, op_split, op_slice, op_take, op_broadcast_to}


def gen_module(seed, max_ops=8):
    """(text, inputs: name -> array, upper bound or None) for seed."""
    g = Gen(seed)
    g.index_limit = 1
    if g.rng.random() < 0.4:
        bound = g.rng.choice([4, 8, 16])
        g.sym = ("n", g.rng.randint(1, bound), bound)
    if g.rng.random() < 0.15:
        g.dtype = I32
    first = g.new_input(g.random_dims(g.rng.randint(0, 4)))
    g.vals.append(first)
    if g.rng.random() < 0.5:
        g.vals.append(g.new_input(g.random_dims(g.rng.randint(1, 3))))
    ops = [(f, w) for f, w in OPS if g.dtype == F32 or f in INT_OPS]
    finals = []
    for _ in range(g.rng.randint(1, max_ops)):
        f = g.rng.choices([f for f, _ in ops], [w for _, w in ops])[0]
        v = g.pick(lambda w: w.dtype == g.dtype)
        r = f(g, v)
        if r is not None and r.dtype != g.dtype:
            finals.append(r)
    results = finals + [g.vals[-1]]
    if len(results) == 1 and len(g.vals) > 2 and g.rng.random() < 0.2:
        results.append(g.vals[g.rng.randrange(len(g.vals) - 1)])
    return render(g, results), g.inputs, (g.sym[2] if g.sym else None)


def render(g, results):
    params = ", ".join(f"{p.name}: {p.sinfo(g.sym and g.sym[0])}" for p in g.params)
    if len(results) == 1:
        ret, out = results[0].sinfo(), results[0].name
    else:
        ret = f"R.Tuple({', '.join(r.sinfo() for r in results)})"
        out = "(" + ", ".join(r.name for r in results) + ")"
    body = ["@I.ir_module", "class Module:", "    @R.function",
            f"    def main({params}) -> {ret}:"]
    if g.sym:
        body.append(f"        {g.sym[0]} = T.int64()")
        body.append(f'        R.func_attr({{"tir_var_upper_bound": {{"{g.sym[0]}": {g.sym[2]}}}}})')
    body.append("        with R.dataflow():")
    body += ["            " + line for line in g.lines]
    body.append(f"            gv = {out}")
    body.append("            R.output(gv)")
    body.append("        return gv")
    return "\n".join(body) + "\n"
