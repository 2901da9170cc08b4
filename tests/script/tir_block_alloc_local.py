# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def tile_sum(A: T.Buffer((8, 8), "float32"), B: T.Buffer((2,), "float32")):
        T.func_attr({"global_symbol": "tile_sum", "tir.noalias": True})
        for t in range(2):
            with T.block("tile"):
                vt = T.axis.spatial(2, t)
                T.reads(A[vt * 4:vt * 4 + 4, 0:8])
                T.writes(B[vt])
                acc = T.alloc_buffer((1,), "float32", scope="local")
                acc[0] = T.float32(0)
                for i, j in T.grid(4, 8):
                    acc[0] = acc[0] + A[vt * 4 + i, j]
                B[vt] = acc[0]
