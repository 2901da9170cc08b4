/*
 * parse_call.c - Relax expressions: names, globals, tuples, R.* constructors
 * and operator calls.
 *
 * Key idea: an operator call is read in two steps.  First its arguments are
 * skimmed (token ranges, keyword names) and matched to the parameters of
 * the op's entry in the operator table (ops/), positional or keyword; then
 * each is parsed by its parameter's kind, which decides how a raw literal
 * is wrapped (int -> R.prim_value, str -> R.str / R.dtype, list ->
 * R.shape).  Absent parameters take the entry's default, whose text is
 * parsed by the same code from a fragment lexer.
 */
#include <string.h>

#include "fe_int.h"
#include "../ops/op.h"

typedef struct {
  int start, end;    /* token range of the value */
  const Tok *kw;     /* keyword name, or NULL */
  int param;         /* index into op->params */
} Arg;

typedef struct {
  bool given;
  IrExpr *expr;      /* EXPR..TUPLE: NULL when left out */
  FeVec varargs;     /* VARARGS: IrExpr* */
  IrAttr *attr;      /* ATTR */
  FeVec sinfos;      /* SINFO: IrSInfo* */
} Slot;

static IrSInfo *
tuple_sinfo(Parser *P, IrExpr **items, int n)
{
  IrSInfo **fields = ir_alloc(P->ctx, sizeof *fields * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    if (!(fields[i] = items[i]->sinfo))
      return NULL;
  return ir_sinfo_tuple(P->ctx, fields, n);
}

static IrExpr *
make_tuple(Parser *P, FeVec *items, const Tok *at)
{
  IrExpr *e = ir_expr_new(P->ctx, IR_EX_TUPLE, fe_loc(P, at));
  e->u.tuple.items = items->data;
  e->u.tuple.n = items->len;
  e->sinfo = tuple_sinfo(P, e->u.tuple.items, e->u.tuple.n);
  return e;
}

/* Positional Relax expressions up to `close`; the opening bracket is read. */
static void
expr_list(Parser *P, FeVec *items, const char *close)
{
  while (!fe_is_op(fe_peek(P), close)) {
    fe_vec_ptr(P, items, fe_rexpr(P));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, close);
}

static IrExpr *
global_ref(Parser *P, const Tok *name)
{
  if (!fe_is_global(P, name->sym))
    fe_error(P, name, "global '%s' is not defined in the module", name->sym);
  IrExpr *g = ir_expr_new(P->ctx, IR_EX_GLOBAL, fe_loc(P, name));
  g->u.global = name->sym;
  return g;
}

static IrExpr *
extern_ref(Parser *P, const Tok *sym)
{
  IrExpr *e = ir_expr_new(P->ctx, IR_EX_EXTERN, fe_loc(P, sym));
  e->u.global = sym->sym;
  return e;
}

/* --- operator calls -------------------------------------------------- */

static int
param_index(const IrOpDef *op, const char *name)
{
  if (strcmp(name, "out_ty") == 0)
    name = "out_sinfo";
  else if (strcmp(name, "ty_args") == 0)
    name = "sinfo_args";
  for (int i = 0; i < op->nparams; i++)
    if (strcmp(op->params[i].name, name) == 0)
      return i;
  return -1;
}

/* Reads the argument list of a call to op into args (token ranges matched
 * to parameters); the '(' is current.  Returns the count. */
static int
skim_args(Parser *P, const IrOpDef *op, const char *name, Arg *args, int max)
{
  int n = 0, positional = 0;
  bool seen_kw = false;
  fe_expect_op(P, "(");
  while (!fe_is_op(fe_peek(P), ")")) {
    const Tok *t = fe_peek(P);
    if (n == max)
      fe_fail(P, t, "too many arguments for %s", name);
    Arg *a = &args[n++];
    a->kw = NULL;
    if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      a->kw = t;
      seen_kw = true;
      P->pos += 2;
      if ((a->param = param_index(op, t->sym)) < 0)
        fe_fail(P, t, "unexpected keyword argument '%s' for %s", t->sym, name);
    } else if (seen_kw) {
      fe_fail(P, t, "positional argument follows keyword argument");
    } else {
      if (positional >= op->nparams)
        fe_fail(P, t, "%s takes at most %d arguments", name, op->nparams);
      a->param = positional;
      if (op->params[positional].kind != IR_PARAM_VARARGS)
        positional++;
    }
    a->start = P->pos;
    if (fe_is_name(fe_peek(P), "lambda")) /* its parameters' commas end nothing */
      while (!fe_is_op(fe_peek(P), ":") && fe_peek(P)->kind != TK_EOF &&
             fe_peek(P)->kind != TK_ERROR && fe_peek(P)->kind != TK_NEWLINE)
        P->pos++;
    a->end = fe_skip_balanced(P);
    if (a->end == a->start)
      fe_fail(P, fe_peek(P), "expected an argument");
    if (!fe_accept_op(P, ","))
      break;
  }
  if (!fe_is_op(fe_peek(P), ")")) {
    char found[48];
    fe_describe(fe_peek(P), found, sizeof found);
    fe_fail(P, fe_peek(P), "expected ',' or ')' but found %s", found);
  }
  return n;
}

