@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        cls = Module
        z = R.call_tir(cls.nothere, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        w = Module.helper(z)
        return w
