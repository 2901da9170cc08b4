/*
 * metadata.c - the metadata section of TVM's mod.script(show_meta=True):
 * `metadata = tvm.ir.load_json("""JSON""")` and the references
 * `metadata["relax.expr.Constant"][i]` in the module.
 *
 * Key ideas: the JSON is TVM FFI's object graph (ffi::ToJSONGraph):
 * {"root_index": r, "nodes": [...]}, each node {"type": key, "data": ...},
 * objects referring to others by node index.  The root is an ffi.Map from
 * type keys (ffi.String nodes) to ffi.Arrays of nodes; a relax.expr.Constant
 * node's "data" field names an ffi.Tensor node whose data is the base64 of
 * TVM's tensor file format (SaveDLTensor: magic, reserved, device, ndim,
 * dtype, shape, byte count, little-endian bytes).  Each constant becomes
 * an IrTensorData; the other fields (span, ty) and other type keys are not
 * read.  The section may come before or after the module (TVM prints it
 * first); parse.c reads it before the module either way.  Any deviation
 * is an error at its place in the text: JSON offsets are mapped back to
 * the source through the string's escapes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

typedef enum {
  JS_NULL,
  JS_BOOL,   /* number: 0 or 1 */
  JS_NUMBER, /* number; integral when written without fraction or exponent */
  JS_STRING, /* str */
  JS_ARRAY,  /* items, n */
  JS_OBJECT, /* keys, items, n */
} JsonKind;

typedef struct Json Json;
struct Json {
  JsonKind kind;
  size_t at; /* offset in the decoded text */
  double number;
  bool integral;
  const char *str;
  const char **keys;
  Json **items;
  int n;
};

typedef struct {
  Parser *P;
  const Tok *tok; /* the string token */
  const char *s;  /* its decoded text */
  size_t len, pos;
  int depth;
} Reader;

#define JSON_MAX_DEPTH 64
#define TVM_TENSOR_MAGIC 0xDD5E40F096B4A13FULL

/* Reports an error at offset at of the decoded text and leaves the parse. */
static void
json_fail(Reader *R, size_t at, const char *fmt, ...)
{
  /* walk the source alongside: an escape is two or more source bytes */
  const char *raw = R->tok->text, *end = R->tok->text + R->tok->len;
  int line = R->tok->line, col = R->tok->col;
  size_t quote = raw[0] == raw[1] && raw[1] == raw[2] ? 3 : 1;
  const char *p = raw + quote;
  col += (int)quote;
  for (size_t i = 0; i < at && p < end; i++) {
    if (*p == '\n') {
      line++;
      col = 1;
      p++;
      continue;
    }
    int step = *p == '\\' ? 2 : 1;
    p += step;
    col += step;
  }
  Tok t = *R->tok;
  t.line = line;
  t.col = col;
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(R->P->ctx, IR_DIAG_ERROR, fe_loc(R->P, &t), fmt, ap);
  va_end(ap);
  longjmp(*R->P->fail, 1);
}

/* --- JSON ------------------------------------------------------------------ */

static void
skip_space(Reader *R)
{
  while (R->pos < R->len && strchr(" \t\r\n", R->s[R->pos]))
    R->pos++;
}

static Json *json_value(Reader *R);

static Json *
json_new(Reader *R, JsonKind kind)
{
  Json *j = ir_alloc(R->P->ctx, sizeof *j);
  j->kind = kind;
  j->at = R->pos;
  return j;
}

/* A string after its opening quote; the escapes JSON has (\u of ASCII). */
static const char *
json_string(Reader *R)
{
  IrBuf b = {0};
  size_t start = R->pos - 1;
  for (;;) {
    if (R->pos >= R->len)
      json_fail(R, start, "metadata: unterminated JSON string");
    char c = R->s[R->pos++];
    if (c == '"')
      break;
    if (c == '\\' && R->pos < R->len) {
      char e = R->s[R->pos++];
      const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
      const char *k = strchr(from, e);
      unsigned v = 0;
      if (e == 'u' && R->pos + 4 <= R->len) {
        char hex[5] = {0};
        memcpy(hex, R->s + R->pos, 4);
        R->pos += 4;
        char *end;
        v = (unsigned)strtoul(hex, &end, 16);
        if (*end || v == 0 || v > 0x7f)
          json_fail(R, R->pos - 6, "metadata: only ASCII \\u escapes are read");
        c = (char)v;
      } else if (e && k) {
        c = to[k - from];
      } else {
        json_fail(R, R->pos - 2, "metadata: bad escape in a JSON string");
      }
    }
    ir_buf_put(&b, &c, 1);
  }
  char *s = ir_alloc(R->P->ctx, b.len + 1); /* not interned: tensor data can be megabytes */
  if (b.len)
    memcpy(s, b.data, b.len);
  s[b.len] = 0;
  ir_buf_free(&b);
  return s;
}

