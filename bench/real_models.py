"""real_models.py - real models timed three ways in one run, for `make bench`
(issue 18): writes bench/real_models.md and bench/real_models.json.

Each model is built by torch with seeded random weights (no downloads),
exported by torch.onnx (opset 13), and given one seeded random input.  Then,
on one core:
  - torch: the model itself, torch.set_num_threads(1), no_grad;
  - ONNX Runtime: npm's onnxruntime-node, one intra-op thread
    (bench/ort_time.js);
  - rxc: `rxc compile MODEL.onnx`, the C built with gcc -O3 -march=native
    and called from a small driver written here.
Latency is the median of runs lasting about 2 s after 3 warm-up runs.  The
outputs of ONNX Runtime and rxc are compared with torch's: max |x - torch|
over max |torch| (issue 18 asks for 1e-4).  Needs `make bench-deps`;
without torch or onnxruntime-node it says so and exits 0.

Then each model again with [codegen] weights = inline, bytes and blob: the
cost of gcc -O2 on the C and whether the outputs are the same bits
(bench/weights_forms.md; `real_models.py --forms [NAME...]` runs only that
table, without torch's or ONNX Runtime's timing).

Environment: RXC (build/rxc), ORT_NODE (build/bench-deps/node_modules/
onnxruntime-node), CC (gcc).  `real_models.py NAME...` runs only those.
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
# absolute: node's require() reads a bare relative path as a package name
ORT_NODE = os.path.abspath(os.environ.get("ORT_NODE", os.path.join(ROOT, "build/bench-deps/node_modules/onnxruntime-node")))
CC = os.environ.get("CC", "gcc")
WORK = os.path.join(ROOT, "build/real")
SECONDS = 2.0

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "m.h"
#ifndef WEIGHTS_FILE
#define WEIGHTS_FILE 0
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
int main(int argc, char **argv) {
  static double times[1000];
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
  double start = now();
  while (n < 5 || (n < 1000 && now() - start < %(seconds)f)) {
    double t0 = now();
    m_main(arena, bytes, in, out);
    times[n++] = (now() - t0) * 1e3;
  }
  qsort(times, n, sizeof *times, by_value);
  f = fopen(argv[2], "wb");
  if (!f || fwrite(out, sizeof *out, nout, f) != nout)
    return 4;
  fclose(f);
  printf("{\"ms\": %%.6f, \"runs\": %%d}\n", times[n / 2], n);
  return 0;
}
"""


def models():
    """name -> (build the torch module, input shape)"""
    import torch
    import torchvision

    def transformer():
        layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                                 dropout=0.0, batch_first=True)
        return layer

    return {
        "resnet18": (lambda: torchvision.models.resnet18(weights=None), (1, 3, 224, 224)),
        "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224)),
        "squeezenet1_1": (lambda: torchvision.models.squeezenet1_1(weights=None), (1, 3, 224, 224)),
        "transformer_encoder": (transformer, (1, 64, 256)),
    }


def timed(cmd, **kw):
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout
    return out, time.monotonic() - t0


def rel_err(x, ref):
    x = np.asarray(x, dtype=np.float64).ravel()
    ref = np.asarray(ref, dtype=np.float64).ravel()
    if x.shape != ref.shape:
        return float("inf")
    scale = max(np.abs(ref).max(), 1e-30)
    return float(np.abs(x - ref).max() / scale)


def torch_ms(model, x):
    import torch
    with torch.no_grad():
        for _ in range(3):
            model(x)
        times, start = [], time.monotonic()
        while len(times) < 5 or (len(times) < 1000 and time.monotonic() - start < SECONDS):
            t0 = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t0) * 1e3)
    return bench.median(times), len(times)


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


