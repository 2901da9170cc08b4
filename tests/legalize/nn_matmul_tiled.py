# matmul on the float32 fast path (ops/gemm.c): full 8x16 register tiles,
# rows left over (a symbolic row count and a static one), a narrower last
# column block, one-row tiles of 128 columns and their remainder, batch
# dims on x1 only; then a bias and relu that fuse after it.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 20), dtype="float32"), w: R.Tensor((20, 37), dtype="float32"), a: R.Tensor((2, 19, 24), dtype="float32"), b: R.Tensor((24, 40), dtype="float32"), c: R.Tensor((3, 17), dtype="float32"), d: R.Tensor((17, 130), dtype="float32"), bias: R.Tensor((37,), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 40}})
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.add(y, bias)
            r = R.nn.relu(z)
            p = R.matmul(a, b)
            q = R.matmul(c, d)
            gv = (r, p, q)
            R.output(gv)
        return gv
