# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        a: R.Tensor((n, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        b = R.builtin.alloc_tensor(R.shape([n, 3]), dtype="float32", runtime_device_index=0)
        c: R.Tensor((n, 3), dtype="float32") = R.add(a, b)
        d: R.Tensor((n, 3), dtype="float32") = R.add(c, x)
        return d
