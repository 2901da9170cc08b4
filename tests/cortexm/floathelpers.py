"""floathelpers.py - which libgcc float helpers each generated kernel calls
in a -mfloat-abi=soft image, and the check that integer kernels call none
(issue 23: an int8 model must run on a core without an FPU).

Key idea: read the facts from two independent places.  The generated C's
definitions say what each prim_func takes (its prototype: rxc_i8 / rxc_i32
/ ... pointers, or float ones); the linked image's disassembly
(arm-none-eabi-objdump -d) says what it calls.  The generated C is compiled
with -fno-inline, so every prim_func and every rt helper (rxc_roundf, ...)
stays a function of its own, and a kernel's helpers are those it calls
directly or through the generated C's own functions (the transitive
closure stops at functions the C does not define: libgcc's).  A kernel
whose parameters are all integers (at least one an integer pointer, none a
float) must reach no float helper; the others are reported only.  Besides
the models of the image, int_ops.py (integer ops only, as an int8
network's kernels use them) is checked on its own, its kernels that still
call float helpers listed in KNOWN_FLOAT.  A probe (PROBE) first shows the
check can fail: an integer-only function that scales through a double
helper must be caught, its integer twin must not.
The whole soft image must also hold no FPU instruction (a mnemonic in v:
vadd.f32, vldr, vmov, ...); startup.c leaves the FPU off in it, so one
executed under qemu would fault as well.
"""
import os
import re

import cmtest

# libgcc's single- and double-precision helpers, AEABI and GNU names:
# __aeabi_fadd, __aeabi_dmul, __aeabi_cdcmple, __aeabi_i2f, __aeabi_ul2d,
# __aeabi_f2d, __addsf3, __extendsfdf2, __fixsfsi, __floatsisf, and the
# half-precision conversions.  Not the integer ones (__aeabi_idiv,
# __aeabi_ldivmod, __aeabi_lmul, __aeabi_llsl, ...).
FLOAT_HELPER = re.compile(r"^(__aeabi_(?:[fd]\w+|c[fd]\w+|[a-z0-9]+2[fd])"
                          r"|__\w+[sd]f\d|__fix\w*[sd]f\w*|__float\w*[sd]f"
                          r"|__gnu_\w*(?:f2h|h2f|d2h)\w*)$")
INTEGER_TYPES = {"rxc_i8", "rxc_u8", "rxc_i16", "rxc_u16", "rxc_i32", "rxc_u32", "rxc_i64",
                 "rxc_u64", "rxc_bool", "rxc_uptr", "size_t", "char", "signed", "unsigned",
                 "short", "int", "long"}
QUALIFIERS = {"const", "restrict", "volatile", "struct"}
DEFINITION = re.compile(r"^(\w+)\(([^;{}]*?)\)\n\{", re.M | re.S)
DECLARATION = re.compile(r"(\w+)\(([^;{}()]*?)\);", re.S)  # the return type may precede it
FUNCTION = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
# address, raw halfwords, tab, mnemonic: the data in .text (the vector
# table, the weights) prints as bytes and their ASCII, with no second tab
INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\t[0-9a-f ]+\t(\S+)\s*(.*)$")
TARGET = re.compile(r"^[0-9a-f]+ <([^>+]+)>$")

# int_ops.py's integer kernels that still call float helpers, and why:
# LegalizeOps (ops/) lowers conv2d, matmul and max_pool2d on integers with a
# float64 accumulator (T.alloc_buffer "float64", T.Cast to and from it).
# Issue 23's float-free integer kernels remove these.  The list applies
# only while LegalizeOps' output of int_ops.py names float64 at all (so
# the check turns strict by itself once the lowering is fixed), and
# check() fails on an entry that calls no float helper.
FLOAT64_ACCUMULATOR = "LegalizeOps accumulates in float64 (ops/: issue 23's float-free kernels)"
KNOWN_FLOAT = {
    "int_ops_fused_conv2d_right_shift_clip_astype": FLOAT64_ACCUMULATOR,
    "int_ops_fused_matmul_add_astype1_multiply_right_shift1_clip1_astype2": FLOAT64_ACCUMULATOR,
    "int_ops_fused_max_pool2d_relu": FLOAT64_ACCUMULATOR,
}
INT_OPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "int_ops.py")

