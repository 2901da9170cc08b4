# A module in the forms TVM prints after StaticPlanBlockMemory and
# VMBuiltinLower: R.vm.alloc_storage, R.vm.alloc_tensor, R.vm.kill_object
# and R.builtin.alloc_tensor (what StaticPlanBlockMemory leaves unplanned,
# here the result).  CallTIRRewrite maps them onto the R.memory ops, which
# memplan/ plans into the arena and the code generator emits; the result
# must be the interpreter's, which runs the forms as written.  A symbolic
# dim sizes the storages.  Run against the interpreter by
# tests/unit/test_codegen.c (at n = 1 and at its bound).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(3)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(3)), "float32")
        for i, j in T.grid(n, T.int64(3)):
            B[i, j] = A[i, j] * T.float32(2) + T.float32(1)

    @T.prim_func(private=True)
    def flip(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(3)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(3)), "float32")
        for i, j in T.grid(n, T.int64(3)):
            B[i, j] = A[n - i - T.int64(1), T.int64(2) - j]

    @R.function(pure=False)
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4}})
        cls = Module
        storage: R.Object = R.vm.alloc_storage(R.shape([n * 12]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((n, 3), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([n, 3]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = cls.scale(x, alloc)
        storage1: R.Object = R.vm.alloc_storage(R.shape([n * 12]), R.prim_value(0), R.dtype("uint8"))
        alloc1: R.Tensor((n, 3), dtype="float32") = R.vm.alloc_tensor(storage1, R.prim_value(0), R.shape([n, 3]), R.dtype("float32"))
        _1: R.Tuple = cls.flip(alloc, alloc1)
        _2: R.Tuple = R.vm.kill_object(alloc)
        _3: R.Tuple = R.vm.kill_object(storage)
        alloc2: R.Tensor((n, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4: R.Tuple = cls.scale(alloc1, alloc2)
        _5: R.Tuple = R.vm.kill_object(alloc1)
        _6: R.Tuple = R.vm.kill_object(storage1)
        return alloc2