static IrExpr *
as_tuple(Parser *P, IrExpr *e, const Tok *at)
{
  if (e->kind == IR_EX_TUPLE || (e->sinfo && e->sinfo->kind == IR_SI_TUPLE))
    return e;
  FeVec items = {0};
  fe_vec_ptr(P, &items, e);
  return make_tuple(P, &items, at);
}

/* R.device(dev_type=1, index=0) or tvm.cpu(0) / tvm.cuda(0). */
static void
device(Parser *P, Slot *slots)
{
  const Tok *at;
  const char *name = fe_dotted(P, &at);
  int64_t v[2] = {-1, 0};
  bool is_device = strcmp(name, "R.device") == 0;
  if (strcmp(name, "tvm.cpu") == 0)
    v[0] = 1;
  else if (strcmp(name, "tvm.cuda") == 0)
    v[0] = 2;
  else if (!is_device)
    fe_fail(P, at, "expected R.device(...) but found '%s'", name);
  fe_expect_op(P, "(");
  for (int i = is_device ? 0 : 1; !fe_is_op(fe_peek(P), ")") && i < 2; i++) {
    const Tok *k = fe_peek(P);
    if (k->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      P->pos += 2;
      i = fe_is_name(k, "dev_type") ? 0 : fe_is_name(k, "index") || fe_is_name(k, "dev_id") ? 1 : -1;
      if (i < 0)
        fe_fail(P, k, "unexpected keyword argument '%s' for %s", k->sym, name);
    }
    if (!fe_int_literal(P, true, &v[i]))
      fe_fail(P, fe_peek(P), "expected an integer in %s", name);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
  if (v[0] < 0)
    fe_fail(P, at, "missing dev_type in %s", name);
  slots[1].given = slots[2].given = true;
  slots[1].attr = ir_attr_int(P->ctx, v[0]);
  slots[2].attr = ir_attr_int(P->ctx, v[1]);
}

static bool
at_prim_literal(Parser *P)
{
  const Tok *t = fe_peek(P);
  if (t->kind == TK_INT || t->kind == TK_FLOAT || fe_is_op(t, "-") || fe_is_name(t, "T") ||
      fe_is_name(t, "True") || fe_is_name(t, "False"))
    return true;
  FeEntry *e = t->kind == TK_NAME ? fe_scope_find(P, t->sym) : NULL;
  return e && e->kind == SYM_TVAR;
}

static void default_arg(Parser *P, const IrOpDef *op, int i, Slot *slot, const Tok *at);

/* Parses one argument value by its parameter's kind into slot. */
static void
parse_arg(Parser *P, const IrOpDef *op, int param, Slot *slot)
{
  const Tok *t = fe_peek(P);
  IrLoc loc = fe_loc(P, t);
  slot->given = true;
  switch (op->params[param].kind) {
  case IR_PARAM_EXPR:
    if (t->kind == TK_STR &&
        (op->id == IR_OP_CALL_PURE_PACKED || op->id == IR_OP_CALL_DPS_PACKED ||
         op->id == IR_OP_CALL_INPLACE_PACKED || op->id == IR_OP_CALL_BUILTIN_WITH_CTX))
      slot->expr = extern_ref(P, fe_next(P));
    else
      slot->expr = fe_rexpr(P);
    return;
  case IR_PARAM_VARARGS:
    fe_vec_ptr(P, &slot->varargs, fe_rexpr(P));
    return;
  case IR_PARAM_PRIM:
    if (fe_is_name(t, "None"))
      fe_next(P);
    else
      slot->expr = at_prim_literal(P) ? ir_prim_value(P->ctx, fe_prim(P), loc) : fe_rexpr(P);
    return;
  case IR_PARAM_STR:
    slot->expr = t->kind == TK_STR ? ir_str_imm(P->ctx, fe_next(P)->sym, loc) : fe_rexpr(P);
    return;
  case IR_PARAM_DTYPE:
    slot->expr = t->kind == TK_STR ? ir_dtype_imm(P->ctx, fe_dtype_str(P), loc) : fe_rexpr(P);
    return;
  case IR_PARAM_SHAPE: {
    int n;
    if (fe_is_name(t, "None"))
      fe_next(P);
    else if (fe_is_op(t, "(") || fe_is_op(t, "[")) {
      IrPrimExpr **dims = fe_shape_list(P, &n);
      slot->expr = ir_shape_expr(P->ctx, dims, n, loc);
    }
    else
      slot->expr = fe_rexpr(P);
    return;
  }
  case IR_PARAM_TUPLE:
    slot->expr = as_tuple(P, fe_rexpr(P), t);
    return;
  case IR_PARAM_ATTR:
    /* None for a dtype attribute whose default is "void" (out_dtype) is
     * "void", as TVM reads it */
    if (fe_is_name(t, "None") && op->params[param].fallback &&
        strcmp(op->params[param].fallback, "\"void\"") == 0) {
      fe_next(P);
      default_arg(P, op, param, slot, t);
      return;
    }
    slot->attr = fe_attr_value(P);
    return;
  case IR_PARAM_SINFO:
    if (fe_is_op(t, "[") || fe_is_op(t, "(")) {
      const char *close = fe_is_op(fe_next(P), "[") ? "]" : ")";
      while (!fe_is_op(fe_peek(P), close)) {
        fe_vec_ptr(P, &slot->sinfos, fe_sinfo(P));
        if (!fe_accept_op(P, ","))
          break;
      }
      fe_expect_op(P, close);
    } else {
      fe_vec_ptr(P, &slot->sinfos, fe_sinfo(P));
    }
    return;
  }
}

/* Fills an absent parameter from the table's default text. */
static void
default_arg(Parser *P, const IrOpDef *op, int i, Slot *slot, const Tok *at)
{
  const IrOpParam *p = &op->params[i];
  if (p->kind == IR_PARAM_VARARGS)
    return;
  if (!p->fallback)
    fe_fail(P, at, "missing required argument '%s' for %s", p->name, at->sym);
  if (strcmp(p->fallback, "None") == 0 && p->kind != IR_PARAM_ATTR)
    return;
  Tok *saved;
  int saved_n;
  int pos = fe_swap_tokens(P, p->fallback, strlen(p->fallback), at->line, at->col, &saved,
                           &saved_n);
  parse_arg(P, op, i, slot);
  fe_expect_kind(P, TK_EOF, "end of the default value");
  fe_restore_tokens(P, saved, saved_n, pos);
}

/* Assembles the call from its filled slots, in parameter order. */
static IrExpr *
build_call(Parser *P, const IrOpDef *op, Slot *slots, const Tok *at)
{
  FeVec args = {0}, keys = {0}, values = {0}, sinfos = {0};
  for (int i = 0; i < op->nparams; i++) {
    Slot *s = &slots[i];
    switch (op->params[i].kind) {
    case IR_PARAM_ATTR:
      fe_vec_ptr(P, &keys, (void *)ir_sym(P->ctx, op->params[i].name));
      fe_vec_ptr(P, &values, s->attr);
      break;
    case IR_PARAM_SINFO:
      for (int k = 0; k < s->sinfos.len; k++)
        fe_vec_ptr(P, &sinfos, ((void **)s->sinfos.data)[k]);
      break;
    case IR_PARAM_VARARGS:
      for (int k = 0; k < s->varargs.len; k++)
        fe_vec_ptr(P, &args, ((void **)s->varargs.data)[k]);
      break;
    default:
      if (s->expr)
        fe_vec_ptr(P, &args, s->expr);
    }
  }
  IrAttr *attrs = keys.len ? ir_attr_dict(P->ctx, keys.data, values.data, keys.len) : NULL;
  IrExpr *e = ir_call_op(P->ctx, op, args.data, args.len, attrs, fe_loc(P, at));
  e->u.call.sinfo_args = sinfos.data;
  e->u.call.nsinfo_args = sinfos.len;
  IrSInfo **out = sinfos.data;
  if (op->id == IR_OP_CALL_TIR || op->id == IR_OP_CALL_TIR_INPLACE ||
      op->id == IR_OP_CALL_DPS_PACKED)
    e->sinfo = sinfos.len == 1 ? out[0] : ir_sinfo_tuple(P->ctx, out, sinfos.len);
  else if (op->id == IR_OP_CALL_PURE_PACKED && sinfos.len > 0)
    e->sinfo = out[0];
  return e;
}

/* A call of a registered op; the '(' is current, `at` is "R". */
static IrExpr *
op_call(Parser *P, const IrOpDef *op, const char *name, const Tok *at)
{
  Arg args[64];
  Slot slots[IR_OP_MAX_PARAMS];
  memset(slots, 0, sizeof slots);
  int n = skim_args(P, op, name, args, 64);
  int after = P->pos + 1;
  for (int i = 0; i < n; i++) {
    Slot *s = &slots[args[i].param];
    const Tok *t = args[i].kw ? args[i].kw : &P->toks[args[i].start];
    if (s->given && op->params[args[i].param].kind != IR_PARAM_VARARGS)
      fe_fail(P, t, "multiple values for argument '%s' of %s", op->params[args[i].param].name,
              name);
    P->pos = args[i].start;
    if (op->id == IR_OP_HINT_ON_DEVICE && args[i].param == 1 &&
        fe_peek_at(P, 1)->kind == TK_OP && fe_is_op(fe_peek_at(P, 1), "."))
      device(P, slots);
    else
      parse_arg(P, op, args[i].param, s);
    if (P->pos != args[i].end) {
      char found[48];
      fe_describe(fe_peek(P), found, sizeof found);
      fe_fail(P, fe_peek(P), "expected ',' or ')' but found %s", found);
    }
  }
  P->pos = after;
  Tok name_tok = *at;
  name_tok.sym = name;
  for (int i = 0; i < op->nparams; i++)
    if (!slots[i].given)
      default_arg(P, op, i, &slots[i], &name_tok);
  return build_call(P, op, slots, at);
}

/* R.call_packed("sym", args..., sinfo_args=...): a call of an extern. */
static IrExpr *
call_packed(Parser *P, const Tok *at)
{
  fe_expect_op(P, "(");
  IrExpr *e = ir_expr_new(P->ctx, IR_EX_CALL, fe_loc(P, at));
  e->u.call.kind = IR_CALL_EXTERN;
  e->u.call.callee = extern_ref(P, fe_expect_kind(P, TK_STR, "a function name string"));
  FeVec args = {0}, sinfos = {0}, keys = {0}, values = {0};
  while (fe_accept_op(P, ",") && !fe_is_op(fe_peek(P), ")")) {
    const Tok *t = fe_peek(P);
    if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=") && !fe_is_name(t, "sinfo_args") &&
        !fe_is_name(t, "ty_args")) {
      P->pos += 2; /* any other keyword is an attribute of the call, as TVM takes it */
      for (int i = 0; i < keys.len; i++)
        if (((IrSym *)keys.data)[i] == t->sym)
          fe_fail(P, t, "multiple values for attribute '%s' of R.call_packed", t->sym);
      fe_vec_ptr(P, &keys, (void *)t->sym);
      fe_vec_ptr(P, &values, fe_attr_value(P));
    } else if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      P->pos += 2;
      Slot s = {0};
      parse_arg(P, &op_def(IR_OP_CALL_PURE_PACKED)->syn, 2, &s);
      sinfos = s.sinfos;
    } else {
      fe_vec_ptr(P, &args, fe_rexpr(P));
    }
  }
  fe_expect_op(P, ")");
  e->u.call.args = args.data;
  e->u.call.nargs = args.len;
  e->u.call.sinfo_args = sinfos.data;
  e->u.call.nsinfo_args = sinfos.len;
  e->u.call.attrs = keys.len ? ir_attr_dict(P->ctx, keys.data, values.data, keys.len) : NULL;
  e->sinfo = sinfos.len ? ((IrSInfo **)sinfos.data)[0] : NULL;
  return e;
}

