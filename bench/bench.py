"""bench.py - rxc's benchmark (`make bench`): writes bench/results.md,
bench/results.json and bench/*.svg, all measured on the machine it runs on.

1. Kernels: float32 matmul (square 64..1024 and the samples' dense layers)
   and conv2d (every distinct layer of samples/mobilenet_v2.py,
   samples/kws_dscnn.py and of torchvision's resnet18 and squeezenet1_1,
   REAL_CONVS), each a one-op TVMScript module compiled by
   `rxc compile` and called from bench/kernel_*.c built with
   gcc -O3 -march=native, beside OpenBLAS's single-threaded sgemm (for conv,
   im2col + sgemm) and a naive loop nest, all three in the same process.
2. Whole models: each sample through bench/model_bench.c (latency under
   gcc -O2, gcc -O3 -march=native and libtcc, via codegen's JIT API), and
   its arena against the lower bound and the naive sum (`rxc plan`).
3. Compile time: rxc from TVMScript to C per sample (in model_bench) and for
   synthetic modules of 1k, 10k and 100k bindings (bench/gen_bindings.py,
   `rxc compile` timed as a process); libtcc against gcc -O2 per sample.

Each figure is the median of several runs (the C drivers take the median
of 5; compile times here the median of RUNS).  Ratios compare figures of
one process run.  Environment: RXC (build/rxc), MODEL_BENCH, REAL_DIR
(build/real: the ONNX files REAL_CONVS is checked against).

`bench.py --conv [SOURCE...]` (make bench-conv) runs the conv2d table
alone, of every layer or of the named samples' and models' layers, and
writes bench/conv.md and bench/conv.json.
"""
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RXC = os.environ.get("RXC", os.path.join(ROOT, "build/rxc"))
MODEL_BENCH = os.environ.get("MODEL_BENCH", os.path.join(ROOT, "build/bench/model_bench"))
BENCH = os.path.join(ROOT, "bench")
RUNS = 3
SQUARES = [64, 128, 256, 512, 1024]
SYNTHETIC = [1000, 10000, 100000]
SYN_LIMIT_S = 120  # a module that takes longer is reported as stopped
SAMPLES = ["mlp", "digits_mlp", "digits_cnn", "tiny_cnn", "kws_dscnn", "mobilenet_v2",
           "transformer_block"]
CONV_SAMPLES = ["mobilenet_v2", "kws_dscnn"]
ENV1 = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    debian = open("/etc/debian_version").read().strip() if os.path.exists("/etc/debian_version") else "?"
    gcc = run(["gcc", "--version"]).splitlines()[0]
    blas = run(["dpkg-query", "-W", "-f=${Version}", "libopenblas0-pthread"]) \
        if subprocess.run(["dpkg-query", "-W", "libopenblas0-pthread"], capture_output=True).returncode == 0 else "?"
    return {"cpu": cpu, "cores": os.cpu_count(), "os": f"Debian {debian}", "kernel": platform.release(),
            "gcc": gcc, "openblas": blas}


# ---- shapes from the samples -------------------------------------------------

def sample_text(name):
    with open(os.path.join(ROOT, "samples", name + ".py")) as f:
        return f.read()


def upper_bounds(text):
    m = re.search(r'"tir_var_upper_bound": \{([^}]*)\}', text)
    return {k: int(v) for k, v in re.findall(r'"(\w+)": (\d+)', m.group(1))} if m else {}


def annotations(text):
    """name -> shape (ints; symbolic dims at their upper bound) of every
    annotated parameter and binding."""
    ub = upper_bounds(text)
    shapes = {}
    for name, dims in re.findall(r'(\w+): R\.Tensor\(\(([^)]*)\)', text):
        shapes[name] = [int(ub.get(d.strip().strip('"'), d.strip().strip('"')))
                        if not d.strip().isdigit() else int(d) for d in dims.split(",") if d.strip()]
    return shapes


def dense_shapes():
    """(M, K, N) of the samples' matmuls whose x2 is a 2-D static tensor."""
    found = []
    for s in SAMPLES:
        text = sample_text(s)
        shapes = annotations(text)
        for out, a, b in re.findall(r'(\w+): R\.Tensor\(\([^)]*\)[^)]*\) = R\.matmul\((\w+), (\w+)', text):
            sa, sb = shapes.get(a), shapes.get(b)
            if not sa or not sb or len(sb) != 2 or len(sa) < 2:
                continue
            m = 1
            for d in sa[:-1]:
                m *= d
            key = (m, sb[0], sb[1])
            if key not in [f[1] for f in found]:
                found.append((s, key))
    return found


