/*
 * gen_effect.c - the impure ops an entry emits where they sit:
 * R.assert_op returns NAME_ERR_ASSERT when its condition is false.
 *
 * Key idea: an assertion is part of the program, not one of rxc's own
 * checks, so it is emitted in place (not hoisted to the prologue, and kept
 * with [codegen] checks = false): the interpreter evaluates the condition
 * at that binding, and so does the C.  Bindings before it may have written
 * the arena or the outputs; the header says so.  An assertion before the
 * first allocation (which memplan may take as a bound on the dims) runs
 * before anything is written.  The message the interpreter formats has no
 * counterpart without libc: the format string is a comment at the check.
 */
#include "cg_int.h"

static void
indent(const CgFunc *E, IrBuf *o)
{
  for (int i = 0; i < E->indent; i++)
    ir_buf_puts(o, "  ");
}

/* s as the text of a C comment: no comment end, printable ASCII only. */
static void
comment_text(const char *s, IrBuf *o)
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
    E->g->assert_used = true;
    indent(E, o);
    ir_buf_puts(o, "if (!(");
    ir_buf_put(o, cond.data, cond.len);
    ir_buf_puts(o, ")) /* R.assert_op");
    if (*format_of(call)) {
      ir_buf_puts(o, ": \"");
      comment_text(format_of(call), o);
      ir_buf_puts(o, "\"");
    }
    ir_buf_puts(o, " */\n");
    indent(E, o);
    ir_buf_printf(o, "  return %s_ERR_ASSERT;\n", E->g->name);
  }
  ir_buf_free(&cond);
}
