# TVM v0.26 spellings: R.Prim as T.int64 / T.float32 in annotations and in
# R.Callable; bare scalars and symbolic vars as Relax values (R.prim_value);
# call_tir with a symbolic scalar inside its argument tuple and out_ty=.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift(var_x: T.handle, n: T.int64, var_out: T.handle):
        x = T.match_buffer(var_x, (n,), "int64")
        out = T.match_buffer(var_out, (n,), "int64")
        for i in range(n):
            out[i] = x[i] + n

    @R.function
    def one() -> T.int64:
        return 1

    @R.function
    def scale(k: T.float32, f: R.Callable((T.int64,), T.int64)) -> T.float32:
        c: T.float32 = T.float32(1.5)
        return c

    @R.function
    def main(x: R.Tensor(("n",), "int64")) -> R.Tuple(R.Tensor(("n",), dtype="int64"), T.int64):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.shift, (x, n), out_ty=R.Tensor((n,), dtype="int64"))
            m: T.int64 = n + 1
            gv = (y, m)
            R.output(gv)
        return gv
