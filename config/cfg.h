/* cfg.h - the build configuration (prefix cfg_): one INI file, read with
 * inih into one options struct that every stage receives.  Command-line
 * flags override the file through the same setter (cfg_set), so a key means
 * the same thing wherever it is given.  The struct holds no pointer into a
 * context or a file: it can be copied and outlives the IrCtx that loaded it. */
#ifndef RXC_CFG_H
#define RXC_CFG_H

#include <stdbool.h>
#include <stdint.h>

#include "../ir/ir.h"

enum {
  CFG_NAME_MAX = 64,   /* bytes of an identifier value, with its NUL */
  CFG_TEXT_MAX = 256,  /* bytes of a free-text value (commands, flags), with its NUL */
  CFG_MAX_PASSES = 16, /* entries of passes_add / passes_remove */
  CFG_MAX_BOUNDS = 32, /* upper_bound.NAME entries of [memplan] */
};

typedef enum {
  CFG_TARGET_HOST,     /* "host": the machine rxc runs on */
  CFG_TARGET_CORTEX_M, /* "cortex-m": Arm Cortex-M microcontrollers */
  CFG_TARGET_RISCV,    /* "riscv": RISC-V cores */
} CfgTargetKind;

/* The instruction set the generated C is written for ([target] isa).  A
 * level other than none is carried on the code of NAME.c (target pragmas,
 * codegen/gen.c), so a plain -O2 build gets the vector code, and it sets
 * vector_bytes' default.  Ordered: each x86 level includes the one before. */
typedef enum {
  CFG_ISA_NONE,      /* "none": no pragma; the flags of the user's build decide */
  CFG_ISA_NATIVE,    /* "native": the level of the machine rxc runs on (cfg_isa) */
  CFG_ISA_X86_64,    /* "x86-64": SSE2, every x86-64 */
  CFG_ISA_X86_64_V2, /* "x86-64-v2": + SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT */
  CFG_ISA_X86_64_V3, /* "x86-64-v3": + AVX, AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE */
  CFG_ISA_X86_64_V4, /* "x86-64-v4": + AVX-512 F, BW, CD, DQ, VL */
  CFG_ISA_ARMV7E_M,  /* "armv7e-m": Cortex-M4/M7 (the DSP extension's 4-byte SIMD) */
} CfgIsa;

typedef enum {
  CFG_PLAN_BEST,           /* "best": run every algorithm, keep the smallest arena */
  CFG_PLAN_GREEDY_SIZE,    /* "greedy_size": place the largest tensors first */
  CFG_PLAN_GREEDY_BREADTH, /* "greedy_breadth": place tensors in program order */
  CFG_PLAN_EXACT,          /* "exact": branch and bound (small problems; else greedy_size) */
  CFG_PLAN_POOLED,         /* "pooled": TVM's StaticPlanBlockMemory rule, for comparison */
  CFG_PLAN_GREEDY_LENGTH,  /* "greedy_length": the longest lifetimes first */
  CFG_PLAN_GREEDY_AREA,    /* "greedy_area": the largest size x lifetime first */
  CFG_PLAN_GREEDY_GLOW,    /* "greedy_glow": Glow's order (busiest step, its largest) */
  CFG_PLAN_BEST_FIT,       /* "best_fit": the largest first, each in the smallest gap */
  CFG_PLAN_LOCAL,          /* "local": the best greedy, then the order-swap local search */
} CfgPlanAlgorithm;

typedef enum {
  CFG_WEIGHTS_INLINE,   /* "inline": static const arrays in NAME.c */
  CFG_WEIGHTS_SEPARATE, /* "separate": the same arrays in NAME_weights.c */
  CFG_WEIGHTS_BYTES,    /* "bytes": one byte string per C type in NAME.c */
  CFG_WEIGHTS_BLOB,     /* "blob": NAME.weights.bin, handed over by NAME_set_weights */
} CfgWeights;

typedef enum {
  CFG_LIBM_BUILTIN, /* "builtin": math functions from rt/, copied into the output */
  CFG_LIBM_SYSTEM,  /* "system": the toolchain's <math.h> and -lm */
} CfgLibm;

typedef enum {
  CFG_ROWS_AUTO, /* "auto": both forms in NAME.c, the row calls under tcc (RXC_ROWS) */
  CFG_ROWS_ON,   /* "on": the row calls only */
  CFG_ROWS_OFF,  /* "off": the loops only */
} CfgRows;

typedef enum {
  CFG_JIT_TCC, /* "tcc": libtcc, in process */
  CFG_JIT_CC,  /* "cc": the system compiler, then dlopen */
} CfgJitCompiler;

/* A bound for one symbolic dimension: [memplan] upper_bound.NAME = bound. */
typedef struct {
  char name[CFG_NAME_MAX]; /* the TIR var's name, e.g. "n" */
  int64_t bound;           /* >= 1 */
} CfgBound;

/* Every option of a build, with its default (cfg_defaults) after the
 * field.  The INI key of each field is its section and name. */
