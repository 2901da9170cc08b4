@R.function
def main(x: R.Tensor((4,), "float32")):
    b = R.ExternFunc("f", R.Callable((R.Tensor((4,), "float32"),), R.Object, derive_func="g"))(x)
    return b
