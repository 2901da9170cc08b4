# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.strided_slice with symbolic begin and end (TVM's rule for the result
# dims: the indices made canonical, then ceildiv(end - begin, stride)):
# in bounds by the dims' relations, with assume_inbound, and with a stride.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("a + b", 8), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32")):
        a = T.int64()
        b = T.int64()
        n = T.int64()
        k = T.int64()
        head = R.strided_slice(x, axes=[0], begin=[0], end=[a])
        tail = R.strided_slice(x, axes=[0], begin=[a], end=[a + b])
        rows: R.Tensor((k, 4), dtype="float32") = R.match_cast(y, R.Tensor((k, 4), dtype="float32"))
        one = R.strided_slice(rows, [0], [k - 1], [k], assume_inbound=True)
        every = R.strided_slice(y, axes=[0, 1], begin=[0, 1], end=[n, 4], strides=[2, 3])
        return (head, tail, one, every)
