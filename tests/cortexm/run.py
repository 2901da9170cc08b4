"""run.py - the Cortex-M4 firmware test (make check-cortexm).

Builds the digits models' generated C with tests/cortexm's start-up code,
linker script and main.c into a bare-metal image for the MPS2 AN386
(Cortex-M4F), runs it under qemu with semihosting, and compares what it
prints with the interpreter's outputs on the same digits (cmtest.py).
The image links with -nostdlib: no newlib, only libgcc for the soft-float
double helpers and 64-bit division the compiler calls (__aeabi_*).

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

MACHINE = "mps2-an386"  # the AN385's memory map with a Cortex-M4F
QEMU_TIMEOUT = 60
OWN_SOURCES = ["startup.c", "semihost.c", "main.c"]


def build(outdir, sources):
    """Compiles every source with the strict flags and links image.elf."""
    cc = cmtest.config_cc()
    objects = []
    for src in sources:
        obj = os.path.join(outdir, os.path.basename(src)[:-2] + ".o")
        cmtest.run(cc + cmtest.STRICT + ["-O2", "-I", outdir, "-c", src, "-o", obj])
        objects.append(obj)
    image = os.path.join(outdir, "image.elf")
    cmtest.run(cc + ["-nostdlib", "-T", os.path.join(cmtest.HERE, "mps2.ld"),
                     "-Wl,-Map," + os.path.join(outdir, "image.map"), "-o", image]
               + objects + ["-lgcc"])
    return image


def describe(image):
    """Prints the image's sections and the libgcc helpers it carries."""
    size = cmtest.run(["arm-none-eabi-size", image]).stdout.splitlines()[1].split()
    print("  image.elf: text %s, data %s, bss %s bytes" % tuple(size[:3]))
    symbols = cmtest.run(["arm-none-eabi-nm", image]).stdout.split()
    helpers = sorted(s for s in symbols if s.startswith("__aeabi_"))
    print("  libgcc helpers linked: %s" % (" ".join(helpers) or "none"))


def main():
    for tool in ("arm-none-eabi-gcc", "qemu-system-arm"):
        if not shutil.which(tool):
            print("check-cortexm: SKIPPED (%s not found; make deps installs it)" % tool)
            return 0
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(cmtest.ROOT, "build", "cortexm")
    sources, refs = cmtest.prepare(outdir)
    image = build(outdir, sources + [os.path.join(cmtest.HERE, s) for s in OWN_SOURCES])
    describe(image)
    printout = os.path.join(outdir, "qemu.out")
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
    print("  qemu %s: exit status %d after %.2f s" % (MACHINE, r.returncode, time.monotonic() - start))
    text = ""
    if os.path.exists(printout):
        with open(printout) as f:
            text = f.read()
    errors = cmtest.compare(text, refs)
    if r.returncode != 0:
        errors.append("qemu exited with status %d%s: %s" % (
            r.returncode, " (timeout)" if r.returncode == 124 else "", r.stdout.strip()))
    return cmtest.report("check-cortexm", errors)


if __name__ == "__main__":
    sys.exit(main())
