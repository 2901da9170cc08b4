/*
 * parse_prim.c - scalar expressions (TIR bodies and Relax symbolic shapes)
 * and attribute values.
 *
 * Key ideas: Python's precedence by one function per level.  A literal
 * written bare (2, 0.5) is "untyped" (TExpr.bare) until it meets a typed
 * operand, whose dtype it takes: `i + 1` with an int64 i gives an int64 1, as
 * TVM's script parser does.  A bare literal that never meets one gets the
 * default: int32 in TIR, int64 in Relax shapes (P->int_default), float32.
 */
#include <math.h>
#include <string.h>

#include "fe_int.h"

static TExpr expr_or(Parser *P);

static TExpr
typed(IrPrimExpr *e)
{
  TExpr x = {e, false, 0};
  return x;
}

static bool
is_float_type(IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
}

/* Reads "[-]INT" into *out (range-checked for int64); false, consuming
 * nothing, when the next tokens are not an integer literal. */
bool
fe_int_literal(Parser *P, bool allow_minus, int64_t *out)
{
  bool neg = allow_minus && fe_is_op(fe_peek(P), "-") && fe_peek_at(P, 1)->kind == TK_INT;
  const Tok *t = fe_peek_at(P, neg ? 1 : 0);
  if (t->kind != TK_INT)
    return false;
  if (neg)
    fe_next(P);
  fe_next(P);
  uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  if (t->ival > limit)
    fe_fail(P, t, "integer literal %.*s is out of range for int64", t->len, t->text);
  *out = neg ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
  return true;
}

static bool
int_fits(int64_t v, IrDType t)
{
  if (t.code == IR_DT_BOOL)
    return v == 0 || v == 1;
  if (t.code == IR_DT_UINT)
    return v >= 0 && (t.bits >= 64 || v < ((int64_t)1 << t.bits));
  if (t.code == IR_DT_INT && t.bits < 64)
    return v >= -((int64_t)1 << (t.bits - 1)) && v < ((int64_t)1 << (t.bits - 1));
  return true;
}

/* A literal of dtype t with the value of the bare literal x (a float from
 * its exact value, so 0.1 meeting a float64 is the double 0.1). */
static IrPrimExpr *
retype(Parser *P, TExpr x, IrDType t)
{
  IrPrimExpr *e = x.e;
  if (e->kind == IR_PE_FLOAT && is_float_type(t) && x.bare)
    return ir_prim_float(P->ctx, t, x.exact);
  if (e->kind == IR_PE_INT && is_float_type(t))
    return ir_prim_float(P->ctx, t, (double)e->u.int_value);
  if (e->kind == IR_PE_INT && t.code != IR_DT_VOID && t.code != IR_DT_HANDLE) {
    if (!int_fits(e->u.int_value, t)) { /* as T.int8(300) would be: its printed form must read back */
      char dt[16];
      fe_error(P, &P->toks[P->pos > 0 ? P->pos - 1 : 0], "value %lld is out of range for %s",
               (long long)e->u.int_value, ir_dtype_str(t, dt));
    }
    return ir_prim_int(P->ctx, t, e->u.int_value);
  }
  if (e->kind == IR_PE_FLOAT && is_float_type(t))
    return ir_prim_float(P->ctx, t, e->u.float_value);
  return e;
}

/* x as an expression of dtype t when it is a bare literal; else as is. */
IrPrimExpr *
fe_prim_as(Parser *P, TExpr x, IrDType t)
{
  return x.bare ? retype(P, x, t) : x.e;
}

