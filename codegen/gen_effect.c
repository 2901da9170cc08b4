/*
 * gen_effect.c - the impure ops an entry emits where they sit:
 * R.assert_op returns NAME_ERR_ASSERT when its condition is false; R.print
 * hands its text to the user's NAME_PRINT(text) hook, and is nothing
 * without it.
 *
 * Key idea: an assertion is part of the program, not one of rxc's own
 * checks, so it is emitted in place (not hoisted to the prologue, and kept
 * with [codegen] checks = false): the interpreter evaluates the condition
 * at that binding, and so does the C.  Bindings before it may have written
 * the arena, not the outputs: a storage of the result written before it
 * is not the caller's buffer (gen_outputs.c).  An assertion before the
 * first allocation (which memplan may take as a bound on the dims) runs
 * before anything is written.  The message the interpreter formats has no
 * counterpart without libc: the format string is a comment at the check.
 *
 * R.print writes the interpreter's text (format_values in ops/builtin.c),
 * streamed: literal pieces as string literals, numbers through
 * rt/rt_print.h into a 24-byte local, so nothing needs a buffer for the
 * line.  It sits in "#ifdef NAME_PRINT"; the "#else" branch voids the
 * tensors it would read, so an entry without the hook stays warning-free.
 */
#include "cg_int.h"

static void
indent(const CgFunc *E, IrBuf *o)
{
  for (int i = 0; i < E->indent; i++)
    ir_buf_puts(o, "  ");
}

/* s as the text of a C comment: no comment end, printable ASCII only. */
void
cg_comment_text(const char *s, IrBuf *o)
{
  for (; *s; s++) {
    char c = *s >= ' ' && *s <= '~' ? *s : '?';
    ir_buf_put(o, &c, 1);
    if (c == '*' && s[1] == '/')
      ir_buf_puts(o, " ");
  }
}

static const char *
format_of(const IrExpr *call)
{
  const IrAttr *f = ir_attr_get(call->u.call.attrs, "format");
  return f && f->kind == IR_AT_STR ? f->u.s : "";
}

/* The condition of an R.assert_op as a C expression into o: an
 * R.prim_value (of the entry's dims) or a bool tensor of shape () (its one
 * element); false after an error. */
static bool
emit_condition(CgFunc *E, const IrBinding *b, const IrExpr *c, IrBuf *o)
{
  if (c->kind == IR_EX_PRIM) {
    cg_emit_expr(E->g, &E->names, c->u.prim, o);
    return true;
  }
  bool is_tensor = c->kind == IR_EX_CONST ||
                   (c->kind == IR_EX_VAR && c->sinfo && c->sinfo->kind == IR_SI_TENSOR);
  if (!is_tensor) {
    cg_fail(E->g,
            "R.assert_op (binding '%s'): C code generation needs a condition that is a tensor "
            "or an R.prim_value",
            b->var ? b->var->u.var.name : "_");
    return false;
  }
  bool is_const;
  CgVar *info;
  const char *s = cg_tensor_leaf(E, c, &info, &is_const);
  if (!s)
    return false;
  ir_buf_printf(o, "%s[0]", s);
  return true;
}

void
cg_emit_assert(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *call = b->value;
  if (b->var)
    cg_var_add(E, b->var, CG_V_OTHER);
  if (call->u.call.nargs < 1) {
    cg_fail(E->g, "R.assert_op without a condition");
    return;
  }
  IrBuf cond = {0};
  if (emit_condition(E, b, call->u.call.args[0], &cond)) {
    E->g->assert_used = E->asserts = true;
    indent(E, o);
    ir_buf_puts(o, "if (!(");
    ir_buf_put(o, cond.data, cond.len);
    ir_buf_puts(o, ")) /* R.assert_op");
    if (*format_of(call)) {
      ir_buf_puts(o, ": \"");
      cg_comment_text(format_of(call), o);
      ir_buf_puts(o, "\"");
    }
    ir_buf_puts(o, " */\n");
    indent(E, o);
    ir_buf_printf(o, "  return %s_ERR_ASSERT;\n", E->g->name);
  }
  ir_buf_free(&cond);
}

/* ---- R.print ---------------------------------------------------------------- */

