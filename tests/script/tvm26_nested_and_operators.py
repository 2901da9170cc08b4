# TVMScript as people write it in TVM's tests: calls nested in arguments,
# tuples, item accesses and return values (TVM's reader binds each to a
# fresh var before the statement, innermost first), and Python's operators
# on Relax values (a + b is R.add(a, b), -a is R.negative(a)).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def pair(x: R.Tensor((2, 3), "float32")) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")):
        with R.dataflow():
            y = R.multiply(R.add(x, x), R.nn.relu(x))
            R.output(y)
        return (R.add(y, y), y)

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "bool"):
        cls = Module
        a = x + y * x
        b = -a - (x - y) / y
        c = x ** y // (b % y)
        d = R.add(cls.pair(c)[0], a)
        return d < y