/* Makes the bare side of a pair take the other side's dtype. */
static void
unify(Parser *P, TExpr *a, TExpr *b)
{
  if (a->bare && !b->bare)
    a->e = retype(P, *a, b->e->dtype);
  else if (b->bare && !a->bare)
    b->e = retype(P, *b, a->e->dtype);
  else if (a->bare && b->bare && a->e->kind != b->e->kind) {
    if (a->e->kind == IR_PE_INT)
      a->e = retype(P, *a, b->e->dtype);
    else
      b->e = retype(P, *b, a->e->dtype);
  } else if (!a->bare && !b->bare) { /* TVM's rule: an integer side meeting a float becomes one */
    bool af = is_float_type(a->e->dtype), bf = is_float_type(b->e->dtype);
    IrDTypeCode ac = a->e->dtype.code, bc = b->e->dtype.code;
    if (af && (bc == IR_DT_INT || bc == IR_DT_UINT))
      b->e = b->e->kind == IR_PE_INT ? retype(P, *b, a->e->dtype) : ir_prim_cast(P->ctx, a->e->dtype, b->e);
    else if (bf && (ac == IR_DT_INT || ac == IR_DT_UINT))
      a->e = a->e->kind == IR_PE_INT ? retype(P, *a, b->e->dtype) : ir_prim_cast(P->ctx, b->e->dtype, a->e);
  }
}

TExpr
fe_texpr_bin(Parser *P, IrPrimKind kind, TExpr a, TExpr b)
{
  unify(P, &a, &b);
  TExpr r = {ir_prim_bin(P->ctx, kind, a.e, b.e), a.bare && b.bare, 0};
  if (r.e->dtype.code == IR_DT_BOOL && a.e->dtype.code != IR_DT_BOOL)
    r.bare = false;
  return r;
}

IrDType
fe_dtype_str(Parser *P)
{
  const Tok *t = fe_expect_kind(P, TK_STR, "a dtype string");
  IrDType dt;
  if (!ir_dtype_parse(t->sym, strlen(t->sym), &dt)) {
    fe_error(P, t, "unknown dtype '%s'", t->sym);
    return IR_F32;
  }
  return dt;
}

/* "nan", "inf", "-inf" (any case) as a double; false for other text. */
bool
fe_special_float(const char *s, double *out)
{
  bool neg = s[0] == '-';
  const char *w = neg || s[0] == '+' ? s + 1 : s;
  if (strcmp(w, "nan") == 0 || strcmp(w, "NaN") == 0)
    *out = neg ? -NAN : NAN;
  else if (strcmp(w, "inf") == 0 || strcmp(w, "infinity") == 0 || strcmp(w, "Infinity") == 0)
    *out = neg ? -INFINITY : INFINITY;
  else
    return false;
  return true;
}

/* float("nan") and float(1.5): the name 'float' is current. */
static TExpr
python_float(Parser *P)
{
  fe_next(P);
  fe_expect_op(P, "(");
  const Tok *t = fe_next(P);
  double v;
  if (t->kind == TK_STR && fe_special_float(t->sym, &v)) {
  } else if (t->kind == TK_FLOAT) {
    v = t->fval;
  } else if (t->kind == TK_INT) {
    v = (double)t->ival;
  } else {
    fe_fail(P, t, "expected a number or \"nan\"/\"inf\" in float()");
  }
  fe_expect_op(P, ")");
  TExpr x = {ir_prim_float(P->ctx, IR_F32, v), true, v};
  return x;
}


/* T.int64(3), T.float32(0.5), T.float32("nan"), T.bool(True); with a
 * non-literal argument, a cast.  The '(' is current. */
