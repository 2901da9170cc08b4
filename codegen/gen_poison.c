/*
 * gen_poison.c - the poison debug mode ([codegen] poison = true): the
 * generated entry makes the memory plan's lifetimes observable.
 *
 * A plan that ends a storage's lifetime too early is wrong only when some
 * other storage then overwrites the bytes before their last reader, which
 * the planner may or may not happen to arrange; outputs that agree prove
 * little.  In poison mode the entry itself overwrites each storage where
 * memplan says its lifetime ends, so a last reader after that point reads
 * poison and the outputs change (the tests compare them, bit for bit, with
 * the same entry built without poison).  The poison is 0xFF in every byte:
 * a NaN as float16, bfloat16, float32 or float64, -1 as a signed integer,
 * the largest value as an unsigned one.
 *
 * Key idea: every arena byte outside a live storage holds poison at all
 * times (the arena is poisoned when the entry starts, and each storage
 * again when it dies), so the poison also serves as the canaries: a
 * storage's bytes are checked to be poison where its lifetime starts, the
 * whole planned arena where the entry ends, and a canary of 0xA5 bytes
 * after the arena (which grows by it) catches a write past its end.  A
 * broken one returns NAME_ERR_POISON.
 *
 * Steps are memplan's (lifetime.c): the bindings in order, an if's
 * branches before the if's own step.  Only the top-level bindings carry
 * poison code; a storage used in a branch lives over the whole if.  Only
 * an entry whose arena is a constant is poisoned (with a dim without an
 * upper bound nothing is emitted).  Off, the output is unchanged.
 */
#include <stdint.h>

#include "cg_int.h"

enum {
  POISON_BYTE = 0xFF, /* every dead arena byte */
  CANARY_BYTE = 0xA5, /* after the arena */
  CANARY_BYTES = 64,  /* at least; rounded up to the arena's alignment */
};

void
cg_poison_setup(CgFunc *E)
{
  if (!E->g->cfg->codegen.poison || E->fp->arena_expr)
    return;
  int64_t align = E->g->plan->align > CANARY_BYTES ? E->g->plan->align : CANARY_BYTES;
  E->poison = true;
  E->canary_at = E->arena_bytes;
  E->canary_bytes = (CANARY_BYTES + align - 1) / align * align;
  E->arena_bytes += E->canary_bytes;
  E->step = 0;
  E->g->poison_used = true;
}

void
cg_poison_begin(CgFunc *E, IrBuf *o)
{
  if (!E->poison)
    return;
  ir_buf_printf(o,
                "  /* [codegen] poison: the arena starts poisoned, a canary after it */\n"
                "  rxc_poison(base, %lldu, 0x%Xu);\n"
                "  rxc_poison(base + %lld, %lldu, 0x%Xu);\n",
                (long long)E->canary_at, POISON_BYTE, (long long)E->canary_at,
                (long long)E->canary_bytes, CANARY_BYTE);
}

/* The last step of top-level binding b (its own), which starts at E->step. */
static int64_t
last_step(const CgFunc *E, const IrBinding *b)
{
  const IrExpr *v = b->value;
  int64_t n = 0;
  if (v->kind == IR_EX_IF)
    n = mp_count_steps(v->u.branch.then_) + mp_count_steps(v->u.branch.else_);
  return E->step + n;
}

void
cg_poison_before(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  if (!E->poison)
    return;
  int64_t hi = last_step(E, b);
  for (int i = 0; i < E->fp->nproblem; i++) {
    const MpBuffer *p = &E->fp->problem[i];
    if (p->start < E->step || p->start > hi)
      continue;
    ir_buf_printf(o,
                  "  if (!rxc_poisoned(base + %lld, %lldu, 0x%Xu)) /* live from step %lld: "
                  "still poison? */\n    return %s_ERR_POISON;\n",
                  (long long)p->offset, (long long)p->size, POISON_BYTE, (long long)p->start,
                  E->g->name);
  }
}

/* Poisons the buffers whose last step is in [lo, hi]. */
static void
poison_ends(const CgFunc *E, int64_t lo, int64_t hi, IrBuf *o)
{
  for (int i = 0; i < E->fp->nproblem; i++) {
    const MpBuffer *p = &E->fp->problem[i];
    if (p->end - 1 < lo || p->end - 1 > hi)
      continue;
    ir_buf_printf(o, "  rxc_poison(base + %lld, %lldu, 0x%Xu); /* live steps [%lld, %lld) end */\n",
                  (long long)p->offset, (long long)p->size, POISON_BYTE, (long long)p->start,
                  (long long)p->end);
  }
}

void
cg_poison_after(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  if (!E->poison)
    return;
  int64_t hi = last_step(E, b);
  poison_ends(E, E->step, hi, o);
  E->step = hi + 1;
}

void
cg_poison_end(CgFunc *E, IrBuf *o)
{
  if (!E->poison)
    return;
  poison_ends(E, E->step, INT64_MAX, o); /* none expected: outputs are not in the arena */
  ir_buf_printf(o,
                "  /* [codegen] poison: every storage is dead, the canary intact */\n"
                "  if (!rxc_poisoned(base, %lldu, 0x%Xu) || !rxc_poisoned(base + %lld, %lldu, 0x%Xu))\n"
                "    return %s_ERR_POISON;\n",
                (long long)E->fp->arena_bytes, POISON_BYTE, (long long)E->canary_at,
                (long long)E->canary_bytes, CANARY_BYTE, E->g->name);
}

void
cg_emit_poison_helpers(const CgGen *g, IrBuf *out)
{
  if (!g->poison_used)
    return;
  /* volatile: the compiler may not assume a kernel kept to its buffers */
  ir_buf_puts(out, "static void\nrxc_poison(char *p, size_t n, unsigned byte)\n{\n"
                   "  volatile unsigned char *q = (volatile unsigned char *)p;\n"
                   "  while (n--)\n    *q++ = (unsigned char)byte;\n}\n\n"
                   "static int\nrxc_poisoned(const char *p, size_t n, unsigned byte)\n{\n"
                   "  const volatile unsigned char *q = (const volatile unsigned char *)p;\n"
                   "  unsigned diff = 0;\n"
                   "  while (n--)\n    diff |= (unsigned)*q++ ^ byte;\n"
                   "  return diff == 0;\n}\n\n");
}
