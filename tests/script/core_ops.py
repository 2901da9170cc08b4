# Relax core ops (ops/core.c, builtin.c): shape and tensor-header ops, the
# inspect ops, sampling, and the ops that need TVM's runtime (closures,
# packed calls, the null object), as TVM prints them with inferred struct info.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(("n", 3), dtype="float32"), y: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        return x

    @R.function(pure=False)
    def runtime(x: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        cls = Module
        c: R.Object = R.make_closure(cls.f, (x,))
        d: R.Tensor((n, 3), dtype="float32") = R.invoke_closure(c, (x,), sinfo_args=(R.Tensor((n, 3), dtype="float32"),))
        d1: R.Tensor((n, 3), dtype="float32") = R.invoke_pure_closure(c, (x,), sinfo_args=(R.Tensor((n, 3), dtype="float32"),))
        e: R.Tensor((n, 3), dtype="float32") = R.call_builtin_with_ctx("vm.builtin.foo", (x,), sinfo_args=(R.Tensor((n, 3), dtype="float32"),))
        e1: R.Tuple = R.call_builtin_with_ctx("vm.builtin.bar", (x,))
        e2: R.Tuple(R.Tensor((n, 3), dtype="float32"), R.Tensor((n, 3), dtype="float32")) = R.call_inplace_packed("my_func", x, d, inplace_indices=[0, -1], sinfo_args=(R.Tensor((n, 3), dtype="float32"), R.Tensor((n, 3), dtype="float32")))
        z: R.Object = R.null_value()
        return d

    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), y: R.Tensor((4,), dtype="int64")):
        n = T.int64()
        with R.dataflow():
            a: R.Tensor((), dtype="int64") = R.size(x)
            b: R.Shape([n, 3]) = R.shape_of(x)
            c: R.Tensor((2,), dtype="int64") = R.shape_to_tensor(b)
            d: R.Shape(ndim=4) = R.tensor_to_shape(y)
            e: R.Prim("uint8") = R.inspect.tensor_dtype_code(x)
            e1: R.Prim("uint8") = R.inspect.tensor_dtype_bits(x)
            e2: R.Prim("uint16") = R.inspect.tensor_dtype_lanes(x)
            e3: R.Prim("int32") = R.inspect.tensor_ndim(x)
            e4: R.Prim(value=n) = R.inspect.tensor_shape_i(x, R.prim_value(0))
            e5: R.Prim(value=3) = R.inspect.tensor_stride_i(x, R.prim_value(0))
            e6: R.Prim("uint64") = R.inspect.tensor_byte_offset(x)
            e7: R.Prim("uint64") = R.inspect.tensor_elem_offset(x)
            f: R.Tensor((n, 3), dtype="float32") = R.ewise_fma(x, x, x)
            g: R.Tensor((n, 3), dtype="float16") = R.wrap_param(x, dtype="float16")
            h: R.Tensor((n, 3), dtype="float32") = R.builtin.stop_lift_params(x)
            i: R.Tensor((n, 3), dtype="float32") = R.memory.ensure_zero_offset(h)
            p: R.Tensor((2, 3), dtype="float32") = R.ones(R.shape([2, 3]), dtype="float32")
            u: R.Tensor((n, 1), dtype="float32") = R.zeros(R.shape([n, 1]), dtype="float32")
            s: R.Tensor((n, 1), dtype="int64") = R.zeros(R.shape([n, 1]), dtype="int64")
            m: R.Tensor((n, 1), dtype="int32") = R.multinomial_from_uniform(p, u, s, dtype="int32")
            R.output(a, c, d, e, e1, e2, e3, e4, e5, e6, e7, f, g, i, m)
        return (a, c, d, e, e1, e2, e3, e4, e5, e6, e7, f, g, i, m)
