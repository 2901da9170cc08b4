# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        with R.dataflow():
            lv = R.call_pure_packed("my_lib.fused_add", x, y, sinfo_args=(R.Tensor((8,), dtype="float32"),))
            lv1 = R.call_pure_packed("my_lib.unary", lv, sinfo_args=R.Tensor((8,), dtype="float32"))
            lv2: R.Tuple(R.Tensor((8,), dtype="float32"), R.Tensor((8,), dtype="float32")) = R.call_pure_packed("my_lib.split_halves", lv1, sinfo_args=(R.Tuple(R.Tensor((8,), dtype="float32"), R.Tensor((8,), dtype="float32")),))
            lv3: R.Tensor((8,), dtype="float32") = lv2[0]
            gv = R.call_dps_packed("my_lib.dps_add", (lv3, y), out_sinfo=R.Tensor((8,), dtype="float32"))
            R.output(gv)
        return gv
