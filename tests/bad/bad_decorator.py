@R.fnction
def main(x: R.Tensor((2,), dtype="float32")):
    return x
