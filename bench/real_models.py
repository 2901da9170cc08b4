"""real_models.py - real models timed in one run, for `make bench` and `make
bench-real` (issues 18, 35, 36): writes bench/real_models.md and
bench/real_models.json.

Each model is built by torch with seeded random weights (no downloads),
exported by torch.onnx (opset 13), and given one seeded random input.  rxc
compiles it with [codegen] weights = blob (the form the JIT uses, so every
build below runs the same generated .c; its weights are read from
m.weights.bin before the timing).  Then, on one core:
  - torch: the model itself, torch.set_num_threads(1), no_grad;
  - ONNX Runtime: npm's onnxruntime-node, one intra-op thread
    (bench/ort_time.js);
  - rxc's C under gcc -O3 -march=native ("rxc"), under plain gcc -O2, and
    under gcc -O2 when rxc generates it for [target] isa = native (a
    column only when rxc accepts that key), each called from a small
    driver written here;
  - rxc's JIT: bench/jit_bench (api/rxc.h): rxc_jit_file of the .onnx
    (libtcc in memory, weights as a blob) timed to a callable entry, then
    the entry's latency; fewer runs (at least TCC_RUNS), since a run of a
    large model takes seconds.
Latency: the median over the runs of each run's CPU time (of the process:
torch and ONNX Runtime at one thread), after warm-up runs; the runs last
about 2 s, at least 5 of them (3 for libtcc).  CPU time equals wall time
on an idle core and stays close to it when other jobs share the machine;
the wall-clock medians are in the .json.  The outputs are compared with
torch's: max |x - torch| over max |torch| (issue 18 asks for 1e-4).  A
model rxc refuses stays in the table with rxc's reason.  Needs `make
bench-deps`; without torch or onnxruntime-node it says so and exits 0.

Then FORMS_MODELS again with [codegen] weights = inline, bytes and blob:
the cost of gcc -O2 on the C and whether the outputs are the same bits
(bench/weights_forms.md; `real_models.py --forms [NAME...]` runs only that
table, without the timing).

Environment: RXC (build/rxc), JIT_BENCH (build/bench/jit_bench), ORT_NODE
(build/bench-deps/node_modules/onnxruntime-node), CC (gcc), BENCH_NOTE (a
sentence added to the md's first paragraph).
`real_models.py NAME...` runs only those (and writes no file).
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (machine(), log(), median())

ROOT = bench.ROOT
RXC = bench.RXC
JIT_BENCH = os.environ.get("JIT_BENCH", os.path.join(ROOT, "build/bench/jit_bench"))
# absolute: node's require() reads a bare relative path as a package name
ORT_NODE = os.path.abspath(os.environ.get("ORT_NODE", os.path.join(ROOT, "build/bench-deps/node_modules/onnxruntime-node")))
CC = os.environ.get("CC", "gcc")
WORK = os.path.join(ROOT, "build/real")
SECONDS = 2.0
MIN_RUNS = 5
TCC_RUNS = 3  # libtcc's code runs seconds on the large models

# The builds of the same .c: key, label, gcc flags.  "O2_isa" is the .c
# generated for [target] isa = native (issue 35), when rxc has that key.
BUILDS = (("O3", "gcc -O3 -march=native", ["-O3", "-march=native"]),
          ("O2", "gcc -O2", ["-O2"]),
          ("O2_isa", "gcc -O2, isa = native", ["-O2"]))
ISA_SET = "target.isa=native"

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "m.h"
#ifndef WEIGHTS_FILE
#define WEIGHTS_FILE 0
#endif

static double clock_s(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
int main(int argc, char **argv) {
  static double cpu[1000], wall[1000];
  size_t nin = %(nin)d, nout = %(nout)d;
  float *in = malloc(nin * sizeof *in), *out = malloc(nout * sizeof *out);
  size_t bytes = (m_main_ARENA_BYTES + m_ARENA_ALIGN - 1) / m_ARENA_ALIGN * m_ARENA_ALIGN;
  void *arena = aligned_alloc(m_ARENA_ALIGN, bytes ? bytes : m_ARENA_ALIGN);
  FILE *f = fopen(argv[1], "rb");
  if (argc != 3 + WEIGHTS_FILE || !in || !out || !arena || !f || fread(in, sizeof *in, nin, f) != nin)
    return 2;
  fclose(f);
#if WEIGHTS_FILE /* weights = blob: m.weights.bin, read into memory */
  void *w = aligned_alloc(64, (m_WEIGHTS_BYTES + 63) / 64 * 64);
  f = fopen(argv[3], "rb");
  if (!w || !f || fread(w, 1, m_WEIGHTS_BYTES, f) != m_WEIGHTS_BYTES || m_set_weights(w, m_WEIGHTS_BYTES) != 0)
    return 5;
  fclose(f);
#endif
  for (int i = 0; i < 3; i++)
    if (m_main(arena, bytes, in, out) != 0)
      return 3;
  int n = 0;
  double start = clock_s(CLOCK_MONOTONIC);
  while (n < %(min_runs)d || (n < 1000 && clock_s(CLOCK_MONOTONIC) - start < %(seconds)f)) {
    double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    m_main(arena, bytes, in, out);
    cpu[n] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
    wall[n++] = (clock_s(CLOCK_MONOTONIC) - w0) * 1e3;
  }
  qsort(cpu, n, sizeof *cpu, by_value);
  qsort(wall, n, sizeof *wall, by_value);
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, sizeof *out, nout, f) != nout)
    return 4;
  fclose(f);
  printf("{\"ms\": %%.6f, \"wall_ms\": %%.6f, \"runs\": %%d}\n", cpu[n / 2], wall[n / 2], n);
  return 0;
}
"""

