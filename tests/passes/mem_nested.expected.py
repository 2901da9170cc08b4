# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a: R.Tensor((4,), dtype="float32") = R.add(x, x)
        h: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.multiply(a, a)
            gv: R.Tensor((4,), dtype="float32") = R.add(lv, x)
            R.output(gv)
        R.memory.kill_tensor(a)
        b: R.Tensor((4,), dtype="float32") = R.add(gv, x)
        R.memory.kill_tensor(gv)
        @R.function
        def inner(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            R.func_attr({"relax.force_pure": True})
            p: R.Tensor((4,), dtype="float32") = R.add(y, h)
            q: R.Tensor((4,), dtype="float32") = R.multiply(p, p)
            R.memory.kill_tensor(p)
            return q
        c: R.Tensor((4,), dtype="float32") = inner(b)
        R.memory.kill_tensor(b)
        return c
