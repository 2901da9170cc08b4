"""rxc.py - rxc's JIT from Python: a model compiled in memory by librxc,
called on numpy arrays.

    import rxc
    m = rxc.jit("model.onnx")      # or a TVMScript file, or its text
    y = m(x)                       # numpy in, numpy out
    m.close()                      # or `with rxc.jit(...) as m:`

Pure ctypes and numpy: it loads build/librxc.so (what `make` builds), found
in $RXC_LIB or in the build/ folder of the tree this file sits in.  Arrays
must have the entry's exact dtypes: a mismatch raises TypeError, nothing is
converted (float16 is numpy's float16, bfloat16 uint16 bit patterns).
python/README.md has the whole interface.

Key idea: the module learns each entry's signature from librxc
(rxc_model_signature: the tensors' names, dtypes and shapes, the symbolic
dims, the outputs' shapes as expressions of the dims), so it checks the
arrays, binds the dims from their shapes and allocates the outputs without
reading the generated header; what it cannot decide (a dim out of its
bounds, a shape relation the dims break) the entry refuses, and the
refusal becomes a RunError with rxc_model_strerror's text.
"""
import ast
import ctypes
import os

import numpy as np

__all__ = ["jit", "Model", "Error", "CompileError", "RunError", "library"]


class Error(Exception):
    """Anything rxc refuses: the base of CompileError and RunError."""


class CompileError(Error):
    """The model did not compile; .diagnostics holds librxc's text
    (`file:line:col: error: message`, the source line, a caret)."""

    def __init__(self, diagnostics):
        super().__init__(diagnostics.rstrip("\n") or "the model did not compile")
        self.diagnostics = diagnostics


class RunError(Error):
    """The entry (or the arena sizing) returned a nonzero code; .code is it,
    the message rxc_model_strerror's text."""

    def __init__(self, entry, code, text):
        super().__init__("%s returned %d: %s" % (entry, code, text))
        self.code = code
        self.text = text


# ---- librxc through ctypes ------------------------------------------------

class _JitOptions(ctypes.Structure):
    """RxcJitOptions of api/rxc.h."""
    _fields_ = [("params", ctypes.c_char_p), ("config", ctypes.c_char_p),
                ("use_cc", ctypes.c_bool), ("set", ctypes.POINTER(ctypes.c_char_p))]


_ENTRY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t,
                          ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64))
_lib = None
_libc = None


def _declare(lib):
    """The prototypes of rxc.h's functions."""
    P, S, I = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    opts = ctypes.POINTER(_JitOptions)
    for name, res, args in [
            ("rxc_jit_file", P, [S, opts, P]),
            ("rxc_jit_string", P, [S, S, opts, P]),
            ("rxc_model_entry", P, [P, S]),
            ("rxc_model_arena_bytes_for", I,
             [P, S, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_size_t)]),
            ("rxc_model_strerror", S, [I]),
            ("rxc_model_arena_align", ctypes.c_size_t, [P]),
            ("rxc_model_header", S, [P]),
            ("rxc_model_signature", S, [P, S]),
            ("rxc_model_free", None, [P])]:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


def library():
    """librxc.so, loaded once: $RXC_LIB, else build/librxc.so beside this
    file's folder (python/../build)."""
    global _lib, _libc
    if _lib is None:
        path = os.environ.get("RXC_LIB") or os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "librxc.so")
        if not os.path.exists(path):
            raise Error("%s not found: run `make` in the rxc tree, or set RXC_LIB" % path)
        lib = ctypes.CDLL(path)
        _declare(lib)
        libc = ctypes.CDLL(None)
        libc.open_memstream.restype = ctypes.c_void_p
        libc.open_memstream.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                        ctypes.POINTER(ctypes.c_size_t)]
        libc.fclose.argtypes = [ctypes.c_void_p]
        libc.free.argtypes = [ctypes.c_void_p]
        _lib, _libc = lib, libc
    return _lib


