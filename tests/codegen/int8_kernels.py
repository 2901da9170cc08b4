# An int8 block as issue 23's QDQ rewriting leaves it: pad by the input's
# zero point, conv2d of int8 into int32 (no padding of its own), a
# per-channel int32 bias, the requantization in int64 (multiplier, rounding
# constant, shift, zero point, clip, cast to int8), max_pool2d of int8, then
# an int8 matmul into int32 and its requantization.  The generated kernels
# must compute all of it in integers: test_codegen.c's test_int_kernels
# finds no float, double or floating literal in their C, and
# test_op_models runs the model against the interpreter.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 10, 10), dtype="int8"), w: R.Tensor((8, 4, 3, 3), dtype="int8"), wd: R.Tensor((8, 1, 3, 3), dtype="int8"), wm: R.Tensor((32, 10), dtype="int8")) -> R.Tensor((1, 10), dtype="int8"):
        with R.dataflow():
            xp = R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 1, 1, 1], pad_value=-5)
            acc = R.nn.conv2d(xp, w, padding=[0, 0, 0, 0], out_dtype="int32")
            a2 = R.add(acc, R.const([[[[100]], [[-7]], [[0]], [[3]], [[2000]], [[-1]], [[5]], [[9]]]], "int32"))
            a3 = R.astype(a2, dtype="int64")
            t1 = R.multiply(a3, R.const([[[[1518500250]], [[1073741824]], [[2147483647]], [[1518500250]], [[1073741824]], [[2147483647]], [[1518500250]], [[1073741824]]]], "int64"))
            t2 = R.add(t1, R.const(137438953472, "int64"))
            t3 = R.right_shift(t2, R.const(38, "int64"))
            t4 = R.add(t3, R.const(-5, "int64"))
            t5 = R.clip(t4, R.prim_value(-128), R.prim_value(127))
            y = R.astype(t5, dtype="int8")
            dw = R.nn.conv2d(y, wd, strides=[2, 2], padding=[1, 1, 1, 1], groups=8, out_dtype="int32")
            d1 = R.astype(R.clip(R.right_shift(dw, R.const(4, "int32")), R.prim_value(-128), R.prim_value(127)), dtype="int8")
            p = R.nn.max_pool2d(d1, pool_size=[2, 2], strides=[2, 2])
            f = R.reshape(p, R.shape([1, 32]))
            m = R.matmul(f, wm, out_dtype="int32")
            m2 = R.astype(m, dtype="int64")
            m3 = R.right_shift(R.add(R.multiply(m2, R.const(1073741824, "int64")), R.const(549755813888, "int64")), R.const(40, "int64"))
            gv = R.astype(R.clip(m3, R.prim_value(-128), R.prim_value(127)), dtype="int8")
            R.output(gv)
        return gv