CONV_RE = re.compile(r'(\w+): R\.Tensor\(\(([^)]*)\)[^)]*\) = R\.nn\.conv2d\((\w+), (\w+), '
                     r'strides=\[(\d+), (\d+)\], padding=\[(\d+), (\d+), (\d+), (\d+)\], '
                     r'dilation=\[1, 1\], groups=(\d+)')


# The conv2d layers of torchvision's resnet18 and squeezenet1_1 (batch 1,
# 224 x 224, groups 1, square windows, strides and padding), as
# `rxc import` reads them from the ONNX files of bench/real_models.py
# (build/real/NAME/NAME.onnx; real_conv_check compares the two when the
# files exist): model, C, H, W, O, K, stride, padding.
REAL_CONVS = [
    ("resnet18", 3, 224, 224, 64, 7, 2, 3),
    ("resnet18", 64, 56, 56, 64, 3, 1, 1),
    ("resnet18", 64, 56, 56, 128, 3, 2, 1),
    ("resnet18", 128, 28, 28, 128, 3, 1, 1),
    ("resnet18", 64, 56, 56, 128, 1, 2, 0),
    ("resnet18", 128, 28, 28, 256, 3, 2, 1),
    ("resnet18", 256, 14, 14, 256, 3, 1, 1),
    ("resnet18", 128, 28, 28, 256, 1, 2, 0),
    ("resnet18", 256, 14, 14, 512, 3, 2, 1),
    ("resnet18", 512, 7, 7, 512, 3, 1, 1),
    ("resnet18", 256, 14, 14, 512, 1, 2, 0),
    ("squeezenet1_1", 3, 224, 224, 64, 3, 2, 0),
    ("squeezenet1_1", 64, 55, 55, 16, 1, 1, 0),
    ("squeezenet1_1", 16, 55, 55, 64, 1, 1, 0),
    ("squeezenet1_1", 16, 55, 55, 64, 3, 1, 1),
    ("squeezenet1_1", 128, 55, 55, 16, 1, 1, 0),
    ("squeezenet1_1", 128, 27, 27, 32, 1, 1, 0),
    ("squeezenet1_1", 32, 27, 27, 128, 1, 1, 0),
    ("squeezenet1_1", 32, 27, 27, 128, 3, 1, 1),
    ("squeezenet1_1", 256, 27, 27, 32, 1, 1, 0),
    ("squeezenet1_1", 256, 13, 13, 48, 1, 1, 0),
    ("squeezenet1_1", 48, 13, 13, 192, 1, 1, 0),
    ("squeezenet1_1", 48, 13, 13, 192, 3, 1, 1),
    ("squeezenet1_1", 384, 13, 13, 48, 1, 1, 0),
    ("squeezenet1_1", 384, 13, 13, 64, 1, 1, 0),
    ("squeezenet1_1", 64, 13, 13, 256, 1, 1, 0),
    ("squeezenet1_1", 64, 13, 13, 256, 3, 1, 1),
    ("squeezenet1_1", 512, 13, 13, 64, 1, 1, 0),
    ("squeezenet1_1", 512, 13, 13, 1000, 1, 1, 0),
]
REAL_DIR = os.environ.get("REAL_DIR", os.path.join(ROOT, "build", "real"))


def text_convs(source, text):
    """The conv2d layers of a TVMScript text: dicts of the driver's macros
    (and "sample": source), in order, repeats included."""
    shapes, layers = annotations(text), []
    for m in CONV_RE.finditer(text):
        x, w = shapes[m.group(3)], shapes[m.group(4)]
        out = [int(d) for d in m.group(2).split(",")]
        sh, sw, pt, pl, pb, pr, g = (int(m.group(i)) for i in range(5, 12))
        layers.append({"sample": source, "C": x[1], "H": x[2], "W": x[3], "O": w[0], "KH": w[2],
                       "KW": w[3], "SH": sh, "SW": sw, "PT": pt, "PL": pl, "PB": pb, "PR": pr,
                       "G": g, "OH": out[2], "OW": out[3]})
    return layers