# The table's first four models, and the forms table's (issue 19).
FORMS_MODELS = ("resnet18", "mobilenet_v2", "squeezenet1_1", "transformer_encoder")


def models():
    """name -> (build the torch module, input shape)"""
    import torch
    import torchvision
    tv = torchvision.models

    def transformer():
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                                 dropout=0.0, batch_first=True)
        return layer

    image = (1, 3, 224, 224)
    out = {
        "resnet18": (lambda: tv.resnet18(weights=None), image),
        "mobilenet_v2": (lambda: tv.mobilenet_v2(weights=None), image),
        "squeezenet1_1": (lambda: tv.squeezenet1_1(weights=None), image),
        "transformer_encoder": (transformer, (1, 64, 256)),
    }
    def he_init(build):
        # googlenet's own init (a normal of std 0.01) and torch's default
        # (shufflenet's) fade the features to almost nothing: the output
        # would be the classifier's bias whatever the input, and comparing
        # it with torch's would check nothing.  He's init by fan in (fan out
        # would count a depthwise filter's channels and shrink it again).
        def built():
            model = build()
            for m in model.modules():
                if isinstance(m, torch.nn.Conv2d):
                    torch.nn.init.kaiming_normal_(m.weight, mode="fan_in", nonlinearity="relu")
            return model
        return built

    # issue 36: more torchvision models (in eval, googlenet's auxiliary
    # heads are not run and not exported)
    for name in ("densenet121", "mobilenet_v3_small", "googlenet", "shufflenet_v2_x1_0",
                 "efficientnet_b0", "convnext_tiny", "regnet_y_400mf", "mnasnet1_0"):
        kw = {"init_weights": False} if name == "googlenet" else {}
        build = (lambda f, kw: lambda: f(weights=None, **kw))(getattr(tv, name), kw)
        out[name] = (he_init(build) if name in ("googlenet", "shufflenet_v2_x1_0") else build,
                     image)
    return out


def timed(cmd, **kw):
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout
    return out, time.monotonic() - t0


def first_error(e):
    """The first error line of a failed command (rxc's diagnostic)."""
    lines = (e.stderr or "").strip().splitlines()
    errs = [l for l in lines if "error" in l]
    return (errs or lines or ["exit status %d" % e.returncode])[0]


