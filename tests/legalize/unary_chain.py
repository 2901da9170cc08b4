# Every unary elementwise op, on a static shape, in a plain (non-dataflow)
# block.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        a: R.Tensor((2, 3), dtype="float32") = R.abs(x)
        b: R.Tensor((2, 3), dtype="float32") = R.negative(a)
        c: R.Tensor((2, 3), dtype="float32") = R.exp(b)
        d: R.Tensor((2, 3), dtype="float32") = R.log(c)
        e: R.Tensor((2, 3), dtype="float32") = R.sqrt(a)
        f: R.Tensor((2, 3), dtype="float32") = R.rsqrt(c)
        g: R.Tensor((2, 3), dtype="float32") = R.tanh(d)
        h: R.Tensor((2, 3), dtype="float32") = R.sigmoid(e)
        i: R.Tensor((2, 3), dtype="float32") = R.erf(f)
        j: R.Tensor((2, 3), dtype="float32") = R.nn.relu(g)
        k: R.Tensor((2, 3), dtype="float32") = R.add(h, i)
        out: R.Tensor((2, 3), dtype="float32") = R.add(j, k)
        return out
