"""run.py - the Cortex-M4 firmware test (make check-cortexm).

Builds the digits models' generated C with tests/cortexm's start-up code,
linker script and main.c into a bare-metal image for the MPS2 AN386
(Cortex-M4F), runs it under qemu with semihosting, and compares what it
prints with the interpreter's outputs on the same digits and the host's
predictions on all held-out digits (cmtest.py).  The image links with
-nostdlib: no newlib, only libgcc for the soft-float double helpers and
64-bit division the compiler calls (__aeabi_*).

Then the same sources again with -mfloat-abi=soft (no FPU instruction;
the generated C with -fno-inline) into soft/image.elf: the float-helper
check of its kernels (floathelpers.py), and the same run and comparison
under qemu with the FPU left off, whose printout must also be the first
image's byte for byte.  Last, the int8 model's arena and
weights bytes against the float model's (sizes.py).

    RXC=build/rxc /usr/bin/python3 tests/cortexm/run.py [OUTDIR]

Prints one SKIPPED line and exits 0 when arm-none-eabi-gcc or
qemu-system-arm is missing; exits 1 on any difference.
"""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cmtest  # noqa: E402
import floathelpers  # noqa: E402
import sizes  # noqa: E402

MACHINE = "mps2-an386"  # the AN385's memory map with a Cortex-M4F
QEMU_TIMEOUT = 60
OWN_SOURCES = ["startup.c", "semihost.c", "main.c"]


def soft_float(cc):
    """cc with -mfloat-abi=soft and no -mfpu: every float operation a
    libgcc call, no FPU instruction."""
    return [w for w in cc if not w.startswith(("-mfloat-abi=", "-mfpu="))] + ["-mfloat-abi=soft"]


def build(objdir, incdir, cc, generated, own, generated_flags=()):
    """Compiles every source (the generated C also with generated_flags)
    with the strict flags into objdir and links objdir/image.elf."""
    os.makedirs(objdir, exist_ok=True)
    objects = []
    for src in generated + own:
        obj = os.path.join(objdir, os.path.basename(src)[:-2] + ".o")
        flags = list(generated_flags) if src in generated else []
        cmtest.run(cc + cmtest.STRICT + ["-O2"] + flags + ["-I", incdir, "-c", src, "-o", obj])
        objects.append(obj)
    image = os.path.join(objdir, "image.elf")
    cmtest.run(cc + ["-nostdlib", "-T", os.path.join(cmtest.HERE, "mps2.ld"),
                     "-Wl,-Map," + os.path.join(objdir, "image.map"), "-o", image]
               + objects + ["-lgcc"])
    return image


def describe(image):
    """Prints the image's sections and the libgcc helpers it carries."""
    size = cmtest.run(["arm-none-eabi-size", image]).stdout.splitlines()[1].split()
    print("  %s: text %s, data %s, bss %s bytes" % ((os.path.relpath(image, cmtest.ROOT),) + tuple(size[:3])))
    symbols = cmtest.run(["arm-none-eabi-nm", image]).stdout.split()
    helpers = sorted(s for s in symbols if s.startswith("__aeabi_"))
    print("  libgcc helpers linked: %s" % (" ".join(helpers) or "none"))


def run_image(image, refs):
    """Runs image under qemu; returns (the errors of its printout, the
    printout)."""
    printout = os.path.join(os.path.dirname(image), "qemu.out")
    if os.path.exists(printout):
        os.remove(printout)
    start = time.monotonic()
    # The semihosting console to a file: by default qemu 7.2 sends it to
    # stderr, mixed with its own messages.
    r = subprocess.run(["timeout", str(QEMU_TIMEOUT), "qemu-system-arm", "-M", MACHINE,
                        "-nographic", "-monitor", "none", "-serial", "none",
                        "-chardev", "file,id=semihosting,path=" + printout,
                        "-semihosting-config", "enable=on,target=native,chardev=semihosting",
                        "-kernel", image],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    print("  qemu %s, %s: exit status %d after %.2f s"
          % (MACHINE, os.path.relpath(image, cmtest.ROOT), r.returncode, time.monotonic() - start))
    text = ""
    if os.path.exists(printout):
        with open(printout) as f:
            text = f.read()
    errors = cmtest.compare(text, refs)
    if r.returncode != 0:
        errors.append("qemu exited with status %d%s: %s" % (
            r.returncode, " (timeout)" if r.returncode == 124 else "", r.stdout.strip()))
    return errors, text


def same_printout(hard, soft):
    """The errors of comparing the two images' printouts: the same IEEE
    arithmetic in the FPU and in libgcc (-std=c99 contracts no a*b+c into
    an FMA), so every line, float bits included, must be equal."""
    hard_lines, soft_lines = hard.splitlines(), soft.splitlines()
    for i, (h, s) in enumerate(zip(hard_lines, soft_lines)):
        if h != s:
            return ["soft: printout line %d differs from image.elf's:\n  %s\n  %s" % (i + 1, s, h)]
    if len(hard_lines) != len(soft_lines):
        return ["soft: %d printout lines, image.elf %d" % (len(soft_lines), len(hard_lines))]
    print("  soft/image.elf printed what image.elf did, byte for byte")
    return []


REQUIRE_ALL = os.environ.get("REQUIRE_ALL") == "1"  # no skip allowed


def main():
    for tool in ("arm-none-eabi-gcc", "qemu-system-arm"):
        if not shutil.which(tool):
            print("check-cortexm: SKIPPED (%s not found; make deps installs it)%s"
                  % (tool, "; REQUIRE_ALL=1 makes it a failure" if REQUIRE_ALL else ""))
            return 1 if REQUIRE_ALL else 0
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cmtest.ROOT, "build", "cortexm")
    generated, refs = cmtest.prepare(outdir)
    own = [os.path.join(cmtest.HERE, s) for s in OWN_SOURCES]
    cc = cmtest.config_cc()
    print("image.elf (%s):" % " ".join(cc[1:]))
    image = build(outdir, outdir, cc, generated, own)
    describe(image)
    errors, hard_text = run_image(image, refs)

    soft = soft_float(cc)
    print("soft/image.elf (%s, the generated C with -fno-inline):" % " ".join(soft[1:]))
    soft_image = build(os.path.join(outdir, "soft"), outdir, soft, generated, own, ["-fno-inline"])
    describe(soft_image)
    e, integer = floathelpers.check_image(os.path.join(outdir, "soft"), soft, soft_image, generated)
    soft_errors, soft_text = run_image(soft_image, refs)
    errors += ["soft: " + m for m in e + soft_errors] + same_printout(hard_text, soft_text)

    print("bytes of the int8 model beside the float one's:")
    int8_name = cmtest.gen_inputs.ACCURACY_MODELS[1]
    errors += sizes.check(sizes.figures(outdir), integer.get(int8_name, 0))
    return cmtest.report("check-cortexm", errors)


if __name__ == "__main__":
    sys.exit(main())