typedef struct {
  struct {
    CfgTargetKind kind;    /* host */
    int alignment;         /* 64: bytes, of the arena and every tensor in it;
                              a power of two 1..4096 */
    char cc[CFG_TEXT_MAX]; /* "cc": the C compiler command for the target */
    int vector_bytes;      /* 0 ("auto"): bytes of one SIMD vector, which sizes
                              the register tiles of products (ops/gemm.c); a
                              power of two 1..256, or 0 for the isa's width
                              (cfg_vector_bytes: 64 when isa is none) */
    CfgIsa isa;            /* none: the instruction set NAME.c carries */
  } target;
  struct {
    int level;                                        /* 2: pipeline of -O0..-O2 */
    char passes_add[CFG_MAX_PASSES][CFG_NAME_MAX];    /* none: pass names appended to the
                                                         pipeline (each one opt knows) */
    int npasses_add;                                  /* 0 */
    char passes_remove[CFG_MAX_PASSES][CFG_NAME_MAX]; /* none: pass names dropped from it */
    int npasses_remove;                               /* 0 */
    bool verify_each;                                 /* false: well-formedness after each pass */
    bool kernels;                                     /* false: LegalizeOps calls rt/'s kernels
                                                         (T.call_extern) for the inner loops
                                                         it has one for (issue 35) */
  } opt;
  struct {
    CfgPlanAlgorithm algorithm;            /* best */
    int64_t arena_limit;                   /* 0: bytes; 0 = no limit, otherwise a larger
                                              plan is a compile-time error */
    int64_t default_upper_bound;           /* 0: bound of a symbolic dim that has no
                                              tir_var_upper_bound; 0 = none (an error) */
    CfgBound upper_bounds[CFG_MAX_BOUNDS]; /* none: per-dim bounds, by var name */
    int nupper_bounds;                     /* 0 */
    bool require_static;                   /* false: an arena that grows with a dim
                                              without an upper bound is an error
                                              (a target with no heap) */
    int64_t budget_ms;                     /* 1000: budget of the planner's searches
                                              (local and exact), counted in work at a
                                              fixed rate, never on the clock */
  } memplan;
  struct {
    char prefix[CFG_NAME_MAX]; /* "": prefix of generated names; "" = the module name */
    CfgWeights weights;        /* inline */
    CfgLibm libm;              /* builtin */
    bool checks;               /* true: runtime argument and size checks in entries */
    bool poison;               /* false: debug mode; each arena storage is filled with
                                  0xFF bytes where its lifetime ends, and canaries
                                  checked at the end of each entry (codegen/README.md) */
    CfgRows rows;              /* auto: innermost float32 loops as calls of the row
                                  kernel rxc_k_row_f32 (codegen/gen_row.c) */
  } codegen;
  struct {
    CfgJitCompiler compiler;     /* tcc */
    char cc_flags[CFG_TEXT_MAX]; /* "auto": flags for the JIT's compiler; "auto" is
                                    the host's best (cg_cc_flags: -O3 -march=native
                                    when the compiler takes them, else -O2) */
  } jit;
  struct {
    IrDialect dialect; /* v0.26 (IR_DIALECT_DEFAULT): the TVM release whose
                          TVMScript rxc opt and rxc import print */
  } print;
  int verbosity; /* command line only (not an INI key): -q -1, default 0, -v 1 */
} CfgOptions;

/* config.c */
/* Sets every field to its default (what config/default.ini states). */
void cfg_defaults(CfgOptions *o);
/* Reads the INI file at path over *o: keys present replace fields, others
 * keep their value.  Every error of the file (unknown section or key, bad
 * value, duplicate key, syntax error, unreadable file) is reported through
 * ir_error at its file:line:col, not only the first.  Returns true when
 * there was none; on error *o is left unchanged. */
bool cfg_load(IrCtx *ctx, const char *path, CfgOptions *o);
/* Sets section.key to value (text as in the file; surrounding blanks
 * ignored), as the file would.  Also takes "upper_bound.NAME" in memplan.
 * On a bad section, key or value reports an error without location and
 * returns false with *o unchanged. */
bool cfg_set(IrCtx *ctx, CfgOptions *o, const char *section, const char *key, const char *value);
/* Parses "section.key=value" (rxc --set) and applies it with cfg_set. */
bool cfg_set_arg(IrCtx *ctx, CfgOptions *o, const char *arg);
/* Appends o as an INI file that cfg_load reads back to the same options. */
void cfg_print(const CfgOptions *o, IrBuf *out);
/* The isa o's code is generated for: [target] isa, with native resolved to
 * cfg_isa_host(); never CFG_ISA_NATIVE. */
CfgIsa cfg_isa(const CfgOptions *o);
/* The x86-64 level of the machine this runs on, from the CPU's feature
 * bits (each level needs every feature of its definition that the CPU
 * reports; see config.c); CFG_ISA_NONE on any other architecture. */
CfgIsa cfg_isa_host(void);
/* The spelling of isa in [target] isa ("x86-64-v3"). */
const char *cfg_isa_name(CfgIsa isa);
/* The vector width in effect: [target] vector_bytes when set, else the
 * isa's (x86-64-v4 64, v3 32, v2 and x86-64 16, armv7e-m 4, none 64). */
int cfg_vector_bytes(const CfgOptions *o);

#endif