# The probe, in the generated C's style: probe_scaled takes only integer
# tensors but computes through double (a helper of its own, so the
# closure is tested too); probe_shifted is its integer twin.
PROBE = """typedef signed char rxc_i8;
typedef int rxc_i32;
typedef long long rxc_i64;
void probe_scaled(const rxc_i8 *restrict a, rxc_i32 *restrict out, rxc_i64 n);
void probe_shifted(const rxc_i8 *restrict a, rxc_i32 *restrict out, rxc_i64 n);

static double
probe_half(double v)
{
  return v * 0.5;
}

void
probe_scaled(const rxc_i8 *restrict a, rxc_i32 *restrict out, rxc_i64 n)
{
  for (rxc_i64 i = 0; i < n; i++)
    out[i] = (rxc_i32)probe_half(a[i]);
}

void
probe_shifted(const rxc_i8 *restrict a, rxc_i32 *restrict out, rxc_i64 n)
{
  for (rxc_i64 i = 0; i < n; i++)
    out[i] = a[i] >> 1;
}
"""


def parameter_kind(param):
    """'int' for an integer scalar or pointer, 'int*' for an integer
    pointer, 'other' for anything else (float, double, void *, ...)."""
    words = [w for w in re.findall(r"\w+", param) if w not in QUALIFIERS]
    base = words[:-1] if len(words) > 1 else words  # drop the parameter's name
    if not base or not all(w in INTEGER_TYPES for w in base):
        return "other"
    return "int*" if "*" in param else "int"


def functions_of(c_text):
    """{name: [parameter kinds]} of the functions the C text defines (the
    return type on its own line, as the generated C writes them)."""
    found = {}
    for name, params in DEFINITION.findall(c_text):
        parts = [p.strip() for p in params.split(",") if p.strip() not in ("", "void")]
        found[name] = [parameter_kind(p) for p in parts]
    return found


def kernels_of(c_path, prefix):
    """({kernel: parameter kinds}, {every function the C defines}): the
    kernels are the functions named PREFIX_... that the header next to the
    C does not declare (those are the entries)."""
    with open(c_path) as f:
        defined = functions_of(f.read())
    header = c_path[:-2] + ".h"
    public = set()
    if os.path.exists(header):
        with open(header) as f:
            public = {name for name, _ in DECLARATION.findall(f.read())}
    kernels = {n: k for n, k in defined.items() if n.startswith(prefix + "_") and n not in public}
    return kernels, set(defined)


def disassemble(image):
    """({function: set of call and branch targets}, [(function, mnemonic)]
    of the FPU instructions) of the image's disassembly; a clone's name
    (f.constprop.0, f.isra.0, f.part.0) counts as f's."""
    text = cmtest.run(["arm-none-eabi-objdump", "-d", image]).stdout
    calls, fpu, current = {}, [], None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(1).split(".")[0]
            calls.setdefault(current, set())
            continue
        m = INSTRUCTION.match(line)
        if not m or current is None:
            continue
        mnemonic, operands = m.groups()
        if mnemonic.startswith("v"):
            fpu.append((current, mnemonic))
        target = TARGET.match(operands)
        if mnemonic.startswith("b") and target:
            calls[current].add(target.group(1).split(".")[0])
    return calls, fpu


def reachable_helpers(function, calls, local):
    """{float helper: the local function that calls it} reachable from
    function through the functions of the generated C (local)."""
    helpers, seen, todo = {}, {function}, [function]
    while todo:
        f = todo.pop()
        for callee in sorted(calls.get(f, ())):
            if FLOAT_HELPER.match(callee):
                helpers.setdefault(callee, f)
            elif callee in local and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return helpers


def check(c_path, prefix, calls, known=None):
    """Prints one line a kernel: its parameters (integer / float) and the
    float helpers it reaches; returns (errors, number of integer kernels).
    known ({kernel: why}) lists integer kernels expected to call float
    helpers still: reported, not errors, but an error once they call none
    (so that the list shrinks as the lowering is fixed)."""
    known = known or {}
    kernels, local = kernels_of(c_path, prefix)
    errors, integer = [], 0
    if not kernels:
        errors.append("%s: no function named %s_... that the header does not declare: "
                      "the generated C's layout changed; revisit floathelpers.py" % (c_path, prefix))
    for name in sorted(kernels):
        kinds = kernels[name]
        only_int = "int*" in kinds and all(k != "other" for k in kinds)
        integer += only_int
        if name not in calls:
            errors.append("%s: not a function of its own in the image (inlined?); "
                          "its helpers cannot be told" % name)
            continue
        helpers = reachable_helpers(name, calls, local)
        shown = " ".join(h if via == name else "%s (via %s)" % (h, via)
                         for h, via in sorted(helpers.items())) or "none"
        print("    %-58s %-7s %s" % (name, "integer" if only_int else "float", shown))
        if name in known and not (only_int and helpers):
            errors.append("%s is in KNOWN_FLOAT of floathelpers.py but calls no float helper "
                          "now: delete it from the list" % name)
        elif name in known:
            print("      known: %s" % known[name])
        elif only_int and helpers:
            errors.append("%s takes only integer tensors but calls the float helpers %s"
                          % (name, shown))
    errors += ["%s is in KNOWN_FLOAT of floathelpers.py but is no kernel of %s" % (k, c_path)
               for k in sorted(set(known) - set(kernels))]
    return errors, integer