static Json *
json_number(Reader *R)
{
  Json *j = json_new(R, JS_NUMBER);
  const char *start = R->s + R->pos;
  char *end;
  j->number = strtod(start, &end);
  if (end == start)
    json_fail(R, R->pos, "metadata: expected a JSON value");
  j->integral = true;
  for (const char *p = start; p < end; p++)
    j->integral = j->integral && *p != '.' && *p != 'e' && *p != 'E';
  R->pos += (size_t)(end - start);
  return j;
}

/* [v, ...] or {"k": v, ...} after the opening bracket. */
static Json *
json_container(Reader *R, bool object)
{
  Json *j = json_new(R, object ? JS_OBJECT : JS_ARRAY);
  j->at--;
  FeVec items = {0}, keys = {0};
  char close = object ? '}' : ']';
  skip_space(R);
  if (R->pos < R->len && R->s[R->pos] == close) {
    R->pos++;
    return j;
  }
  for (;;) {
    if (object) {
      skip_space(R);
      if (R->pos >= R->len || R->s[R->pos] != '"')
        json_fail(R, R->pos, "metadata: expected a JSON object key");
      R->pos++;
      fe_vec_ptr(R->P, &keys, (void *)json_string(R));
      skip_space(R);
      if (R->pos >= R->len || R->s[R->pos] != ':')
        json_fail(R, R->pos, "metadata: expected ':' in a JSON object");
      R->pos++;
    }
    fe_vec_ptr(R->P, &items, json_value(R));
    skip_space(R);
    char c = R->pos < R->len ? R->s[R->pos] : 0;
    R->pos++;
    if (c == close)
      break;
    if (c != ',')
      json_fail(R, R->pos - 1, "metadata: expected ',' or '%c' in JSON", close);
  }
  j->items = items.data;
  j->keys = keys.data;
  j->n = items.len;
  return j;
}

static Json *
json_value(Reader *R)
{
  skip_space(R);
  if (R->pos >= R->len)
    json_fail(R, R->pos, "metadata: the JSON ends early");
  if (++R->depth > JSON_MAX_DEPTH)
    json_fail(R, R->pos, "metadata: JSON nested too deeply");
  const char *p = R->s + R->pos;
  Json *j;
  if (*p == '{' || *p == '[') {
    R->pos++;
    j = json_container(R, *p == '{');
  } else if (*p == '"') {
    j = json_new(R, JS_STRING);
    R->pos++;
    j->str = json_string(R);
  } else if (strncmp(p, "true", 4) == 0 || strncmp(p, "false", 5) == 0) {
    j = json_new(R, JS_BOOL);
    j->number = *p == 't';
    R->pos += *p == 't' ? 4 : 5;
  } else if (strncmp(p, "null", 4) == 0) {
    j = json_new(R, JS_NULL);
    R->pos += 4;
  } else {
    j = json_number(R);
  }
  R->depth--;
  return j;
}

/* --- the object graph --------------------------------------------------------- */

static const Json *
field(Reader *R, const Json *obj, const char *key, JsonKind kind, const char *what)
{
  static const char *const kinds[] = {"null", "a boolean", "a number", "a string", "an array",
                                      "an object"};
  if (obj->kind != JS_OBJECT)
    json_fail(R, obj->at, "metadata: %s must be a JSON object", what);
  for (int i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) {
      if (obj->items[i]->kind != kind)
        json_fail(R, obj->items[i]->at, "metadata: \"%s\" of %s must be %s", key, what,
                  kinds[kind]);
      return obj->items[i];
    }
  json_fail(R, obj->at, "metadata: %s has no \"%s\"", what, key);
  return NULL;
}

/* The node that index value j names, which must have type key type. */
static const Json *
node(Reader *R, const Json *nodes, const Json *j, const char *type)
{
  if (j->kind != JS_NUMBER || !j->integral || j->number < 0 || j->number >= nodes->n)
    json_fail(R, j->at, "metadata: a node index must be an integer from 0 to %d", nodes->n - 1);
  const Json *n = nodes->items[(int)j->number];
  const char *key = field(R, n, "type", JS_STRING, "a node")->str;
  if (strcmp(key, type) != 0)
    json_fail(R, n->at, "metadata: expected a node of type %s but this one is %s", type, key);
  return n;
}