def rel_err(x, ref):
    x = np.asarray(x, dtype=np.float64).ravel()
    ref = np.asarray(ref, dtype=np.float64).ravel()
    if x.shape != ref.shape:
        return float("inf")
    scale = max(np.abs(ref).max(), 1e-30)
    return float(np.abs(x - ref).max() / scale)


def torch_ms(model, x):
    """(CPU ms, wall ms, runs): medians as the drivers take them."""
    import torch
    with torch.no_grad():
        for _ in range(3):
            model(x)
        cpu, wall, start = [], [], time.monotonic()
        while len(cpu) < MIN_RUNS or (len(cpu) < 1000 and time.monotonic() - start < SECONDS):
            w0, c0 = time.perf_counter(), time.process_time()
            model(x)
            cpu.append((time.process_time() - c0) * 1e3)
            wall.append((time.perf_counter() - w0) * 1e3)
    return bench.median(cpu), bench.median(wall), len(cpu)


def export(name, build, shape):
    """The model built with seeded weights, exported: (dir, onnx path, input
    .bin path, input tensor, torch's output, the model)."""
    import torch
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    torch.manual_seed(0)
    model = build().eval()
    x = torch.from_numpy(np.random.default_rng(1).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        ref = model(x).numpy()
    onnx_path = os.path.join(d, name + ".onnx")
    torch.onnx.export(model, (x,), onnx_path, opset_version=13, input_names=["x"],
                      output_names=["y"], do_constant_folding=True)
    in_bin = os.path.join(d, "x.bin")
    x.numpy().tofile(in_bin)
    return d, onnx_path, in_bin, x, ref, model


def rxc_c(onnx_path, cdir, extra=()):
    """rxc compile to cdir/m.c with weights = blob: seconds."""
    return timed([RXC, "compile", onnx_path, "-o", cdir, "--name", "m", "-q", "--set",
                  "codegen.weights=blob"] + list(extra))[1]


def run_driver(cdir, flags, nin, nout, in_bin, ref, row, key):
    """Builds cdir's m.c and driver with gcc flags, runs it; fills row."""
    with open(os.path.join(cdir, "driver.c"), "w") as f:
        f.write(DRIVER % {"nin": nin, "nout": nout, "seconds": SECONDS, "min_runs": MIN_RUNS})
    exe = os.path.join(cdir, "driver-" + key)
    _, row[key + "_gcc_s"] = timed([CC] + flags + ["-DWEIGHTS_FILE=1", "-o", exe,
                                                   os.path.join(cdir, "driver.c"),
                                                   os.path.join(cdir, "m.c"), "-lm"])
    out = os.path.join(cdir, "out-" + key + ".bin")
    r = json.loads(subprocess.run([exe, in_bin, out, os.path.join(cdir, "m.weights.bin")],
                                  check=True, capture_output=True, text=True).stdout)
    row[key + "_ms"], row[key + "_wall_ms"], row[key + "_runs"] = r["ms"], r["wall_ms"], r["runs"]
    row[key + "_rel_err"] = rel_err(np.fromfile(out, dtype=np.float32), ref)


def one(name, exported, isa):
    d, onnx_path, in_bin, x, ref, model = exported
    shape = list(x.shape)
    row = {"model": name, "input": shape}
    row["torch_ms"], row["torch_wall_ms"], row["torch_runs"] = torch_ms(model, x)
    bench.log("%s: torch %.3f ms" % (name, row["torch_ms"]))

    ort_out = os.path.join(d, "ort.bin")
    r = json.loads(subprocess.run(
        ["node", os.path.join(bench.BENCH, "ort_time.js"), onnx_path, in_bin,
         ",".join(map(str, shape)), ort_out],
        check=True, capture_output=True, text=True, env=dict(os.environ, ORT_NODE=ORT_NODE)).stdout)
    row["ort_ms"], row["ort_wall_ms"], row["ort_runs"] = r["ms"], r["wall_ms"], r["runs"]
    row["ort_rel_err"] = rel_err(np.fromfile(ort_out, dtype=np.float32), ref)
    bench.log("%s: onnxruntime %.3f ms" % (name, row["ort_ms"]))

    cdir = os.path.join(d, "c")
    try:
        row["rxc_compile_s"] = rxc_c(onnx_path, cdir)
    except subprocess.CalledProcessError as e:
        row["rxc_error"] = first_error(e)
        bench.log("%s: rxc refuses it: %s" % (name, row["rxc_error"]))
        return row
    for key, label, flags in BUILDS:
        if key == "O2_isa":
            if not isa:
                continue
            cdir = os.path.join(d, "c-isa")
            rxc_c(onnx_path, cdir, ["--set", ISA_SET])
        run_driver(cdir, flags, x.numel(), ref.size, in_bin, ref, row, key)
        bench.log("%s: %s %.3f ms (rel err %.2g)" % (name, label, row[key + "_ms"],
                                                    row[key + "_rel_err"]))

    jit_out = os.path.join(d, "jit.bin")
    try:
        r = json.loads(subprocess.run(
            [JIT_BENCH, onnx_path, in_bin, jit_out, str(x.numel()), str(ref.size), str(TCC_RUNS),
             str(SECONDS)], check=True, capture_output=True, text=True).stdout)
    except subprocess.CalledProcessError as e:
        row["jit_error"] = first_error(e)
        bench.log("%s: rxc_jit_file fails: %s" % (name, row["jit_error"]))
        return row
    row["jit_s"], row["jit_reps"] = r["jit_s"], r["jit_reps"]
    row["tcc_ms"], row["tcc_wall_ms"], row["tcc_runs"] = r["ms"], r["wall_ms"], r["runs"]
    row["tcc_rel_err"] = rel_err(np.fromfile(jit_out, dtype=np.float32), ref)
    bench.log("%s: rxc_jit_file %.2f s, libtcc %.3f ms (%d runs, rel err %.2g)" % (
        name, row["jit_s"], row["tcc_ms"], row["tcc_runs"], row["tcc_rel_err"]))
    return row


def isa_support():
    """(True, None) when rxc accepts [target] isa = native, else (False, its
    reason)."""
    r = subprocess.run([RXC, "compile", os.path.join(ROOT, "samples/mlp.py"), "-o",
                        os.path.join(WORK, "isa-probe"), "--name", "m", "-q", "--set", ISA_SET],
                       capture_output=True, text=True)
    if r.returncode == 0:
        return True, None
    lines = r.stderr.strip().splitlines()
    return False, ([l for l in lines if "error" in l] or lines or ["refused"])[0]


# The forms of [codegen] weights compared on each model: the cost of
# compiling the generated C with gcc -O2, and whether the outputs are the
# inline form's bit for bit (issue 19).
FORMS = ("inline", "bytes", "blob")


def gcc_cost(cmd):
    """Runs cmd under GNU time; (wall s, CPU s of it and its children, their
    peak RSS in MB).  Not os.wait4: a child forked from this process (torch
    loaded) inherits its peak RSS through exec."""
    log = os.path.join(WORK, "time.log")
    subprocess.run(["/usr/bin/time", "-o", log, "-f", "%e %U %S %M"] + cmd, check=True,
                   capture_output=True)
    with open(log) as f:
        wall, user, sys_, kb = f.read().split()[-4:]
    return float(wall), float(user) + float(sys_), float(kb) / 1024.0


def weights_forms(name, d, onnx_path, in_bin, nin, nout):
    rows, inline_out = [], None
    for form in FORMS:
        cdir = os.path.join(d, "w-" + form)
        _, rxc_s = timed([RXC, "compile", onnx_path, "-o", cdir, "--name", "m", "-q",
                          "--set", "codegen.weights=" + form])
        src = os.path.join(cdir, "m.c")
        row = {"model": name, "form": form, "rxc_s": rxc_s, "c_bytes": os.path.getsize(src)}
        blob = os.path.join(cdir, "m.weights.bin")
        row["blob_bytes"] = os.path.getsize(blob) if form == "blob" else 0
        row["gcc_wall_s"], row["gcc_cpu_s"], row["gcc_mb"] = gcc_cost(
            [CC, "-O2", "-c", src, "-o", os.path.join(cdir, "m.o")])
        with open(os.path.join(cdir, "driver.c"), "w") as f:
            f.write(DRIVER % {"nin": nin, "nout": nout, "seconds": SECONDS, "min_runs": MIN_RUNS})
        exe = os.path.join(cdir, "driver")
        subprocess.run([CC, "-O2", "-DWEIGHTS_FILE=%d" % (form == "blob"), "-o", exe,
                        os.path.join(cdir, "driver.c"), os.path.join(cdir, "m.o"), "-lm"],
                       check=True)
        out = os.path.join(cdir, "out.bin")
        subprocess.run([exe, in_bin, out] + ([blob] if form == "blob" else []), check=True,
                       capture_output=True)
        with open(out, "rb") as f:
            got = f.read()
        inline_out = got if form == "inline" else inline_out
        row["same_bits"] = got == inline_out
        bench.log("%s, weights = %s: gcc -O2 %.2f s CPU, %.0f MB, same bits: %s" % (
            name, form, row["gcc_cpu_s"], row["gcc_mb"], row["same_bits"]))
        rows.append(row)
    return rows


def forms_markdown(res):
    rows = res["forms"]
    lines = ["# Weights forms", "",
             "Written by `bench/real_models.py` (`make bench`, or `--forms` alone); machine: "
             "%s, %s." % (machine_text(res), res["gcc"]), "",
             "`[codegen] weights` on each model: rxc compile s; the bytes of m.c (and of "
             "m.weights.bin); gcc -O2 -c m.c: wall s, CPU s (gcc and its children, user + "
             "sys) and peak memory; whether the outputs of the -O2 build equal the inline "
             "form's bit for bit.", "",
             "| model | weights | rxc s | m.c bytes | blob bytes | gcc wall s | gcc CPU s | "
             "gcc MB | same bits |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %.2f | %d | %d | %.2f | %.2f | %.0f | %s |" % (
            r["model"], r["form"], r["rxc_s"], r["c_bytes"], r["blob_bytes"], r["gcc_wall_s"],
            r["gcc_cpu_s"], r["gcc_mb"], "yes" if r["same_bits"] else "**no**"))
    return "\n".join(lines) + "\n"


def machine_text(res):
    m = res["machine"]
    return "%s (%s cores), %s" % (m["cpu"], m["cores"], m["os"])


def geo(v):
    return float(np.exp(np.mean(np.log(v))))


def summary(what, ratios):
    """'what: geomean G, max M (model) over N models.' of [(model, ratio)]."""
    if not ratios:
        return "%s: no model." % what
    worst = max(ratios, key=lambda r: r[1])
    return "%s: geomean %.2f, max %.2f (%s), over %d models." % (
        what, geo([r for _, r in ratios]), worst[1], worst[0], len(ratios))


def fmt_ms(v):
    return "%.3f" % v if v < 100 else "%.1f" % v


def markdown(res):
    rows = res["rows"]
    isa = res["isa"]
    lines = ["# Real models, one core", "",
             "Written by `bench/real_models.py` (`make bench`, `make bench-real`) on %s, "
             "%s; torch %s, onnxruntime-node %s; load average %.1f when it started, %.1f "
             "when it ended (%d cores: above 1, other jobs shared the machine).%s" %
             (res["date"], machine_text(res), res["torch"], res["ort"], res["load"][0],
              res["load"][1], res["machine"]["cores"],
              "  " + res["note"] if res.get("note") else ""), "",
             "rxc compiles each model with `[codegen] weights = blob`, the JIT's form, so every "
             "column of rxc runs the same generated .c.  Latency: the median over the runs of "
             "each run's CPU time (the process's; everything at one thread), after warm-up "
             "runs; runs for about %g s, at least %d (libtcc: at least %d, after one warm-up, "
             "since a run of a large model takes seconds; its runs are in the second table).  "
             "Wall-clock medians are in real_models.json.  Error: max |x - torch| / max "
             "|torch|.  Weights: torch's and torchvision's seeded init, but googlenet's and "
             "shufflenet_v2_x1_0's convs by He's init (fan in), since theirs leave the "
             "output equal to the classifier's bias whatever the input.  The whole run "
             "took %.0f s." %
             (SECONDS, MIN_RUNS, TCC_RUNS, res.get("run_s", 0)), "",
             "## rxc (gcc -O3 -march=native) against torch and ONNX Runtime", "",
             "| model | input | torch ms | ORT ms | rxc ms | rxc / ORT | rxc / torch | "
             "rxc error | ORT error | rxc compile s | gcc s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    ort, refused = [], []
    for r in rows:
        if "export_error" in r:
            refused.append(r)
            lines.append("| %s | %s | | | not exported | | | | | | |" % (
                r["model"], "x".join(map(str, r["input"]))))
            continue
        head = "| %s | %s | %s | %s |" % (r["model"], "x".join(map(str, r["input"])),
                                          fmt_ms(r["torch_ms"]), fmt_ms(r["ort_ms"]))
        if "O3_ms" not in r:
            refused.append(r)
            lines.append(head + " refused | | | | %.1e | | |" % r["ort_rel_err"])
            continue
        ort.append((r["model"], r["O3_ms"] / r["ort_ms"]))
        lines.append(head + " %s | %.2f | %.2f | %.1e | %.1e | %.2f | %.1f |" % (
            fmt_ms(r["O3_ms"]), r["O3_ms"] / r["ort_ms"], r["O3_ms"] / r["torch_ms"],
            r["O3_rel_err"], r["ort_rel_err"], r["rxc_compile_s"], r["O3_gcc_s"]))
    lines += ["", summary("rxc / ONNX Runtime", ort) + "  " +
              summary("rxc / torch", [(r["model"], r["O3_ms"] / r["torch_ms"])
                                      for r in rows if "O3_ms" in r])]
    for r in refused:
        lines.append("")
        lines.append("%s: torch.onnx.export fails: `%s`" % (r["model"], r["export_error"])
                     if "export_error" in r else
                     "%s: refused by rxc: `%s`" % (r["model"], r["rxc_error"]))

    isa_head = "gcc -O2, isa = native ms | " if isa else ""
    lines += ["", "## The same .c built four ways (issue 35)", "",
              "gcc -O3 -march=native (the first table's rxc), plain gcc -O2 (no -march: what "
              "a build system's default gives)%s and libtcc: the JIT in process, "
              "`rxc_jit_file` of the .onnx through api/rxc.h (bench/jit_bench.c), which "
              "generates the same .c with the weights as a blob and compiles it with libtcc "
              "in memory.  JIT s: the time of `rxc_jit_file`, ONNX file to callable entry "
              "(median of 3 calls, 1 when one takes over 2 s); gcc s: the time of each gcc "
              "build of the .c and its driver.%s" %
              ((", gcc -O2 on the .c generated for `[target] isa = native`", "") if isa else
               ("", "  Not measured: gcc -O2 on the .c generated for `[target] isa = native`, "
                "since rxc has no such key yet (`%s`)." % res["isa_reason"])), "",
              "| model | gcc -O3 native ms | gcc -O2 ms | " + isa_head +
              "libtcc ms | libtcc runs | libtcc / gcc-O3-native | gcc-O2 / gcc-O3-native | " +
              ("gcc-O2-isa / gcc-O3-native | " if isa else "") +
              "JIT s | gcc -O3 s | gcc -O2 s | gcc -O2 error | libtcc error |",
              "|---|---|---|" + ("---|" if isa else "") + "---|---|---|---|" +
              ("---|" if isa else "") + "---|---|---|---|---|"]
    tcc, o2, o2isa = [], [], []
    for r in rows:
        if "O3_ms" not in r:
            continue
        cells = [r["model"], fmt_ms(r["O3_ms"]), fmt_ms(r["O2_ms"])]
        if isa:
            cells.append(fmt_ms(r["O2_isa_ms"]))
        o2.append((r["model"], r["O2_ms"] / r["O3_ms"]))
        if "tcc_ms" in r:
            tcc.append((r["model"], r["tcc_ms"] / r["O3_ms"]))
            cells += [fmt_ms(r["tcc_ms"]), "%d" % r["tcc_runs"], "%.1f" % tcc[-1][1]]
        else:
            cells += ["fails: %s" % r.get("jit_error", "?").replace("|", "/"), "", ""]
        cells.append("%.2f" % o2[-1][1])
        if isa:
            o2isa.append((r["model"], r["O2_isa_ms"] / r["O3_ms"]))
            cells.append("%.2f" % o2isa[-1][1])
        cells += ["%.2f" % r["jit_s"] if "jit_s" in r else "", "%.1f" % r["O3_gcc_s"],
                  "%.1f" % r["O2_gcc_s"], "%.1e" % r["O2_rel_err"],
                  "%.1e" % r["tcc_rel_err"] if "tcc_rel_err" in r else ""]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", summary("libtcc / gcc -O3 -march=native", tcc) + "  ",
              summary("gcc -O2 / gcc -O3 -march=native", o2) + "  "]
    if isa:
        lines.append(summary("gcc -O2 (isa = native) / gcc -O3 -march=native", o2isa) + "  ")
    jit18 = [r for r in rows if r["model"] == "resnet18" and "jit_s" in r]
    if jit18:
        lines.append("`rxc_jit_file` of resnet18.onnx (weights as blob) to a callable entry: "
                     "%.2f s." % jit18[0]["jit_s"])
    return "\n".join(lines) + "\n"


def main():
    try:
        import torch
        import torchvision  # noqa: F401
    except ImportError:
        print("real_models: torch or torchvision missing (make bench-deps): skipped")
        return 0
    if not os.path.isdir(ORT_NODE):
        print("real_models: %s missing (make bench-deps): skipped" % ORT_NODE)
        return 0
    t0 = time.monotonic()
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    with open(os.path.join(ORT_NODE, "package.json")) as f:
        ort_version = json.load(f)["version"]
    forms_only = sys.argv[1:2] == ["--forms"]
    wanted = sys.argv[2 if forms_only else 1:]
    gcc = subprocess.run([CC, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    os.makedirs(WORK, exist_ok=True)
    isa, isa_reason = isa_support()
    res = {"machine": bench.machine(), "torch": torch.__version__, "ort": ort_version, "rows": [],
           "gcc": gcc, "forms": [], "date": time.strftime("%Y-%m-%d", time.gmtime()),
           "isa": isa, "isa_reason": isa_reason, "note": os.environ.get("BENCH_NOTE", ""),
           "load": [os.getloadavg()[0], 0.0]}
    for name, (build, shape) in models().items():
        if wanted and name not in wanted:
            continue
        if forms_only and not wanted and name not in FORMS_MODELS:
            continue
        try:
            exported = export(name, build, shape)
        except Exception as e:  # noqa: BLE001  (torch.onnx's many kinds)
            msg = (str(e).strip().splitlines() or [type(e).__name__])[0]
            bench.log("%s: torch.onnx.export fails: %s" % (name, msg))
            res["rows"].append({"model": name, "input": list(shape), "export_error": msg})
            continue
        if not forms_only:
            res["rows"].append(one(name, exported, isa))
        if forms_only or (not wanted and name in FORMS_MODELS):
            d, onnx_path, in_bin, x, ref, _ = exported
            res["forms"] += weights_forms(name, d, onnx_path, in_bin, x.numel(), ref.size)
    res["run_s"] = time.monotonic() - t0
    res["load"][1] = os.getloadavg()[0]
    texts = [] if forms_only else [("real_models", markdown(res))]
    if res["forms"]:
        texts.append(("weights_forms", forms_markdown(res)))
    for base, text in texts:
        if not wanted:
            with open(os.path.join(bench.BENCH, base + ".md"), "w") as f:
                f.write(text)
        print(text)
    if not wanted and not forms_only:
        with open(os.path.join(bench.BENCH, "real_models.json"), "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
