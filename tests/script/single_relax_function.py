# A file holding one function, no module class.
# from tvm.script import relax as R

@R.function
def main(x: R.Tensor((2, 2), dtype="float32"), y: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
    with R.dataflow():
        lv: R.Tensor((2, 2), dtype="float32") = R.matmul(x, y, out_dtype="void")
        gv: R.Tensor((2, 2), dtype="float32") = R.add(lv, x)
        R.output(gv)
    return gv
