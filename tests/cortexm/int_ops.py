# The integer ops an int8 network's kernels are made of, on integer tensors
# only: conv2d and matmul of int8 to int32, an arithmetic shift, clip, cast
# to int8, max pooling and ReLU on int8, and a requantization through int64
# (multiplier 1518500250, shift 38).  tests/cortexm/floathelpers.py
# compiles it for Cortex-M with -mfloat-abi=soft and requires its kernels
# to call no libgcc float helper (but for KNOWN_FLOAT there).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 1, 8, 8), dtype="int8"), k: R.Tensor((8, 1, 3, 3), dtype="int8"), w: R.Tensor((16, 128), dtype="int8"), b: R.Tensor((16,), dtype="int32")) -> R.Tensor((2, 16), dtype="int8"):
        with R.dataflow():
            c: R.Tensor((2, 8, 8, 8), dtype="int32") = R.nn.conv2d(x, k, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="int32")
            s: R.Tensor((2, 8, 8, 8), dtype="int32") = R.right_shift(c, R.const(4, "int32"))
            q: R.Tensor((2, 8, 8, 8), dtype="int8") = R.astype(R.clip(s, -128, 127), dtype="int8")
            p: R.Tensor((2, 8, 4, 4), dtype="int8") = R.nn.max_pool2d(q, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            r: R.Tensor((2, 8, 4, 4), dtype="int8") = R.nn.relu(p)
            f: R.Tensor((2, 128), dtype="int8") = R.reshape(r, R.shape([2, 128]))
            wt: R.Tensor((128, 16), dtype="int8") = R.permute_dims(w, axes=None)
            m: R.Tensor((2, 16), dtype="int32") = R.matmul(f, wt, out_dtype="int32")
            z: R.Tensor((2, 16), dtype="int32") = R.add(m, b)
            y: R.Tensor((2, 16), dtype="int64") = R.multiply(R.astype(z, dtype="int64"), R.const(1518500250, "int64"))
            t: R.Tensor((2, 16), dtype="int64") = R.right_shift(y, R.const(38, "int64"))
            gv: R.Tensor((2, 16), dtype="int8") = R.astype(R.clip(t, -128, 127), dtype="int8")
            R.output(gv)
        return gv