def real_convs():
    """REAL_CONVS as the driver's macros."""
    layers = []
    for model, c, h, w, o, k, s, p in REAL_CONVS:
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        layers.append({"sample": model, "C": c, "H": h, "W": w, "O": o, "KH": k, "KW": k, "SH": s,
                       "SW": s, "PT": p, "PL": p, "PB": p, "PR": p, "G": 1, "OH": oh, "OW": ow})
    return layers


def layer_key(c):
    return tuple(c[k] for k in ("C", "H", "W", "O", "KH", "KW", "SH", "SW", "PT", "PL", "PB", "PR", "G"))


def real_conv_check(tmp):
    """Compares REAL_CONVS with the layers `rxc import` reads from the ONNX
    files of bench/real_models.py, for the models whose file exists; logs
    what differs (the table still uses REAL_CONVS)."""
    for model in sorted({r[0] for r in REAL_CONVS}):
        onnx = os.path.join(REAL_DIR, model, model + ".onnx")
        if not os.path.exists(onnx):
            continue
        py = os.path.join(tmp, model + ".py")
        run([RXC, "import", onnx, "-o", py, "--params", os.path.join(tmp, model + ".npz")])
        with open(py) as f:
            got = list(dict.fromkeys(layer_key(c) for c in text_convs(model, f.read())))
        listed = [layer_key(c) for c in real_convs() if c["sample"] == model]
        if got != listed:
            log("bench: REAL_CONVS of %s differ from %s: %s" % (model, onnx, got))


def conv_layers(only=None):
    """Distinct conv2d layers of the samples and of REAL_CONVS, each kept
    at its first source: dicts of the driver's macros.  only: the sources
    (sample or model names) to keep, None for all."""
    layers, seen = [], set()
    found = [c for s in CONV_SAMPLES for c in text_convs(s, sample_text(s))] + real_convs()
    for c in found:
        if (only and c["sample"] not in only) or layer_key(c) in seen:
            continue
        seen.add(layer_key(c))
        layers.append(c)
    return layers


# ---- kernels -------------------------------------------------------------------

HEAD = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n" \
       "# from tvm.script import relax as R\n\n@I.ir_module\nclass Module:\n    @R.function\n"


def tensor(shape, dtype="float32"):
    return "R.Tensor((%s), dtype=\"%s\")" % (", ".join(str(d) for d in shape), dtype)


# Operands and result of the int8 kernels (issue 23): int8 x int8 -> int32.
INT8 = ("int8", "int32")


def matmul_module(m, k, n, dtypes=None):
    t, o = dtypes or ("float32", "float32")
    out_dtype = o if dtypes else "void"
    return HEAD + (f"    def main(a: {tensor((m, k), t)}, b: {tensor((k, n), t)}) -> {tensor((m, n), o)}:\n"
                   f"        with R.dataflow():\n"
                   f"            c: {tensor((m, n), o)} = R.matmul(a, b, out_dtype=\"{out_dtype}\")\n"
                   f"            R.output(c)\n        return c\n")