static TExpr
typed_literal(Parser *P, IrDType t, const Tok *at)
{
  fe_expect_op(P, "(");
  if (fe_is_op(fe_peek(P), ")"))
    fe_fail(P, at, "T.%s() declares a variable; write 'n = T.%s()' on its own line", at->sym,
            at->sym);
  const Tok *arg = fe_peek(P);
  double f;
  TExpr x;
  if (arg->kind == TK_STR && fe_special_float(arg->sym, &f)) {
    fe_next(P);
    x = typed(ir_prim_float(P->ctx, t, f));
  } else {
    x = expr_or(P);
  }
  fe_expect_op(P, ")");
  if (!x.bare)
    return typed(ir_dtype_eq(x.e->dtype, t) ? x.e : ir_prim_cast(P->ctx, t, x.e));
  if (x.e->kind == IR_PE_INT && t.code != IR_DT_FLOAT && !int_fits(x.e->u.int_value, t)) {
    char dt[16];
    fe_error(P, arg, "value %lld is out of range for %s", (long long)x.e->u.int_value,
             ir_dtype_str(t, dt));
  }
  if (x.e->kind == IR_PE_FLOAT && !is_float_type(t))
    return typed(ir_prim_cast(P->ctx, t, x.e));
  return typed(retype(P, x, t));
}

