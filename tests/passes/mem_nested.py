# passes: Normalize,KillAfterLastUse
# Nested blocks: kills of vars whose last use is in a dataflow block go
# after the block (at the start of the next ordinary block); dataflow
# vars are never killed; a local function gets its own kills, and the
# var it captures (h) is never killed in main.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        a = R.add(x, x)
        h = R.multiply(x, x)
        with R.dataflow():
            lv = R.multiply(a, a)
            gv = R.add(lv, x)
            R.output(gv)
        b = R.add(gv, x)

        @R.function
        def inner(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            R.func_attr({"relax.force_pure": True})
            p = R.add(y, h)
            q = R.multiply(p, p)
            return q

        c = inner(b)
        return c
