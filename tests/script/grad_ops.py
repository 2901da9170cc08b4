# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# What TVM's training tests print: the gradient ops, the checkpoint markers
# and R.call_tir_with_grad (with and without te_grad_kwargs).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def triple(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for i, j in T.grid(T.int64(2), T.int64(3)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] * T.float32(3)

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), g: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.grad.start_checkpoint(x)
            lv1 = R.call_tir_with_grad(cls.triple, (lv,), out_sinfo=R.Tensor((2, 3), dtype="float32"), te_grad_name="triple_grad")
            lv2 = R.call_tir_with_grad(cls.triple, (lv1,), out_sinfo=R.Tensor((2, 3), dtype="float32"), te_grad_name="scale_grad", te_grad_kwargs={"k": T.float32(3)})
            lv3 = R.grad.end_checkpoint(lv2)
            gv = R.grad.no_grad(lv3)
            R.output(gv)
        return gv

    @R.function
    def backward(g: R.Tensor((2, 5), dtype="float32"), p: R.Tensor((2, 5), dtype="float32"), t: R.Tensor((2,), dtype="int64"), w: R.Tensor((5,), dtype="float32"), og: R.Tensor((1, 2, 3, 3), dtype="float32"), d: R.Tensor((1, 2, 6, 6), dtype="float32"), tg: R.Tensor((4, 2), dtype="float32"), tx: R.Tensor((4, 7), dtype="float32"), ti: R.Tensor((2,), dtype="int32")):
        with R.dataflow():
            a = R.grad.nll_loss_backward(g, p, t)
            b = R.grad.nll_loss_backward(g, p, t, w, reduction="sum", ignore_index=1)
            c = R.grad.max_pool2d_backward(og, d, pool_size=[2, 2], strides=[2, 2])
            e = R.grad.avg_pool2d_backward(og, d, [3, 3], [2, 2], [1, 1, 0, 0], [1, 1], True, True)
            f = R.grad.take_backward(tg, tx, ti, axis=1)
            gv = (a, b, c, e, f)
            R.output(gv)
        return gv
