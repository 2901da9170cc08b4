# FuseOps/FuseTIR test: conv2d + broadcast bias add + relu, as LegalizeOps
# emits them (rxc opt --passes Normalize,LegalizeOps).  Expected: one group
# fused_conv2d_add_relu, then one prim_func with T_conv2d and T_add as
# intermediate buffers.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(6)), "float32"), B: T.Buffer((T.int64(1), T.int64(3), T.int64(1), T.int64(1)), "float32"), T_add: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(6), T.int64(6)):
            T_add[i0, i1, i2, i3] = A[T.int64(0), i1, i2, i3] + B[T.int64(0), i1, T.int64(0), T.int64(0)]

    @T.prim_func(private=True)
    def conv2d(data: T.Buffer((T.int64(1), T.int64(2), T.int64(6), T.int64(6)), "float32"), weight: T.Buffer((T.int64(3), T.int64(2), T.int64(3), T.int64(3)), "float32"), T_conv2d: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": True})
        acc = T.alloc_buffer((T.int64(1),), "float64")
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(6), T.int64(6)):
            acc[T.int64(0)] = T.float64(0.0)
            for i4, i5, i6 in T.grid(T.int64(2), T.int64(3), T.int64(3)):
                if i2 - T.int64(1) + i5 >= T.int64(0) and i2 - T.int64(1) + i5 < T.int64(6) and i3 - T.int64(1) + i6 >= T.int64(0) and i3 - T.int64(1) + i6 < T.int64(6):
                    acc[T.int64(0)] = acc[T.int64(0)] + T.Cast("float64", data[i0, i4, i2 - T.int64(1) + i5, i3 - T.int64(1) + i6]) * T.Cast("float64", weight[i1, i4, i5, i6])
            T_conv2d[i0, i1, i2, i3] = T.Cast("float32", acc[T.int64(0)])

    @T.prim_func(private=True)
    def relu(A: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(6)), "float32"), T_relu: T.Buffer((T.int64(1), T.int64(3), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(6), T.int64(6)):
            T_relu[i0, i1, i2, i3] = T.max(A[i0, i1, i2, i3], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 2, 6, 6), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32"), b: R.Tensor((1, 3, 1, 1), dtype="float32")) -> R.Tensor((1, 3, 6, 6), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((1, 3, 6, 6), dtype="float32") = R.call_tir(cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 3, 6, 6), dtype="float32"))
            lv1: R.Tensor((1, 3, 6, 6), dtype="float32") = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((1, 3, 6, 6), dtype="float32"))
            gv: R.Tensor((1, 3, 6, 6), dtype="float32") = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((1, 3, 6, 6), dtype="float32"))
            R.output(gv)
        return gv