/* A C string literal of s[0..n) into o. */
static void
c_string(const char *s, size_t n, IrBuf *o)
{
  ir_buf_puts(o, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      ir_buf_printf(o, "\\%c", c);
    else if (c == '\n')
      ir_buf_puts(o, "\\n");
    else if (c >= ' ' && c <= '~' && c != '?') /* '?': no trigraphs */
      ir_buf_put(o, (const char *)&c, 1);
    else
      ir_buf_printf(o, "\\%03o", c);
  }
  ir_buf_puts(o, "\"");
}

typedef struct {
  CgFunc *E;
  IrBuf *o;      /* the statements */
  IrBuf text;    /* literal text not yet printed */
  IrVec used;    /* C names of the tensors printed, for the #else branch */
  const char *N; /* NAME */
} Printer;

static void
line(Printer *P)
{
  for (int i = 0; i < P->E->indent + 1; i++)
    ir_buf_puts(P->o, "  ");
}

/* Prints the literal text gathered so far. */
static void
flush(Printer *P)
{
  if (!P->text.len)
    return;
  line(P);
  ir_buf_printf(P->o, "%s_PRINT(", P->N);
  c_string(P->text.data, P->text.len, P->o);
  ir_buf_puts(P->o, ");\n");
  P->text.len = 0;
}

/* The value of integer expression e, printed. */
static void
print_int(Printer *P, const IrPrimExpr *e)
{
  flush(P);
  line(P);
  ir_buf_printf(P->o, "%s_PRINT(rxc_fmt_i64(rxc_num, (rxc_i64)(", P->N);
  cg_emit_expr(P->E->g, &P->E->names, e, P->o);
  ir_buf_puts(P->o, ")));\n");
}

/* A dim list "(2, n)" or "[2, n]" (ndim 1 in parentheses: "(2,)"). */
static void
print_dims(Printer *P, const IrExpr *e, int ndim, IrPrimExpr *const *dims, const char *brackets)
{
  ir_buf_put(&P->text, brackets, 1);
  for (int d = 0; d < ndim; d++) {
    IrPrimExpr *x = dims ? dims[d] : cg_leaf_dim(P->E, e, d);
    int64_t k;
    ir_buf_puts(&P->text, d ? ", " : "");
    if (x && ir_prim_is_int(x, &k))
      ir_buf_printf(&P->text, "%lld", (long long)k);
    else if (x)
      print_int(P, x);
  }
  ir_buf_puts(&P->text, ndim == 1 && brackets[0] == '(' ? ",)" : brackets + 1);
}

/* A tensor as the interpreter prints it: "tensor(float32, shape=(2, 3),
 * [v, ...])", its first 16 elements. */
static bool
print_tensor(Printer *P, const IrExpr *e)
{
  CgFunc *E = P->E;
  IrDType t = cg_tensor_dtype(e);
  int nd = e->kind == IR_EX_CONST ? e->u.constant.ndim
                                  : (e->sinfo && e->sinfo->kind == IR_SI_TENSOR ? e->sinfo->u.tensor.ndim : -1);
  bool is_const;
  CgVar *info;
  const char *s = nd >= 0 ? cg_tensor_leaf(E, e, &info, &is_const) : NULL;
  char dt[16];
  if (!s)
    return false;
  ir_vec_push(&P->used, (void *)s);
  ir_buf_printf(&P->text, "tensor(%s, shape=", ir_dtype_str(t, dt));
  print_dims(P, e, nd, NULL, "()");
  ir_buf_puts(&P->text, ", [");
  flush(P);
  const char *fmt = t.code == IR_DT_FLOAT && t.bits == 16 ? "rxc_fmt_g9(rxc_num, (double)rxc_f16_to_f32(%s[rxc_i]))"
                    : t.code == IR_DT_BFLOAT ? "rxc_fmt_g9(rxc_num, (double)rxc_bf16_to_f32(%s[rxc_i]))"
                    : t.code == IR_DT_FLOAT  ? "rxc_fmt_g9(rxc_num, (double)%s[rxc_i])"
                                             : "rxc_fmt_i64(rxc_num, (rxc_i64)%s[rxc_i])";
  line(P);
  ir_buf_puts(P->o, "rxc_n = (rxc_i64)(");
  cg_emit_bytes(E, e, P->o);
  ir_buf_printf(P->o, " / (size_t)%d);\n", ir_dtype_bytes(t));
  line(P);
  ir_buf_puts(P->o, "for (rxc_i = 0; rxc_i < rxc_n && rxc_i < 16; rxc_i++) {\n");
  line(P);
  ir_buf_printf(P->o, "  if (rxc_i)\n");
  line(P);
  ir_buf_printf(P->o, "    %s_PRINT(\", \");\n", P->N);
  line(P);
  ir_buf_printf(P->o, "  %s_PRINT(", P->N);
  ir_buf_printf(P->o, fmt, s);
  ir_buf_puts(P->o, ");\n");
  line(P);
  ir_buf_puts(P->o, "}\n");
  line(P);
  ir_buf_printf(P->o, "%s_PRINT(rxc_n > 16 ? \", ...])\" : \"])\");\n", P->N);
  return true;
}

