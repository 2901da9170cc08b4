"""modgen.py - random Relax modules whose shape relations are decided at run time.

gen_module(seed) builds one `main` with one dataflow block of a few ops
over parameters with *symbolic* dims (`"n"`, `"m"`, ...; each var bounded
by tir_var_upper_bound).  Each op relates dims that are different vars
(`R.add` of x:(n,) and w:(m,), `R.matmul` of x:(n, k) and w:(m, 2), a
reshape of x:(n, 4) into R.shape([m, 5]), a match_cast to (4,) or to a new
var j), so whether a call is valid depends on the sizes given at run time.
Some relations hold by construction (the same var on both sides), so runs
also compare outputs.

Key idea: the module knows, for each op, the relation it needs (a
predicate over the var values) and how to bend var values to satisfy it
(a fixer).  Module.draw_sizes() uses them to draw var values for which
the whole module is valid about half the time, and which break one chosen
relation the other half: refusals then happen at every op, not only the
first.  Module.predict() says what the module should do on given input
shapes; it is a guide for the draws and a cross-check (refuse.py -v), never
the oracle: the interpreter is.

Families (FAMILIES): binary broadcasting ops, comparisons, where, matmul,
reshape, concat, conv2d, layer_norm, batch_norm, broadcast_to, squeeze,
match_cast (static, bound var, new var, expression), and other run-time
refusals of the interpreter over symbolic dims: split, reductions that
need elements, max_pool2d windows; and the refusals that depend on data
(DATA_FAMILIES): take's indices, the indices of gather_elements,
scatter_elements, gather_nd and scatter_nd, integer division by zero.
"""
import math
import random
import re

import numpy as np

F32, BOOL, I32, I64 = "float32", "bool", "int32", "int64"
VAR_NAMES = ["n", "m", "k", "j", "h", "u", "v", "s", "t", "r", "q", "p"]
BOUNDS = [2, 3, 4, 6, 8, 16]
TAKE_INDICES = 3  # indices (take, gather) are drawn in [-TAKE_INDICES, TAKE_INDICES)
VAR_RE = re.compile(r"[a-z]\w*")


class Dim:
    """One dimension: its TVMScript text when it has one (a literal `4`,
    a var `n`, an expression `n * 2`), else None (a broadcast result, a
    concat sum), and how to compute its size from the var values."""

    def __init__(self, text, fn=None):
        self.text = text
        self.fn = fn
        self.code = compile(text, "<dim>", "eval") if fn is None else None

    def size(self, env):
        if self.fn is not None:
            return self.fn(env)
        return eval(self.code, {}, env)  # texts are ours: ints, vars, * and //

    @property
    def var(self):
        """The var name when the dim is a lone var, else None."""
        return self.text if self.text and VAR_RE.fullmatch(self.text) else None

    @property
    def literal(self):
        return int(self.text) if self.text and self.text.isdigit() else None

    def vars(self):
        return VAR_RE.findall(self.text or "")


def lit(v):
    return Dim(str(v))


class Val:
    """A value of main: name, dims, dtype; params also carry how their
    data is drawn (kind: normal in [-1, 1], pos in [0.5, 1.5], small in
    {-1, 0, 1}, bool, index (take), int, divisor (int32, a 0 now and then))."""

    def __init__(self, name, dims, dtype=F32, kind=None):
        self.name, self.dims, self.dtype, self.kind = name, list(dims), dtype, kind

    def sinfo(self, quote):
        parts = []
        for d in self.dims:
            parts.append(f'"{d.text}"' if quote and not d.text.isdigit() else d.text)
        inner = ", ".join(parts) + ("," if len(parts) == 1 else "")
        return f'R.Tensor(({inner}), dtype="{self.dtype}")'


class Step:
    """One op's run-time relation: pred(env) -> bool (may bind vars of a
    match_cast into env), fix(env, rng) bends free vars toward pred."""

    def __init__(self, family, pred, fix=None):
        self.family, self.pred, self.fix = family, pred, fix or (lambda env, rng: None)


def bcast_ok(*sizes):
    big = {s for s in sizes if s != 1}
    return len(big) <= 1