/* The R.* constructors that are not operators; NULL when name is none. */
static IrExpr *
constructor(Parser *P, const char *name, const Tok *at)
{
  IrLoc loc = fe_loc(P, at);
  IrExpr *e = NULL;
  int n;
  if (strcmp(name, "R.const") == 0)
    return fe_const(P, at);
  if (strcmp(name, "R.call_packed") == 0)
    return call_packed(P, at);
  if (strcmp(name, "R.tuple") == 0) {
    FeVec items = {0};
    fe_expect_op(P, "(");
    expr_list(P, &items, ")");
    return make_tuple(P, &items, at);
  }
  if (strcmp(name, "R.ShapeExpr") == 0) /* TVM's node class, which its reader takes */
    name = "R.shape";
  if (strcmp(name, "R.shape") != 0 && strcmp(name, "R.prim_value") != 0 &&
      strcmp(name, "R.str") != 0 && strcmp(name, "R.dtype") != 0 &&
      strcmp(name, "R.ExternFunc") != 0)
    return NULL;
  fe_expect_op(P, "(");
  if (strcmp(name, "R.shape") == 0) {
    IrPrimExpr **dims = fe_shape_list(P, &n);
    e = ir_shape_expr(P->ctx, dims, n, loc);
  }
  else if (strcmp(name, "R.prim_value") == 0)
    e = ir_prim_value(P->ctx, fe_prim(P), loc);
  else if (strcmp(name, "R.str") == 0)
    e = ir_str_imm(P->ctx, fe_expect_kind(P, TK_STR, "a string")->sym, loc);
  else if (strcmp(name, "R.dtype") == 0)
    e = ir_dtype_imm(P->ctx, fe_dtype_str(P), loc);
  else {
    e = extern_ref(P, fe_expect_kind(P, TK_STR, "a symbol string"));
    if (fe_accept_op(P, ",") && !fe_is_op(fe_peek(P), ")")) /* v0.26: its R.Callable */
      e->sinfo = fe_sinfo(P);
  }
  fe_accept_op(P, ",");
  fe_expect_op(P, ")");
  return e;
}

