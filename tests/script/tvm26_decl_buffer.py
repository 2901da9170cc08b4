# TVM v0.26's buffers over another buffer's data: `A.view(shape...)` (a
# reshape) and `T.decl_buffer(shape, dtype, data=A.data)` (here with
# elem_offset=0 and layout=None, the defaults); rxc prints both as
# T.decl_buffer (tvm26_buffer_view_dtype.py has A.view("dtype")).
# main = (x * 2).reshape(16) through a flat view of X and a 2-d
# declaration over Y; tests/agree/tir_forms_check.py runs it through the
# interpreter and the generated C.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double_flat(X: T.Buffer((T.int64(2), T.int64(8)), "float32"), Y: T.Buffer((T.int64(16),), "float32")):
        xv = X.view(T.int64(16))
        yv = T.decl_buffer((T.int64(4), T.int64(4)), "float32", data=Y.data, elem_offset=0, layout=None)
        for i in range(T.int64(16)):
            yv[i // T.int64(4), i % T.int64(4)] = xv[i] * T.float32(2)

    @R.function
    def main(x: R.Tensor((2, 8), "float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.double_flat, (x,), out_ty=R.Tensor((16,), dtype="float32"))
        return gv
