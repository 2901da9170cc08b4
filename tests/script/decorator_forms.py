# Hand-written decorator spellings TVM's tests use: tvm.script.ir_module,
# check_well_formed=False, functions without a return annotation.
# from tvm.script import ir as I
# from tvm.script import relax as R

@tvm.script.ir_module
class Module:
    @R.function(check_well_formed=False)
    def helper(x: R.Tensor((2,), "float32")):
        y = R.add(x, x)
        return y

    @R.function
    def main(x: R.Tensor((2,), "float32")):
        cls = Module
        y = cls.helper(x)
        return y