/* Item index of tuple e, `e[index]`; index is checked not to be huge. */
static IrExpr *
tuple_get(Parser *P, IrExpr *e, int64_t index, const Tok *at)
{
  IrExpr *g = ir_expr_new(P->ctx, IR_EX_GET, fe_loc(P, at));
  g->u.get.tuple = e;
  g->u.get.index = (int)index;
  if (e->sinfo && e->sinfo->kind == IR_SI_TUPLE && index < e->sinfo->u.tuple.n)
    g->sinfo = e->sinfo->u.tuple.fields[index];
  return g;
}

/* R.TupleGetItem(t, i): TVM's class for t[i], which its reader also takes. */
static IrExpr *
tuple_get_item(Parser *P, const Tok *at)
{
  fe_expect_op(P, "(");
  IrExpr *e = fe_rexpr(P);
  fe_expect_op(P, ",");
  int64_t index;
  const Tok *it = fe_peek(P);
  if (!fe_int_literal(P, false, &index) || index > 1000000000)
    fe_fail(P, it, "expected a tuple index");
  fe_accept_op(P, ",");
  fe_expect_op(P, ")");
  return tuple_get(P, e, index, at);
}

/* R.nn.relu6(x): in TVM a Python function, not an op, that calls
 * R.clip(x, 0, 6) with int64 bounds; the '(' is current. */
