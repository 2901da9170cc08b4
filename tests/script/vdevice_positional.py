# Hand-written vdevice forms: string targets, positional vdevice, "vdevice:i".
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice("cuda", 0), I.vdevice("llvm", 1, "global")]})

    @R.function
    def main(a: R.Tensor((4,), "float32", "llvm"), b: R.Tensor((4,), "float32", "cuda:0"), c: R.Tensor((4,), "float32", "vdevice:2")) -> R.Tensor((4,), "float32", "llvm:1"):
        d: R.Tensor((4,), "float32", "cuda") = R.to_vdevice(a, dst_vdevice="cuda:0")
        e: R.Tensor((4,), "float32", "cuda") = R.add(d, b)
        f: R.Tensor((4,), "float32", "llvm:1") = R.to_vdevice(e, dst_vdevice="llvm:1")
        g: R.Tensor((4,), "float32", "llvm:1") = R.multiply(f, c)
        return g
