"""gen_bindings.py N - prints a TVMScript module whose main has N bindings,
for the compile-time benchmark (bench/bench.py): a chain of elementwise
ops (add, multiply, relu, in turn) on a (4,) float32 tensor, cut every
8 bindings by a matmul so that FuseOps forms many groups, not one."""
import sys


def main():
    n = int(sys.argv[1])
    t = 'R.Tensor((4,), dtype="float32")'
    m = 'R.Tensor((4, 4), dtype="float32")'
    out = ["# from tvm.script import ir as I", "# from tvm.script import tir as T",
           "# from tvm.script import relax as R", "", "@I.ir_module", "class Module:",
           "    @R.function",
           f"    def main(x: {t}, y: {t}, w: {m}) -> {t}:",
           "        with R.dataflow():"]
    prev = "x"
    for i in range(n):
        if i % 8 == 7:
            value = f"R.matmul({prev}, w)"
        else:
            value = [f"R.add({prev}, y)", f"R.multiply({prev}, y)", f"R.nn.relu({prev})"][i % 3]
        out.append(f"            lv{i}: {t} = {value}")
        prev = f"lv{i}"
    out += [f"            R.output({prev})", f"        return {prev}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