static IrExpr *
relu6(Parser *P, const Tok *at)
{
  FeVec items = {0};
  fe_expect_op(P, "(");
  if (fe_is_name(fe_peek(P), "data") && fe_is_op(fe_peek_at(P, 1), "="))
    P->pos += 2;
  expr_list(P, &items, ")");
  if (items.len != 1)
    fe_fail(P, at, "R.nn.relu6 takes one argument, data");
  IrLoc loc = fe_loc(P, at);
  IrExpr **args = ir_alloc(P->ctx, 3 * sizeof *args); /* the call keeps the array */
  args[0] = ((IrExpr **)items.data)[0];
  args[1] = ir_prim_value(P->ctx, ir_prim_int(P->ctx, IR_I64, 0), loc);
  args[2] = ir_prim_value(P->ctx, ir_prim_int(P->ctx, IR_I64, 6), loc);
  return ir_call_op(P->ctx, &op_find("R.clip")->syn, args, 3, NULL, loc);
}

/* R.<name>(...): a constructor or an op call; the '(' is current. */
IrExpr *
fe_r_call(Parser *P, const char *name, const Tok *at)
{
  if (!fe_is_op(fe_peek(P), "(")) {
    if (fe_at_sinfo(P) || strncmp(name, "R.Tensor", 8) == 0)
      fe_fail(P, at, "struct info '%s' is not an expression", name);
    fe_expect_op(P, "(");
  }
  if (strcmp(name, "R.nn.relu6") == 0)
    return relu6(P, at);
  if (strcmp(name, "R.TupleGetItem") == 0)
    return tuple_get_item(P, at);
  IrExpr *e = constructor(P, name, at);
  if (e)
    return e;
  const OpDef *def = op_find(name);
  if (!def) {
    if (strcmp(name, "R.match_cast") == 0)
      fe_fail(P, at, "R.match_cast must be the whole right-hand side of a binding");
    fe_error(P, at, "unknown operator '%s'", name);
    fe_next(P);
    do
      fe_skip_balanced(P);
    while (fe_accept_op(P, ","));
    fe_expect_op(P, ")");
    return ir_var_new(P->ctx, ir_sym(P->ctx, "_"), NULL, false, fe_loc(P, at));
  }
  return op_call(P, &def->syn, name, at);
}

