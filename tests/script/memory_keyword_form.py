# Hand-written style of memory ops: raw literals and keywords.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4}})
        storage = R.memory.alloc_storage(R.shape([256]), virtual_device_index=0, storage_scope="global", dtype="float32")
        a = R.memory.alloc_tensor(storage, 0, R.shape([n, 8]), "float32")
        b = R.memory.alloc_tensor(storage, offset=128, shape=R.shape([n, 8]), dtype="float32", runtime_device_ind=0)
        _ = R.memory.kill_storage(storage)
        c = R.add(x, a)
        d = R.multiply(c, b)
        _ = R.memory.kill_tensor(a)
        _ = R.memory.kill_tensor(b)
        return d
