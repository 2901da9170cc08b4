# TVM v0.26's TIR assert: the canonical form it prints, assert cond, ("Kind",
# ["part", ...]), the plain-string form it reads as ("RuntimeError",
# ["msg"]), a list of several parts (concatenated when it fails) and an
# empty one.  checked_sqrt fails on a negative (or NaN) element; rxc run
# refuses it through the interpreter and the generated C alike, and add_one
# (no assert) stays a kernel that cannot fail (tests/agree/tir_forms_check.py).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def checked_sqrt(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        assert T.int64(0) < T.int64(4), "static shape"
        for i in range(T.int64(4)):
            assert T.float32(0) <= A[i], ("ValueError", ["sqrt of a negative ", "element"])
            B[i] = T.sqrt(A[i])
            assert B[i] * B[i] <= A[i] + T.float32(1), ("RuntimeError", [])

    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            B[i] = A[i] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        lv = R.call_tir(cls.add_one, (x,), out_ty=R.Tensor((4,), dtype="float32"))
        gv = R.call_tir(cls.checked_sqrt, (lv,), out_ty=R.Tensor((4,), dtype="float32"))
        return gv