/* Arguments of T.f(...) as bare-aware expressions; strings are IR_PE_STR. */
static int
call_args(Parser *P, TExpr *args, int max, IrDType *dtype, bool *have_dtype)
{
  int n = 0;
  fe_expect_op(P, "(");
  while (!fe_is_op(fe_peek(P), ")")) {
    const Tok *t = fe_peek(P);
    if (fe_is_name(t, "dtype") && fe_is_op(fe_peek_at(P, 1), "=")) {
      /* T.exp(x, dtype="float32"): the result's dtype */
      P->pos += 2;
      *dtype = fe_dtype_str(P);
      *have_dtype = true;
    } else if (n == max) {
      fe_fail(P, t, "too many arguments");
    } else if (t->kind == TK_STR) {
      fe_next(P);
      args[n++] = typed(ir_prim_str(P->ctx, t->sym));
    } else {
      args[n++] = expr_or(P);
    }
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  return n;
}

static void
need_args(Parser *P, const Tok *at, const char *name, int n, int want)
{
  if (n != want)
    fe_fail(P, at, "T.%s takes %d argument%s, got %d", name, want, want == 1 ? "" : "s", n);
}

/* T.call_extern("void", "name", args...) (TVM's order: the result's
 * dtype first, or as dtype=) as "tir.call_extern" of that dtype with
 * args[0] the name; T.address_of(buf[...]) as "tir.address_of" of dtype
 * handle.  Which names a prim_func may call is ir/tir_kernel.c's table,
 * checked where the call runs or compiles, as for any intrinsic. */
static TExpr
t_extern(Parser *P, const Tok *at, bool address)
{
  enum { MAX = IR_KERNEL_MAX_ARGS + 2 };
  TExpr a[MAX];
  IrDType dt = IR_VOID;
  bool have_dtype = false;
  int n = call_args(P, a, MAX, &dt, &have_dtype);
  IrPrimExpr **args = ir_alloc(P->ctx, sizeof *args * (size_t)(n ? n : 1));
  if (address) {
    need_args(P, at, at->sym, n, 1);
    if (a[0].e->kind != IR_PE_LOAD)
      fe_fail(P, at, "T.address_of takes a buffer element, as A[0]");
    return typed(ir_prim_address_of(P->ctx, a[0].e));
  }
  int first = 0;
  if (!have_dtype) {
    const char *s = n > 0 && a[0].e->kind == IR_PE_STR ? a[0].e->u.str : "";
    if (!ir_dtype_parse(s, strlen(s), &dt))
      fe_fail(P, at, "T.call_extern takes the result's dtype first, as \"void\"");
    first = 1;
  }
  if (n <= first || a[first].e->kind != IR_PE_STR)
    fe_fail(P, at, "T.call_extern takes the function's name as a string");
  for (int i = first; i < n; i++)
    args[i - first] = a[i].e;
  return typed(ir_prim_call(P->ctx, dt, ir_sym(P->ctx, "tir.call_extern"), args, n - first));
}

/* T.Cast, T.min, T.Select, ... and any other T.name(...) as intrinsic
 * "tir.name".  The name token after "T." is `at`. */
static TExpr
t_call(Parser *P, const Tok *at)
{
  const char *name = at->sym;
  IrDType dt;
  if (ir_dtype_parse(name, strlen(name), &dt) && dt.code != IR_DT_VOID)
    return typed_literal(P, dt, at);
  static const struct {
    const char *name;
    IrPrimKind kind;
  } binary[] = {{"min", IR_PE_MIN},           {"max", IR_PE_MAX},         {"truncmod", IR_PE_MOD},
                {"floordiv", IR_PE_FLOORDIV}, {"floormod", IR_PE_FLOORMOD}, {"truncdiv", IR_PE_DIV},
                {"Div", IR_PE_DIV},           {"Mod", IR_PE_MOD}};
  TExpr a[8];
  if (strcmp(name, "Cast") == 0) {
    fe_expect_op(P, "(");
    dt = fe_dtype_str(P);
    fe_expect_op(P, ",");
    TExpr v = expr_or(P);
    fe_accept_op(P, ",");
    fe_expect_op(P, ")");
    return typed(ir_prim_cast(P->ctx, dt, fe_prim_as(P, v, dt)));
  }
  if (strcmp(name, "max_value") == 0 || strcmp(name, "min_value") == 0) {
    fe_expect_op(P, "(");
    const Tok *s = fe_peek(P);
    dt = fe_dtype_str(P);
    fe_expect_op(P, ")");
    IrPrimExpr **args = ir_alloc(P->ctx, sizeof *args);
    args[0] = ir_prim_str(P->ctx, s->sym);
    return typed(ir_prim_call(P->ctx, dt, ir_printf(P->ctx, "tir.%s", name), args, 1));
  }
  if (strcmp(name, "call_extern") == 0 || strcmp(name, "address_of") == 0)
    return t_extern(P, at, name[0] == 'a');
  IrDType kw_dtype = IR_I32;
  bool have_dtype = false;
  int n = call_args(P, a, 8, &kw_dtype, &have_dtype);
  for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++)
    if (strcmp(name, binary[i].name) == 0) {
      need_args(P, at, name, n, 2);
      return fe_texpr_bin(P, binary[i].kind, a[0], a[1]);
    }
  if (strcmp(name, "Select") == 0 || strcmp(name, "if_then_else") == 0) {
    need_args(P, at, name, n, 3);
    unify(P, &a[1], &a[2]);
    if (name[0] == 'S')
      return typed(ir_prim_select(P->ctx, a[0].e, a[1].e, a[2].e));
    IrPrimExpr **args = ir_alloc(P->ctx, 3 * sizeof *args);
    for (int i = 0; i < 3; i++)
      args[i] = a[i].e;
    return typed(ir_prim_call(P->ctx, a[1].e->dtype, ir_sym(P->ctx, "tir.if_then_else"), args, 3));
  }
  /* generic intrinsic: bare literals take the first typed argument's dtype */
  IrDType t = have_dtype ? kw_dtype : n > 0 ? a[0].e->dtype : IR_I32;
  for (int i = 0; i < n && !have_dtype; i++)
    if (!a[i].bare) {
      t = a[i].e->dtype;
      break;
    }
  IrPrimExpr **args = n ? ir_alloc(P->ctx, (size_t)n * sizeof *args) : NULL;
  for (int i = 0; i < n; i++)
    args[i] = fe_prim_as(P, a[i], t);
  return typed(ir_prim_call(P->ctx, n ? args[0]->dtype : IR_I32,
                            ir_printf(P->ctx, "tir.%s", name), args, n));
}

/* After '[': reads "()]" up to the ']' (exclusive) when a 0-d buffer is
 * indexed as A[()], as TVM prints it; returns whether it did. */
bool
fe_accept_empty_index(Parser *P)
{
  if (!fe_is_op(fe_peek(P), "(") || !fe_is_op(fe_peek_at(P, 1), ")") ||
      !fe_is_op(fe_peek_at(P, 2), "]"))
    return false;
  fe_next(P);
  fe_next(P);
  return true;
}

