/* dtype.c - data type names: parsing and printing TVM's spellings. */
#include <math.h>
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

bool
ir_dtype_is_float(IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
}

bool
ir_dtype_is_int(IrDType t)
{
  return t.code == IR_DT_INT || t.code == IR_DT_UINT;
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

/* The IEEE binary16 bits nearest to d (ties to even; overflow to inf). */
uint16_t
ir_half_from_double(double d)
{
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  if (isnan(d))
    return sign | 0x7e00;
  d = fabs(d);
  if (isinf(d) || d >= 65520.0)
    return sign | 0x7c00;
  if (d < ldexp(1.0, -14)) /* subnormal: multiples of 2^-24 */
    return sign | (uint16_t)nearbyint(d * ldexp(1.0, 24));
  int e;
  double f = frexp(d, &e); /* d = f * 2^e, f in [0.5, 1) */
  int exp = e - 1;
  uint32_t mant = (uint32_t)nearbyint((f * 2.0 - 1.0) * 1024.0);
  if (mant == 1024) {
    mant = 0;
    exp++;
  }
  if (exp > 15)
    return sign | 0x7c00;
  return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | (uint16_t)mant);
}

double
ir_half_to_double(uint16_t h)
{
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = ldexp(mantissa, -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = ldexp(mantissa + 1024, exponent - 25);
  return h & 0x8000 ? -v : v;
}

double
ir_float_round(IrDType t, double v)
{
  if (t.code == IR_DT_FLOAT && t.bits == 32)
    return isnan(v) ? v : (double)(float)v;
  if (t.code == IR_DT_FLOAT && t.bits == 16)
    return ir_half_to_double(ir_half_from_double(v));
  if (t.code == IR_DT_BFLOAT && t.bits == 16 && !isnan(v)) {
    /* through float, then nearest even on its upper half, as ops/value.c stores it */
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    u = (uint32_t)(((uint64_t)u + 0x7fff + ((u >> 16) & 1)) >> 16 << 16);
    memcpy(&f, &u, 4);
    return f;
  }
  return v;
}
