# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A GPU-scheduled kernel: its loops bound to blockIdx.x and threadIdx.x,
# one with a non-zero start.  rxc reads and prints these; compiling to C
# refuses them (tests/unit/test_cli.c).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((T.int64(8), T.int64(32)), "float32"), B: T.Buffer((T.int64(8), T.int64(32)), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        for bx in T.thread_binding(T.int64(8), thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(4), T.int64(36), thread="threadIdx.x"):
                with T.block("B"):
                    v0 = T.axis.spatial(T.int64(8), bx)
                    v1 = T.axis.spatial(T.int64(32), tx - T.int64(4))
                    T.reads(A[v0, v1])
                    T.writes(B[v0, v1])
                    B[v0, v1] = A[v0, v1] * T.float32(3)

    @R.function
    def main(x: R.Tensor((8, 32), dtype="float32")) -> R.Tensor((8, 32), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((8, 32), dtype="float32"))
            R.output(gv)
        return gv