def conv_module(c, dtypes=None):
    t, ot = dtypes or ("float32", "float32")
    x, w = (1, c["C"], c["H"], c["W"]), (c["O"], c["C"] // c["G"], c["KH"], c["KW"])
    o = (1, c["O"], c["OH"], c["OW"])
    return HEAD + (f"    def main(x: {tensor(x, t)}, w: {tensor(w, t)}) -> {tensor(o, ot)}:\n"
                   f"        with R.dataflow():\n"
                   f"            y: {tensor(o, ot)} = R.nn.conv2d(x, w, strides=[{c['SH']}, {c['SW']}], "
                   f"padding=[{c['PT']}, {c['PL']}, {c['PB']}, {c['PR']}], dilation=[1, 1], "
                   f"groups={c['G']}, data_layout=\"NCHW\", kernel_layout=\"OIHW\", "
                   f"out_layout=\"NCHW\", out_dtype=\"{ot if dtypes else 'void'}\")\n"
                   f"            R.output(y)\n        return y\n")


def kernel(tmp, module, driver, macros):
    """Compiles module with rxc and the driver with gcc -O3 -march=native;
    returns the driver's JSON."""
    src = os.path.join(tmp, "k.py")
    with open(src, "w") as f:
        f.write(module)
    out = os.path.join(tmp, "k")
    run([RXC, "compile", src, "--name", "k", "-o", out])
    exe, obj = os.path.join(tmp, "kernel"), os.path.join(tmp, "k.o")
    # the generated code apart: the driver's shape macros must not reach it
    run(["gcc", "-O3", "-march=native", "-c", os.path.join(out, "k.c"), "-o", obj])
    run(["gcc", "-O3", "-march=native", "-I", BENCH, "-include", os.path.join(out, "k.h")] +
        ["-DSZ_%s=%d" % kv for kv in macros.items()] +
        [os.path.join(BENCH, driver), obj, "-o", exe, "-lopenblas"])
    return json.loads(run([exe], env=ENV1))


def gflops(flop, s):
    return flop / s / 1e9


def kernel_pair(tmp, f_module, q_module, macros):
    """Compiles the float32 and the int8 module (entries f_main, q_main)
    and bench/kernel_int8.c with gcc -O3 -march=native; returns the
    driver's JSON."""
    objs, heads = [], []
    for name, module in (("f", f_module), ("q", q_module)):
        src, out = os.path.join(tmp, name + ".py"), os.path.join(tmp, name)
        with open(src, "w") as f:
            f.write(module)
        run([RXC, "compile", src, "--name", name, "-o", out])
        objs.append(os.path.join(tmp, name + ".o"))
        heads += ["-include", os.path.join(out, name + ".h")]
        run(["gcc", "-O3", "-march=native", "-c", os.path.join(out, name + ".c"), "-o", objs[-1]])
    exe = os.path.join(tmp, "kernel_int8")
    run(["gcc", "-O3", "-march=native", "-I", BENCH] + heads + ["-D%s=%d" % kv for kv in macros.items()] +
        [os.path.join(BENCH, "kernel_int8.c")] + objs + ["-o", exe])
    return json.loads(run([exe]))


# The int8 rows: square matmuls to 512, the samples' dense layers, and the
# conv2d layers of the samples and resnet18 (full, pointwise, depthwise).
INT8_SQUARES = [64, 128, 256, 512]
INT8_CONV_SOURCES = set(CONV_SAMPLES) | {"resnet18"}


def int8_row(what, shape, kind, ops, r):
    row = {"op": what, "shape": shape, "kind": kind, "f32_gops": ops / r["f32_s"] / 1e9,
           "int8_gops": ops / r["int8_s"] / 1e9, "int8_over_f32": r["f32_s"] / r["int8_s"],
           "exact": r["differ"] == 0}
    log("int8 %s %s: float32 %.2f GOP/s, int8 %.2f GOP/s (x%.2f)%s" %
        (what, shape, row["f32_gops"], row["int8_gops"], row["int8_over_f32"],
         "" if row["exact"] else ", RESULTS DIFFER"))
    return row


def bench_int8(tmp):
    """int8 x int8 -> int32 against float32 of the same shapes, both rxc's
    generated code; GOP/s counts a multiply-add as 2 ops."""
    rows = []
    for origin, (m, k, n) in [("square", (n, n, n)) for n in INT8_SQUARES] + dense_shapes():
        r = kernel_pair(tmp, matmul_module(m, k, n), matmul_module(m, k, n, INT8), {"SZ_M": m, "SZ_K": k, "SZ_N": n})
        rows.append(int8_row("matmul", "%d x %d x %d" % (m, k, n), origin, 2.0 * m * n * k, r))
    for c in conv_layers(INT8_CONV_SOURCES):
        macros = {"SZ_" + k: v for k, v in c.items() if k not in ("sample", "PB", "PR")}
        r = kernel_pair(tmp, conv_module(c), conv_module(c, INT8), dict(macros, SZ_CONV=1))
        kind = "depthwise" if c["G"] == c["C"] and c["G"] > 1 else \
            ("pointwise" if c["KH"] == c["KW"] == 1 else "full")
        ops = 2.0 * c["O"] * c["OH"] * c["OW"] * (c["C"] // c["G"]) * c["KH"] * c["KW"]
        shape = "%d x %d x %d -> %d, %dx%d, %d" % (c["C"], c["H"], c["W"], c["O"], c["KH"], c["KW"], c["SH"])
        rows.append(int8_row("conv2d " + c["sample"], shape, kind, ops, r))
    return rows


def int8_markdown(rows):
    """The int8 section: medians of the ratio by kind, then every row."""
    kinds = list(dict.fromkeys((r["op"].split()[0], r["kind"]) for r in rows))
    summary = []
    for op, kind in kinds:
        rs = [r for r in rows if r["op"].split()[0] == op and r["kind"] == kind]
        ratio = [r["int8_over_f32"] for r in rs]
        summary.append(("%s, %s" % (op, kind), len(rs), "%.2f (%.2f-%.2f)" % (median(ratio), min(ratio), max(ratio))))
    return "\n".join([
        "## int8 kernels (int8 x int8 -> int32, gcc -O3 -march=native)", "",
        "GOP/s (a multiply-add is 2 ops) of rxc's generated code for the same one-op module in float32 and "
        "with int8 operands and out_dtype int32 (register tiles with an int32 accumulator); exact: the "
        "int8 result equals the float32 one on small-integer operands.", "",
        table(["kernels", "count", "int8 / float32, median (min-max)"], summary), "",
        table(["op", "shape", "kind", "float32 GOP/s", "int8 GOP/s", "int8 / float32", "exact"],
              [(r["op"], r["shape"], r["kind"], "%.2f" % r["f32_gops"], "%.2f" % r["int8_gops"],
                "%.2f" % r["int8_over_f32"], "yes" if r["exact"] else "NO") for r in rows])])


def bench_matmuls(tmp):
    rows = []
    cases = [("square", (n, n, n)) for n in SQUARES] + dense_shapes()
    for origin, (m, k, n) in cases:
        r = kernel(tmp, matmul_module(m, k, n), "kernel_matmul.c", {"M": m, "K": k, "N": n})
        flop = 2.0 * m * n * k
        rows.append({"origin": origin, "M": m, "K": k, "N": n,
                     "rxc_gflops": gflops(flop, r["rxc_s"]), "openblas_gflops": gflops(flop, r["openblas_s"]),
                     "naive_gflops": gflops(flop, r["naive_s"]), "rxc_over_openblas": r["openblas_s"] / r["rxc_s"],
                     "rxc_over_naive": r["naive_s"] / r["rxc_s"], "max_abs_err": r["rxc_err"]})
        log("matmul %dx%dx%d: rxc %.1f GFLOP/s, OpenBLAS %.1f, naive %.1f" %
            (m, k, n, rows[-1]["rxc_gflops"], rows[-1]["openblas_gflops"], rows[-1]["naive_gflops"]))
    return rows


def bench_convs(tmp, only=None):
    rows = []
    for c in conv_layers(only):
        r = kernel(tmp, conv_module(c), "kernel_conv.c",
                   {k: v for k, v in c.items() if k not in ("sample", "PB", "PR")})
        flop = 2.0 * c["O"] * c["OH"] * c["OW"] * (c["C"] // c["G"]) * c["KH"] * c["KW"]
        kind = "depthwise" if c["G"] == c["C"] and c["G"] > 1 else \
            ("pointwise" if c["KH"] == c["KW"] == 1 else "full")
        rows.append(dict(c, kind=kind, rxc_gflops=gflops(flop, r["rxc_s"]),
                         openblas_gflops=gflops(flop, r["openblas_s"]), naive_gflops=gflops(flop, r["naive_s"]),
                         rxc_over_openblas=r["openblas_s"] / r["rxc_s"], rxc_over_naive=r["naive_s"] / r["rxc_s"],
                         max_abs_err=r["rxc_err"]))
        log("conv %s %dx%dx%d -> %d k%d s%d g%d: rxc %.2f GFLOP/s, im2col+sgemm %.2f, naive %.2f" %
            (c["sample"], c["C"], c["H"], c["W"], c["O"], c["KH"], c["SH"], c["G"],
             rows[-1]["rxc_gflops"], rows[-1]["openblas_gflops"], rows[-1]["naive_gflops"]))
    return rows


# ---- whole models ---------------------------------------------------------------

def bench_models():
    rows = []
    for s in SAMPLES:
        py = os.path.join(ROOT, "samples", s + ".py")
        npz = os.path.join(ROOT, "samples", s + ".npz")
        params = npz if os.path.exists(npz) else "-"
        dims = ["%s=%d" % kv for kv in upper_bounds(sample_text(s)).items()]
        r = json.loads(run([MODEL_BENCH, py, params] + dims))
        plan_cmd = [RXC, "plan", py, "--format", "json"] + (["--params", npz] if params != "-" else [])
        plan = json.loads(run(plan_cmd))
        main = [f for f in plan["functions"] if f["name"] == "main"][0]
        rows.append({"sample": s, "weights": params != "-", "dims": " ".join(dims) or "-",
                     "rxc_to_c_s": r["rxc_to_c_s"], "c_bytes": r["c_bytes"], "compilers": r["compilers"],
                     "arena_bytes": main["arena_bytes"], "lower_bound": main["lower_bound"],
                     "naive_sum": main["naive_sum"]})
        c = r["compilers"]
        log("%s: rxc %.3f s; latency gcc -O2 %.3g s, -O3 native %.3g s, tcc %.3g s" %
            (s, r["rxc_to_c_s"], c["gcc -O2"]["latency_s"], c["gcc -O3 -march=native"]["latency_s"],
             c["tcc"]["latency_s"]))
    return rows


# ---- compile time on synthetic modules -----------------------------------------

def bench_synthetic(tmp):
    rows = []
    for n in SYNTHETIC:
        src = os.path.join(tmp, "syn%d.py" % n)
        with open(src, "w") as f:
            f.write(run([sys.executable, os.path.join(BENCH, "gen_bindings.py"), str(n)]))
        times = []
        for _ in range(RUNS if n < 100000 else 1):
            t0 = time.perf_counter()
            try:
                run([RXC, "compile", src, "-o", os.path.join(tmp, "syn_out")], timeout=SYN_LIMIT_S)
            except subprocess.TimeoutExpired:
                times = None
                break
            times.append(time.perf_counter() - t0)
        rows.append({"bindings": n, "rxc_compile_s": median(times) if times else None})
        if not times:
            log("synthetic %d bindings: over %d s, stopped" % (n, SYN_LIMIT_S))
            continue
        log("synthetic %d bindings: rxc compile %.3f s" % (n, rows[-1]["rxc_compile_s"]))
    for r in rows:
        r["us_per_binding"] = r["rxc_compile_s"] / r["bindings"] * 1e6 if r["rxc_compile_s"] else None
    return rows


# ---- output ---------------------------------------------------------------------

def fmt_bytes(b):
    return "%d" % b


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def conv_summary(rows):
    """The conv2d table by kind: layers, rxc / im2col+sgemm median (min-max)
    and rxc / naive median, over all rows and then for each source."""
    def line(label, rs):
        ratio = [r["rxc_over_openblas"] for r in rs]
        return (label, len(rs), "%.2f (%.2f-%.2f)" % (median(ratio), min(ratio), max(ratio)),
                "%.1f" % median([r["rxc_over_naive"] for r in rs]))
    kinds = ["full", "pointwise", "depthwise"]
    sources = list(dict.fromkeys(r["sample"] for r in rows))
    out = [line(k, [r for r in rows if r["kind"] == k]) for k in kinds if any(r["kind"] == k for r in rows)]
    out += [line("%s, %s" % (k, s), [r for r in rows if r["kind"] == k and r["sample"] == s])
            for s in sources for k in kinds
            if len(sources) > 1 and any(r["kind"] == k and r["sample"] == s for r in rows)]
    return table(["conv2d kind", "layers", "rxc / im2col+sgemm, median (min-max)", "rxc / naive, median"], out)


def conv_table(rows):
    return table(["conv2d C x H x W -> O, k, stride, groups", "sample", "kind", "rxc", "im2col+sgemm",
                  "naive", "rxc / OpenBLAS", "rxc / naive"],
                 [("%d x %d x %d -> %d, %dx%d, %d, %d" % (r["C"], r["H"], r["W"], r["O"], r["KH"], r["KW"],
                                                         r["SH"], r["G"]), r["sample"], r["kind"],
                   "%.2f" % r["rxc_gflops"], "%.2f" % r["openblas_gflops"], "%.2f" % r["naive_gflops"],
                   "%.2f" % r["rxc_over_openblas"], "%.1f" % r["rxc_over_naive"]) for r in rows])


def markdown(res):
    mc = res["machine"]
    md = ["# rxc benchmark results", "",
          f"Measured by `make bench` on {mc['cpu']} ({mc['cores']} cores), {mc['os']}, "
          f"{mc['gcc']}, OpenBLAS {mc['openblas']} single-threaded. Each figure is a median of "
          "5 runs (compile times: of 3); each ratio compares figures of the same run.", "",
          "## Kernels (float32, gcc -O3 -march=native)", "",
          "GFLOP/s; rxc = the generated code of a one-op module; OpenBLAS = cblas_sgemm "
          "(conv: im2col + sgemm, one sgemm per group, im2col included); naive = a plain loop nest.", ""]
    md.append(table(["matmul M x K x N", "from", "rxc", "OpenBLAS", "naive", "rxc / OpenBLAS", "rxc / naive"],
                    [("%d x %d x %d" % (r["M"], r["K"], r["N"]), r["origin"], "%.1f" % r["rxc_gflops"],
                      "%.1f" % r["openblas_gflops"], "%.2f" % r["naive_gflops"], "%.2f" % r["rxc_over_openblas"],
                      "%.1f" % r["rxc_over_naive"]) for r in res["matmul"]]))
    md += ["", conv_summary(res["conv2d"]), "", conv_table(res["conv2d"])]
    md += ["", "![matmul](matmul.svg)", "", int8_markdown(res["int8"]), "", "## Whole models", "",
           "Latency of one call of `main` (symbolic dims at their upper bound), weights bound "
           "from the sample's .npz where it has one; compiled through codegen's JIT API "
           "(cg_jit_cc with gcc, cg_jit_tcc with libtcc).", ""]
    md.append(table(["sample", "dims", "gcc -O2 ms", "gcc -O3 -march=native ms", "libtcc ms", "tcc / O3",
                     "arena B", "lower bound B", "naive sum B", "arena / lower bound"],
                    [(r["sample"], r["dims"], "%.3f" % (r["compilers"]["gcc -O2"]["latency_s"] * 1e3),
                      "%.3f" % (r["compilers"]["gcc -O3 -march=native"]["latency_s"] * 1e3),
                      "%.3f" % (r["compilers"]["tcc"]["latency_s"] * 1e3),
                      "%.1f" % (r["compilers"]["tcc"]["latency_s"] /
                                r["compilers"]["gcc -O3 -march=native"]["latency_s"]),
                      fmt_bytes(r["arena_bytes"]), fmt_bytes(r["lower_bound"]), fmt_bytes(r["naive_sum"]),
                      "%.2f" % (r["arena_bytes"] / r["lower_bound"] if r["lower_bound"] else 1.0))
                     for r in res["models"]]))
    md += ["", "## Compile time", "",
           "rxc from TVMScript to C in process (parse, bind weights, pipeline, plan, generate); "
           "libtcc and gcc -O2 compiling the generated C.", ""]
    md.append(table(["sample", "C bytes", "rxc ms", "libtcc ms", "gcc -O2 ms", "gcc -O2 / libtcc"],
                    [(r["sample"], r["c_bytes"], "%.1f" % (r["rxc_to_c_s"] * 1e3),
                      "%.1f" % (r["compilers"]["tcc"]["compile_s"] * 1e3),
                      "%.1f" % (r["compilers"]["gcc -O2"]["compile_s"] * 1e3),
                      "%.0f" % (r["compilers"]["gcc -O2"]["compile_s"] / r["compilers"]["tcc"]["compile_s"]))
                     for r in res["models"]]))
    md += ["", "Synthetic modules (bench/gen_bindings.py), `rxc compile` timed as a process:", ""]
    md.append(table(["bindings", "rxc compile s", "us per binding"],
                    [(r["bindings"], "%.3f" % r["rxc_compile_s"] if r["rxc_compile_s"] else
                      "over %d s (stopped)" % SYN_LIMIT_S,
                      "%.1f" % r["us_per_binding"] if r["us_per_binding"] else "-")
                     for r in res["synthetic"]]))
    if res.get("planner"):
        md += ["", "## Memory planner (bench/planner.py)", "", res["planner"].strip()]
    return "\n".join(md) + "\n"


def plot(res):
    sq = [r for r in res["matmul"] if r["origin"] == "square"]
    data = os.path.join(BENCH, "matmul.dat")
    with open(data, "w") as f:
        for r in sq:
            f.write("%d %.3f %.3f %.3f\n" % (r["M"], r["rxc_gflops"], r["openblas_gflops"], r["naive_gflops"]))
    script = (f"set terminal svg size 640,400\nset output '{os.path.join(BENCH, 'matmul.svg')}'\n"
              "set title 'float32 square matmul, one core'\nset xlabel 'n'\nset ylabel 'GFLOP/s'\n"
              "set logscale x 2\nset key left top\n"
              f"plot '{data}' using 1:2 with linespoints title 'rxc (gcc -O3 -march=native)', "
              f"'' using 1:3 with linespoints title 'OpenBLAS sgemm', '' using 1:4 with linespoints title 'naive'\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


def main_conv(only):
    """`bench.py --conv [SOURCE...]` (make bench-conv): the conv2d table
    alone, of every layer or of the named sources' (samples or models);
    writes bench/conv.md and bench/conv.json, and prints conv.md."""
    start = time.time()
    res = {"machine": machine()}
    with tempfile.TemporaryDirectory() as tmp:
        real_conv_check(tmp)
        res["conv2d"] = bench_convs(tmp, only)
    res["seconds"] = time.time() - start
    mc = res["machine"]
    md = ["# rxc conv2d kernels", "",
          f"Measured by `make bench-conv` on {mc['cpu']} ({mc['cores']} cores), {mc['gcc']}, "
          f"OpenBLAS {mc['openblas']} single-threaded, in {res['seconds']:.0f} s. GFLOP/s of the "
          "generated code of a one-op module (gcc -O3 -march=native), im2col + cblas_sgemm (the "
          "im2col copy timed too) and a naive loop nest, medians of 5 runs; ratios compare figures of "
          "the same run.", "", conv_summary(res["conv2d"]), "", conv_table(res["conv2d"])]
    with open(os.path.join(BENCH, "conv.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(BENCH, "conv.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    log("wrote bench/conv.md, bench/conv.json (%.0f s)" % res["seconds"])


def main_int8():
    """`bench.py --int8` (make bench-int8): the int8 table alone, written
    to bench/int8.md and bench/int8.json and printed."""
    start = time.time()
    res = {"machine": machine()}
    with tempfile.TemporaryDirectory() as tmp:
        res["int8"] = bench_int8(tmp)
    res["seconds"] = time.time() - start
    mc = res["machine"]
    md = ["# rxc int8 kernels", "", f"Measured by `make bench-int8` on {mc['cpu']} ({mc['cores']} cores), "
          f"{mc['gcc']}, in {res['seconds']:.0f} s; medians of 5 runs.", "", int8_markdown(res["int8"])]
    with open(os.path.join(BENCH, "int8.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(BENCH, "int8.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


def main():
    if sys.argv[1:2] == ["--int8"]:
        return main_int8()
    if sys.argv[1:2] == ["--conv"]:
        sources = {c["sample"] for c in conv_layers()}
        bad = [a for a in sys.argv[2:] if a not in sources]
        if bad:
            sys.exit("bench.py: --conv takes sources among %s, not %s" % (", ".join(sorted(sources)), bad))
        return main_conv(set(sys.argv[2:]) or None)
    start = time.time()
    res = {"machine": machine()}
    with tempfile.TemporaryDirectory() as tmp:
        res["matmul"] = bench_matmuls(tmp)
        res["conv2d"] = bench_convs(tmp)
        res["int8"] = bench_int8(tmp)
        res["models"] = bench_models()
        res["synthetic"] = bench_synthetic(tmp)
    planner = os.path.join(BENCH, "planner.py")
    if os.path.exists(planner):
        res["planner"] = run([sys.executable, planner], env=dict(os.environ, RXC=RXC))
    res["seconds"] = time.time() - start
    with open(os.path.join(BENCH, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    plot(res)
    with open(os.path.join(BENCH, "results.md"), "w") as f:
        f.write(markdown(res))
    log("wrote bench/results.md, bench/results.json, bench/matmul.svg (%.0f s)" % res["seconds"])


if __name__ == "__main__":
    main()
