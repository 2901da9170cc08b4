/*
 * gen_weights.c - the constants of the module (its weights) in the form
 * [codegen] weights asks for:
 *
 *   inline    each constant a `static const` union of its array with the
 *             widest scalars (aligned without an attribute), its values
 *             exact literals: hex floats, or the bit patterns when the
 *             tensor holds inf or nan;
 *   separate  the same unions defined in NAME_weights.c, extern in NAME.c;
 *   bytes     one `static const` union per C type of a byte string and the
 *             typed array, every constant of that type at a 64-byte aligned
 *             offset in it;
 *   blob      no weights in the C: NAME.weights.bin holds a 64-byte header
 *             and then every constant at a 64-byte aligned offset, and the
 *             code reads them through the pointer NAME_set_weights checks
 *             and keeps.
 *
 * Key ideas:
 *  - Compilers read a string literal several times faster, and in a
 *    fraction of the memory, than the same bytes as numbers: gcc -O2 reads
 *    resnet18's 46.8 MB as one string in about 5 s and 0.5 GB, as float
 *    literals in about a minute and gigabytes (README "Weights").  The
 *    string spells a printable byte as itself and any other as a
 *    three-digit octal escape, which ends by itself, so no byte's spelling
 *    depends on the next byte.  `?` is escaped too (trigraphs).
 *  - A constant's place is decided at its first use (cg_const_ref), so
 *    the kernels' calls are written before the constants are.
 *  - bytes and blob write the host's bytes: little-endian.  The generated
 *    code refuses to build (bytes) or to take the blob (blob) on a
 *    big-endian target.
 *  - The blob's header names the blob: a magic, its size and a 64-bit
 *    hash of everything after the header (blob_hash: FNV-1a's step over
 *    8-byte words in four lanes).  NAME_set_weights compares the header
 *    with the one this NAME.c was generated with, so the blob of another
 *    model, or of another compile of this one with other weights, is
 *    refused (NAME_ERR_WEIGHTS), not read.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

enum {
  PLACE_ALIGN = 64,  /* of every constant in a byte string or the blob */
  BLOB_HEADER = 64,  /* bytes of the blob's header */
  BLOB_CHECKED = 32, /* of which NAME_set_weights compares */
  STRING_PIECE = 4096, /* bytes per string literal piece (one line) */
};

static const char BLOB_MAGIC[8] = {'R', 'X', 'C', 'W', 'G', 'T', 'S', '1'};

static int64_t
round_up(int64_t n, int64_t to)
{
  return (n + to - 1) / to * to;
}

static bool
mode_is(const CgGen *g, CfgWeights w)
{
  return g->cfg->codegen.weights == w;
}

/* --- where each constant goes ------------------------------------------ */

static int64_t
const_bytes(const IrExpr *c)
{
  return (int64_t)c->u.constant.nbytes;
}

/* The C expression of a pointer to k's first element. */
static const char *
const_ref_text(CgGen *g, const CgConst *k, int index)
{
  const char *T = cg_ctype_name(k->t);
  switch (g->cfg->codegen.weights) {
  case CFG_WEIGHTS_BYTES:
    return ir_printf(g->ctx, "(%s_w_%s.v + %lld)", g->name, cg_ctype_suffix(k->t),
                     (long long)(k->off / ir_dtype_bytes(k->e->u.constant.dtype)));
  case CFG_WEIGHTS_BLOB:
    return ir_printf(g->ctx, "((const %s *)(%s_weights + %lld))", T, g->name, (long long)k->off);
  default:
    return ir_printf(g->ctx, "%s_c%d.v", g->name, index);
  }
}