/* A buffer load A[i, j]; the name was read, '[' is current. */
static TExpr
load(Parser *P, IrBuffer *buf, const Tok *at)
{
  FeVec idx = {0};
  fe_expect_op(P, "[");
  fe_accept_empty_index(P);
  while (!fe_is_op(fe_peek(P), "]")) {
    fe_vec_ptr(P, &idx, fe_prim_as(P, expr_or(P), P->int_default));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, "]");
  if (idx.len != buf->ndim)
    fe_error(P, at, "buffer '%s' has %d dimension%s but is indexed with %d", buf->name, buf->ndim,
             buf->ndim == 1 ? "" : "s", idx.len);
  return typed(ir_prim_load(P->ctx, buf, (IrPrimExpr **)idx.data, idx.len));
}

/* A name: a TIR var, a buffer load, True/False, float(...), or T.f(...). */
static TExpr
name_expr(Parser *P)
{
  const Tok *t = fe_peek(P);
  if (fe_is_name(t, "True") || fe_is_name(t, "False")) {
    fe_next(P);
    return typed(ir_prim_int(P->ctx, IR_BOOL, fe_is_name(t, "True")));
  }
  if (fe_is_name(t, "float") && fe_is_op(fe_peek_at(P, 1), "("))
    return python_float(P);
  if (fe_is_name(t, "T") && fe_is_op(fe_peek_at(P, 1), ".")) {
    fe_next(P);
    fe_next(P);
    return t_call(P, fe_expect_name(P));
  }
  if (fe_peek_dotted(P, "R.prim_value")) { /* a Relax scalar where a value is expected */
    fe_dotted(P, NULL);
    fe_expect_op(P, "(");
    TExpr v = expr_or(P);
    fe_expect_op(P, ")");
    return v;
  }
  fe_next(P);
  FeEntry *e = fe_scope_find(P, t->sym);
  if (e && e->kind == SYM_TVAR)
    return typed(e->tvar);
  if (e && e->kind == SYM_BUFFER && fe_is_op(fe_peek(P), "["))
    return load(P, e->buffer, t);
  if (e && e->kind == SYM_BUFFER)
    fe_error(P, t, "buffer '%s' is used as a value; index it", t->sym);
  else if (e)
    fe_error(P, t, "'%s' is not a scalar (TIR) variable", t->sym);
  else if (P->define_symvars) {
    FeEntry *n = fe_scope_add(P, t->sym, SYM_TVAR);
    n->tvar = ir_prim_var(P->ctx, t->sym, IR_I64);
    n->sig_dim = true;
    return typed(n->tvar);
  } else
    fe_error(P, t, "name '%s' is not defined", t->sym);
  return typed(ir_prim_var(P->ctx, t->sym, P->int_default));
}

/* A string in a shape: its contents are an expression ("n", "2 * n"). */
static TExpr
string_expr(Parser *P)
{
  const Tok *t = fe_next(P);
  Tok *saved;
  int saved_n;
  int col = t->plain ? t->col + 1 : t->col;
  int pos = fe_swap_tokens(P, t->sym, strlen(t->sym), t->line, col, &saved, &saved_n);
  TExpr x = expr_or(P);
  fe_expect_kind(P, TK_EOF, "end of the expression");
  fe_restore_tokens(P, saved, saved_n, pos);
  return x;
}

