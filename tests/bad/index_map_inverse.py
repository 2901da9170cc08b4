@R.function
def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
    y = R.layout_transform(x, index_map=T.index_map(lambda i: (i // 4, i % 4), inverse_index_map=lambda a, b: (a * 4 + b,)))
    return y
