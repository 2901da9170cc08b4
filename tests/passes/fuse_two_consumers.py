# FuseOps/FuseTIR test: values with several consumers (LegalizeOps output).
# main: lv1 is also an output, so relu stays outside fused_matmul_add.
# reduce_consumer: a feeds relu and a sum (which takes no producer), so
# nothing fuses.  diamond: every consumer of a is in the group, so all four
# fuse.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            T_add[i0, i1] = A[i0, i1] + B[i1]

    @T.prim_func(private=True)
    def add1(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_add[i0, i1] = A[i0, i1] + B[i0, i1]

    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_exp: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_exp[i0, i1] = T.exp(A[i0, i1])

    @T.prim_func(private=True)
    def exp1(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_exp: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_exp[i0, i1] = T.exp(A[i0, i1])

    @T.prim_func(private=True)
    def matmul(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(8), T.int64(4)), "float32"), T_matmul: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        acc = T.alloc_buffer((T.int64(1),), "float64")
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            acc[T.int64(0)] = T.float64(0.0)
            for i2 in range(T.int64(8)):
                acc[T.int64(0)] = acc[T.int64(0)] + T.Cast("float64", A[i0, i2]) * T.Cast("float64", B[i2, i1])
            T_matmul[i0, i1] = T.Cast("float32", acc[T.int64(0)])

    @T.prim_func(private=True)
    def multiply(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), B: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_multiply: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_multiply[i0, i1] = A[i0, i1] * B[i0, i1]

    @T.prim_func(private=True)
    def relu(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), T_relu: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(4)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def relu1(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_relu: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def relu2(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_relu: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(2), T.int64(8)):
            T_relu[i0, i1] = T.max(A[i0, i1], T.float32(0.0))

    @T.prim_func(private=True)
    def sum(A: T.Buffer((T.int64(2), T.int64(8)), "float32"), T_sum: T.Buffer((T.int64(2),), "float32")):
        T.func_attr({"tir.noalias": True})
        acc = T.alloc_buffer((T.int64(1),), "float64")
        for i0 in range(T.int64(2)):
            acc[T.int64(0)] = T.float64(0.0)
            for i1 in range(T.int64(8)):
                v: T.float64 = T.Cast("float64", A[i0, i1])
                acc[T.int64(0)] = acc[T.int64(0)] + v
            T_sum[i0] = T.Cast("float32", acc[T.int64(0)])

    @R.function
    def diamond(x: R.Tensor((2, 8), dtype="float32"), y: R.Tensor((2, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        cls = Module
        with R.dataflow():
            a: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.add1, (x, y), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            b: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.relu2, (a,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            c: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.exp1, (a,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            d: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.multiply, (b, c), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            R.output(d)
        return d

    @R.function
    def reduce_consumer(x: R.Tensor((2, 8), dtype="float32")) -> R.Tuple(R.Tensor((2, 8), dtype="float32"), R.Tensor((2,), dtype="float32")):
        cls = Module
        with R.dataflow():
            a: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            b: R.Tensor((2, 8), dtype="float32") = R.call_tir(cls.relu1, (a,), out_sinfo=R.Tensor((2, 8), dtype="float32"))
            c: R.Tensor((2,), dtype="float32") = R.call_tir(cls.sum, (a,), out_sinfo=R.Tensor((2,), dtype="float32"))
            R.output(b, c)
        return (b, c)

    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((2, 4), dtype="float32"), R.Tensor((2, 4), dtype="float32")):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            lv1: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            gv: R.Tensor((2, 4), dtype="float32") = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            R.output(lv1, gv)
        return (lv1, gv)