const char *
cg_const_ref(CgGen *g, const IrExpr *c)
{
  CgConst *known = ir_map_get(&g->const_index, c);
  if (known)
    return known->ref;
  CgCType t;
  if (!cg_ctype(c->u.constant.dtype, &t)) {
    g->loc = c->loc;
    cg_dtype_cname(g, c->u.constant.dtype); /* the error */
    return NULL;
  }
  if (g->nconsts == g->capconsts) {
    g->capconsts = g->capconsts ? 2 * g->capconsts : 16;
    g->consts = ir_xrealloc(g->consts, sizeof *g->consts * (size_t)g->capconsts);
    ir_map_clear(&g->const_index); /* the entries moved */
    for (int i = 0; i < g->nconsts; i++)
      ir_map_put(&g->const_index, g->consts[i].e, &g->consts[i]);
  }
  CgConst *k = &g->consts[g->nconsts];
  *k = (CgConst){.e = c, .t = t};
  int64_t *end = mode_is(g, CFG_WEIGHTS_BLOB) ? &g->blob_end : &g->string_end[t];
  if (mode_is(g, CFG_WEIGHTS_BLOB) && *end == 0)
    *end = BLOB_HEADER;
  k->off = round_up(*end, PLACE_ALIGN);
  *end = k->off + const_bytes(c);
  k->ref = const_ref_text(g, k, g->nconsts);
  ir_map_put(&g->const_index, c, k);
  g->nconsts++;
  return k->ref;
}

/* --- inline and separate: literals ----------------------------------- */

static bool
all_finite(const IrTensorData *d, CgCType t, int64_t n)
{
  for (int64_t i = 0; i < n && (t == CG_CT_F32 || t == CG_CT_F64); i++) {
    double v;
    if (t == CG_CT_F32) {
      float f;
      memcpy(&f, (const char *)d->data + 4 * i, 4);
      v = f;
    } else {
      memcpy(&v, (const char *)d->data + 8 * i, 8);
    }
    if (v != v || v - v != 0)
      return false;
  }
  return true;
}

/* Element i of d in C, exact. */
static void
emit_element(CgGen *g, const IrTensorData *d, CgCType t, bool bits, int64_t i, IrBuf *o)
{
  const unsigned char *p =
      (const unsigned char *)d->data + (size_t)i * (size_t)ir_dtype_bytes(d->dtype);
  uint64_t u = 0;
  memcpy(&u, p, (size_t)ir_dtype_bytes(d->dtype)); /* little-endian host */
  if (bits) {
    ir_buf_printf(o, t == CG_CT_F32 ? "0x%08llxu" : "0x%016llxull", (unsigned long long)u);
  } else if (cg_ctype_is_half(t)) {
    ir_buf_printf(o, "0x%04x", (unsigned)(u & 0xffff)); /* the bits, as stored */
  } else if (t == CG_CT_F32) {
    float f;
    memcpy(&f, p, 4);
    cg_emit_float(g, d->dtype, f, o);
  } else if (t == CG_CT_F64) {
    double v;
    memcpy(&v, p, 8);
    cg_emit_float(g, d->dtype, v, o);
  } else {
    int bitsz = d->dtype.bits < 8 ? 8 : d->dtype.bits;
    int64_t v = (int64_t)u;
    if (d->dtype.code == IR_DT_INT && bitsz < 64) /* sign-extend */
      v = (int64_t)(u << (64 - bitsz)) >> (64 - bitsz);
    cg_emit_int(d->dtype, t == CG_CT_BOOL ? (u & 0xff) != 0 : v, o);
  }
}

/* "union NAME_cK_t { T v[n]; ... }" (the bits member first when needed). */
static void
emit_union(const char *name, CgCType t, bool bits, int64_t n, IrBuf *o)
{
  ir_buf_printf(o, "union %s_t {\n", name);
  if (bits)
    ir_buf_printf(o, "  %s bits[%lld];\n", t == CG_CT_F32 ? "rxc_u32" : "rxc_u64", (long long)n);
  ir_buf_printf(o, "  %s v[%lld];\n  rxc_i64 align_i;\n  double align_d;\n  void *align_p;\n}",
                cg_ctype_name(t), (long long)n);
}