/* One value of an R.print; false when C code generation cannot print it. */
static bool
print_value(Printer *P, const IrExpr *e)
{
  switch (e->kind) {
  case IR_EX_PRIM:
    if (e->u.prim->dtype.code == IR_DT_FLOAT) {
      flush(P);
      line(P);
      ir_buf_printf(P->o, "%s_PRINT(rxc_fmt_g9(rxc_num, (double)(", P->N);
      cg_emit_expr(P->E->g, &P->E->names, e->u.prim, P->o);
      ir_buf_puts(P->o, ")));\n");
    } else {
      print_int(P, e->u.prim);
    }
    return true;
  case IR_EX_STR:
    ir_buf_puts(&P->text, e->u.str);
    return true;
  case IR_EX_SHAPE:
    ir_buf_puts(&P->text, "R.shape(");
    print_dims(P, e, e->u.shape.n, e->u.shape.values, "[]");
    ir_buf_puts(&P->text, ")");
    return true;
  case IR_EX_CONST:
    return print_tensor(P, e);
  case IR_EX_VAR:
    return e->sinfo && e->sinfo->kind == IR_SI_TENSOR && print_tensor(P, e);
  default:
    return false;
  }
}

void
cg_emit_print(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *call = b->value;
  if (b->var)
    cg_var_add(E, b->var, CG_V_OTHER);
  Printer P = {.E = E, .N = E->g->name};
  IrBuf body = {0};
  P.o = &body;
  const char *f = format_of(call);
  int n = call->u.call.nargs, next = 0;
  bool ok = true, any = false;
  /* as format_values (ops/builtin.c): each "{}" the next value, the values
   * left over after a space (none before the first thing printed) */
  for (const char *p = f; *p && ok; p++) {
    if (p[0] == '{' && p[1] == '}' && next < n) {
      ok = print_value(&P, call->u.call.args[next++]);
      any = true;
      p++;
    } else {
      ir_buf_put(&P.text, p, 1);
      any = true;
    }
  }
  for (; next < n && ok; next++) {
    if (any)
      ir_buf_puts(&P.text, " ");
    ok = print_value(&P, call->u.call.args[next]);
    any = true;
  }
  ir_buf_puts(&P.text, "\n");
  flush(&P);
  if (!ok && !E->g->errors)
    cg_fail(E->g,
            "C code generation does not support printing argument %d of R.print (binding '%s'): "
            "not implemented (it prints tensors, R.prim_value, R.str and R.shape)",
            next, b->var ? b->var->u.var.name : "_");
  if (ok && !E->g->errors) {
    E->g->print_used = true;
    ir_buf_printf(o, "#ifdef %s_PRINT\n", P.N);
    indent(E, o);
    ir_buf_puts(o, "{ /* R.print");
    if (*f) {
      ir_buf_puts(o, ": \"");
      cg_comment_text(f, o);
      ir_buf_puts(o, "\"");
    }
    ir_buf_puts(o, " */\n");
    indent(E, o);
    ir_buf_puts(o, "  char rxc_num[24];\n");
    indent(E, o);
    ir_buf_puts(o, "  rxc_i64 rxc_i = 0, rxc_n = 0;\n");
    ir_buf_put(o, body.data, body.len);
    indent(E, o);
    ir_buf_puts(o, "  (void)rxc_num, (void)rxc_i, (void)rxc_n;\n");
    indent(E, o);
    ir_buf_puts(o, "}\n#else\n");
    for (int i = 0; i < P.used.len; i++) {
      indent(E, o);
      ir_buf_printf(o, "(void)%s;\n", (const char *)P.used.items[i]);
    }
    ir_buf_puts(o, "#endif\n");
  }
  ir_buf_free(&body);
  ir_buf_free(&P.text);
  ir_vec_free(&P.used);
}
