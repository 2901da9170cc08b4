# Constants of every C type the weights can hold, for
# tests/weights/weights_modes.py: float32 with nan and infinities (their
# bit patterns), float64, float16, bfloat16, int64, int32, int8, uint8 and
# bool, each of a length that is not a multiple of the 64-byte places, and
# two of the same type, so the byte strings and the blob hold several
# constants at aligned offsets.
# (bfloat16 as a tensor only: R.const has no bfloat16)
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((5,), dtype="float32"), d: R.Tensor((3,), dtype="float64"), h: R.Tensor((4,), dtype="float16"), b: R.Tensor((2,), dtype="bfloat16"), i: R.Tensor((3,), dtype="int64"), j: R.Tensor((3,), dtype="int32"), k: R.Tensor((4,), dtype="int8"), u: R.Tensor((4,), dtype="uint8")) -> R.Tuple(R.Tensor((5,), dtype="float32"), R.Tensor((5,), dtype="float32"), R.Tensor((3,), dtype="float64"), R.Tensor((4,), dtype="float16"), R.Tensor((2,), dtype="bfloat16"), R.Tensor((3,), dtype="int64"), R.Tensor((3,), dtype="int32"), R.Tensor((4,), dtype="int8"), R.Tensor((4,), dtype="uint8"), R.Tensor((5,), dtype="float32")):
        with R.dataflow():
            a0: R.Tensor((5,), dtype="float32") = R.add(x, R.const([1.5, "nan", "-inf", "inf", -0.0], "float32"))
            a1: R.Tensor((5,), dtype="float32") = R.multiply(x, R.const([0.25, 3.0, -2.0, 1e-30, 7.0], "float32"))
            a2: R.Tensor((3,), dtype="float64") = R.add(d, R.const([0.1, -1e300, 3.0], "float64"))
            a3: R.Tensor((4,), dtype="float16") = R.add(h, R.const([1.0, 0.333251953125, "-inf", -0.0], "float16"))
            a4: R.Tensor((2,), dtype="bfloat16") = R.multiply(b, b)
            a5: R.Tensor((3,), dtype="int64") = R.add(i, R.const([1, -9000000000, 9223372036854775807], "int64"))
            a6: R.Tensor((3,), dtype="int32") = R.multiply(j, R.const([3, -7, 2147483647], "int32"))
            a7: R.Tensor((4,), dtype="int8") = R.add(k, R.const([1, -128, 127, 5], "int8"))
            a8: R.Tensor((4,), dtype="uint8") = R.add(u, R.const([1, 200, 255, 0], "uint8"))
            a9: R.Tensor((5,), dtype="float32") = R.where(R.const([True, False, True, True, False], "bool"), x, a1)
            R.output(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
        return (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
