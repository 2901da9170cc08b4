# Attribute values: escapes in strings, nested dicts and lists, floats, TIR
# immediates in attribute dicts.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"doc": "line1\nline2\t\"quoted\" back\\slash", "ratios": [0.5, 1e-08, -2.5, 100000000000.0]})

    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        R.func_attr({"Composite": "rxc.pattern", "Primitive": T.bool(True), "num_input": T.int64(1), "nested": {"b": [1, [2, 3]], "a": {"z": None}}})
        t: R.Tuple(R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = R.nn.dropout(x, rate=0.10000000000000001)
        y: R.Tensor((2,), dtype="float32") = t[0]
        return y
