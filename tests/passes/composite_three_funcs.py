# Composite chains in three functions (not only main): conv2d+bias+relu,
# matmul+add, matmul+add+relu, permute_dims+matmul, matmul+add+gelu.  The
# reshapes in conv_block and main use equal static shapes; the unit test
# makes them one shared R.shape node (TVM's MergeCompositeFunctions crashed
# on such sharing).
@I.ir_module
class Module:
    @R.function
    def conv_block(x: R.Tensor((1, 2, 5, 5), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32"), b: R.Tensor((1, 3, 1, 1), dtype="float32")) -> R.Tensor((1, 27), dtype="float32"):
        with R.dataflow():
            lv0 = R.nn.conv2d(x, w)
            lv1 = R.add(lv0, b)
            lv2 = R.nn.relu(lv1)
            gv = R.reshape(lv2, R.shape([1, 27]))
            R.output(gv)
        return gv

    @R.function
    def dense_block(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((3, 4), dtype="float32"), w2: R.Tensor((3, 3), dtype="float32"), b: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            wt = R.permute_dims(w, axes=[1, 0])
            lv0 = R.matmul(x, wt)
            lv1 = R.matmul(lv0, w2)
            gv = R.add(lv1, b)
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32"), b: R.Tensor((1, 3, 1, 1), dtype="float32"), m: R.Tensor((27, 4), dtype="float32"), mb: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((1, 4), dtype="float32"), R.Tensor((1, 27), dtype="float32")):
        cls = Module
        with R.dataflow():
            lv0 = R.nn.conv2d(x, w)
            lv1 = R.add(b, lv0)
            lv2 = R.nn.relu(lv1)
            lv3 = R.reshape(lv2, R.shape([1, 27]))
            lv4 = R.matmul(lv3, m)
            lv5 = R.add(lv4, mb)
            lv6 = R.nn.gelu(lv5)
            lv7 = R.matmul(lv3, m)
            lv8 = R.add(lv7, mb)
            lv9 = R.nn.relu(lv8)
            lv10 = R.add(lv6, lv9)
            gv = cls.conv_block(x, w, b)
            R.output(lv10, gv)
        return (lv10, gv)
