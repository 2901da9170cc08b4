# A file holding one prim_func, no module class.
# from tvm.script import tir as T

@T.prim_func
def transpose(A: T.Buffer((T.int64(3), T.int64(5)), "float32"), B: T.Buffer((T.int64(5), T.int64(3)), "float32")):
    T.func_attr({"op_pattern": 2, "tir.noalias": T.bool(True)})
    # with T.block("root"):
    for ax0, ax1 in T.grid(T.int64(5), T.int64(3)):
        with T.block("T_transpose"):
            v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
            T.reads(A[v_ax1, v_ax0])
            T.writes(B[v_ax0, v_ax1])
            B[v_ax0, v_ax1] = A[v_ax1, v_ax0]