def _compile(source, is_text, name, opts):
    """rxc_jit_file or rxc_jit_string with the diagnostics caught in memory
    (open_memstream); (model handle or None, diagnostics text)."""
    lib = library()
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    stream = _libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not stream:
        raise Error("open_memstream failed")
    try:
        if is_text:
            handle = lib.rxc_jit_string(name.encode(), source.encode(), ctypes.byref(opts), stream)
        else:
            handle = lib.rxc_jit_file(os.fsencode(source), ctypes.byref(opts), stream)
    finally:
        _libc.fclose(stream)
        text = ctypes.string_at(buf, size.value).decode("utf-8", "replace") if buf else ""
        _libc.free(buf)
    return handle, text


# ---- the signature: shapes as TVMScript integer expressions ---------------

def _numpy_dtype(name):
    """The numpy dtype of rxc's dtype name: float16 is numpy's float16 (the
    IEEE binary16 bits the C takes), bfloat16 has none and is uint16 bits."""
    special = {"bool": np.bool_, "bfloat16": np.uint16}
    try:
        return np.dtype(special.get(name, name))
    except TypeError:
        raise Error("dtype %s has no numpy equivalent" % name) from None


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
           ast.Mod: lambda a, b: a % b, ast.Div: _trunc_div}
_COMPARE = {ast.Eq: int.__eq__, ast.NotEq: int.__ne__, ast.Lt: int.__lt__,
            ast.LtE: int.__le__, ast.Gt: int.__gt__, ast.GtE: int.__ge__}
_CALLS = {"min": min, "max": max, "truncmod": lambda a, b: a - b * _trunc_div(a, b),
          "Select": lambda c, a, b: a if c else b}


def _eval(node, env):
    """The value of a dim expression of rxc_model_signature (its TVMScript
    notation, with ir_prim_eval's arithmetic) under env: name -> int.
    KeyError for an unbound name, ZeroDivisionError, or Error for a form
    that has no integer value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else int(not v)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return int(_COMPARE[type(node.ops[0])](_eval(node.left, env),
                                               _eval(node.comparators[0], env)))
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, env) for v in node.values]
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "T"):
        f, args = node.func.attr, node.args
        if f in _CALLS:
            return int(_CALLS[f](*[_eval(a, env) for a in args]))
        if f == "Cast" and len(args) == 2 and "float" not in ast.literal_eval(args[0]):
            return _eval(args[1], env)
        if (len(args) == 1 and isinstance(args[0], ast.Constant)
                and f.startswith(("int", "uint", "bool"))):
            return int(args[0].value)  # a literal of another integer dtype: T.int32(4)
    raise Error("a dim expression without an integer value: %s" % ast.unparse(node))


class _Tensor:
    """One input or output of an entry: name, numpy dtype, shape."""

    def __init__(self, rest):
        self.name, self.dtype_name, self.shape_text = rest.split(" ", 2)
        self.dtype = _numpy_dtype(self.dtype_name)
        tree = ast.parse(self.shape_text, mode="eval").body
        if not isinstance(tree, ast.Tuple):
            raise Error("a shape that is not a tuple: %s" % self.shape_text)
        self.shape = tree.elts
        self.rank = len(self.shape)

    def __repr__(self):
        return "%s: %s %s" % (self.name, self.dtype_name, self.shape_text)


def _parse_signature(text):
    """rxc_model_signature's lines: (inputs, dims, outputs, result dims)."""
    inputs, dims, outputs, results = [], [], [], []
    for line in text.splitlines():
        kind, rest = line.split(" ", 1)
        if kind == "input":
            inputs.append(_Tensor(rest))
        elif kind == "output":
            outputs.append(_Tensor(rest))
        elif kind == "dim":
            dims.append(rest)
        elif kind == "result_dim":
            name, bound = rest.split(" ")
            results.append((name, int(bound)))
        else:
            raise Error("rxc_model_signature: unknown line %r" % line)
    names = dims + [r[0] for r in results]
    if len(set(names)) != len(names):
        raise Error("two dims of one name in the signature: %s" % ", ".join(names))
    return inputs, dims, outputs, results