/* --- TVM's tensor format ------------------------------------------------------- */

static int
base64_digit(char c)
{
  const char *table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const char *k = c ? strchr(table, c) : NULL;
  return k ? (int)(k - table) : -1;
}

/* The bytes of base64 text s (padded with '=' to a multiple of 4). */
static unsigned char *
base64_decode(Reader *R, const Json *j, size_t *n)
{
  size_t len = strlen(j->str);
  unsigned char *out = ir_alloc(R->P->ctx, len / 4 * 3 + 1);
  *n = 0;
  if (len % 4)
    json_fail(R, j->at, "metadata: tensor data is not base64 (its length is not a multiple of 4)");
  for (size_t i = 0; i < len; i += 4) {
    int d[4], pad = 0;
    for (int k = 0; k < 4; k++) {
      char c = j->str[i + k];
      d[k] = base64_digit(c);
      bool padding = c == '=' && i + 4 == len && k >= 2 && (k == 3 || j->str[i + 3] == '=');
      if (padding) {
        d[k] = 0;
        pad++;
      } else if (d[k] < 0) {
        json_fail(R, j->at, "metadata: tensor data is not base64 (character %zu)", i + (size_t)k);
      }
    }
    uint32_t v = (uint32_t)(d[0] << 18 | d[1] << 12 | d[2] << 6 | d[3]);
    unsigned char bytes[3] = {(unsigned char)(v >> 16), (unsigned char)(v >> 8), (unsigned char)v};
    memcpy(out + *n, bytes, (size_t)(3 - pad));
    *n += (size_t)(3 - pad);
  }
  return out;
}

typedef struct {
  const unsigned char *p;
  size_t left;
} Blob;

/* The next n bytes little-endian; false when fewer are left. */
static bool
take(Blob *b, int n, uint64_t *v)
{
  if (b->left < (size_t)n)
    return false;
  *v = 0;
  for (int i = n - 1; i >= 0; i--)
    *v = *v << 8 | b->p[i];
  b->p += n;
  b->left -= (size_t)n;
  return true;
}

/* DLPack's dtype code and bits as rxc's dtype; false when rxc has none. */
static bool
dl_dtype(unsigned code, unsigned bits, IrDType *t)
{
  static const char *const names[] = {"int", "uint", "float", NULL, "bfloat", NULL, "bool"};
  char name[32];
  if (code > 6 || !names[code])
    return false;
  if (code == 6)
    snprintf(name, sizeof name, "bool");
  else
    snprintf(name, sizeof name, "%s%u", names[code], bits);
  return ir_dtype_parse(name, strlen(name), t) && (code != 6 || bits == 8);
}

/* The tensor a SaveDLTensor blob holds, into d. */
static void
tensor(Reader *R, const Json *at, const unsigned char *bytes, size_t n, IrTensorData *d)
{
  Blob b = {bytes, n};
  uint64_t magic = 0, reserved = 0, dev = 0, ndim = 0, code = 0, bits = 0, lanes = 0, nbytes = 0;
  if (!take(&b, 8, &magic) || magic != TVM_TENSOR_MAGIC)
    json_fail(R, at->at, "metadata: tensor data does not start with TVM's tensor magic number");
  if (!take(&b, 8, &reserved) || !take(&b, 8, &dev) || !take(&b, 4, &ndim) || !take(&b, 1, &code) ||
      !take(&b, 1, &bits) || !take(&b, 2, &lanes))
    json_fail(R, at->at, "metadata: tensor data ends in its header");
  if (ndim > 32)
    json_fail(R, at->at, "metadata: a tensor of %llu dimensions", (unsigned long long)ndim);
  if (lanes != 1 || !dl_dtype((unsigned)code, (unsigned)bits, &d->dtype))
    json_fail(R, at->at, "metadata: tensor dtype (code %u, bits %u, lanes %u) is not one rxc has",
              (unsigned)code, (unsigned)bits, (unsigned)lanes);
  d->ndim = (int)ndim;
  d->shape = ir_alloc(R->P->ctx, sizeof(int64_t) * (size_t)(ndim ? ndim : 1));
  uint64_t count = 1;
  for (int i = 0; i < d->ndim; i++) {
    uint64_t v;
    if (!take(&b, 8, &v))
      json_fail(R, at->at, "metadata: tensor data ends in its shape");
    if (v > ((uint64_t)1 << 40) || (v && count > ((uint64_t)1 << 40) / v))
      json_fail(R, at->at, "metadata: tensor dimension %d (%llu) is too large", i,
                (unsigned long long)v);
    d->shape[i] = (int64_t)v;
    count *= v;
  }
  uint64_t want = count * (uint64_t)ir_dtype_bytes(d->dtype);
  if (!take(&b, 8, &nbytes) || nbytes != want || b.left != want)
    json_fail(R, at->at, "metadata: a tensor of %llu bytes by its shape and dtype holds %llu",
              (unsigned long long)want, (unsigned long long)b.left);
  d->nbytes = (size_t)want;
  d->data = ir_alloc(R->P->ctx, d->nbytes ? d->nbytes : 1);
  memcpy(d->data, b.p, d->nbytes);
}

