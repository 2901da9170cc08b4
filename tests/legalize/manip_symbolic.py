# Manipulation ops on symbolic shapes: the loop extents and the flat index
# arithmetic of reshape use the prim_func's own TIR var for n; m appears
# only in a target shape, so it reaches the prim_func through tir_vars;
# broadcast_to of a dim k that may be 1 (q: k is 1 or m) decides at run time.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n", 1, 2), dtype="float32"), z: R.Tensor(("k",), dtype="float32"), w: R.Tensor(("m",), dtype="float32")) -> R.Tuple(R.Tensor((n * 4,), dtype="float32"), R.Tensor((2, n * 2), dtype="float32"), R.Tensor((n, 2), dtype="float32"), R.Tensor((m, k), dtype="float32"), R.Tensor((2, m), dtype="float32")):
        n = T.int64()
        k = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8, "k": 8, "m": 8}})
        with R.dataflow():
            a: R.Tensor((4, n), dtype="float32") = R.permute_dims(x)
            b: R.Tensor((n * 4,), dtype="float32") = R.reshape(a, R.shape([-1]))
            c: R.Tensor((n * 4,), dtype="float32") = R.flatten(x)
            d: R.Tensor((n * 4,), dtype="float32") = R.add(b, c)
            e: R.Tensor((2, n * 2), dtype="float32") = R.reshape(x, R.shape([2, n * 2]))
            f: R.Tensor((n, 2), dtype="float32") = R.squeeze(y, axis=[1])
            g: R.Tensor((n, 1, 2), dtype="float32") = R.expand_dims(f, axis=-2)
            h: R.Tensor((n, 1, 2), dtype="float32") = R.multiply(g, y)
            i: R.Tensor((n, 2), dtype="float32") = R.squeeze(h, axis=[1])
            j: R.Tensor((m, k), dtype="float32") = R.broadcast_to(z, R.shape([m, k]))
            l: R.Tensor((k, m), dtype="float32") = R.broadcast_to(w, R.shape([k, m]))
            o: R.Tensor((m, k), dtype="float32") = R.permute_dims(l)
            p: R.Tensor((m, k), dtype="float32") = R.add(j, o)
            q: R.Tensor((2, m), dtype="float32") = R.broadcast_to(z, R.shape([2, m]))
            gv = (d, e, i, p, q)
            R.output(gv)
        return gv
