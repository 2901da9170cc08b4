"""sizes.py - the arena and weights bytes of digits_cnn_int8 beside
digits_cnn's, as compiled for the Cortex-M4 image (README's embedded
section; issue 23 wants the int8 model's at most 30% of the float one's).

    RXC=build/rxc /usr/bin/python3 tests/cortexm/sizes.py

prints the Markdown table README.md carries between `<!-- output of
tests/cortexm/sizes.py -->` and `<!-- end -->` (tests/readme/readme.py
checks it is current; --update there rewrites it).  The figures are
NAME_ARENA_BYTES and NAME_WEIGHTS_BYTES of the headers `rxc compile
--config config/cortex-m4.ini --set memplan.upper_bound.n=16` writes, as
run.py builds the image.  run.py holds the int8 model to RATIO_LIMIT once
its generated C has integer kernels (the QDQ pass); before, while it
computes in float32 between quantize/dequantize pairs, it only reports.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmtest  # noqa: E402
import gen_inputs  # noqa: E402

RATIO_LIMIT = 0.30


def figures(outdir):
    """{model: (arena bytes, weights bytes)} of the accuracy models'
    headers in outdir (written by cmtest.compile_model)."""
    return {m: cmtest.header_bytes(m, outdir) for m in gen_inputs.ACCURACY_MODELS}


def table(fig):
    """The Markdown table of fig: one row a figure, the ratio last."""
    float_name, int8_name = gen_inputs.ACCURACY_MODELS
    rows = ["| Cortex-M4, n <= %d | `%s` | `%s` | ratio |" % (cmtest.BOUND, float_name, int8_name),
            "|---|---:|---:|---:|"]
    for i, what in enumerate(("arena", "weights")):
        f, q = fig[float_name][i], fig[int8_name][i]
        rows.append("| %s bytes (`NAME_%s_BYTES`) | %d | %d | %.1f%% |"
                    % (what, what.upper(), f, q, 100.0 * q / f))
    return "\n".join(rows) + "\n"


def check(fig, integer_kernels):
    """Prints the figures; returns the errors: with integer kernels in the
    int8 model, its arena and weights must be at most RATIO_LIMIT of the
    float model's."""
    float_name, int8_name = gen_inputs.ACCURACY_MODELS
    errors = []
    for i, what in enumerate(("arena", "weights")):
        f, q = fig[float_name][i], fig[int8_name][i]
        print("  %s bytes: %s %d, %s %d = %.1f%%" % (what, float_name, f, int8_name, q, 100.0 * q / f))
        if integer_kernels and q > RATIO_LIMIT * f:
            errors.append("%s: %s bytes %d are more than %d%% of %s's %d"
                          % (int8_name, what, q, round(100 * RATIO_LIMIT), float_name, f))
    if not integer_kernels:
        print("  (no integer kernels in %s yet: the %d%% limit is not applied)"
              % (int8_name, round(100 * RATIO_LIMIT)))
    return errors


def main():
    with tempfile.TemporaryDirectory(prefix="rxc-sizes-") as tmp:
        for model in gen_inputs.ACCURACY_MODELS:
            cmtest.compile_model(model, tmp)
        sys.stdout.write(table(figures(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