static void
emit_literals(CgGen *g, int k, IrBuf *out, IrBuf *weights)
{
  const CgConst *cc = &g->consts[k];
  const IrTensorData *d = &cc->e->u.constant;
  CgCType t = cc->t;
  int64_t n = (int64_t)(d->nbytes / (size_t)ir_dtype_bytes(d->dtype));
  bool bits = !all_finite(d, t, n);
  const char *name = ir_printf(g->ctx, "%s_c%d", g->name, k);
  bool separate = mode_is(g, CFG_WEIGHTS_SEPARATE);
  IrBuf shape = {0};
  for (int i = 0; i < d->ndim; i++)
    ir_buf_printf(&shape, "%s%lld", i ? ", " : "", (long long)d->shape[i]);
  char buf[32];
  ir_buf_printf(out, "/* R.const: %s (%s) */\n%s", ir_dtype_str(d->dtype, buf),
                shape.data ? shape.data : "", separate ? "extern const " : "static const ");
  emit_union(name, t, bits, n > 0 ? n : 1, out);
  IrBuf *def = separate ? weights : out;
  if (separate) {
    ir_buf_printf(out, " %s;\n\n", name);
    ir_buf_printf(def, "const ");
    emit_union(name, t, bits, n > 0 ? n : 1, def);
  }
  ir_buf_printf(def, " %s = {{", name);
  for (int64_t i = 0; i < n; i++) {
    ir_buf_puts(def, i % 8 ? ", " : i ? ",\n    " : "\n    ");
    emit_element(g, d, t, bits, i, def);
  }
  ir_buf_puts(def, n ? "}};\n\n" : "0}};\n\n");
  ir_buf_free(&shape);
}

/* --- bytes: one string per C type ---------------------------------------- */

/* bytes as the pieces of a C string literal, STRING_PIECE bytes a line. */
static void
emit_string(const unsigned char *bytes, int64_t n, IrBuf *o)
{
  char spell[256][5];
  for (int c = 0; c < 256; c++) {
    bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?';
    if (plain)
      spell[c][0] = (char)c, spell[c][1] = 0;
    else
      spell[c][0] = '\\', spell[c][1] = (char)('0' + (c >> 6)),
      spell[c][2] = (char)('0' + ((c >> 3) & 7)), spell[c][3] = (char)('0' + (c & 7)),
      spell[c][4] = 0;
  }
  char line[STRING_PIECE * 4 + 4];
  for (int64_t i = 0; i < n; i += STRING_PIECE) {
    size_t len = 0;
    line[len++] = '"';
    for (int64_t j = i; j < n && j < i + STRING_PIECE; j++) {
      const char *s = spell[bytes[j]];
      while (*s)
        line[len++] = *s++;
    }
    line[len++] = '"';
    line[len++] = '\n';
    ir_buf_put(o, line, len);
  }
}

/* The constants of type t (every one when all) into bytes, size bytes
 * laid out as their string or the blob holds them, the bytes between and
 * after them zeroed: bytes need not come zeroed, and the output must not
 * depend on what it held. */
static void
gather(const CgGen *g, CgCType t, bool all, unsigned char *bytes, int64_t size)
{
  int64_t end = 0; /* cg_const_ref placed them in this order */
  for (int k = 0; k < g->nconsts; k++)
    if (all || g->consts[k].t == t) {
      const CgConst *c = &g->consts[k];
      assert(c->off >= end && c->off + const_bytes(c->e) <= size);
      memset(bytes + end, 0, (size_t)(c->off - end));
      memcpy(bytes + c->off, c->e->u.constant.data, (size_t)const_bytes(c->e));
      end = c->off + const_bytes(c->e);
    }
  memset(bytes + end, 0, (size_t)(size - end));
}

