# One transformer encoder block (post-norm, as in Vaswani et al. 2017 and
# BERT): d_model 64, 4 heads of 16, multi-head scaled dot-product attention
# (Q, K, V and output projections, softmax over keys, scale 1/sqrt(16)), a
# residual add and layer norm, then an MLP 64 -> 256 -> 64 with GELU, a
# residual add and layer norm.  Input (1, s, 64) with a symbolic sequence
# length s of at most 128.  Seeded weights: transformer_block.npz from
# tools/gen_weights.py.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, "s", 64), dtype="float32"), attn_q_weight: R.Tensor((64, 64), dtype="float32"), attn_q_bias: R.Tensor((64,), dtype="float32"), attn_k_weight: R.Tensor((64, 64), dtype="float32"), attn_k_bias: R.Tensor((64,), dtype="float32"), attn_v_weight: R.Tensor((64, 64), dtype="float32"), attn_v_bias: R.Tensor((64,), dtype="float32"), attn_out_weight: R.Tensor((64, 64), dtype="float32"), attn_out_bias: R.Tensor((64,), dtype="float32"), ln1_weight: R.Tensor((64,), dtype="float32"), ln1_bias: R.Tensor((64,), dtype="float32"), mlp_fc1_weight: R.Tensor((256, 64), dtype="float32"), mlp_fc1_bias: R.Tensor((256,), dtype="float32"), mlp_fc2_weight: R.Tensor((64, 256), dtype="float32"), mlp_fc2_bias: R.Tensor((64,), dtype="float32"), ln2_weight: R.Tensor((64,), dtype="float32"), ln2_bias: R.Tensor((64,), dtype="float32")) -> R.Tensor((1, "s", 64), dtype="float32"):
        s = T.int64()
        R.func_attr({"num_input": 1, "tir_var_upper_bound": {"s": 128}})
        with R.dataflow():
            lv: R.Tensor((64, 64), dtype="float32") = R.permute_dims(attn_q_weight, axes=None)
            lv1: R.Tensor((1, s, 64), dtype="float32") = R.matmul(x, lv, out_dtype="void")
            lv2: R.Tensor((1, s, 64), dtype="float32") = R.add(lv1, attn_q_bias)
            lv3: R.Tensor((1, s, 4, 16), dtype="float32") = R.reshape(lv2, R.shape([1, s, 4, 16]))
            lv4: R.Tensor((1, 4, s, 16), dtype="float32") = R.permute_dims(lv3, axes=[0, 2, 1, 3])
            lv5: R.Tensor((64, 64), dtype="float32") = R.permute_dims(attn_k_weight, axes=None)
            lv6: R.Tensor((1, s, 64), dtype="float32") = R.matmul(x, lv5, out_dtype="void")
            lv7: R.Tensor((1, s, 64), dtype="float32") = R.add(lv6, attn_k_bias)
            lv8: R.Tensor((1, s, 4, 16), dtype="float32") = R.reshape(lv7, R.shape([1, s, 4, 16]))
            lv9: R.Tensor((1, 4, 16, s), dtype="float32") = R.permute_dims(lv8, axes=[0, 2, 3, 1])
            lv10: R.Tensor((64, 64), dtype="float32") = R.permute_dims(attn_v_weight, axes=None)
            lv11: R.Tensor((1, s, 64), dtype="float32") = R.matmul(x, lv10, out_dtype="void")
            lv12: R.Tensor((1, s, 64), dtype="float32") = R.add(lv11, attn_v_bias)
            lv13: R.Tensor((1, s, 4, 16), dtype="float32") = R.reshape(lv12, R.shape([1, s, 4, 16]))
            lv14: R.Tensor((1, 4, s, 16), dtype="float32") = R.permute_dims(lv13, axes=[0, 2, 1, 3])
            lv15: R.Tensor((1, 4, s, s), dtype="float32") = R.matmul(lv4, lv9, out_dtype="void")
            lv16: R.Tensor((1, 4, s, s), dtype="float32") = R.multiply(lv15, R.const(0.25, "float32"))
            lv17: R.Tensor((1, 4, s, s), dtype="float32") = R.nn.softmax(lv16, axis=-1)
            lv18: R.Tensor((1, 4, s, 16), dtype="float32") = R.matmul(lv17, lv14, out_dtype="void")
            lv19: R.Tensor((1, s, 4, 16), dtype="float32") = R.permute_dims(lv18, axes=[0, 2, 1, 3])
            lv20: R.Tensor((1, s, 64), dtype="float32") = R.reshape(lv19, R.shape([1, s, 64]))
            lv21: R.Tensor((64, 64), dtype="float32") = R.permute_dims(attn_out_weight, axes=None)
            lv22: R.Tensor((1, s, 64), dtype="float32") = R.matmul(lv20, lv21, out_dtype="void")
            lv23: R.Tensor((1, s, 64), dtype="float32") = R.add(lv22, attn_out_bias)
            lv24: R.Tensor((1, s, 64), dtype="float32") = R.add(x, lv23)
            lv25: R.Tensor((1, s, 64), dtype="float32") = R.nn.layer_norm(lv24, ln1_weight, ln1_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv26: R.Tensor((64, 256), dtype="float32") = R.permute_dims(mlp_fc1_weight, axes=None)
            lv27: R.Tensor((1, s, 256), dtype="float32") = R.matmul(lv25, lv26, out_dtype="void")
            lv28: R.Tensor((1, s, 256), dtype="float32") = R.add(lv27, mlp_fc1_bias)
            lv29: R.Tensor((1, s, 256), dtype="float32") = R.nn.gelu(lv28)
            lv30: R.Tensor((256, 64), dtype="float32") = R.permute_dims(mlp_fc2_weight, axes=None)
            lv31: R.Tensor((1, s, 64), dtype="float32") = R.matmul(lv29, lv30, out_dtype="void")
            lv32: R.Tensor((1, s, 64), dtype="float32") = R.add(lv31, mlp_fc2_bias)
            lv33: R.Tensor((1, s, 64), dtype="float32") = R.add(lv25, lv32)
            gv: R.Tensor((1, s, 64), dtype="float32") = R.nn.layer_norm(lv33, ln2_weight, ln2_bias, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            R.output(gv)
        return gv
