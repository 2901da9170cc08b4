# HEAD (v0.26) spellings: R.Any, out_ty=, ty_args=, tirx imports.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def square(A: T.Buffer((T.int64(5),), "float32"), B: T.Buffer((T.int64(5),), "float32")):
        T.func_attr({"tirx.noalias": True})
        for i in range(T.int64(5)):
            with T.sblock("square"):
                v_i = T.axis.spatial(T.int64(5), i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                B[v_i] = A[v_i] * A[v_i]

    @R.function
    def main(x: R.Tensor((5,), dtype="float32"), obj: R.Any) -> R.Tuple(R.Tensor((5,), dtype="float32"), R.Any):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.square, (x,), out_ty=R.Tensor((5,), dtype="float32"))
            lv1 = R.call_pure_packed("my_lib.cube", lv, ty_args=(R.Tensor((5,), dtype="float32"),))
            gv: R.Tuple(R.Tensor((5,), dtype="float32"), R.Any) = (lv1, obj)
            R.output(gv)
        return gv
