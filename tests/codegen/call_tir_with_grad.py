# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.call_tir_with_grad runs as the R.call_tir it names (interpreter) and
# LegalizeOps makes it one (generated C); the R.grad markers around it are
# the value itself.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(4), T.int64(5)), "float32"), B: T.Buffer((T.int64(4), T.int64(5)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j in T.grid(T.int64(4), T.int64(5)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4, 5), dtype="float32")) -> R.Tensor((4, 5), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.grad.start_checkpoint(x)
            lv1 = R.call_tir_with_grad(cls.add_one, (lv,), out_sinfo=R.Tensor((4, 5), dtype="float32"), te_grad_name="add_one_grad")
            lv2 = R.multiply(lv1, lv)
            lv3 = R.call_tir_with_grad(cls.add_one, (lv2,), out_sinfo=R.Tensor((4, 5), dtype="float32"), te_grad_name="add_k_grad", te_grad_kwargs={"k": T.float32(1)})
            lv4 = R.grad.end_checkpoint(lv3)
            gv = R.grad.no_grad(lv4)
            R.output(gv)
        return gv