static void
emit_type_string(CgGen *g, CgCType t, IrBuf *out)
{
  int64_t size = round_up(g->string_end[t] > 0 ? g->string_end[t] : 1, PLACE_ALIGN);
  int64_t esize = 0;
  int count = 0;
  for (int k = 0; k < g->nconsts; k++)
    if (g->consts[k].t == t)
      count++, esize = ir_dtype_bytes(g->consts[k].e->u.constant.dtype);
  const char *name = ir_printf(g->ctx, "%s_w_%s", g->name, cg_ctype_suffix(t));
  ir_buf_printf(out,
                "/* the %d %s constants, each at a multiple of %d bytes */\n"
                "union %s_t {\n  unsigned char b[%lld];\n  %s v[%lld];\n"
                "  rxc_i64 align_i;\n  double align_d;\n  void *align_p;\n};\n"
                "static const union %s_t %s RXC_ALIGN64 = {\n",
                count, cg_ctype_suffix(t), PLACE_ALIGN, name, (long long)size, cg_ctype_name(t),
                (long long)(size / esize), name, name);
  unsigned char *bytes = ir_xmalloc((size_t)size);
  gather(g, t, false, bytes, size);
  emit_string(bytes, size, out);
  free(bytes);
  ir_buf_puts(out, "};\n\n");
}

static void
emit_strings(CgGen *g, IrBuf *out)
{
  if (!g->nconsts)
    return;
  ir_buf_puts(out,
              "/* [codegen] weights = bytes: the host's bytes, little-endian */\n"
              "#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)\n"
              "#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__\n"
              "#error \"these weights are little-endian: compile with weights = inline\"\n"
              "#endif\n#endif\n"
              "#if defined(__GNUC__) || defined(__TINYC__)\n"
              "#define RXC_ALIGN64 __attribute__((aligned(64)))\n#else\n#define RXC_ALIGN64\n"
              "#endif\n"
              "#if defined(__GNUC__)\n#pragma GCC diagnostic push\n"
              "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n#endif\n");
  bool used[CG_CT_COUNT] = {false};
  for (int k = 0; k < g->nconsts; k++)
    used[g->consts[k].t] = true;
  for (int t = 0; t < CG_CT_COUNT; t++)
    if (used[t])
      emit_type_string(g, (CgCType)t, out);
  ir_buf_puts(out, "#if defined(__GNUC__)\n#pragma GCC diagnostic pop\n#endif\n\n");
}

/* --- blob: NAME.weights.bin and NAME_set_weights -------------------------- */

static void
put_le(unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* One step of a lane of blob_hash: FNV-1a's (xor, multiply by its
 * prime) on a word, then an xorshift so that high bits reach the low
 * ones. */
