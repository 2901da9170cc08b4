#!/usr/bin/python3
"""test_rxc.py - python/rxc.py over librxc.so against numpy (make check,
check-python).

Relax text and files, an ONNX file and a sample with its weights, compiled
by libtcc and by cc, called with numpy arrays: the results must equal what
numpy computes from the same inputs (exactly where the inputs make the
float arithmetic exact, within 1e-4 of torch's saved outputs for the ONNX
CNN); a symbolic batch at two sizes; tuple outputs, a dim that is tensor
data (sized at its bound, cut to what the entry wrote), a dim given by an
R.Shape parameter; output shapes of // and T.min (a strided max pool and
slice); every dtype the module maps.  Then the refusals: a
wrong dtype (TypeError, nothing converted), rank or shape (ValueError),
count; the entry's own refusal (a dim above its bound) as RunError with
rxc_model_strerror's text; a syntax error as CompileError with a
`file:line:col: error:` diagnostic; a closed model.

    RXC_LIB=build/librxc.so /usr/bin/python3 tests/python/test_rxc.py
"""
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "samples", "tools"))
import rxc  # noqa: E402
import digits_reference  # noqa: E402

# y = relu(x @ w + b), batch n at most 16
DENSE = """@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2), dtype="float32"), w: R.Tensor((2, 3), dtype="float32"),
             b: R.Tensor((3,), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 16}})
        with R.dataflow():
            lv = R.matmul(x, w)
            lv1 = R.add(lv, b)
            gv = R.nn.relu(lv1)
            R.output(gv)
        return gv
"""

# three outputs: one sized by a dim that is tensor data (k, read from t),
# one by an expression of n, one by the dim m of a shape parameter
SHAPES = """@I.ir_module
class Module:
    @R.function
    def main(t: R.Tensor((1,), "int64"), x: R.Tensor(("n",), "float32"), s: R.Shape(["m"])):
        R.func_attr({"tir_var_upper_bound": {"k": 8, "n": 8, "m": 8}})
        k = T.int64()
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            sh = R.tensor_to_shape(t)
            s1 = R.match_cast(sh, R.Shape([k]))
            y = R.ones(s1, "float32")
            z = R.concat((x, R.multiply(x, x)), axis=0)
            w = R.full(s, R.const(3, "int32"), "int32")
            gv = (y, z, w)
            R.output(gv)
        return gv
"""

# outputs whose shapes are floordiv and T.min expressions of the dims
WINDOWS = """@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("h", "w"), "float32")):
        R.func_attr({"tir_var_upper_bound": {"h": 32, "w": 32}})
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            y = R.reshape(x, R.shape([1, 1, h, w]))
            p = R.nn.max_pool2d(y, pool_size=[3, 3], strides=[2, 2])
            s = R.strided_slice(x, axes=[0], begin=[1], end=[100], strides=[3])
            gv = (p, s)
            R.output(gv)
        return gv
"""

# one operation per dtype, each exact on the inputs below
DTYPES = """@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((4,), "int8"), b: R.Tensor((4,), "uint8"), c: R.Tensor((4,), "int32"),
             d: R.Tensor((4,), "int64"), e: R.Tensor((4,), "bool"), f: R.Tensor((4,), "float64"),
             g: R.Tensor((4,), "float16"), h: R.Tensor((), "float32")):
        with R.dataflow():
            gv = (R.add(a, a), R.add(b, b), R.multiply(c, c), R.subtract(d, R.const(1, "int64")),
                  R.logical_not(e), R.multiply(f, f), R.add(g, g), R.negative(h))
            R.output(gv)
        return gv
"""

# no bound on n: the arena is sized per call
UNBOUNDED = DENSE.replace('        R.func_attr({"tir_var_upper_bound": {"n": 16}})\n', "")

STRERROR_DIM = "a symbolic dim is outside its bounds"  # NAME_ERR_DIM's text


