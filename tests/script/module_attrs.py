# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"model_name": "tiny", "opt_level": 3, "scale": 0.5, "system_lib_prefix": "rxc_", "tags": ["a", "b"], "flags": {"fast_math": False, "unroll": True}})

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"num_input": 1})
        y: R.Tensor((4,), dtype="float32") = R.exp(x)
        return y
