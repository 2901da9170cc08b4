# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.const([2.0, 3.0, 4.0, 5.0], "float32")
            gv: R.Tensor((4,), dtype="float32") = R.const([4.0, 5.0, 6.0, 7.0], "float32")
            lv1: R.Tensor((4,), dtype="float32") = R.add(R.const([4.0, 5.0, 6.0, 7.0], "float32"), x)
            gv1: R.Tensor((4,), dtype="float32") = R.multiply(lv1, x)
            R.output(gv, gv1)
        y: R.Tensor((4,), dtype="float32") = R.add(R.const([4.0, 5.0, 6.0, 7.0], "float32"), gv1)
        R.memory.kill_tensor(gv1)
        return y
