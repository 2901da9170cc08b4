# strided_slice and take.  Slices: steps of 2, a negative stride from the
# end, begin/end clamped (-100, 100, and INT64_MAX as frontends write "to
# the end"), a negative axis, the same on a symbolic dim n, where the
# start is computed in the prim_func.  take: modes fast (negative indices
# count from the end), clip and wrap, int32 and int64 indices, axis=None
# (x read at a flat position), a symbolic axis.  Random indices may be
# out of range, which the kernel rejects in mode fast, so the fast takes
# read clipped indices (in -4..3; the symbolic axis is only taken with
# clip and wrap).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 5), dtype="float32"), s: R.Tensor(("n", 3), dtype="float32"), i: R.Tensor((2, 2), dtype="int64"), j: R.Tensor((3,), dtype="int32")) -> R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((4, 5), dtype="float32"), R.Tensor(((n + 1) // 2, 3), dtype="float32"), R.Tensor((n, 2), dtype="float32"), R.Tensor((2, 2, 5), dtype="float32"), R.Tensor((n, 3), dtype="float32"), R.Tensor((2, 2), dtype="float32"), R.Tensor((2, 2, 3), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        with R.dataflow():
            a: R.Tensor((3, 2), dtype="float32") = R.strided_slice(x, axes=[0, 1], begin=[1, 0], end=[4, 5], strides=[1, 3])
            b: R.Tensor((4, 5), dtype="float32") = R.strided_slice(x, axes=[-1, 0], begin=[-100, 9223372036854775807], end=[100, -9223372036854775807], strides=[1, -1])
            c: R.Tensor((4, 5), dtype="float32") = R.add(b, x)
            d: R.Tensor(((n + 1) // 2, 3), dtype="float32") = R.strided_slice(s, axes=[0], begin=[-1], end=[-100], strides=[-2])
            e: R.Tensor((n, 2), dtype="float32") = R.strided_slice(s, axes=[1], begin=[1], end=[9223372036854775807])
            ic: R.Tensor((2, 2), dtype="int64") = R.clip(i, -4, 3)
            f: R.Tensor((2, 2, 5), dtype="float32") = R.take(c, ic, axis=0)
            g: R.Tensor((n, 3), dtype="float32") = R.take(s, j, axis=-1, mode="clip")
            h: R.Tensor((2, 2), dtype="float32") = R.take(x, ic)
            k: R.Tensor((2, 2, 3), dtype="float32") = R.take(s, i, axis=0, mode="wrap")
            gv = (a, c, d, e, f, g, h, k)
            R.output(gv)
        return gv
