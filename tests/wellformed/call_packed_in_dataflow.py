# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv = R.call_packed("my_func", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
            gv: R.Tensor((4,), dtype="float32") = R.add(x, x)
            R.output(gv)
        return gv