static TExpr
primary(Parser *P)
{
  const Tok *t = fe_peek(P);
  switch (t->kind) {
  case TK_INT: {
    int64_t v;
    fe_int_literal(P, false, &v);
    TExpr x = {ir_prim_int(P->ctx, P->int_default, v), true, 0};
    return x;
  }
  case TK_FLOAT: {
    fe_next(P);
    TExpr x = {ir_prim_float(P->ctx, IR_F32, t->fval), true, t->fval};
    return x;
  }
  case TK_STR:
    return string_expr(P);
  case TK_NAME:
    return name_expr(P);
  default:
    break;
  }
  if (fe_accept_op(P, "(")) {
    TExpr x = expr_or(P);
    fe_expect_op(P, ")");
    return x;
  }
  char found[48];
  fe_describe(t, found, sizeof found);
  fe_fail(P, t, "expected an expression but found %s", found);
  return typed(NULL);
}

/* Unary minus folds into a literal; otherwise it is 0 - x. */
static TExpr
unary(Parser *P)
{
  const Tok *t = fe_peek(P);
  if (!fe_is_op(t, "-") && !fe_is_op(t, "+"))
    return primary(P);
  if (fe_is_op(t, "-") && fe_peek_at(P, 1)->kind == TK_INT) {
    /* a negative literal at once: -9223372036854775808 (int64's lowest,
     * which the printer writes) is in range, its magnitude alone is not */
    int64_t v;
    fe_int_literal(P, true, &v);
    TExpr x = {ir_prim_int(P->ctx, P->int_default, v), true, 0};
    return x;
  }
  fe_next(P);
  fe_enter(P);
  TExpr x = unary(P);
  fe_leave(P);
  if (fe_is_op(t, "+"))
    return x;
  if (x.e->kind == IR_PE_INT) {
    x.e = ir_prim_int(P->ctx, x.e->dtype, (int64_t)(0 - (uint64_t)x.e->u.int_value));
    return x;
  }
  if (x.e->kind == IR_PE_FLOAT) {
    x.e = ir_prim_float(P->ctx, x.e->dtype, -x.e->u.float_value);
    x.exact = -x.exact;
    return x;
  }
  TExpr zero = {ir_prim_int(P->ctx, x.e->dtype, 0), false, 0};
  if (is_float_type(x.e->dtype))
    zero.e = ir_prim_float(P->ctx, x.e->dtype, 0.0);
  return fe_texpr_bin(P, IR_PE_SUB, zero, x);
}

static TExpr
term(Parser *P)
{
  TExpr x = unary(P);
  for (;;) {
    const Tok *t = fe_peek(P);
    IrPrimKind k = fe_is_op(t, "*")    ? IR_PE_MUL
                   : fe_is_op(t, "/")  ? IR_PE_DIV
                   : fe_is_op(t, "//") ? IR_PE_FLOORDIV
                   : fe_is_op(t, "%")  ? IR_PE_FLOORMOD
                                       : IR_PE_INT;
    if (k == IR_PE_INT)
      return x;
    fe_next(P);
    x = fe_texpr_bin(P, k, x, unary(P));
  }
}

static TExpr
arith(Parser *P)
{
  TExpr x = term(P);
  for (;;) {
    const Tok *t = fe_peek(P);
    if (!fe_is_op(t, "+") && !fe_is_op(t, "-"))
      return x;
    fe_next(P);
    x = fe_texpr_bin(P, fe_is_op(t, "+") ? IR_PE_ADD : IR_PE_SUB, x, term(P));
  }
}

static TExpr
comparison(Parser *P)
{
  static const struct {
    const char *op;
    IrPrimKind kind;
  } cmps[] = {{"==", IR_PE_EQ}, {"!=", IR_PE_NE}, {"<", IR_PE_LT},
              {"<=", IR_PE_LE}, {">", IR_PE_GT},  {">=", IR_PE_GE}};
  TExpr x = arith(P);
  for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++)
    if (fe_is_op(fe_peek(P), cmps[i].op)) {
      fe_next(P);
      return fe_texpr_bin(P, cmps[i].kind, x, arith(P));
    }
  return x;
}