/* --- names and postfix ----------------------------------------------- */

static IrExpr *
name_expr(Parser *P)
{
  const Tok *t = fe_peek(P);
  if (fe_is_name(t, "R") && fe_is_op(fe_peek_at(P, 1), ".")) {
    const Tok *at;
    const char *name = fe_dotted(P, &at);
    return fe_r_call(P, name, at);
  }
  if (fe_is_name(t, "metadata") && !fe_scope_find(P, t->sym))
    return fe_metadata_ref(P);
  fe_next(P);
  FeEntry *e = fe_scope_find(P, t->sym);
  bool is_module = (e && e->kind == SYM_MODULE) ||
                   (!e && (t->sym == P->module_name || strcmp(t->sym, "cls") == 0));
  if (is_module && fe_is_op(fe_peek(P), ".")) {
    fe_next(P);
    return global_ref(P, fe_expect_name(P));
  }
  if (e && e->kind == SYM_RVAR)
    return e->rvar;
  if (!e && fe_is_global(P, t->sym))
    return global_ref(P, t);
  if (e && e->kind == SYM_TVAR)
    fe_error(P, t, "'%s' is a symbolic variable, not a Relax value; write R.prim_value(%s)",
             t->sym, t->sym);
  else if (e)
    fe_error(P, t, "'%s' is not a Relax value", t->sym);
  else
    fe_error(P, t, "name '%s' is not defined", t->sym);
  return ir_var_new(P->ctx, t->sym, NULL, false, fe_loc(P, t));
}

