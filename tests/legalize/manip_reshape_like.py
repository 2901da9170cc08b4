# Manipulation ops that move data without arithmetic, on static shapes:
# permute_dims (given, cyclic and reversed axes), reshape (with -1 and to a
# scalar), flatten, expand_dims, squeeze (named axes and all), broadcast_to
# (new leading dims and a size-1 dim).  The adds mix the results so that a
# wrong element shows in the output.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32"), y: R.Tensor((1, 3, 1), dtype="float32"), s: R.Tensor((1, 1), dtype="int32")) -> R.Tuple(R.Tensor((4, 3, 2), dtype="float32"), R.Tensor((24,), dtype="float32"), R.Tensor((2, 3, 4), dtype="float32"), R.Tensor((2, 2), dtype="int32")):
        with R.dataflow():
            a: R.Tensor((3, 2, 4), dtype="float32") = R.permute_dims(x, axes=[1, 0, 2])
            b: R.Tensor((4, 3, 2), dtype="float32") = R.permute_dims(x)
            c: R.Tensor((6, 4), dtype="float32") = R.reshape(a, R.shape([-1, 4]))
            b1: R.Tensor((3, 4, 2), dtype="float32") = R.permute_dims(x, axes=[1, 2, 0])
            b2: R.Tensor((4, 2, 3), dtype="float32") = R.permute_dims(b1, axes=[1, 2, 0])
            b3: R.Tensor((4, 3, 2), dtype="float32") = R.permute_dims(b2, axes=[0, 2, 1])
            b4: R.Tensor((4, 3, 2), dtype="float32") = R.add(b3, b)
            d: R.Tensor((24,), dtype="float32") = R.flatten(b4)
            e: R.Tensor((24,), dtype="float32") = R.reshape(c, R.shape([24]))
            f: R.Tensor((24,), dtype="float32") = R.add(d, e)
            g: R.Tensor((3,), dtype="float32") = R.squeeze(y)
            h: R.Tensor((1, 3), dtype="float32") = R.squeeze(y, axis=[-1])
            i: R.Tensor((1, 3, 1), dtype="float32") = R.expand_dims(g, axis=[0, -1])
            j: R.Tensor((2, 3, 4), dtype="float32") = R.broadcast_to(i, R.shape([2, 3, 4]))
            k: R.Tensor((1, 1, 3), dtype="float32") = R.expand_dims(h, axis=1)
            l: R.Tensor((2, 4, 3), dtype="float32") = R.broadcast_to(k, R.shape([2, 4, 3]))
            m: R.Tensor((2, 3, 4), dtype="float32") = R.permute_dims(l, axes=[0, -1, -2])
            n: R.Tensor((2, 3, 4), dtype="float32") = R.subtract(j, m)
            o: R.Tensor((2, 3, 4), dtype="float32") = R.multiply(n, x)
            t: R.Tensor((), dtype="int32") = R.reshape(s, R.shape([]))
            u: R.Tensor((2, 2), dtype="int32") = R.broadcast_to(t, R.shape([2, 2]))
            v: R.Tensor((2, 2), dtype="int32") = R.add(u, u)
            gv = (b, f, o, v)
            R.output(gv)
        return gv
