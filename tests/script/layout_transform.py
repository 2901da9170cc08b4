# R.layout_transform's index map (an IR_AT_INDEX_MAP attribute): T.index_map
# as TVM prints it, the bare lambda TVMScript also takes, index_dtype,
# pad_value, a one-result map, lambdas reusing parameter names (each is its
# own scope) and a parameter named as a symbolic var of the function.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6, 3, 3), dtype="float32"), y: R.Tensor(("n", 8), dtype="float16")) -> R.Tensor((2, 8, 3, 3), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            a: R.Tensor((2, 2, 3, 3, 4), dtype="float32") = R.layout_transform(x, index_map=T.index_map(lambda n, c, h, w: (n, c // 4, h, w, c % 4)), pad_value=1.5)
            b: R.Tensor((2, 8, 3, 3), dtype="float32") = R.layout_transform(a, index_map=T.index_map(lambda n, c, h, w, c4: (n, c * 4 + c4, h, w)))
            c: R.Tensor((8, n), dtype="float16") = R.layout_transform(y, index_map=lambda i, j: (j, i))
            d: R.Tensor(((n + 1) // 2, 8, 2), dtype="float16") = R.layout_transform(y, index_map=T.index_map(lambda i, j: (i // 2, j, i % 2), index_dtype="int32"), pad_value=0)
            f: R.Tensor((108,), dtype="float32") = R.reshape(x, R.shape([108]))
            g: R.Tensor((108,), dtype="float32") = R.layout_transform(f, index_map=T.index_map(lambda i: (i,)))
            R.output(b)
        return b
