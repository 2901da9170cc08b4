"""freestanding.py - the generated C needs nothing from a library
(make check-freestanding).

1. For each sample model (SAMPLES; with its .npz when there is one: the
   seeded ones exist after `make samples`), `rxc compile` and then compile
   the .c with every compiler of COMPILERS that is installed, each with
   -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -c, and check
   that `nm -u` of the object lists no symbol.  The samples with weights
   also in [codegen] weights = bytes and blob (FORMS).  On Cortex-M4 only libgcc's
   AEABI helpers (__aeabi_*: soft double arithmetic, 64-bit division) may
   appear: the core has a single-precision FPU and the kernels accumulate
   in double.  A probe first shows the check can fail: gcc -O2 without
   -ffreestanding turns a copy loop and a zero loop into memcpy/memset.
2. On x86_64 Linux, links main.c, host_x86_64.c (its own _start, system
   calls for write and exit) and the digits models' C into an executable
   with -nostdlib -static, runs it and compares its printout with the
   interpreter's outputs as the firmware test does (cmtest.py).

    RXC=build/rxc /usr/bin/python3 tests/cortexm/freestanding.py [OUTDIR]

Exits 1 on any failure.
"""
import concurrent.futures
import os
import platform
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmtest  # noqa: E402

SAMPLES = ["mlp", "tiny_cnn", "digits_mlp", "digits_cnn", "digits_cnn_int8", "kws_dscnn",
           "transformer_block"]
FORMS = ["bytes", "blob"]  # besides inline, for the samples with weights
ARM = ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]
# (label, command, nm, allowed prefix of undefined symbols)
COMPILERS = [
    ("gcc -O2", ["gcc", "-O2"], "nm", None),
    ("gcc -O3 -march=native", ["gcc", "-O3", "-march=native"], "nm", None),
    ("clang -O2", ["clang", "-O2"], "nm", None),
    ("arm-none-eabi-gcc -O2", ARM + ["-O2"], "arm-none-eabi-nm", "__aeabi_"),
]
PROBE = """typedef long long i64;
void copy(const float *restrict a, float *restrict b, i64 n) { for (i64 i = 0; i < n; i++) b[i] = a[i]; }
void zero(float *restrict b, i64 n) { for (i64 i = 0; i < n; i++) b[i] = 0.0f; }
"""


def undefined(nm, obj):
    return cmtest.run([nm, "-u", obj]).stdout.split()[1::2]


def probe(outdir):
    """The nm check sees what gcc does without -ffreestanding; errors."""
    src, obj = os.path.join(outdir, "probe.c"), os.path.join(outdir, "probe.o")
    with open(src, "w") as f:
        f.write(PROBE)
    cmtest.run(["gcc", "-O2", "-c", src, "-o", obj])
    if set(undefined("nm", obj)) != {"memcpy", "memset"}:
        return ["probe: gcc -O2 no longer calls memcpy/memset for copy/zero loops: "
                "the nm check of this test shows nothing; revisit it"]
    return []


def generate(outdir):
    """rxc compile of every sample; returns {sample: .c path}."""
    sources = {}
    for s in SAMPLES:
        cmd = [cmtest.rxc_path(), "compile", os.path.join(cmtest.ROOT, "samples", s + ".py"),
               "-o", os.path.join(outdir, s)]
        params = os.path.join(cmtest.ROOT, "samples", s + ".npz")
        if os.path.exists(params):
            cmd += ["--params", params]
        cmtest.run(cmd)
        sources[s] = os.path.join(outdir, s, s + ".c")
        print("  %s: generated %s" % (s, "with its weights" if os.path.exists(params)
                                      else "without weights (parameters)"))
        for form in FORMS if os.path.exists(params) else []:
            d = os.path.join(outdir, s + "-" + form)
            cmtest.run(cmd[:4] + [d] + cmd[5:] + ["--set", "codegen.weights=" + form])
            sources["%s (weights = %s)" % (s, form)] = os.path.join(d, s + ".c")
    return sources


def check_one(sample, src, compiler):
    """Compiles src with one compiler; returns (errors, helpers used)."""
    label, cmd, nm, allowed = compiler
    obj = src[:-2] + "." + label.replace(" ", "_").replace("=", "") + ".o"
    try:
        cmtest.run(cmd + cmtest.STRICT + ["-c", src, "-o", obj])
    except RuntimeError as e:
        return ["%s [%s]: %s" % (sample, label, e)], []
    syms = undefined(nm, obj)
    bad = [s for s in syms if not (allowed and s.startswith(allowed))]
    errors = ["%s [%s]: undefined %s" % (sample, label, " ".join(bad))] if bad else []
    return errors, [s for s in syms if s not in bad]


def check_objects(sources):
    compilers = [c for c in COMPILERS if shutil.which(c[1][0])]
    for c in COMPILERS:
        if c not in compilers:  # platform: make deps installs all three
            print("  SKIPPED: %s not installed" % c[0])
            if os.environ.get("REQUIRE_ALL") == "1":
                print("FAIL: %s missing under REQUIRE_ALL=1" % c[0])
                sys.exit(1)
    jobs = [(s, src, c) for s, src in sources.items() for c in compilers]
    errors, helpers = [], set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for e, h in pool.map(lambda job: check_one(*job), jobs):
            errors += e
            helpers.update(h)
    print("  %d objects (%d samples x %d compilers); libgcc helpers they call: %s"
          % (len(jobs), len(sources), len(compilers), " ".join(sorted(helpers)) or "none"))
    return errors


def check_host_link(outdir):
    """The digits models in a -nostdlib -static x86_64 executable; errors."""
    if platform.system() != "Linux" or platform.machine() != "x86_64":
        print("  host -nostdlib link: skipped (its _start is for x86_64 Linux)")
        return []
    sources, refs = cmtest.prepare(os.path.join(outdir, "digits"))
    own = [os.path.join(cmtest.HERE, f) for f in ("main.c", "host_x86_64.c")]
    errors = []
    for cc in [c for c in ("gcc", "clang") if shutil.which(c)]:
        exe = os.path.join(outdir, "digits", "nostdlib_" + cc)
        cmtest.run([cc, "-O2"] + cmtest.STRICT + ["-I", os.path.join(outdir, "digits"),
                   "-nostdlib", "-static", "-o", exe] + sources + own)
        r = subprocess.run(["timeout", "60", exe], stdout=subprocess.PIPE, text=True)
        print("  %s -nostdlib -static executable: exit status %d, %d bytes"
              % (cc, r.returncode, os.path.getsize(exe)))
        errors += ["%s: %s" % (cc, e) for e in cmtest.compare(r.stdout, refs)]
        if r.returncode != 0:
            errors.append("the %s -nostdlib executable exited with status %d" % (cc, r.returncode))
    return errors


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cmtest.ROOT, "build", "freestanding")
    os.makedirs(outdir, exist_ok=True)
    errors = probe(outdir)
    errors += check_objects(generate(outdir))
    errors += check_host_link(outdir)
    return cmtest.report("check-freestanding", errors)


if __name__ == "__main__":
    sys.exit(main())