# ---- the model ------------------------------------------------------------

class Model:
    """A compiled entry, callable on numpy arrays: m(*inputs, dims=None).
    Made by jit(); holds librxc's model until close()."""

    def __init__(self, handle, entry, diagnostics):
        self._handle = handle
        self.entry = entry
        self.diagnostics = diagnostics  # librxc's warnings, if any
        lib = library()
        self._fn = _ENTRY(lib.rxc_model_entry(handle, entry.encode()) or 0)
        text = lib.rxc_model_signature(handle, entry.encode())
        if text is None or not self._fn:
            self.close()
            raise Error("the model has no entry '%s'" % entry)
        self.signature = text.decode()
        self.inputs, self.dims, self.outputs, self.result_dims = _parse_signature(self.signature)
        self._align = max(1, lib.rxc_model_arena_align(handle))

    @property
    def header(self):
        """The generated C header (it documents every entry)."""
        return library().rxc_model_header(self._live()).decode()

    def _live(self):
        if not self._handle:
            raise Error("the model is closed")
        return self._handle

    def close(self):
        """Frees librxc's model; calling it afterwards raises Error."""
        if self._handle and _lib is not None:
            _lib.rxc_model_free(self._handle)
        self._handle = None

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<rxc.Model %s(%s) -> (%s)>" % (
            self.entry, ", ".join(map(repr, self.inputs)), ", ".join(map(repr, self.outputs)))

    def _check_inputs(self, arrays):
        """The arrays, C-contiguous and aligned, after checking count,
        dtype and rank against the signature."""
        if len(arrays) != len(self.inputs):
            raise TypeError("%s takes %d inputs (%s), got %d" % (
                self.entry, len(self.inputs), ", ".join(t.name for t in self.inputs), len(arrays)))
        out = []
        for t, a in zip(self.inputs, arrays):
            a = a if isinstance(a, np.ndarray) else np.asarray(a)
            if a.dtype != t.dtype:
                raise TypeError("input '%s': a %s array, but %s takes %s %s (rxc does not "
                                "convert: use .astype)" % (t.name, a.dtype, self.entry,
                                                           t.dtype_name, t.shape_text))
            if a.ndim != t.rank:
                raise ValueError("input '%s': rank %d, but %s takes %s %s" % (
                    t.name, a.ndim, self.entry, t.dtype_name, t.shape_text))
            if not (a.flags.c_contiguous and a.flags.aligned):
                a = a.copy(order="C")
            out.append(a)
        return out

    def _bind_dims(self, arrays, given):
        """name -> value of every dim: those standing alone in an input's
        shape from the arrays, the rest from given; then every input dim
        must equal its expression's value."""
        env = {}
        for name, value in (given or {}).items():
            if name not in self.dims:
                raise ValueError("%s has no dim '%s' (its dims: %s)" % (
                    self.entry, name, ", ".join(self.dims) or "none"))
            env[name] = int(value)
        for t, a in zip(self.inputs, arrays):
            for expr, n in zip(t.shape, a.shape):
                if isinstance(expr, ast.Name) and expr.id not in env:
                    env[expr.id] = n
        missing = [d for d in self.dims if d not in env]
        if missing:
            raise ValueError("%s: dim %s is no input's alone: give dims={'%s': ...}" % (
                self.entry, ", ".join(missing), missing[0]))
        for t, a in zip(self.inputs, arrays):
            for k, (expr, n) in enumerate(zip(t.shape, a.shape)):
                if _eval(expr, env) != n:
                    raise ValueError("input '%s': dim %d is %d, which does not fit %s (%s)" % (
                        t.name, k, n, t.shape_text,
                        ", ".join("%s = %d" % (d, env[d]) for d in self.dims) or "no dims"))
        return env

    def __call__(self, *arrays, dims=None):
        """The entry on arrays (in signature order; dims: a dim no input
        gives alone, by name).  Each array must have exactly the entry's
        dtype (TypeError otherwise: nothing is converted; float16 is
        numpy's float16, bfloat16 uint16 bits) and rank, and shapes that fit
        the signature (ValueError); non-contiguous arrays are copied.
        Returns the output array, or a tuple of them for several.  Raises
        RunError with rxc_model_strerror's text when the entry refuses (a
        dim outside its bounds, a broken shape relation, ...)."""
        lib, handle = library(), self._live()
        arrays = self._check_inputs(arrays)
        env = self._bind_dims(arrays, dims)
        dim_values = np.array([env[d] for d in self.dims] + [b for _, b in self.result_dims] + [0],
                              dtype=np.int64)
        dims_ptr = dim_values.ctypes.data_as(ctypes.POINTER(ctypes.c_int64))
        nbytes = ctypes.c_size_t()
        rc = lib.rxc_model_arena_bytes_for(handle, self.entry.encode(), dims_ptr,
                                           ctypes.byref(nbytes))
        if rc:
            raise RunError(self.entry, rc, lib.rxc_model_strerror(rc).decode())
        block = np.empty(nbytes.value + self._align, np.uint8)
        arena = block.ctypes.data + (-block.ctypes.data) % self._align
        at_bounds = dict(env, **dict(self.result_dims))
        # a negative dim: the entry refuses it (ERR_SHAPE) before any write
        outs = [np.empty([max(0, _eval(e, at_bounds)) for e in t.shape], t.dtype)
                for t in self.outputs]
        ptrs = [a.ctypes.data for a in arrays + outs]
        tensors = (ctypes.c_void_p * (len(ptrs) + 1))(*ptrs)
        rc = self._fn(arena, nbytes.value, tensors, dims_ptr)
        if rc:
            raise RunError(self.entry, rc, lib.rxc_model_strerror(rc).decode())
        if self.result_dims:
            outs = self._cut(outs, env, dim_values[len(self.dims):])
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _cut(self, outs, env, written):
        """The outputs sized at the result dims' bounds, cut to the values
        the entry wrote (their first elements, row-major)."""
        env = dict(env, **{name: int(v) for (name, _), v in zip(self.result_dims, written)})
        cut = []
        for t, a in zip(self.outputs, outs):
            shape = [_eval(e, env) for e in t.shape]
            if any(n < 0 or n > m for n, m in zip(shape, a.shape)):
                raise Error("output '%s': the entry wrote dims %s beyond %s" % (
                    t.name, shape, a.shape))
            cut.append(a.reshape(-1)[:int(np.prod(shape))].reshape(shape).copy())
        return cut