def one(name, build, shape):
    d, onnx_path, in_bin, x, ref, model = export(name, build, shape)
    row = {"model": name, "input": list(shape)}
    row["torch_ms"], row["torch_runs"] = torch_ms(model, x)
    bench.log("%s: torch %.3f ms" % (name, row["torch_ms"]))

    ort_out = os.path.join(d, "ort.bin")
    r = json.loads(subprocess.run(
        ["node", os.path.join(bench.BENCH, "ort_time.js"), onnx_path, in_bin,
         ",".join(map(str, shape)), ort_out],
        check=True, capture_output=True, text=True, env=dict(os.environ, ORT_NODE=ORT_NODE)).stdout)
    row["ort_ms"], row["ort_runs"] = r["ms"], r["runs"]
    row["ort_rel_err"] = rel_err(np.fromfile(ort_out, dtype=np.float32), ref)
    bench.log("%s: onnxruntime %.3f ms" % (name, row["ort_ms"]))

    cdir = os.path.join(d, "c")
    try:
        _, row["rxc_compile_s"] = timed([RXC, "compile", onnx_path, "-o", cdir, "--name", "m", "-q"])
    except subprocess.CalledProcessError as e:
        row["rxc_error"] = (e.stderr or "").strip().splitlines()[:1]
        bench.log("%s: rxc compile failed: %s" % (name, row["rxc_error"]))
        return row
    with open(os.path.join(cdir, "driver.c"), "w") as f:
        f.write(DRIVER % {"nin": x.numel(), "nout": ref.size, "seconds": SECONDS})
    exe = os.path.join(cdir, "driver")
    _, row["gcc_s"] = timed([CC, "-O3", "-march=native", "-o", exe, os.path.join(cdir, "driver.c"),
                             os.path.join(cdir, "m.c"), "-lm"])
    rxc_out = os.path.join(d, "rxc.bin")
    r = json.loads(subprocess.run([exe, in_bin, rxc_out], check=True, capture_output=True,
                                  text=True).stdout)
    row["rxc_ms"], row["rxc_runs"] = r["ms"], r["runs"]
    row["rxc_rel_err"] = rel_err(np.fromfile(rxc_out, dtype=np.float32), ref)
    bench.log("%s: rxc %.3f ms (rel err %.2g)" % (name, row["rxc_ms"], row["rxc_rel_err"]))
    return row


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
            f.write(DRIVER % {"nin": nin, "nout": nout, "seconds": SECONDS})
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


def markdown(res):
    lines = ["# Real models, one core", "",
             "Written by `bench/real_models.py` (`make bench`); machine: %s.  torch %s, "
             "onnxruntime-node %s, rxc's C under gcc -O3 -march=native.  Latency: median "
             "of the runs in about %g s; error: max |x - torch| / max |torch|." %
             (machine_text(res), res["torch"], res["ort"], SECONDS), "",
             "| model | input | torch ms | ORT ms | rxc ms | rxc / ORT | rxc / torch | "
             "rxc error | ORT error | rxc compile s | gcc s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for r in res["rows"]:
        if "rxc_ms" not in r:
            lines.append("| %s | %s | %.3f | %.3f | fails: %s | | | | %.1e | | |" % (
                r["model"], "x".join(map(str, r["input"])), r["torch_ms"], r["ort_ms"],
                " ".join(r.get("rxc_error", [])).replace("|", "/"), r["ort_rel_err"]))
            continue
        ratios.append(r["rxc_ms"] / r["ort_ms"])
        lines.append("| %s | %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.1e | %.1e | %.2f | %.1f |" % (
            r["model"], "x".join(map(str, r["input"])), r["torch_ms"], r["ort_ms"], r["rxc_ms"],
            r["rxc_ms"] / r["ort_ms"], r["rxc_ms"] / r["torch_ms"], r["rxc_rel_err"],
            r["ort_rel_err"], r["rxc_compile_s"], r["gcc_s"]))
    if ratios:
        geo = float(np.exp(np.mean(np.log(ratios))))
        lines += ["", "rxc / ONNX Runtime geomean over %d models: %.2f." % (len(ratios), geo)]
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
    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    with open(os.path.join(ORT_NODE, "package.json")) as f:
        ort_version = json.load(f)["version"]
    forms_only = sys.argv[1:2] == ["--forms"]
    wanted = sys.argv[2 if forms_only else 1:]
    gcc = subprocess.run([CC, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    res = {"machine": bench.machine(), "torch": torch.__version__, "ort": ort_version, "rows": [],
           "gcc": gcc, "forms": []}
    for name, (build, shape) in models().items():
        if wanted and name not in wanted:
            continue
        if not forms_only:
            res["rows"].append(one(name, build, shape))
        d, onnx_path, in_bin, x, ref, _ = export(name, build, shape)
        res["forms"] += weights_forms(name, d, onnx_path, in_bin, x.numel(), ref.size)
    texts = [] if forms_only else [("real_models", markdown(res))]
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