static TExpr
expr_not(Parser *P)
{
  if (!fe_is_name(fe_peek(P), "not"))
    return comparison(P);
  fe_next(P);
  fe_enter(P);
  TExpr x = expr_not(P);
  fe_leave(P);
  return typed(ir_prim_bin(P->ctx, IR_PE_NOT, x.e, NULL));
}

static TExpr
expr_and(Parser *P)
{
  TExpr x = expr_not(P);
  while (fe_is_name(fe_peek(P), "and")) {
    fe_next(P);
    x = fe_texpr_bin(P, IR_PE_AND, x, expr_not(P));
  }
  return x;
}

static TExpr
expr_or(Parser *P)
{
  fe_enter(P);
  TExpr x = expr_and(P);
  while (fe_is_name(fe_peek(P), "or")) {
    fe_next(P);
    x = fe_texpr_bin(P, IR_PE_OR, x, expr_and(P));
  }
  fe_leave(P);
  return x;
}

TExpr
fe_texpr(Parser *P)
{
  return expr_or(P);
}

/* A scalar expression whose bare literals take the default dtypes. */
IrPrimExpr *
fe_prim(Parser *P)
{
  return expr_or(P).e;
}

/* --- attribute values ------------------------------------------------ */

IrSym
fe_attr_key(Parser *P, IrSym key)
{
  if (strncmp(key, "tirx.", 5) == 0)
    return ir_printf(P->ctx, "tir.%s", key + 5);
  return key;
}

IrAttr *
fe_attr_dict(Parser *P)
{
  fe_enter(P);
  fe_expect_op(P, "{");
  FeVec keys = {0}, values = {0};
  while (!fe_is_op(fe_peek(P), "}")) {
    const Tok *k = fe_expect_kind(P, TK_STR, "a string key");
    fe_vec_ptr(P, &keys, (void *)ir_sym(P->ctx, fe_attr_key(P, k->sym)));
    fe_expect_op(P, ":");
    fe_vec_ptr(P, &values, fe_attr_value(P));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, "}");
  fe_leave(P);
  return ir_attr_dict(P->ctx, keys.data, values.data, keys.len);
}

static IrAttr *
attr_list(Parser *P, const char *close)
{
  FeVec items = {0};
  fe_next(P);
  while (!fe_is_op(fe_peek(P), close)) {
    fe_vec_ptr(P, &items, fe_attr_value(P));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, close);
  return ir_attr_list(P->ctx, items.data, items.len);
}

/* The lambda's body, its parameters in scope: a tuple of indices, or one
 * index (a parenthesized one too: "(i + 1) // 4"), ending at end. */
static void
index_map_body(Parser *P, IrDType t, int end, FeVec *results)
{
  int start = P->pos;
  if (fe_accept_op(P, "(")) {
    while (!fe_is_op(fe_peek(P), ")")) {
      fe_vec_ptr(P, results, fe_prim_as(P, expr_or(P), t));
      if (!fe_accept_op(P, ","))
        break;
    }
    fe_expect_op(P, ")");
    if (P->pos == end)
      return;
    P->pos = start;
    results->len = 0;
  }
  fe_vec_ptr(P, results, fe_prim_as(P, expr_or(P), t));
}

/* T.index_map(lambda i, j: (i // 4, j, i % 4), index_dtype="int64"), or
 * the bare lambda TVMScript also takes: an IR_AT_INDEX_MAP whose
 * parameters are new variables of index_dtype, bare literals in the body
 * taking that dtype too.  The keywords are read before the body (the
 * dtype decides how it is read), so the body is skipped and come back to. */
