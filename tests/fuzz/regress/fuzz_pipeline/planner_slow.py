# concat (each field of the tuple one input buffer, copied at th, an empty input, axis=None.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 2), dtype="float32"), e: R.Tensor((2, 0), dtype="float32"), u: R.Tensor(("n", 4), dtype="float32"), v: R.Tensor(("k", 4), dtype="float32"), w: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tensor((2, 5), dtype="float32"), R.Tensor((2, 1), dtype="float32"), R.Tensor((n + k, 4), dtype="float32"), R.Tensor(((n + zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz1) // 2, 4), dtype="float32"), R.Tensor((n - (n + 1) // 2, 4), dtype="float32"), R.Tensor((n * 2,), dtype="float32"), R.Tensor((2, 2), dtype="float32")):
        n = T.int64()
        k = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "k": 8}})
        with R.dataflow():
            a: R.Tensor((2, 5), dtype="float32") = R.concat((x, e, y), axis=-1)
            b: R.Tuple(R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 1), dtype="float32")) = R.split(a, indices_or_sections=3, axis=1)
            b0: R.Tensor((2, 2), dtype="float32") = b[0]
            b1: R.Tensor((2, 2), dtype="float32") = b[1]
            b2: R.Tensor((2, 1), dtype="float32") = b[2]
            c: R.Tensor((2, 2), dtype="float32") = R.subtract(b0, b1)
            d: R.Tuple(R.Tensor((2, 1), dtype="float32"), R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 0), dtype="float32")) = R.split(a, indices_or_sections=[1, 7], axis=1)
            d0: R.Tensor((2, 1), dtype="float32") = d[0]
            d1: R.Tensor((2, 4), dtype="float32") = d[1]
            q: R.Tuple(R.Tensor((2, 0), dtype="float32"), R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = R.split(a, indices_or_sections=[-1, 2], axis=1)
            q1: R.Tensor((2, 2), dtype="float32") = q[1]
            r: R.Tensor((2, 2), dtype="float32") = R.multiply(q1, c)
            f: R.Tensor((2, 1), dtype="float32") = R.add(d0, b2)
            g: R.Tensor((2, 5), dtype="float32") = R.concat((c, f, c), axis=1)
            h: R.Tensor((2, 5), dtype="float32") = R.split(g, indices_or_sections=1)
            i: R.Tensor((n + k, 4), dtype="float32") = R.concat((u, v), axis=0)
            j: R.Tuple(R.Tensor(((n + 1) // 2, 4), dtype="float32"), R.Tensor((n - (n + 1) // 2, 4), dtype="float32")) = R.split(u, indices_or_sections=2, axis=0)
            j0: R.Tensor(((n + 1) // 2, 4), dtype="float32") = j[0]
            j1: R.Tensor((n - (n + 1) // 2, 4), dtype="float32") = j[1]
            l: R.Tensor((n * 2,), dtype="float32") = R.concat((w, w))
            gv = (h, f, i, j0, j1, l, r)
            R.output(gv)
        return gv
