/*
 * onnx_wire.c - a look at an ONNX file's protobuf bytes before protobuf-c
 * decodes them.
 *
 * protobuf-c recurses once per nested message and sets no depth limit, so
 * a file of a few MB that nests TypeProto.sequence_type, or If subgraphs,
 * a million deep overflows the stack.  The wire format does not say which
 * length-delimited fields are messages, so every one whose bytes parse as
 * a message is taken for one.  Real models nest about ten deep (model,
 * graph, node, attribute, graph, ..., value info, type, shape, dim), and
 * data bytes seldom parse at all (field number 0, wire types 3, 4, 6 and
 * 7 stop the parse), so the scan reads each byte a few times at most; in
 * the worst case MAX_DEPTH times.
 */
#include "onnx_int.h"

#define MAX_DEPTH 100 /* nested messages; ONNX's own checker allows far less in practice */

/* Reads the varint at *p (advanced); false when it runs past end or
 * beyond ten bytes. */
static bool
read_varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
  uint64_t v = 0;
  for (int shift = 0; *p < end && shift < 70; shift += 7) {
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* The depth of the deepest message nested in p..end read as a message at
 * depth: -1 when the bytes are not a message; more than MAX_DEPTH (at
 * once, unread beyond) when they nest too deep. */
static int
nesting(const uint8_t *p, const uint8_t *end, int depth)
{
  int deepest = depth;
  while (p < end) {
    uint64_t key, v;
    if (!read_varint(&p, end, &key) || key >> 3 == 0)
      return -1;
    switch (key & 7) {
    case 0: /* varint */
      if (!read_varint(&p, end, &v))
        return -1;
      break;
    case 1: /* fixed64 */
      if (end - p < 8)
        return -1;
      p += 8;
      break;
    case 5: /* fixed32 */
      if (end - p < 4)
        return -1;
      p += 4;
      break;
    case 2: { /* length-delimited: bytes, a string or a message */
      if (!read_varint(&p, end, &v) || v > (uint64_t)(end - p))
        return -1;
      int d = depth + 1 > MAX_DEPTH ? depth + 1 : nesting(p, p + v, depth + 1);
      if (d > deepest)
        deepest = d;
      if (deepest > MAX_DEPTH)
        return deepest;
      p += v;
      break;
    }
    default: /* groups (3, 4) are not in onnx.proto; 6 and 7 do not exist */
      return -1;
    }
  }
  return deepest;
}

bool
fe_ox_wire_check(OxImp *im, const uint8_t *data, size_t len)
{
  if (nesting(data, data + len, 0) <= MAX_DEPTH)
    return true;
  ir_error(im->ctx, im->loc,
           "messages nest more than %d deep (a type or a subgraph within itself?); "
           "rxc refuses to decode it",
           MAX_DEPTH);
  return false;
}
