# Docstrings in a module class, a Relax function and a prim_func are
# no-ops; `x.ty` in struct info position is the struct info of Relax var x.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    """A module with docstrings."""

    @T.prim_func(private=True)
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        """Copies A to B."""
        for i in range(4):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        """Calls the copy twice."""
        cls = Module
        y = R.call_tir(cls.copy, (x,), out_ty=x.ty)
        z = R.call_pure_packed("my_identity", y, ty_args=[y.ty])
        return z
