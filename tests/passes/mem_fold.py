# passes: Normalize,FoldConstant
# FoldConstant: an R.call_tir on a constant runs its prim_func; op calls
# on constants (and on vars bound to folded constants) fold; a split on a
# constant folds to a tuple of constants and its items through t[0]; the
# kill of a folded var is dropped, the kill of x's sum stays; allocations
# are never folded.  (Division by zero: test_pass_mem.c.)
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def addone(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("b"):
                vi = T.axis.spatial(T.int64(4), i)
                B[vi] = A[vi] + T.float32(1)

    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((2,), dtype="int32"), R.Tensor((2,), dtype="float32")):
        a = R.call_tir(Module.addone, (R.const([1, 2, 3, 4], "float32"),), out_sinfo=R.Tensor((4,), dtype="float32"))
        b = R.multiply(a, R.const(2, "float32"))
        R.memory.kill_tensor(a)
        t = R.split(b, indices_or_sections=2, axis=0)
        t0 = t[0]
        d = R.floor_divide(R.const([7, 8], "int32"), R.const([3, 2], "int32"))
        s = R.add(x, b)
        storage = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        e = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        Module.addone(s, e)
        R.memory.kill_tensor(s)
        return (e, d, t0)
