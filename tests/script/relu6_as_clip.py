# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.nn.relu6 is a Python function in TVM that builds R.clip(x, 0, 6): it
# reads as that call, nested (bound to a fresh var) or keyword-given, and
# prints as R.clip.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((4,), dtype="int32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((4,), dtype="int32")):
        with R.dataflow():
            a: R.Tensor((2, 3), dtype="float32") = R.nn.relu6(x)
            b = R.add(R.nn.relu6(data=a), x)
            c = R.nn.relu6(y)
            gv = (a, b, c)
            R.output(gv)
        return gv