/* A negative number literal (read as a prim value), not a negation. */
static bool
at_prim_number(Parser *P)
{
  const Tok *n = fe_peek_at(P, 1);
  return fe_is_op(fe_peek(P), "-") && (n->kind == TK_INT || n->kind == TK_FLOAT);
}

static IrExpr *
primary(Parser *P)
{
  const Tok *t = fe_peek(P);
  /* A bare scalar (`1`, `T.float32(1.0)`, a symbolic var `n`, `n + 1`) is
   * an R.prim_value, as TVM v0.26 prints it. */
  if (at_prim_literal(P) && (!fe_is_op(t, "-") || at_prim_number(P)))
    return ir_prim_value(P->ctx, fe_prim(P), fe_loc(P, t));
  if (t->kind == TK_NAME)
    return name_expr(P);
  if (fe_accept_op(P, "(")) {
    FeVec items = {0};
    if (fe_accept_op(P, ")"))
      return make_tuple(P, &items, t);
    IrExpr *first = fe_rexpr(P);
    if (fe_accept_op(P, ")"))
      return first;
    fe_vec_ptr(P, &items, first);
    fe_expect_op(P, ",");
    expr_list(P, &items, ")");
    return make_tuple(P, &items, t);
  }
  if (fe_accept_op(P, "[")) { /* a Python list is a tuple, as TVM reads it */
    FeVec items = {0};
    expr_list(P, &items, "]");
    return make_tuple(P, &items, t);
  }
  char found[48];
  fe_describe(t, found, sizeof found);
  fe_fail(P, t, "expected a Relax expression but found %s", found);
  return NULL;
}

/* A call of callee; `start` is the first token of the callee expression
 * (the call's location) and `at` its opening parenthesis. */
static IrExpr *
call_value(Parser *P, IrExpr *callee, const Tok *start, const Tok *at)
{
  if (callee->kind != IR_EX_GLOBAL && callee->kind != IR_EX_VAR && callee->kind != IR_EX_EXTERN)
    fe_fail(P, at, "this expression cannot be called");
  fe_next(P);
  FeVec args = {0};
  expr_list(P, &args, ")");
  IrExpr *e = ir_expr_new(P->ctx, IR_EX_CALL, fe_loc(P, start));
  e->u.call.kind = callee->kind == IR_EX_GLOBAL   ? IR_CALL_GLOBAL
                   : callee->kind == IR_EX_EXTERN ? IR_CALL_EXTERN
                                                  : IR_CALL_VAR;
  e->u.call.callee = callee;
  e->u.call.args = args.data;
  e->u.call.nargs = args.len;
  return e;
}

/* x.astype("float16") (TVM's method of Relax expressions): R.astype(x,
 * dtype); the '.' is current. */
static IrExpr *
astype_method(Parser *P, IrExpr *x, const Tok *at)
{
  const IrOpDef *op = &op_find("R.astype")->syn;
  Slot slots[IR_OP_MAX_PARAMS];
  memset(slots, 0, sizeof slots);
  P->pos += 3;
  if (fe_is_name(fe_peek(P), "dtype") && fe_is_op(fe_peek_at(P, 1), "="))
    P->pos += 2;
  slots[0].given = true;
  slots[0].expr = x;
  slots[1].given = true;
  slots[1].attr = fe_attr_value(P);
  fe_accept_op(P, ",");
  fe_expect_op(P, ")");
  return build_call(P, op, slots, at);
}