def jit(path_or_text, params=None, config=None, use_cc=False, set=None, entry="main",
        name="<string>"):
    """Compiles a model in memory and returns the Model of its entry.

    path_or_text: a path (str or os.PathLike; ONNX when it ends in .onnx,
    TVMScript otherwise), or TVMScript text (a str holding a newline), whose
    diagnostics then name it `name`.  params: a .npz of weights bound as
    constants; config: an INI file; set: "section.key=value" overrides, a
    list or one str (as `rxc --set`); use_cc: compile with the system
    compiler instead of libtcc (the configuration's [jit] cc_flags).
    entry: the Relax function the Model calls.  Raises CompileError with
    librxc's diagnostics when the model does not compile, Error when it
    has no such entry."""
    is_text = isinstance(path_or_text, str) and "\n" in path_or_text
    source = path_or_text if is_text else os.fsdecode(path_or_text)
    overrides = [s.encode() for s in ([set] if isinstance(set, str) else set or [])]
    set_array = (ctypes.c_char_p * (len(overrides) + 1))(*overrides, None)
    opts = _JitOptions(params=os.fsencode(params) if params else None,
                       config=os.fsencode(config) if config else None, use_cc=bool(use_cc),
                       set=set_array)
    handle, diagnostics = _compile(source, is_text, name, opts)
    if not handle:
        raise CompileError(diagnostics)
    return Model(handle, entry, diagnostics)
