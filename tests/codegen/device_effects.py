# R.hint_on_device and R.to_vdevice between kernels, with vdevices in the
# module (the struct info of their results names one), and R.assert_op
# conditions that hold: a bool tensor of shape () computed by a kernel,
# and an R.prim_value of the dims.  On the one device generated C runs on,
# the device ops are their argument (LegalizeOps drops them); each assert is
# evaluated where it sits and, true, lets the entry run on.  Run against the
# interpreter by tests/unit/test_codegen.c (at n = 1 and at its bound).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global")]})

    @R.function(pure=False)
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 5}})
        _ = R.assert_op(R.prim_value(n <= 5), format="n = {} is past 5")
        a = R.multiply(x, x)
        b = R.hint_on_device(a, R.device(dev_type=1, index=0))
        s = R.sum(b)
        ok = R.greater_equal(s, R.const(0.0, "float32"))
        _1 = R.assert_op(ok, s, format="a sum of squares {} < 0")
        c = R.add(b, x)
        d = R.to_vdevice(c, "llvm:0")
        e = R.subtract(d, a)
        return e