/* A primary followed by calls and tuple indexing. */
static IrExpr *
postfix(Parser *P)
{
  fe_enter(P);
  const Tok *start = fe_peek(P);
  IrExpr *e = primary(P);
  for (;;) {
    const Tok *t = fe_peek(P);
    if (fe_is_op(t, "(")) {
      e = call_value(P, e, start, t);
    } else if (fe_is_op(t, ".") && fe_is_name(fe_peek_at(P, 1), "astype") &&
               fe_is_op(fe_peek_at(P, 2), "(")) {
      e = astype_method(P, e, t);
    } else if (fe_is_op(t, "[")) {
      fe_next(P);
      int64_t index;
      const Tok *it = fe_peek(P);
      if (!fe_int_literal(P, false, &index) || index > 1000000000)
        fe_fail(P, it, "expected a tuple index");
      fe_expect_op(P, "]");
      e = tuple_get(P, e, index, t);
    } else {
      break;
    }
  }
  fe_leave(P);
  return e;
}

/* Python's operators on Relax values, as TVM's reader maps them (relax
 * ExprWithOp): `a + b` is R.add(a, b), and so on; by Python's precedence,
 * loosest first.  `-a` is R.negative(a). */
static const struct {
  const char *tok, *op;
  int level;
} binary_ops[] = {
    {"<", "R.less", 0},       {">", "R.greater", 0},    {"<=", "R.less_equal", 0},
    {">=", "R.greater_equal", 0}, {"+", "R.add", 1},     {"-", "R.subtract", 1},
    {"*", "R.multiply", 2},   {"/", "R.divide", 2},     {"//", "R.floor_divide", 2},
    {"%", "R.mod", 2},        {"**", "R.power", 4},
};
enum { UNARY_LEVEL = 3 };

static IrExpr *
binary_call(Parser *P, const char *name, IrExpr *a, IrExpr *b, const Tok *at)
{
  const IrOpDef *op = &op_find(name)->syn;
  Slot slots[IR_OP_MAX_PARAMS];
  memset(slots, 0, sizeof slots);
  IrExpr *in[2] = {a, b};
  Tok name_tok = *at;
  name_tok.sym = name;
  for (int i = 0; i < op->nparams; i++) {
    if (i < (b ? 2 : 1)) {
      slots[i].given = true;
      slots[i].expr = in[i];
    } else {
      default_arg(P, op, i, &slots[i], &name_tok);
    }
  }
  return build_call(P, op, slots, at);
}

static IrExpr *
binary(Parser *P, int level)
{
  const Tok *t = fe_peek(P);
  if (level == UNARY_LEVEL) {
    if (!fe_is_op(t, "-") || at_prim_number(P))
      return binary(P, level + 1);
    fe_next(P);
    return binary_call(P, "R.negative", binary(P, UNARY_LEVEL), NULL, t);
  }
  IrExpr *e = level == 4 ? postfix(P) : binary(P, level + 1);
  for (;;) {
    const Tok *o = fe_peek(P);
    size_t i = 0;
    while (i < sizeof binary_ops / sizeof binary_ops[0] &&
           !(binary_ops[i].level == level && fe_is_op(o, binary_ops[i].tok)))
      i++;
    if (i == sizeof binary_ops / sizeof binary_ops[0])
      return e;
    fe_next(P);
    /* ** binds its right operand as a unary expression (right-associative) */
    IrExpr *rhs = binary(P, level == 4 ? UNARY_LEVEL : level + 1);
    e = binary_call(P, binary_ops[i].op, e, rhs, o);
  }
}

/* A Relax expression. */
IrExpr *
fe_rexpr(Parser *P)
{
  return binary(P, 0);
}