def probe(outdir, cc):
    """Runs the check on PROBE; errors when it does not flag probe_scaled
    (and only it)."""
    src = os.path.join(outdir, "probe_float.c")
    with open(src, "w") as f:
        f.write(PROBE)
    obj, elf = src[:-2] + ".o", src[:-2] + ".elf"
    cmtest.run(cc + cmtest.STRICT + ["-O2", "-fno-inline", "-c", src, "-o", obj])
    cmtest.run(cc + ["-nostdlib", "-Wl,-e,probe_shifted", "-o", elf, obj, "-lgcc"])
    calls, _ = disassemble(elf)
    print("  probe (the check must flag probe_scaled):")
    errors, _ = check(src, "probe", calls)
    flagged = [e.split()[0] for e in errors]
    if flagged != ["probe_scaled"]:
        return ["probe: the float-helper check flagged %s, not probe_scaled alone: it cannot "
                "be trusted (%s)" % (flagged, "; ".join(errors))]
    return []


def check_int_ops(outdir, cc):
    """The check of int_ops.py's kernels (integer ops only), compiled with
    cortex-m4.ini and linked on their own; errors."""
    model = os.path.basename(INT_OPS)[:-3]
    cmtest.run([cmtest.rxc_path(), "compile", INT_OPS, "--config", cmtest.CONFIG, "-o", outdir])
    src = os.path.join(outdir, model + ".c")
    obj, elf = src[:-2] + ".o", src[:-2] + ".elf"
    cmtest.run(cc + cmtest.STRICT + ["-O2", "-fno-inline", "-c", src, "-o", obj])
    cmtest.run(cc + ["-nostdlib", "-Wl,-e,%s_main" % model, "-o", elf, obj, "-lgcc"])
    calls, fpu = disassemble(elf)
    lowered = cmtest.run([cmtest.rxc_path(), "opt", INT_OPS, "--passes", "Normalize,LegalizeOps"]).stdout
    known = KNOWN_FLOAT if '"float64"' in lowered else {}
    print("  float helpers of %s's kernels (tests/cortexm/int_ops.py; LegalizeOps %s):"
          % (model, "lowers some with float64, KNOWN_FLOAT applies" if known
             else "uses no float64: every integer kernel held to none"))
    errors, integer = check(src, model, calls, known)
    if integer == 0:
        errors.append("%s: no kernel takes only integer tensors: the check of it shows nothing" % model)
    if fpu:
        errors.append("%s.elf holds %d FPU instructions, e.g. %s in %s"
                      % (model, len(fpu), fpu[0][1], fpu[0][0]))
    return errors


def check_image(outdir, cc, image, sources):
    """The float-helper check of a soft-float image: the probe, int_ops.py,
    the FPU instructions, then each generated C file of sources (MODEL.c,
    kernels named MODEL_...).  Returns (errors, {model: number of integer
    kernels})."""
    errors = probe(outdir, cc) + check_int_ops(outdir, cc)
    calls, fpu = disassemble(image)
    if fpu:
        errors.append("the -mfloat-abi=soft image holds %d FPU instructions, e.g. %s in %s"
                      % (len(fpu), fpu[0][1], fpu[0][0]))
    integer = {}
    for src in sources:
        model = os.path.basename(src)[:-2]
        print("  float helpers of %s's kernels (-mfloat-abi=soft -fno-inline):" % model)
        e, integer[model] = check(src, model, calls)
        errors += e
        if integer[model] == 0:
            print("    (no kernel takes only integer tensors: nothing to hold to no float)")
    return errors, integer
