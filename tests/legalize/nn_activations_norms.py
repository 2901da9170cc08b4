# The nn ops without a window on a symbolic batch: activations, softmax
# along the symbolic axis and the last, layer_norm over two axes,
# batch_norm at inference and in training (a tuple of three results),
# dropout (a tuple of two).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 4), dtype="float32"), g: R.Tensor((3,), dtype="float32"), b: R.Tensor((3,), dtype="float32"), m: R.Tensor((3,), dtype="float32"), v: R.Tensor((3,), dtype="float32"), g2: R.Tensor((3, 4), dtype="float32"), b2: R.Tensor((3, 4), dtype="float32")):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}})
        with R.dataflow():
            a = R.nn.relu(x)
            c = R.nn.gelu(a)
            d = R.nn.silu(x)
            e = R.nn.softmax(d, axis=0)
            f = R.nn.log_softmax(c, axis=-1)
            h = R.nn.layer_norm(x, g2, b2, axes=[-2, -1], epsilon=0.001)
            pv = R.exp(v)
            bn = R.nn.batch_norm(x, g, b, m, pv, axis=1, training=False)
            bt = R.nn.batch_norm(h, g, b, m, pv, axis=1, epsilon=0.01, momentum=0.25, training=True)
            dr = R.nn.dropout(f, rate=0.5)
            bn0 = bn[0]
            bt0 = bt[0]
            bt1 = bt[1]
            bt2 = bt[2]
            bn1 = bn[1]
            dr0 = dr[0]
            dr1 = dr[1]
            s1 = R.add(e, bn0)
            s2 = R.add(s1, bt0)
            s3 = R.add(s2, dr0)
            s4 = R.add(s3, dr1)
            gv = (s4, bt1, bt2, bn1)
            R.output(gv)
        return gv
