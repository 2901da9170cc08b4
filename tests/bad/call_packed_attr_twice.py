@R.function(pure=False)
def f(x: R.Tensor((2,), "float32")):
    o = R.call_packed("g", x, a=1, a=2, sinfo_args=R.Object)
    return o
