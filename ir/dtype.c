/* dtype.c - data type names: parsing and printing TVM's spellings. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

const IrDType IR_VOID = {IR_DT_VOID, 0, 0};
const IrDType IR_BOOL = {IR_DT_BOOL, 1, 1};
const IrDType IR_I32 = {IR_DT_INT, 32, 1};
const IrDType IR_I64 = {IR_DT_INT, 64, 1};
const IrDType IR_F32 = {IR_DT_FLOAT, 32, 1};
const IrDType IR_HANDLE = {IR_DT_HANDLE, 64, 1};

static const struct {
  const char *prefix;
  IrDTypeCode code;
} prefixes[] = {
    {"bfloat", IR_DT_BFLOAT}, {"float", IR_DT_FLOAT}, {"uint", IR_DT_UINT}, {"int", IR_DT_INT},
};

/* Reads the decimal number in s[0..len), which must be 1..65535. */
static bool
read_count(const char *s, size_t len, int *out)
{
  if (len == 0 || len > 5)
    return false;
  int v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    v = v * 10 + (s[i] - '0');
  }
  if (v <= 0 || v > 65535)
    return false;
  *out = v;
  return true;
}

bool
ir_dtype_parse(const char *s, size_t len, IrDType *out)
{
  size_t base = len;
  int lanes = 1;
  for (size_t i = 0; i < len; i++)
    if (s[i] == 'x') {
      if (!read_count(s + i + 1, len - i - 1, &lanes))
        return false;
      base = i;
      break;
    }
  if ((base == 4 && strncmp(s, "void", 4) == 0) && lanes == 1) {
    *out = IR_VOID;
    return true;
  }
  if (base == 4 && strncmp(s, "bool", 4) == 0) {
    *out = (IrDType){IR_DT_BOOL, 1, (uint16_t)lanes};
    return true;
  }
  if (base == 6 && strncmp(s, "handle", 6) == 0 && lanes == 1) {
    *out = IR_HANDLE;
    return true;
  }
  for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
    size_t plen = strlen(prefixes[k].prefix);
    int bits;
    if (base <= plen || strncmp(s, prefixes[k].prefix, plen) != 0)
      continue;
    if (!read_count(s + plen, base - plen, &bits))
      return false;
    IrDTypeCode code = prefixes[k].code;
    bool ok = code == IR_DT_FLOAT ? (bits == 16 || bits == 32 || bits == 64)
              : code == IR_DT_BFLOAT ? bits == 16
                                     : (bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64);
    if (!ok)
      return false;
    *out = (IrDType){(uint8_t)code, (uint8_t)bits, (uint16_t)lanes};
    return true;
  }
  return false;
}

const char *
ir_dtype_str(IrDType t, char *buf)
{
  const char *name = "void";
  switch ((IrDTypeCode)t.code) {
  case IR_DT_VOID:
    strcpy(buf, "void");
    return buf;
  case IR_DT_HANDLE:
    strcpy(buf, "handle");
    return buf;
  case IR_DT_BOOL:
    name = "bool";
    break;
  case IR_DT_INT:
    name = "int";
    break;
  case IR_DT_UINT:
    name = "uint";
    break;
  case IR_DT_FLOAT:
    name = "float";
    break;
  case IR_DT_BFLOAT:
    name = "bfloat";
    break;
  }
  if (t.code == IR_DT_BOOL)
    strcpy(buf, name);
  else
    sprintf(buf, "%s%d", name, t.bits);
  if (t.lanes > 1)
    sprintf(buf + strlen(buf), "x%d", t.lanes);
  return buf;
}

bool
ir_dtype_eq(IrDType a, IrDType b)
{
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

int
ir_dtype_bytes(IrDType t)
{
  if (t.code == IR_DT_VOID)
    return 0;
  if (t.code == IR_DT_BOOL)
    return t.lanes;
  return (t.bits + 7) / 8 * t.lanes;
}