def dense_inputs(n, seed):
    """x, w, b of small integers and halves: every product and sum is exact
    in float32, so rxc and numpy must agree to the bit."""
    r = np.random.default_rng(seed)
    x = (r.integers(-8, 8, (n, 2)) / 2).astype(np.float32)
    w = (r.integers(-8, 8, (2, 3)) / 2).astype(np.float32)
    b = (r.integers(-8, 8, (3,)) / 4).astype(np.float32)
    return x, w, b


def dense_numpy(x, w, b):
    return np.maximum(x.astype(np.float64) @ w + b, 0).astype(np.float32)


class Dense(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = rxc.jit(DENSE)

    @classmethod
    def tearDownClass(cls):
        cls.m.close()

    def assert_exact(self, got, want):
        self.assertEqual(got.dtype, want.dtype)
        self.assertEqual(got.shape, want.shape)
        self.assertTrue(np.array_equal(got, want), "\n%s\n!=\n%s" % (got, want))

    def test_signature(self):
        self.assertEqual([(t.name, t.dtype_name, t.shape_text) for t in self.m.inputs],
                         [("x", "float32", "(n, 2)"), ("w", "float32", "(2, 3)"),
                          ("b", "float32", "(3,)")])
        self.assertEqual(self.m.dims, ["n"])
        self.assertEqual([t.shape_text for t in self.m.outputs], ["(n, 3)"])
        self.assertIn("n            dim,    0 <= n <= 16", self.m.header)

    def test_two_batch_sizes(self):
        for n, seed in [(3, 1), (16, 2), (1, 3)]:
            x, w, b = dense_inputs(n, seed)
            self.assert_exact(self.m(x, w, b), dense_numpy(x, w, b))

    def test_zero_batch(self):
        x, w, b = dense_inputs(0, 4)
        self.assertEqual(self.m(x, w, b).shape, (0, 3))

    def test_non_contiguous_input(self):
        x, w, b = dense_inputs(5, 5)
        xt = np.ascontiguousarray(x.T).T  # a Fortran-ordered view
        self.assertFalse(xt.flags.c_contiguous)
        self.assert_exact(self.m(xt, w, b), dense_numpy(x, w, b))

    def test_use_cc(self):
        with rxc.jit(DENSE, use_cc=True) as m:
            x, w, b = dense_inputs(7, 6)
            self.assert_exact(m(x, w, b), dense_numpy(x, w, b))

    def test_file_and_pathlike(self):
        import pathlib
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "dense.py"
            path.write_text(DENSE)
            with rxc.jit(path) as m:
                x, w, b = dense_inputs(4, 7)
                self.assert_exact(m(x, w, b), dense_numpy(x, w, b))

    def test_wrong_dtype(self):
        x, w, b = dense_inputs(3, 8)
        with self.assertRaisesRegex(TypeError, r"input 'x': a float64 array.*float32"):
            self.m(x.astype(np.float64), w, b)
        with self.assertRaisesRegex(TypeError, r"input 'b': a int32 array"):
            self.m(x, w, b.astype(np.int32))

    def test_wrong_rank(self):
        x, w, b = dense_inputs(3, 9)
        with self.assertRaisesRegex(ValueError, r"input 'b': rank 2"):
            self.m(x, w, b.reshape(1, 3))

    def test_wrong_shape(self):
        x, w, b = dense_inputs(3, 10)
        with self.assertRaisesRegex(ValueError,
                                    r"input 'w': dim 1 is 4, which does not fit \(2, 3\)"):
            self.m(x, np.zeros((2, 4), np.float32), b)
        with self.assertRaisesRegex(ValueError, r"input 'x': dim 1 is 3"):
            self.m(np.zeros((3, 3), np.float32), w, b)

    def test_wrong_count(self):
        x, w, b = dense_inputs(3, 11)
        with self.assertRaisesRegex(TypeError, r"main takes 3 inputs \(x, w, b\), got 2"):
            self.m(x, w)

    def test_entry_refusal(self):
        x, w, b = dense_inputs(17, 12)  # n above its bound: the entry's NAME_ERR_DIM
        with self.assertRaises(rxc.RunError) as cm:
            self.m(x, w, b)
        self.assertEqual(cm.exception.code, -4)
        self.assertIn(STRERROR_DIM, str(cm.exception))
        self.assertEqual(cm.exception.text, STRERROR_DIM)


class Shapes(unittest.TestCase):
    def test_result_dim_tuple_and_shape_param(self):
        with rxc.jit(SHAPES) as m:
            self.assertEqual(m.dims, ["n", "m"])
            self.assertEqual(m.result_dims, [("k", 8)])
            self.assertEqual([t.shape_text for t in m.outputs], ["(k,)", "(n * 2,)", "(m,)"])
            for k, n, dm in [(3, 4, 2), (8, 1, 5), (0, 6, 0)]:
                x = np.arange(n, dtype=np.float32) - 2
                y, z, w = m(np.array([k]), x, dims={"m": dm})
                self.assertTrue(np.array_equal(y, np.ones(k, np.float32)), y)
                self.assertTrue(np.array_equal(z, np.concatenate([x, x * x])), z)
                self.assertTrue(np.array_equal(w, np.full(dm, 3, np.int32)), w)
            with self.assertRaisesRegex(ValueError, r"dim m is no input's alone"):
                m(np.array([1]), np.zeros(2, np.float32))
            with self.assertRaisesRegex(ValueError, r"no dim 'q'"):
                m(np.array([1]), np.zeros(2, np.float32), dims={"q": 1})
            with self.assertRaises(rxc.RunError) as cm:  # k = 9 above its bound
                m(np.array([9]), np.zeros(2, np.float32), dims={"m": 1})
            self.assertEqual(cm.exception.text, STRERROR_DIM)


    def test_shape_expressions(self):
        with rxc.jit(WINDOWS) as m:
            self.assertIn("//", m.outputs[0].shape_text)
            self.assertIn("T.min", m.outputs[1].shape_text)
            r = np.random.default_rng(16)
            for h, w in [(7, 9), (8, 5), (3, 3), (1, 4), (2, 32)]:
                x = r.integers(-50, 50, (h, w)).astype(np.float32)
                p, s = m(x)
                oh, ow = max(0, (h - 3) // 2 + 1), max(0, (w - 3) // 2 + 1)
                want = np.array([[x[2 * i:2 * i + 3, 2 * j:2 * j + 3].max() for j in range(ow)]
                                 for i in range(oh)], np.float32).reshape(1, 1, oh, ow)
                self.assertEqual(p.shape, want.shape)
                self.assertTrue(np.array_equal(p, want), (h, w, p, want))
                self.assertTrue(np.array_equal(s, x[1:100:3]), (h, w, s))

    def test_integer_arithmetic(self):
        """The generated C's: // and % floor, / and T.truncmod truncate."""
        import ast
        env = {"a": -7, "b": 2}
        for text, want in [("a // b", -4), ("a % b", 1), ("a / b", -3), ("T.truncmod(a, b)", -1),
                           ("T.max(a, b) * 3", 6), ("T.Select(a < b, a, b)", -7),
                           ("T.Cast('int32', a) + T.int32(1)", -6), ("not a == b", 1)]:
            self.assertEqual(rxc._eval(ast.parse(text, mode="eval").body, env), want, text)


class DTypes(unittest.TestCase):
    def test_every_dtype(self):
        a = np.array([-128, -1, 5, 100], np.int8)
        b = np.array([0, 1, 128, 200], np.uint8)
        c = np.array([-46341, -3, 7, 46340], np.int32)
        d = np.array([-2**62, -1, 0, 2**62], np.int64)
        e = np.array([True, False, False, True])
        f = np.array([-1.5, 0.25, 3e100, 1e-160], np.float64)
        g = np.array([-1.5, 0.25, 1000, 3e-5], np.float16)
        h = np.array(2.5, np.float32)
        with rxc.jit(DTYPES) as m:
            out = m(a, b, c, d, e, f, g, h)
        want = (a + a, b + b, c * c, d - 1, ~e, f * f, g + g, -h)
        self.assertEqual(len(out), len(want))
        for i, (got, w) in enumerate(zip(out, want)):
            self.assertEqual(got.dtype, w.dtype, "output %d" % i)
            self.assertEqual(got.shape, w.shape, "output %d" % i)
            self.assertTrue(np.array_equal(got, w), "output %d: %s != %s" % (i, got, w))


class Models(unittest.TestCase):
    def test_onnx_dynamic_batch(self):
        """A CNN exported by torch.onnx with a dynamic batch, at batch 2 and 5,
        against torch's outputs saved beside it."""
        d = os.path.join(ROOT, "tests", "dynamic")
        with rxc.jit(os.path.join(d, "cnn_dyn.onnx")) as m:
            self.assertEqual(len(m.dims), 1)
            for batch in (2, 5):
                x = np.load(os.path.join(d, "x_b%d.npy" % batch))
                want = np.load(os.path.join(d, "y_b%d.npy" % batch))
                got = m(x)
                self.assertEqual(got.shape, want.shape)
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

    def test_params_and_set(self):
        """digits_mlp with its trained weights bound (params=), against
        numpy's forward pass on the 360 held-out digits; set= bounds n lower,
        which the entry then enforces."""
        mlp = os.path.join(ROOT, "samples", "digits_mlp")
        x = np.load(os.path.join(ROOT, "samples", "digits_test.npz"))["x_mlp"]
        weights = dict(np.load(mlp + ".npz"))
        want, _ = digits_reference.mlp_forward(weights, x)
        with rxc.jit(mlp + ".py", params=mlp + ".npz") as m:
            self.assertEqual([t.name for t in m.inputs], ["x"])
            got = m(x)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
            self.assertTrue(np.array_equal(got.argmax(1), want.argmax(1)))
        with rxc.jit(mlp + ".py", params=mlp + ".npz", set=["memplan.upper_bound.n=8"]) as m:
            np.testing.assert_allclose(m(x[:8]), want[:8], rtol=1e-5, atol=1e-6)
            with self.assertRaises(rxc.RunError) as cm:
                m(x[:9])
            self.assertEqual(cm.exception.text, STRERROR_DIM)

    def test_unbounded_arena(self):
        """Without a bound, the arena is sized for each call's dims."""
        with rxc.jit(UNBOUNDED) as m:
            for n, seed in [(2, 13), (300, 14)]:
                x, w, b = dense_inputs(n, seed)
                self.assertTrue(np.array_equal(m(x, w, b), dense_numpy(x, w, b)))


class Errors(unittest.TestCase):
    def test_syntax_error_text(self):
        bad = DENSE.replace("lv1 = R.add(lv, b)", "lv1 = R.add(lv, b")
        with self.assertRaises(rxc.CompileError) as cm:
            rxc.jit(bad, name="dense.py")
        self.assertRegex(cm.exception.diagnostics, r"^dense\.py:\d+:\d+: error: ")
        self.assertEqual(str(cm.exception), cm.exception.diagnostics.rstrip("\n"))

    def test_syntax_error_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.py")
            with open(path, "w") as f:
                f.write(DENSE.replace("R.nn.relu(lv1)", "R.nn.relu(lv1"))
            with self.assertRaisesRegex(rxc.CompileError,
                                        r"^%s:\d+:\d+: error: " % path.replace(".", r"\.")):
                rxc.jit(path)

    def test_missing_file(self):
        with self.assertRaisesRegex(rxc.CompileError, r"nothere\.onnx"):
            rxc.jit("/nonexistent/nothere.onnx")

    def test_semantic_error(self):
        bad = DENSE.replace("R.matmul(x, w)", "R.matmul(x, b)")
        with self.assertRaisesRegex(rxc.CompileError, r"<string>:\d+:\d+: error: "):
            rxc.jit(bad)

    def test_no_entry(self):
        with self.assertRaisesRegex(rxc.Error, r"no entry 'other'"):
            rxc.jit(DENSE, entry="other")

    def test_closed(self):
        m = rxc.jit(DENSE)
        m.close()
        m.close()  # twice is harmless
        with self.assertRaisesRegex(rxc.Error, "closed"):
            m(*dense_inputs(2, 15))
        with rxc.jit(DENSE) as m2:
            pass
        with self.assertRaisesRegex(rxc.Error, "closed"):
            m2.header


if __name__ == "__main__":
    unittest.main(verbosity=2)
