@R.function
def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
    y = R.layout_transform(x, index_map=lambda i
