# RemovePurityChecking: the pure functions (main, helper and the local
# function) get "relax.force_pure": True, added to the attrs they have; the
# pure=False function is left as it is.  R.call_pure_packed outside a
# dataflow block becomes R.call_packed with the same sinfo_args (also in an
# if branch and in the local function); inside a dataflow block it stays,
# since an extern call there would be an impure call in a dataflow block.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"num_input": 1})
        y: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext_neg", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        return y

    @R.function(pure=False, private=True)
    def side(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="{}")
        return x

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), c: R.Tensor((), dtype="bool")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext_exp", x, sinfo_args=(R.Tensor((4,), dtype="float32"),))
            gv: R.Tensor((4,), dtype="float32") = R.add(lv, x)
            R.output(gv)
        a: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext_exp", gv, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        @R.function
        def local(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            z: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext_exp", y, sinfo_args=(R.Tensor((4,), dtype="float32"),))
            return z
        if c:
            r: R.Tensor((4,), dtype="float32") = R.call_pure_packed("ext_neg", a, sinfo_args=(R.Tensor((4,), dtype="float32"),))
        else:
            r: R.Tensor((4,), dtype="float32") = local(a)
        h: R.Tensor((4,), dtype="float32") = cls.helper(r)
        return h
