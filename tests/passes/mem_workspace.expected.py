# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def halves(var_A: T.handle, var_B: T.handle, var_h: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, (m,), "float32")
        B = T.match_buffer(var_B, (m,), "float32")
        h = T.match_buffer(var_h, (m // T.int64(2),), "float32")
        for i in range(m // T.int64(2)):
            h[i] = A[i] + A[i + m // T.int64(2)]
        for i_1 in range(m // T.int64(2) * T.int64(2)):
            B[i_1] = h[i_1 // T.int64(2)]

    @T.prim_func(private=True)
    def scaled(var_A: T.handle, var_B: T.handle, m: T.int64, var_w: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        w = T.match_buffer(var_w, (m,), "float32")
        for k in range(m):
            w[k] = T.Cast("float32", k)
        for i, j in T.grid(n, T.int64(4)):
            B[i, j] = A[i, j] * w[m - T.int64(1)]

    @T.prim_func(private=True)
    def twice(var_A: T.handle, var_B: T.handle, var_tmp: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)), "float32")
        B = T.match_buffer(var_B, (n, T.int64(4)), "float32")
        tmp = T.match_buffer(var_tmp, (n, T.int64(4)), "float32")
        acc = T.alloc_buffer((T.int64(1),), "float32")
        for i, j in T.grid(n, T.int64(4)):
            tmp[i, j] = A[i, j] + A[i, j]
        for i_1, j_1 in T.grid(n, T.int64(4)):
            acc[T.int64(0)] = tmp[i_1, j_1]
            B[i_1, j_1] = acc[T.int64(0)]

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((16,), dtype="float32")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor((16,), dtype="float32")):
        n = T.int64()
        R.func_attr({"relax.force_pure": True, "tir_var_upper_bound": {"n": 32}})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_1: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        cls.twice(x, alloc, alloc_1)
        R.memory.kill_tensor(alloc_1)
        R.memory.kill_storage(storage_1)
        a: R.Tensor((n, 4), dtype="float32") = alloc
        storage_2: R.Object = R.memory.alloc_storage(R.shape([n * 16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_2: R.Tensor((n, 4), dtype="float32") = R.memory.alloc_tensor(storage_2, R.prim_value(0), R.shape([n, 4]), R.dtype("float32"), R.prim_value(0))
        storage_3: R.Object = R.memory.alloc_storage(R.shape([12]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_3: R.Tensor((3,), dtype="float32") = R.memory.alloc_tensor(storage_3, R.prim_value(0), R.shape([3]), R.dtype("float32"), R.prim_value(0))
        cls.scaled(a, alloc_2, R.prim_value(3), alloc_3)
        R.memory.kill_tensor(alloc)
        R.memory.kill_tensor(alloc_3)
        R.memory.kill_storage(storage)
        R.memory.kill_storage(storage_3)
        b: R.Tensor((n, 4), dtype="float32") = alloc_2
        storage_4: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_4: R.Tensor((16,), dtype="float32") = R.memory.alloc_tensor(storage_4, R.prim_value(0), R.shape([16]), R.dtype("float32"), R.prim_value(0))
        storage_5: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc_5: R.Tensor((8,), dtype="float32") = R.memory.alloc_tensor(storage_5, R.prim_value(0), R.shape([8]), R.dtype("float32"), R.prim_value(0))
        cls.halves(y, alloc_4, alloc_5)
        R.memory.kill_tensor(alloc_5)
        R.memory.kill_storage(storage_5)
        c: R.Tensor((16,), dtype="float32") = alloc_4
        return (b, c)