/* Every relax.expr.Constant of the graph, in order, into P->metadata. */
static void
constants(Reader *R, const Json *graph)
{
  const Json *nodes = field(R, graph, "nodes", JS_ARRAY, "the metadata");
  const Json *root = node(R, nodes, field(R, graph, "root_index", JS_NUMBER, "the metadata"),
                          "ffi.Map");
  const Json *map = field(R, root, "data", JS_ARRAY, "an ffi.Map node");
  if (map->n % 2)
    json_fail(R, map->at, "metadata: an ffi.Map's data must be key, value pairs");
  for (int i = 0; i < map->n; i += 2) {
    const Json *key = field(R, node(R, nodes, map->items[i], "ffi.String"), "data", JS_STRING,
                            "an ffi.String node");
    if (strcmp(key->str, "relax.expr.Constant") != 0)
      continue;
    const Json *list = field(R, node(R, nodes, map->items[i + 1], "ffi.Array"), "data", JS_ARRAY,
                             "an ffi.Array node");
    for (int k = 0; k < list->n; k++) {
      const Json *c = field(R, node(R, nodes, list->items[k], "relax.expr.Constant"), "data",
                            JS_OBJECT, "a relax.expr.Constant node");
      const Json *t = node(R, nodes, field(R, c, "data", JS_NUMBER, "a relax.expr.Constant"),
                           "ffi.Tensor");
      const Json *b64 = field(R, t, "data", JS_STRING, "an ffi.Tensor node");
      size_t n;
      unsigned char *bytes = base64_decode(R, b64, &n);
      tensor(R, b64, bytes, n, fe_vec_push(R->P, &R->P->metadata, sizeof(IrTensorData)));
    }
  }
}

void
fe_metadata_read(Parser *P)
{
  fe_expect_name(P);
  fe_expect_op(P, "=");
  const Tok *at;
  const char *f = fe_dotted(P, &at);
  if (strcmp(f, "tvm.ir.load_json") != 0)
    fe_fail(P, at, "expected metadata = tvm.ir.load_json(\"\"\"...\"\"\") but found '%s'", f);
  fe_expect_op(P, "(");
  const Tok *str = fe_expect_kind(P, TK_STR, "the metadata's JSON string");
  fe_expect_op(P, ")");
  Reader R = {P, str, str->sym, strlen(str->sym), 0, 0};
  Json *graph = json_value(&R);
  skip_space(&R);
  if (R.pos != R.len)
    json_fail(&R, R.pos, "metadata: text after the JSON value");
  P->has_metadata = true;
  constants(&R, graph);
}

IrExpr *
fe_metadata_ref(Parser *P)
{
  const Tok *at = fe_next(P);
  if (!P->has_metadata)
    fe_fail(P, at, "'metadata' is not defined: the file has no metadata section "
                   "(metadata = tvm.ir.load_json(...), as mod.script(show_meta=True) prints)");
  fe_expect_op(P, "[");
  const Tok *key = fe_expect_kind(P, TK_STR, "a metadata key such as \"relax.expr.Constant\"");
  if (strcmp(key->sym, "relax.expr.Constant") != 0)
    fe_fail(P, key, "metadata[\"%s\"] is not read: only relax.expr.Constant entries are",
            key->sym);
  fe_expect_op(P, "]");
  fe_expect_op(P, "[");
  const Tok *index = fe_peek(P);
  int64_t i;
  if (!fe_int_literal(P, false, &i) || i < 0 || i >= P->metadata.len)
    fe_fail(P, index, "metadata[\"relax.expr.Constant\"] has %d constant%s; this index is not one",
            P->metadata.len, P->metadata.len == 1 ? "" : "s");
  fe_expect_op(P, "]");
  return ir_const_new(P->ctx, &((IrTensorData *)P->metadata.data)[i], fe_loc(P, at));
}