static IrAttr *
index_map(Parser *P)
{
  bool wrapped = !fe_is_name(fe_peek(P), "lambda");
  if (wrapped) {
    P->pos += 2; /* T . */
    fe_expect_name(P);
    fe_expect_op(P, "(");
  }
  const Tok *lambda = fe_expect_name(P);
  if (!fe_is_name(lambda, "lambda"))
    fe_fail(P, lambda, "expected a lambda in T.index_map");
  FeVec names = {0}, params = {0}, results = {0};
  while (!fe_is_op(fe_peek(P), ":")) {
    const Tok *name = fe_expect_name(P);
    for (int i = 0; i < names.len; i++)
      if (((const Tok **)names.data)[i]->sym == name->sym)
        fe_fail(P, name, "duplicate parameter '%s' in lambda", name->sym);
    fe_vec_ptr(P, &names, (void *)name);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ":");
  int body = P->pos, body_end = fe_skip_balanced(P);
  IrDType t = IR_I64;
  while (wrapped && fe_accept_op(P, ",") && !fe_is_op(fe_peek(P), ")")) {
    const Tok *kw = fe_expect_name(P);
    fe_expect_op(P, "=");
    if (!fe_is_name(kw, "index_dtype"))
      fe_fail(P, kw, "unexpected keyword argument '%s' for T.index_map (rxc reads index_dtype)",
              kw->sym);
    const Tok *at = fe_peek(P);
    t = fe_dtype_str(P);
    if (t.code != IR_DT_INT || (t.bits != 32 && t.bits != 64) || t.lanes != 1)
      fe_fail(P, at, "index_dtype must be \"int32\" or \"int64\"");
  }
  if (wrapped)
    fe_expect_op(P, ")");
  int end = P->pos, mark = P->scope.len;
  IrDType int_default = P->int_default;
  for (int i = 0; i < names.len; i++) {
    const Tok *name = ((const Tok **)names.data)[i];
    FeEntry *e = fe_scope_add(P, name->sym, SYM_TVAR);
    e->tvar = ir_prim_var(P->ctx, name->sym, t);
    fe_vec_ptr(P, &params, e->tvar);
  }
  P->int_default = t;
  P->pos = body;
  index_map_body(P, t, body_end, &results);
  if (P->pos != body_end) {
    char found[48];
    fe_describe(fe_peek(P), found, sizeof found);
    fe_fail(P, fe_peek(P), "expected the end of the lambda but found %s", found);
  }
  P->int_default = int_default;
  fe_scope_pop(P, mark);
  P->pos = end;
  return ir_attr_index_map(P->ctx, params.data, params.len, results.data, results.len);
}

/* None, True/False, numbers, strings, lists (tuples too), dicts, index
 * maps, and symbolic expressions (an int or float result is a plain
 * number). */
IrAttr *
fe_attr_value(Parser *P)
{
  const Tok *t = fe_peek(P);
  IrAttr *a;
  fe_enter(P);
  if (fe_is_name(t, "lambda") || fe_peek_dotted(P, "T.index_map")) {
    a = index_map(P);
  } else if (fe_is_name(t, "None")) {
    fe_next(P);
    a = ir_attr_none(P->ctx);
  } else if (t->kind == TK_STR) {
    fe_next(P);
    a = ir_attr_str(P->ctx, t->sym);
  } else if (fe_is_op(t, "[") || fe_is_op(t, "(")) {
    a = attr_list(P, fe_is_op(t, "[") ? "]" : ")");
  } else if (fe_is_op(t, "{")) {
    a = fe_attr_dict(P);
  } else {
    TExpr x = expr_or(P);
    IrPrimExpr *e = x.e;
    if (x.bare && e->kind == IR_PE_FLOAT)
      a = ir_attr_float(P->ctx, x.exact); /* a Python float: a double */
    else if (e->kind == IR_PE_INT && e->dtype.code == IR_DT_BOOL)
      a = ir_attr_bool(P->ctx, e->u.int_value != 0);
    else if (e->kind == IR_PE_INT)
      a = ir_attr_int(P->ctx, e->u.int_value);
    else if (e->kind == IR_PE_FLOAT)
      a = ir_attr_float(P->ctx, e->u.float_value);
    else
      a = ir_attr_prim(P->ctx, e);
  }
  fe_leave(P);
  return a;
}
