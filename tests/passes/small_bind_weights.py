# BindParams with w: (8, 4) and b: (4,) float32 (written by the test):
# w and b leave the signature and become constants; w's annotation (n, 4)
# fixes n = 8 throughout main: x becomes (m, 8); the annotations, the
# R.shape leaf and 2 * n (16) follow.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32"), w: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((m, 4), dtype="float32") = R.matmul(x, w)
            lv1: R.Tensor((m, 4), dtype="float32") = R.add(lv, b)
            xx: R.Tensor((m, 2 * n), dtype="float32") = R.concat((x, x), axis=1)
            s: R.Tensor((m, 2 * n), dtype="float32") = R.reshape(xx, R.shape([m, 2 * n]))
            gv: R.Tensor((m, 4), dtype="float32") = R.multiply(lv1, lv1)
            R.output(s, gv)
        return gv