class Module:
    """One generated module: its parameters and bindings (text()), the
    relation of each op (steps), and the draws of sizes and inputs, all
    from one seed."""

    def __init__(self, seed, families=None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.bounds = {}        # var -> tir_var_upper_bound
        self.sig_vars = []      # vars bound by the signature (free: the draws choose them)
        self.body_vars = []     # vars bound by a match_cast
        self.params, self.lines, self.vals, self.steps = [], [], [], []
        self.used = set()       # names of values some op reads
        self.count = 0
        self.sum32 = False      # a float32 sum (matmul, conv2d, sum, mean): looser tolerance
        self.families_used = []
        self.families = families
        self.prefer = None      # a match_cast var the next R.shape target should use
        self.dead = set()       # results left out of the return: the op still runs (and may refuse)

    # ---- vars, params, bindings -----------------------------------------
    def fresh_var(self, bound=None):
        free = [v for v in VAR_NAMES if v not in self.bounds]
        if not free:
            return None
        v = free[0]
        self.bounds[v] = bound or self.rng.choice(BOUNDS)
        return v

    def defined_vars(self):
        return self.sig_vars + self.body_vars

    def new_param(self, dims, kind="normal", dtype=F32):
        for d in dims:
            if d.var and d.var not in self.sig_vars and d.var not in self.body_vars:
                self.sig_vars.append(d.var)
        p = Val(f"x{len(self.params)}", dims, dtype, kind)
        self.params.append(p)
        return p

    def bind(self, expr, dims, dtype=F32, keep=True):
        self.count += 1
        v = Val(f"lv{self.count}", dims, dtype)
        self.lines.append(f"{v.name} = {expr}")
        for name in VAR_RE.findall(expr):
            self.used.add(name)
        if keep:
            self.vals.append(v)
        return v

    def step(self, family, pred, fix=None):
        self.steps.append(Step(family, pred, fix))

    # ---- dims --------------------------------------------------------------
    def var_dim(self, bound=None):
        """A signature var: an existing one or a fresh one."""
        if self.sig_vars and self.rng.random() < 0.4:
            return Dim(self.rng.choice(self.sig_vars))
        v = self.fresh_var(bound)
        return Dim(v) if v else Dim(self.rng.choice(self.sig_vars))

    def random_dim(self, bound=None):
        if self.rng.random() < 0.75:
            return self.var_dim(bound)
        return lit(self.rng.choice([1, 2, 3, 4]))

    def random_dims(self, rank):
        return [self.random_dim() for _ in range(rank)]

    def related(self, d, modes):
        """A dim for a new parameter at a position that relates to d:
        modes weighs same (d itself), fresh (a new var), other (another
        var), one (1), lit (a literal), expr (var * 2)."""
        names = list(modes)
        mode = self.rng.choices(names, [modes[k] for k in names])[0]
        if mode == "same" and d.text and all(v in self.sig_vars for v in d.vars()):
            return d
        if mode == "other":
            others = [v for v in self.sig_vars if v != d.var]
            if others:
                return Dim(self.rng.choice(others))
        if mode == "one":
            return lit(1)
        if mode == "lit":  # a literal against a literal: mostly the same (else a static error)
            if d.literal is not None and self.rng.random() < 0.92:
                return d
            return lit(self.rng.choice([2, 3, 4]))
        if mode == "expr" and self.sig_vars:
            return Dim(f"{self.rng.choice(self.sig_vars)} * {self.rng.choice([2, 3])}")
        return self.var_dim()

    def operand(self, lo=1, hi=3, kind="normal", prefer_existing=0.6):
        """An existing float value of rank lo..hi (recent ones first), or a
        new parameter."""
        cands = [v for v in self.vals if v.dtype == F32 and lo <= len(v.dims) <= hi]
        if cands and self.rng.random() < prefer_existing and kind == "normal":
            return cands[-1 - min(int(self.rng.expovariate(0.8)), len(cands) - 1)]
        return self.new_param(self.random_dims(self.rng.randint(max(lo, 1), hi)), kind)

    # ---- solving: bend free vars so that a dim takes a size --------------
    def solve(self, env, d, want):
        """Sets free vars of d so that d.size(env) == want when it can."""
        if want is None or want < 0 or d.text is None:
            return False
        free = [v for v in d.vars() if v in self.sig_vars]
        if not free:
            return False
        self.rng.shuffle(free)
        for v in free:
            for cand in range(0, min(want, self.bounds[v]) + 1):
                trial = dict(env, **{v: cand})
                try:
                    if d.size(trial) == want:
                        env[v] = cand
                        return True
                except (ZeroDivisionError, KeyError):
                    return False
        return False

    def make_equal(self, env, a, b):
        try:
            sa, sb = a.size(env), b.size(env)
        except (KeyError, ZeroDivisionError):
            return
        if sa == sb:
            return
        pair = [(a, sb), (b, sa)]
        self.rng.shuffle(pair)
        for d, want in pair:
            if self.solve(env, d, want):
                return

    def make_bcast(self, env, dims):
        dims = [d for d in dims]
        if self.rng.random() < 0.3:
            d = self.rng.choice(dims)
            if self.solve(env, d, 1):
                return
        for a, b in zip(dims, dims[1:]):
            try:
                if b.size(env) == 1 and self.rng.random() < 0.5:
                    continue
            except (KeyError, ZeroDivisionError):
                return
            self.make_equal(env, b, a)

    # ---- generation ----------------------------------------------------------
    def generate(self, max_ops=4):
        nops = self.rng.randint(1, max_ops)
        tries = 0
        while len(self.families_used) < nops and tries < 40:
            tries += 1
            fams = [(f, w) for f, w in FAMILIES.items() if not self.families or f in self.families]
            name = self.rng.choices([f for f, _ in fams], [w for _, w in fams])[0]
            if OPS[name](self) is not None:
                self.families_used.append(name)
        leaves = self.results()
        if len(leaves) >= 2 and self.rng.random() < 0.2:
            self.dead.add(self.rng.choice(leaves).name)

    def results(self):
        return [v for v in self.vals if v.name not in self.used and v.name not in self.dead]

    def text(self):
        params = ", ".join(f"{p.name}: {p.sinfo(True)}" for p in self.params)
        res = self.results()
        out = res[0].name if len(res) == 1 else "(" + ", ".join(r.name for r in res) + ")"
        body = ["@I.ir_module", "class Module:", "    @R.function", f"    def main({params}):"]
        for v in self.sig_vars + self.body_vars:
            body.append(f"        {v} = T.int64()")
        bounds = ", ".join(f'"{v}": {self.bounds[v]}' for v in self.sig_vars + self.body_vars)
        body.append(f'        R.func_attr({{"tir_var_upper_bound": {{{bounds}}}}})')
        body.append("        with R.dataflow():")
        body += ["            " + line for line in self.lines]
        body += [f"            gv = {out}", "            R.output(gv)", "        return gv"]
        dead = f" (unused: {', '.join(sorted(self.dead))})" if self.dead else ""
        header = f"# refuse.py seed {self.seed}: {', '.join(self.families_used)}{dead}\n"
        return header + "\n".join(body) + "\n"

    @property
    def multi(self):
        return len(self.results()) > 1

    # ---- sizes and inputs ------------------------------------------------
    def shapes(self, env):
        return {p.name: tuple(d.size(env) for d in p.dims) for p in self.params}

    def predict(self, shapes, data=None):
        """(True, None) when the module should run on inputs of these
        shapes (and data, for the relations that read it: take's indices,
        integer divisors), else (False, why): the signature, a bound or a
        family."""
        env = {} if data is None else {"@data": data}
        for p in self.params:
            shape = shapes[p.name]
            for d, s in zip(p.dims, shape):
                if d.var and d.var not in env:
                    env[d.var] = s
                elif d.size(env) != s:
                    return False, "signature"
        for v in self.sig_vars:
            if env[v] > self.bounds[v]:
                return False, "bound"
        for st in self.steps:
            try:
                if not st.pred(env):
                    return False, st.family
            except (KeyError, ZeroDivisionError):
                return False, st.family
        return True, None

    def random_size(self, v, env):
        r, b = self.rng.random(), self.bounds[v]
        if r < 0.25 and env:
            return self.rng.choice(list(env.values()))
        if r < 0.40:
            return 1
        if r < 0.45:
            return 0
        if r < 0.475:
            return b + self.rng.randint(1, 2)
        return self.rng.randint(1, b)

    def candidate(self, keep_all, skip):
        env = {}
        for v in self.sig_vars:
            env[v] = self.random_size(v, env)
        for _ in range(3):
            trial = dict(env)
            for i, st in enumerate(self.steps):
                try:  # pred first: it binds match_cast vars for the steps after it
                    if not st.pred(trial) and (i != skip or keep_all):
                        st.fix(trial, self.rng)
                        st.pred(trial)
                except (KeyError, ZeroDivisionError):
                    pass
            env = {v: trial[v] for v in self.sig_vars}
        for v in self.sig_vars:  # fixers may solve past a bound; mostly keep within it
            if env[v] > self.bounds[v] + 2 or (env[v] > self.bounds[v] and self.rng.random() < 0.85):
                env[v] = self.rng.randint(0, self.bounds[v])
        return env

    def draw_sizes(self, count):
        """count var assignments (dicts), 60% of them aimed at a valid module,
        the others at one broken relation; distinct where possible."""
        out, seen = [], set()
        for i in range(count):
            want_valid = self.rng.random() < 0.6
            skip = self.rng.randrange(len(self.steps)) if self.steps else -1
            best = None
            for _ in range(30):
                env = self.candidate(want_valid, skip)
                key = tuple(sorted(env.items()))
                if key in seen:
                    continue
                best = env
                if self.predict(self.shapes(env))[0] == want_valid:
                    break
            if best is None:
                continue
            seen.add(tuple(sorted(best.items())))
            out.append(best)
        return out

    def inputs(self, env, perturb=False):
        """Input arrays for var values env; perturb changes one dim of one
        parameter by one (a signature the module should refuse, mostly)."""
        shapes = self.shapes(env)
        if perturb and self.params:
            p = self.rng.choice(self.params)
            if shapes[p.name]:
                s = list(shapes[p.name])
                i = self.rng.randrange(len(s))
                s[i] = max(0, s[i] + self.rng.choice([-1, 1]))
                shapes[p.name] = tuple(s)
        arrays = {}
        for p in self.params:
            shape = shapes[p.name]
            if p.kind == "bool":
                a = self.np_rng.random(shape) < 0.5
            elif p.kind == "index":
                a = self.np_rng.integers(-TAKE_INDICES, TAKE_INDICES, shape).astype(np.dtype(p.dtype))
            elif p.kind == "pos":
                a = self.np_rng.uniform(0.5, 1.5, shape).astype(np.float32)
            elif p.kind == "int":
                a = self.np_rng.integers(-5, 6, shape).astype(np.int32)
            elif p.kind == "divisor":  # now and then a zero somewhere
                a = self.np_rng.choice(np.array([-2, -1, 1, 2, 3], np.int32), shape)
                if a.size and self.rng.random() < 0.3:
                    a.flat[self.rng.randrange(a.size)] = 0
            elif p.kind == "small":
                a = self.np_rng.integers(-1, 2, shape).astype(np.float32)
            else:
                a = self.np_rng.uniform(-1, 1, shape).astype(np.float32)
            arrays[p.name] = a
        return arrays, shapes


# ---- families: each adds bindings and steps, returns the result or None --
BCAST = {"same": 0.35, "fresh": 0.2, "other": 0.15, "one": 0.15, "lit": 0.1, "expr": 0.05}
EQUAL = {"same": 0.45, "fresh": 0.25, "other": 0.15, "lit": 0.1, "expr": 0.05}


def partner_dims(g, dims, modes=BCAST):
    """Dims of a broadcasting partner: related to dims (right aligned),
    one rank fewer, the same or one more."""
    r = max(0, min(3, len(dims) + g.rng.choice([-1, 0, 0, 0, 1])))
    out = []
    for i in range(r):
        j = len(dims) - r + i
        out.append(g.related(dims[j], modes) if j >= 0 else g.random_dim())
    return out


def bcast_result(dim_lists):
    """The broadcast dims of several right-aligned dim lists, and the
    right-aligned columns (for the relation)."""
    r = max(len(d) for d in dim_lists)
    cols, out = [], []
    for i in range(r):
        col = [d[len(d) - r + i] for d in dim_lists if len(d) - r + i >= 0]
        cols.append(col)
        texts = {d.text for d in col if d.text != "1"}
        if len(texts) == 0:
            out.append(lit(1))
        elif len(texts) == 1 and None not in texts:
            out.append(Dim(texts.pop()))
        else:
            out.append(Dim(None, lambda env, c=col: max([d.size(env) for d in c if d.size(env) != 1] or [1])))
    return out, cols


def bcast_step(g, family, cols):
    cols = [c for c in cols if len(c) > 1]
    g.step(family, lambda env: all(bcast_ok(*[d.size(env) for d in c]) for c in cols),
           lambda env, rng: [g.make_bcast(env, c) for c in cols])


def op_binary(g):
    name = g.rng.choice(["add", "subtract", "multiply", "divide", "maximum", "minimum", "power"])
    if name == "power":  # both new: a positive base
        a = g.new_param(g.random_dims(g.rng.randint(1, 3)), "pos")
        b = g.new_param(partner_dims(g, a.dims), "small")
    else:
        a = g.operand()
        b = g.new_param(partner_dims(g, a.dims), "pos" if name == "divide" else "normal")
    x, y = (b, a) if name not in ("divide", "power") and g.rng.random() < 0.3 else (a, b)
    dims, cols = bcast_result([x.dims, y.dims])
    bcast_step(g, "binary", cols)
    return g.bind(f"R.{name}({x.name}, {y.name})", dims)


def op_compare(g):
    name = g.rng.choice(["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
    params = [p for p in g.params if p.dtype == F32]
    a = g.rng.choice(params) if params and g.rng.random() < 0.5 else \
        g.new_param(g.random_dims(g.rng.randint(1, 3)), "small")
    b = g.new_param(partner_dims(g, a.dims), "small")
    dims, cols = bcast_result([a.dims, b.dims])
    bcast_step(g, "compare", cols)
    return g.bind(f"R.{name}({a.name}, {b.name})", dims, BOOL)


def op_where(g):
    a = g.operand()
    c = g.new_param(partner_dims(g, a.dims), "bool", BOOL)
    b = g.new_param(partner_dims(g, a.dims))
    dims, cols = bcast_result([c.dims, a.dims, b.dims])
    bcast_step(g, "where", cols)
    x, y = (a, b) if g.rng.random() < 0.5 else (b, a)
    return g.bind(f"R.where({c.name}, {x.name}, {y.name})", dims)


def op_matmul(g):
    a = g.operand(1, 3)
    rb = g.rng.choice([1, 2, 2, 3, 3] if len(a.dims) == 3 else [1, 2, 2, 2, 3])  # batch dims broadcast
    ka = a.dims[-1]
    kb = g.related(ka, EQUAL)
    if rb == 1:
        bdims = [kb]
    else:
        bdims = [kb, g.random_dim()]
        if rb == 3:
            lead = a.dims[:-2]
            bdims = [g.related(lead[-1], BCAST) if lead else g.random_dim()] + bdims
    b = g.new_param(bdims)
    lead_a, lead_b = a.dims[:-2], bdims[:-2]
    lead, cols = bcast_result([lead_a, lead_b]) if lead_a or lead_b else ([], [])
    dims = lead + (a.dims[-2:-1] if len(a.dims) >= 2 else []) + (bdims[-1:] if rb >= 2 else [])
    cols = [c for c in cols if len(c) > 1]
    g.step("matmul", lambda env: ka.size(env) == kb.size(env)
           and all(bcast_ok(*[d.size(env) for d in c]) for c in cols),
           lambda env, rng: (g.make_equal(env, ka, kb), [g.make_bcast(env, c) for c in cols]))
    g.sum32 = True
    return g.bind(f"R.matmul({a.name}, {b.name})", dims)


def numel_dim(dims):
    return lambda env: math.prod(d.size(env) for d in dims)


def product_text(dims):
    """`a * b` text for a product of dims with texts (literals folded)."""
    lits = math.prod(d.literal for d in dims if d.literal is not None)
    others = [d.text if d.var else f"({d.text})" for d in dims if d.literal is None]
    if not others:
        return str(lits)
    return " * ".join(others + ([str(lits)] if lits != 1 else []))


def shape_dim(g):
    """A dim for an R.shape target: a defined var, a literal, var * c."""
    r = g.rng.random()
    defined = g.defined_vars()
    if g.prefer and r < 0.7:
        return Dim(g.prefer)
    if defined and r < 0.5:
        return Dim(g.rng.choice(defined))
    if defined and r < 0.65:
        return Dim(f"{g.rng.choice(defined)} * {g.rng.choice([2, 3])}")
    return lit(g.rng.choice([1, 2, 3, 4, 5, 6]))


def op_reshape(g):
    a = g.operand(1, 3)
    count = numel_dim(a.dims)
    mode = g.rng.choice(["construct", "vars", "vars", "neg"])
    if mode == "construct" and all(d.text for d in a.dims):
        dims = list(a.dims)
        g.rng.shuffle(dims)
        if len(dims) >= 2 and g.rng.random() < 0.6:
            i = g.rng.randrange(len(dims) - 1)
            dims[i:i + 2] = [Dim(product_text(dims[i:i + 2]))]
        target = dims
    else:
        target = [shape_dim(g) for _ in range(g.rng.randint(1, 3))]
    if mode == "neg":
        i = g.rng.randrange(len(target))
        rest = target[:i] + target[i + 1:]
        fn = lambda env, rest=rest: count(env) // max(1, numel_dim(rest)(env))
        out = target[:i] + [Dim(None, fn)] + target[i + 1:]
        text = ", ".join("-1" if j == i else d.text for j, d in enumerate(target))
        def fix_neg(env, rng):
            c = count(env)
            divs = [k for k in range(1, c + 1) if c % k == 0] or [1]
            g.solve(env, Dim(product_text(rest)) if rest else lit(1), rng.choice(divs))

        g.step("reshape", lambda env: numel_dim(rest)(env) > 0 and count(env) % numel_dim(rest)(env) == 0,
               fix_neg)
        return g.bind(f"R.reshape({a.name}, R.shape([{text}]))", out)
    tgt = Dim(product_text(target))
    src = Dim(product_text(a.dims)) if all(d.text for d in a.dims) else None

    def fix(env, rng):
        if src is None or rng.random() < 0.5:
            g.solve(env, tgt, count(env)) or (src and g.solve(env, src, tgt.size(env)))
        else:
            g.solve(env, src, tgt.size(env)) or g.solve(env, tgt, count(env))

    g.step("reshape", lambda env: count(env) == numel_dim(target)(env), fix)
    return g.bind(f"R.reshape({a.name}, R.shape([{', '.join(d.text for d in target)}]))", target)


def op_concat(g):
    a = g.operand(1, 3)
    ax = g.rng.randrange(len(a.dims))
    parts = [a]
    for _ in range(g.rng.randint(1, 2)):
        dims = [g.random_dim() if i == ax else g.related(d, EQUAL) for i, d in enumerate(a.dims)]
        parts.append(g.new_param(dims))
    g.rng.shuffle(parts)
    pairs = [(parts[0].dims[i], p.dims[i]) for p in parts[1:] for i in range(len(a.dims)) if i != ax]
    g.step("concat", lambda env: all(x.size(env) == y.size(env) for x, y in pairs),
           lambda env, rng: [g.make_equal(env, x, y) for x, y in pairs])
    dims = list(parts[0].dims)
    dims[ax] = Dim(None, lambda env: sum(p.dims[ax].size(env) for p in parts))
    neg = g.rng.random() < 0.3
    axis = ax - len(a.dims) if neg else ax
    return g.bind(f"R.concat(({', '.join(p.name for p in parts)}), axis={axis})", dims)


def conv_out(size, k, s, p, d=1):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def op_conv2d(g):
    groups = g.rng.choice([1, 1, 2])
    n = g.rng.choice([lit(1), lit(2), g.var_dim(3)])
    c = g.var_dim(6) if g.rng.random() < 0.7 else lit(groups * g.rng.randint(1, 3))
    h = g.var_dim(8) if g.rng.random() < 0.6 else lit(g.rng.randint(3, 6))
    w = g.var_dim(8) if g.rng.random() < 0.4 else lit(g.rng.randint(3, 6))
    kh, kw = g.rng.randint(1, 3), g.rng.randint(1, 3)
    s, p = g.rng.randint(1, 2), g.rng.randint(0, 1)
    o = lit(groups * g.rng.randint(1, 2)) if g.rng.random() < 0.8 else g.var_dim(6)
    if groups == 1:
        ci = g.related(c, EQUAL)
    else:
        ci = g.var_dim(4) if g.rng.random() < 0.7 else lit(g.rng.randint(1, 3))
    if groups > 1 and ci.var and g.rng.random() < 0.4:  # data channels `k * 2`: valid by construction
        weight = g.new_param([o, ci, lit(kh), lit(kw)])
        c = Dim(f"{ci.var} * {groups}")
        data = g.new_param([n, c, h, w])
    else:
        data = g.new_param([n, c, h, w])
        weight = g.new_param([o, ci, lit(kh), lit(kw)])

    def pred(env):
        return (c.size(env) == ci.size(env) * groups and o.size(env) % groups == 0
                and conv_out(h.size(env), kh, s, p) >= 0 and conv_out(w.size(env), kw, s, p) >= 0)

    def fix(env, rng):
        g.solve(env, c, ci.size(env) * groups) or g.solve(env, ci, c.size(env) // groups)
        if o.size(env) % groups:
            g.solve(env, o, groups)
        for d, k in ((h, kh), (w, kw)):
            if conv_out(d.size(env), k, s, p) < 0:
                g.solve(env, d, k + rng.randint(0, 2))

    g.step("conv2d", pred, fix)
    g.sum32 = True
    dims = [n, o, Dim(None, lambda env: conv_out(h.size(env), kh, s, p)),
            Dim(None, lambda env: conv_out(w.size(env), kw, s, p))]
    return g.bind(f"R.nn.conv2d({data.name}, {weight.name}, strides=[{s}, {s}], padding=[{p}, {p}], "
                  f"groups={groups})", dims)


def op_layer_norm(g):
    x = g.operand(1, 3)
    k = g.rng.randint(1, min(2, len(x.dims)))
    norm = x.dims[-k:]
    gdims = [g.related(d, EQUAL) for d in norm]
    bdims = gdims if g.rng.random() < 0.7 else [g.related(d, EQUAL) for d in norm]
    gamma, beta = g.new_param(gdims), g.new_param(bdims)
    pairs = list(zip(norm, gdims)) + list(zip(norm, bdims))
    g.step("layer_norm", lambda env: all(a.size(env) == b.size(env) for a, b in pairs),
           lambda env, rng: [g.make_equal(env, a, b) for a, b in pairs])
    axes = list(range(len(x.dims) - k, len(x.dims)))
    if g.rng.random() < 0.5:
        axes = [a - len(x.dims) for a in axes]
    return g.bind(f"R.nn.layer_norm({x.name}, {gamma.name}, {beta.name}, axes={axes})", x.dims)


def op_batch_norm(g):
    x = g.operand(2, 3)
    axis = g.rng.choice([1, -1]) if len(x.dims) > 2 else 1
    d = x.dims[axis]
    shared = g.related(d, EQUAL)
    dims = [shared if g.rng.random() < 0.75 else g.related(d, EQUAL) for _ in range(4)]
    ps = [g.new_param([dd], "pos" if i == 3 else "normal") for i, dd in enumerate(dims)]
    g.step("batch_norm", lambda env: all(dd.size(env) == d.size(env) for dd in dims),
           lambda env, rng: [g.make_equal(env, d, dd) for dd in dims])
    t = g.bind(f"R.nn.batch_norm({x.name}, {', '.join(p.name for p in ps)}, axis={axis}, training=False)",
               [], keep=False)
    return g.bind(f"{t.name}[0]", x.dims)


def op_broadcast_to(g):
    a = g.operand(1, 3)
    extra = g.rng.choice([0, 0, 1])
    target = [shape_dim(g) for _ in range(extra)]
    pairs = []
    for d in a.dims:
        r = g.rng.random()
        if d.text and (r < 0.4 or d.literal == 1) and all(v in g.defined_vars() for v in d.vars()):
            t = d if d.literal != 1 else shape_dim(g)
        else:
            t = shape_dim(g)
        target.append(t)
        if t is not d:
            pairs.append((d, t))
    if len(target) > 4:
        return None

    def fix(env, rng):
        for d, t in pairs:
            if rng.random() < 0.3 and g.solve(env, d, 1):
                continue
            g.make_equal(env, d, t)

    g.step("broadcast_to", lambda env: all(d.size(env) in (1, t.size(env)) for d, t in pairs), fix)
    text = ", ".join(t.text for t in target)
    return g.bind(f"R.broadcast_to({a.name}, R.shape([{text}]))", target)


def op_squeeze(g):
    symbolic = lambda d: d.text is not None and d.literal is None
    cands = [v for v in g.vals if v.dtype == F32 and any(symbolic(d) for d in v.dims)]
    if cands and g.rng.random() < 0.5:
        a = g.rng.choice(cands)
    else:
        a = g.new_param(g.random_dims(g.rng.randint(1, 3)))
    axes = [i for i, d in enumerate(a.dims) if symbolic(d)]
    if not axes:
        return None
    ax = g.rng.choice(axes)
    d = a.dims[ax]
    g.step("squeeze", lambda env: d.size(env) == 1, lambda env, rng: g.solve(env, d, 1))
    axis = ax - len(a.dims) if g.rng.random() < 0.3 else ax
    return g.bind(f"R.squeeze({a.name}, axis=[{axis}])", a.dims[:ax] + a.dims[ax + 1:])


def op_match_cast(g):
    a = g.operand(1, 3)
    kind = g.rng.choice(["static", "bound", "new", "new", "expr"])
    target, binds, new, at = [], [], None, -1
    for i, d in enumerate(a.dims):
        ok_same = d.text and all(v in g.defined_vars() for v in d.vars())
        if kind == "new" and new is not None and g.rng.random() < 0.4:
            t = Dim(new) if g.rng.random() < 0.7 else Dim(f"{new} * 2")  # bound just before: a check
        elif kind == "static":
            t = d if d.literal is not None else lit(g.rng.choice([1, 2, 3, 4]))
        elif kind == "bound" and g.defined_vars():
            t = Dim(g.rng.choice(g.defined_vars())) if g.rng.random() < 0.7 or not ok_same else d
        elif kind == "new" and new is None:
            new = g.fresh_var()
            if new is None:
                return None
            t, at = Dim(new), i
            binds.append((new, d))
        elif kind == "expr" and g.defined_vars():
            t = Dim(f"{g.rng.choice(g.defined_vars())} * {g.rng.choice([2, 3])}")
        else:
            t = d if ok_same and g.rng.random() < 0.6 else lit(g.rng.choice([1, 2, 3]))
        target.append(t)
    if kind == "new" and new is None:
        return None
    if new:
        g.body_vars.append(new)
    checks = [(d, t) for i, (d, t) in enumerate(zip(a.dims, target)) if i != at]

    def pred(env):
        for v, d in binds:
            env[v] = d.size(env)
        return all(d.size(env) == t.size(env) for d, t in checks)

    def fix(env, rng):
        for d, t in checks:
            g.make_equal(env, d, t)

    g.step("match_cast", pred, fix)
    tv = Val("", target)
    r = g.bind(f"R.match_cast({a.name}, {tv.sinfo(False)})", target)
    if new and g.rng.random() < 0.7:  # use the new var where its value matters
        use = g.rng.choice(["reshape", "broadcast_to", "match_cast_to", "binary_with"])
        g.prefer = new
        if (op_match_cast_to(g, new) if use == "match_cast_to" else op_binary_with(g, new)
                if use == "binary_with" else OPS[use](g)) is not None:
            g.families_used.append(use)
        g.prefer = None
    return r


def op_match_cast_to(g, var):
    """A second match_cast to the var a first one bound: a check."""
    b = g.new_param([g.var_dim()])
    d = b.dims[0]
    g.step("match_cast", lambda env: d.size(env) == env[var],
           lambda env, rng: g.solve(env, d, env.get(var)))
    return g.bind(f'R.match_cast({b.name}, R.Tensor(({var},), dtype="float32"))', [Dim(var)])


def op_binary_with(g, var):
    """An add of a value shaped by a match_cast var and a new parameter."""
    mine = [v for v in g.vals if v.dtype == F32 and any(d.text == var for d in v.dims)]
    if not mine:
        return None
    a = mine[-1]
    b = g.new_param(partner_dims(g, a.dims))
    dims, cols = bcast_result([a.dims, b.dims])
    bcast_step(g, "binary", cols)
    return g.bind(f"R.add({a.name}, {b.name})", dims)


def op_split(g):
    a = g.new_param(g.random_dims(g.rng.randint(1, 3)))
    axes = [i for i, d in enumerate(a.dims) if d.literal is None]
    if not axes:
        return None
    ax = g.rng.choice(axes)
    d, sec = a.dims[ax], g.rng.choice([2, 3])

    def piece(env):
        n = d.size(env)
        return (n + sec - 1) // sec

    g.step("split", lambda env: d.size(env) - piece(env) * (sec - 1) >= 0,
           lambda env, rng: g.solve(env, d, sec * rng.randint(1, 3)))
    t = g.bind(f"R.split({a.name}, indices_or_sections={sec}, axis={ax})", [], keep=False)
    k = g.rng.randrange(sec)
    dims = list(a.dims)
    dims[ax] = Dim(None, piece) if k < sec - 1 else \
        Dim(None, lambda env: d.size(env) - piece(env) * (sec - 1))
    return g.bind(f"{t.name}[{k}]", dims)


def symbolic_axis(g):
    """An operand of rank 1 to 3 and one of its symbolic axes, or None."""
    a = g.operand(1, 3)
    axes = [i for i, d in enumerate(a.dims) if d.literal is None]
    if not axes:
        return None
    ax = g.rng.choice(axes)
    return a, ax, a.dims[ax]


def op_reduce(g):
    picked = symbolic_axis(g)
    if not picked:
        return None
    a, ax, d = picked
    name = g.rng.choice(["max", "min", "argmax", "mean", "sum"])
    needs = name != "sum"  # the interpreter refuses an empty max, min, argmax, mean
    g.step("reduce", lambda env: not needs or d.size(env) > 0,
           lambda env, rng: g.solve(env, d, rng.randint(1, 3)) if d.size(env) == 0 else None)
    dims = a.dims[:ax] + a.dims[ax + 1:]
    g.sum32 = g.sum32 or name in ("sum", "mean")  # the C accumulates in float32 too
    if name == "argmax":
        return g.bind(f"R.argmax({a.name}, axis={ax})", dims, I64)
    return g.bind(f"R.{name}({a.name}, axis=[{ax}])", dims)


def op_pool(g):
    n = g.rng.choice([lit(1), g.var_dim(3)])
    c = g.random_dim(4)
    h, w = g.var_dim(8), (g.var_dim(8) if g.rng.random() < 0.5 else lit(g.rng.randint(2, 5)))
    k, s = g.rng.randint(2, 3), g.rng.randint(1, 2)
    x = g.new_param([n, c, h, w])
    g.step("pool", lambda env: conv_out(h.size(env), k, s, 0) >= 0 and conv_out(w.size(env), k, s, 0) >= 0,
           lambda env, rng: [g.solve(env, d, k + rng.randint(0, 2)) for d in (h, w) if d.size(env) < k])
    dims = [n, c, Dim(None, lambda env: (h.size(env) - k) // s + 1),
            Dim(None, lambda env: (w.size(env) - k) // s + 1)]
    return g.bind(f"R.nn.max_pool2d({x.name}, pool_size=[{k}, {k}], strides=[{s}, {s}])", dims)


def op_intdiv(g):
    """Integer division: besides broadcasting, the interpreter refuses a zero
    divisor (data the entry would have to scan)."""
    name = g.rng.choice(["floor_divide", "divide"])
    a = g.new_param(g.random_dims(g.rng.randint(1, 3)), "int", I32)
    b = g.new_param(partner_dims(g, a.dims), "divisor", I32)
    dims, cols = bcast_result([a.dims, b.dims])
    bcast_step(g, "intdiv", cols)

    def nonzero(env):
        data = env.get("@data")
        return data is None or math.prod(d.size(env) for d in dims) == 0 or bool(np.all(data[b.name]))

    g.step("intdiv", nonzero)
    return g.bind(f"R.{name}({a.name}, {b.name})", dims, I32)


def op_take(g):
    picked = symbolic_axis(g)
    if not picked:
        return None
    a, ax, d = picked
    idx = g.new_param([g.random_dim()], "index", I64)
    e = idx.dims[0]
    g.step("take", indices_in(idx, d, lambda env: True), widen(g, d))
    dims = a.dims[:ax] + [e] + a.dims[ax + 1:]
    return g.bind(f"R.take({a.name}, {idx.name}, axis={ax})", dims)


def indices_in(idx, d, live):
    """The relation of indices idx into an axis of size d: each in [-d, d)
    (a negative one counts from the end), checked only where live(env)
    (the kernel resolves them: not when the rows they index are empty)."""
    def pred(env):
        data = env.get("@data")
        if not live(env):
            return True
        if data is None:
            return math.prod(x.size(env) for x in idx.dims) == 0 or d.size(env) >= TAKE_INDICES
        x, n = data[idx.name], d.size(env)
        return x.size == 0 or (int(x.min()) >= -n and int(x.max()) < n)
    return pred


def widen(g, d):
    """The fixer of indices_in: an axis long enough for every index drawn."""
    return lambda env, rng: g.solve(env, d, TAKE_INDICES + rng.randint(0, 2)) if d.size(env) < TAKE_INDICES else None


def op_gather(g):
    """gather_elements, scatter_elements (indices of data's rank, along an
    axis of symbolic size), gather_nd, scatter_nd (indices (e, 1) into
    dim 0): the interpreter refuses an index outside [-n, n) that the
    kernel resolves; the nd ones resolve none when data's other dims hold
    no element."""
    name = g.rng.choice(["gather_elements", "scatter_elements", "gather_nd", "scatter_nd"])
    rank, d = g.rng.randint(1, 3), g.var_dim()
    if name.endswith("_nd"):
        rest = g.random_dims(rank - 1)
        a = g.new_param([d] + rest)
        e = g.random_dim()
        idx = g.new_param([e, lit(1)], "index", I64)
        g.step("gather", indices_in(idx, d, lambda env: math.prod(x.size(env) for x in rest) > 0),
               widen(g, d))
        if name == "gather_nd":
            return g.bind(f"R.gather_nd({a.name}, {idx.name})", [e] + rest)
        u = g.new_param([e] + rest)
        return g.bind(f"R.scatter_nd({a.name}, {idx.name}, {u.name})", a.dims)
    ax = g.rng.randrange(rank)
    dims = g.random_dims(rank)
    dims[ax] = d
    a = g.new_param(dims)
    idims = list(dims)
    idims[ax] = g.random_dim()
    idx = g.new_param(idims, "index", g.rng.choice([I64, I32]))
    g.step("gather", indices_in(idx, d, lambda env: True), widen(g, d))
    if name == "gather_elements":
        return g.bind(f"R.gather_elements({a.name}, {idx.name}, axis={ax})", idims)
    u = g.new_param(idims)
    return g.bind(f"R.scatter_elements({a.name}, {idx.name}, {u.name}, axis={ax})", a.dims)


OPS = {
    "binary": op_binary, "compare": op_compare, "where": op_where, "matmul": op_matmul,
    "reshape": op_reshape, "concat": op_concat, "conv2d": op_conv2d, "layer_norm": op_layer_norm,
    "batch_norm": op_batch_norm, "broadcast_to": op_broadcast_to, "squeeze": op_squeeze,
    "match_cast": op_match_cast, "split": op_split, "reduce": op_reduce, "pool": op_pool,
    "take": op_take, "intdiv": op_intdiv, "gather": op_gather,
}
FAMILIES = {
    "binary": 3, "compare": 1, "where": 1, "matmul": 2, "reshape": 2, "concat": 1.5, "conv2d": 1,
    "layer_norm": 1, "batch_norm": 1, "broadcast_to": 1, "squeeze": 1, "match_cast": 2.5,
    "split": 0.5, "reduce": 0.7, "pool": 0.5, "take": 0.5, "intdiv": 0.4, "gather": 0.6,
}


# Refusals that depend on the data, not on dims (the generated C checks
# them in its kernels, before they write): in the default families too, and
# alone in `make check-refuse-values` (refuse.py --families take,intdiv,gather).
DATA_FAMILIES = {"take", "intdiv", "gather"}
DEFAULT_FAMILIES = list(FAMILIES)


def gen_module(seed, families=None, max_ops=4):
    """The module of seed, with ops of families (default DEFAULT_FAMILIES)."""
    g = Module(seed, families or DEFAULT_FAMILIES)
    g.generate(max_ops)
    return g