static uint64_t
hash_step(uint64_t h, uint64_t word)
{
  h = (h ^ word) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

/* The 8 bytes at p in the host's order: the blob is the host's bytes
 * anyway, and the compiler makes it one load. */
static uint64_t
word_at(const unsigned char *p)
{
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* The blob's hash: four lanes of hash_step over every fourth word, folded
 * together at the end.  Byte by byte, one chain of multiplies, it took
 * tens of milliseconds of resnet18's JIT (46.8 MB); four chains of words
 * keep the multiplier busy and run near the speed of memory.  Each step is a bijection of its
 * lane, so a blob that differs in one word always hashes differently.
 * Bytes after the last whole 32 go in one by one. */
static uint64_t
blob_hash(const unsigned char *p, int64_t n)
{
  const uint64_t basis = 0xcbf29ce484222325ull;
  uint64_t h0 = basis, h1 = basis + 1, h2 = basis + 2, h3 = basis + 3;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    h0 = hash_step(h0, word_at(p + i));
    h1 = hash_step(h1, word_at(p + i + 8));
    h2 = hash_step(h2, word_at(p + i + 16));
    h3 = hash_step(h3, word_at(p + i + 24));
  }
  uint64_t h = hash_step(basis, (uint64_t)n);
  h = hash_step(hash_step(hash_step(hash_step(h, h0), h1), h2), h3);
  for (; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

int64_t
cg_blob_bytes(const CgGen *g)
{
  return round_up(g->blob_end > BLOB_HEADER ? g->blob_end : BLOB_HEADER, PLACE_ALIGN);
}

/* The widest element of any constant: the blob's alignment. */
int
cg_blob_align(const CgGen *g)
{
  int align = 1;
  for (int k = 0; k < g->nconsts; k++) {
    int b = ir_dtype_bytes(g->consts[k].e->u.constant.dtype);
    align = b > align ? b : align;
  }
  return align;
}

static void
emit_blob(CgGen *g, IrBuf *out, IrBuf *blob)
{
  /* gathered in place in the blob's own buffer, aligned as
   * cg_compiled_bind needs to hand it to the code as it is: the weights
   * are copied once here and by nothing after */
  int64_t size = cg_blob_bytes(g);
  size_t cap = (size_t)size + PLACE_ALIGN; /* room for the NUL an IrBuf keeps */
  unsigned char *bytes = ir_xaligned_alloc(PLACE_ALIGN, cap);
  ir_advise_huge(bytes, cap);
  gather(g, CG_CT_COUNT, true, bytes, size);
  memcpy(bytes, BLOB_MAGIC, sizeof BLOB_MAGIC);
  put_le(bytes + 8, (uint64_t)size, 8);
  put_le(bytes + 16, blob_hash(bytes + BLOB_HEADER, size - BLOB_HEADER), 8);
  put_le(bytes + 24, BLOB_HEADER, 4);
  put_le(bytes + 28, PLACE_ALIGN, 4);
  ir_buf_adopt(blob, (char *)bytes, (size_t)size, cap);
  const char *N = g->name;
  ir_buf_printf(out,
                "/* the weights (weights = blob): %s.weights.bin's bytes, once\n"
                " * %s_set_weights has accepted them */\nstatic const unsigned char *%s_weights;\n\n",
                N, N, N);
  ir_buf_printf(out,
                "int\n%s_set_weights(const void *weights, size_t bytes)\n{\n"
                "  /* the blob's first %d bytes: magic, size, hash, layout */\n"
                "  static const unsigned char header[%d] = {",
                N, BLOB_CHECKED, BLOB_CHECKED);
  for (int i = 0; i < BLOB_CHECKED; i++)
    ir_buf_printf(out, "%s%u", i == 0 ? "" : i % 16 ? ", " : ",\n    ", bytes[i]);
  ir_buf_printf(out,
                "};\n  const unsigned char *w = (const unsigned char *)weights;\n"
                "  union {\n    rxc_u32 u;\n    unsigned char b[4];\n  } one;\n  int i;\n"
                "  %s_weights = 0;\n  one.u = 1;\n"
                "  if (!w || bytes < %s_WEIGHTS_BYTES || (rxc_uptr)w %% %s_WEIGHTS_ALIGN != 0 ||"
                " one.b[0] != 1)\n    return %s_ERR_WEIGHTS;\n"
                "  for (i = 0; i < %d; i++)\n    if (w[i] != header[i])\n"
                "      return %s_ERR_WEIGHTS;\n  %s_weights = w;\n  return 0;\n}\n\n",
                N, N, N, N, BLOB_CHECKED, N, N);
}

/* --- all of them ------------------------------------------------------- */

int64_t
cg_emit_consts(CgGen *g, IrBuf *out, IrBuf *weights, IrBuf *blob)
{
  int64_t bytes = 0;
  for (int k = 0; k < g->nconsts; k++)
    bytes += const_bytes(g->consts[k].e);
  switch (g->cfg->codegen.weights) {
  case CFG_WEIGHTS_BYTES:
    emit_strings(g, out);
    return bytes;
  case CFG_WEIGHTS_BLOB:
    emit_blob(g, out, blob);
    return cg_blob_bytes(g);
  case CFG_WEIGHTS_SEPARATE:
    ir_buf_printf(weights,
                  "/* %s_weights.c - generated by rxc %s: do not edit.\n"
                  " * The constants of %s.c, compiled on their own. */\n#include \"%s.h\"\n\n",
                  g->name, RXC_VERSION, g->name, g->name);
    break;
  case CFG_WEIGHTS_INLINE:
    break;
  }
  for (int k = 0; k < g->nconsts; k++) {
    g->loc = g->consts[k].e->loc;
    emit_literals(g, k, out, weights);
  }
  return bytes;
}
