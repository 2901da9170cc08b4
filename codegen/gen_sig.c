/*
 * gen_sig.c - an entry's signature, header comment, checks and packed
 * form.
 *
 * Key idea: the symbolic dims of the signature are the TIR vars of the
 * parameters' struct info, in order of first appearance, one int64 each;
 * their bounds come from the function's attributes and the configuration
 * (as the planner takes them).  Every check comes before the first write:
 * NULL pointers, dims within bounds, shapes the dims would make negative,
 * arena size and alignment, then the plan's runtime preconditions.
 */
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

/* --- signature, checks, result --------------------------------------------- */

static void
collect_dims(const IrPrimExpr *e, IrVec *out)
{
  if (!e)
    return;
  if (e->kind == IR_PE_VAR) {
    for (int i = 0; i < out->len; i++)
      if (out->items[i] == e)
        return;
    ir_vec_push(out, (void *)e);
    return;
  }
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_NOT) {
    collect_dims(e->u.bin.a, out);
    collect_dims(e->u.bin.b, out);
  } else if (e->kind == IR_PE_CAST) {
    collect_dims(e->u.bin.a, out);
  } else if (e->kind == IR_PE_SELECT) {
    collect_dims(e->u.select.cond, out);
    collect_dims(e->u.select.a, out);
    collect_dims(e->u.select.b, out);
  }
}

static void
sinfo_dims(const IrSInfo *s, IrVec *out)
{
  if (!s)
    return;
  if (s->kind == IR_SI_TENSOR && s->u.tensor.shape)
    for (int d = 0; d < ir_sinfo_shape_len(s); d++)
      collect_dims(s->u.tensor.shape[d], out);
  else if (s->kind == IR_SI_SHAPE && s->u.shape.values)
    for (int d = 0; d < ir_sinfo_shape_len(s); d++)
      collect_dims(s->u.shape.values[d], out);
  else if (s->kind == IR_SI_PRIM)
    collect_dims(s->u.prim.value, out);
  else if (s->kind == IR_SI_TUPLE)
    for (int i = 0; i < s->u.tuple.n; i++)
      sinfo_dims(s->u.tuple.fields[i], out);
}

static void
print_shape(const IrSInfo *s, IrBuf *o)
{
  char buf[32];
  ir_buf_printf(o, "%s (", ir_dtype_str(s->u.tensor.dtype, buf));
  for (int d = 0; d < s->u.tensor.ndim; d++) {
    ir_buf_puts(o, d ? ", " : "");
    ir_prim_expr_print(s->u.tensor.shape[d], o);
  }
  ir_buf_puts(o, s->u.tensor.ndim == 1 ? ",)" : ")");
  CgCType c;
  if (cg_ctype(s->u.tensor.dtype, &c) && cg_ctype_is_half(c)) /* how the caller passes it */
    ir_buf_puts(o, c == CG_CT_F16 ? ", IEEE binary16 bits" : ", bfloat16 bits (upper float half)");
}

static bool
tensor_known(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && s->u.tensor.ndim >= 0 &&
         s->u.tensor.dtype.code != IR_DT_VOID;
}

/* The entry's signature into decl; its inputs, dims and outputs into ent. */
bool
cg_signature(CgFunc *E, CgEntry *ent, IrBuf *decl, IrBuf *doc)
{
  CgGen *g = E->g;
  const IrFunction *f = E->f;
  IrVec dims = {0}, ins = {0}, names = {0};
  ir_buf_printf(decl, "int\n%s(void *arena, size_t arena_bytes", ent->symbol);
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *p = f->params[i];
    sinfo_dims(p->sinfo, &dims);
    if (p->sinfo && (p->sinfo->kind == IR_SI_SHAPE || p->sinfo->kind == IR_SI_PRIM)) {
      cg_var_add(E, p, CG_V_OTHER);
      continue;
    }
    if (!tensor_known(p->sinfo) || !cg_dtype_cname(g, p->sinfo->u.tensor.dtype)) {
      if (p->loc.src) /* the declaration, not the function */
        g->loc = p->loc;
      cg_fail(g,
              "parameter '%s' of '%s': C code generation needs a tensor of known dtype and "
              "rank, a shape or a prim value",
              p->u.var.name, ent->fn);
      ir_vec_free(&dims);
      ir_vec_free(&ins);
      ir_vec_free(&names);
      return false;
    }
    CgVar *v = cg_var_add(E, p, CG_V_TENSOR);
    v->cname = cg_names_add(g, &E->names, p, p->u.var.name);
    v->is_const = true;
    ir_vec_push(&ins, p->sinfo);
    ir_vec_push(&names, (void *)v->cname);
    ir_buf_printf(decl, ", const %s *%s", cg_dtype_cname(g, p->sinfo->u.tensor.dtype), v->cname);
    ir_buf_printf(doc, " *   %-12s input,  ", v->cname);
    print_shape(p->sinfo, doc);
    ir_buf_puts(doc, "\n");
  }
  ent->ninputs = ins.len;
  ent->inputs = (const IrSInfo **)ir_vec_freeze(g->ctx, &ins);
  ent->input_names = (const char **)ir_vec_freeze(g->ctx, &names);
  ent->ndims = dims.len;
  ent->dims = (IrPrimExpr **)ir_vec_freeze(g->ctx, &dims);
  for (int i = 0; i < ent->ndims; i++) {
    const char *s = cg_names_add(g, &E->names, ent->dims[i], ent->dims[i]->u.var);
    int64_t lo = 0, hi = INT64_MAX;
    ir_arith_range(E->arith, ent->dims[i], &lo, &hi);
    ir_buf_printf(decl, ", rxc_i64 %s", s);
    ir_buf_printf(doc, " *   %-12s dim,    %lld <= %s", s, (long long)(lo > 0 ? lo : 0), s);
    if (hi != INT64_MAX)
      ir_buf_printf(doc, " <= %lld", (long long)hi);
    ir_buf_puts(doc, "\n");
  }
  return true;
}

/* An output's dim no parameter gives: one that is tensor data and has an
 * upper bound becomes a result dim (once); anything else is an error. */
static bool
result_dim(CgFunc *E, IrVec *rdims, const IrPrimExpr *var, IrSym fn)
{
  const char *bind = cg_data_dim_binding(E, var);
  int64_t lo = 0, hi = INT64_MAX;
  ir_arith_range(E->arith, var, &lo, &hi);
  if (!bind) {
    cg_fail(E->g, "the result of '%s' has dim '%s' that no parameter gives", fn, var->u.var);
    return false;
  }
  if (hi == INT64_MAX) {
    cg_fail(E->g,
            "the result of '%s' has dim '%s', tensor data (R.match_cast of '%s'), without an "
            "upper bound (tir_var_upper_bound) for the caller to size its output at",
            fn, var->u.var, bind);
    return false;
  }
  for (int i = 0; i < rdims->len; i++)
    if (rdims->items[i] == var)
      return true;
  ir_vec_push(rdims, (void *)var);
  return true;
}

bool
cg_outputs(CgFunc *E, CgEntry *ent, IrBuf *decl, IrBuf *doc)
{
  CgGen *g = E->g;
  const IrSInfo *r = E->f->ret;
  bool known = r && (r->kind == IR_SI_TENSOR ? tensor_known(r) : r->kind == IR_SI_TUPLE);
  for (int k = 0; known && r->kind == IR_SI_TUPLE && k < r->u.tuple.n; k++)
    known = tensor_known(r->u.tuple.fields[k]);
  if (!known) /* the body knows more (a shape legalization decided) */
    r = E->f->body->u.seq.result->sinfo;
  int n = r && r->kind == IR_SI_TUPLE ? r->u.tuple.n : 1;
  IrVec rdims = {0};
  E->outs = ir_alloc(g->ctx, sizeof *E->outs * (size_t)(n + 1));
  E->out_names = ir_alloc(g->ctx, sizeof *E->out_names * (size_t)(n + 1));
  for (int k = 0; k < n; k++) {
    IrSInfo *s = r && r->kind == IR_SI_TUPLE ? r->u.tuple.fields[k] : (IrSInfo *)r;
    if (tensor_known(s))
      s = cg_output_in_signature_dims(E, s);
    if (!tensor_known(s) || !cg_dtype_cname(g, s->u.tensor.dtype)) {
      cg_fail(g, "the result of '%s': C code generation needs tensors of known dtype and shape",
              ent->fn);
      return false;
    }
    IrVec vars = {0};
    sinfo_dims(s, &vars);
    for (int i = 0; i < vars.len; i++)
      if (!cg_names_find(&E->names, vars.items[i]) &&
          !result_dim(E, &rdims, vars.items[i], ent->fn)) {
        ir_vec_free(&vars);
        return false;
      }
    ir_vec_free(&vars);
    E->outs[k] = s;
    E->out_names[k] =
        cg_names_add(g, &E->names, &E->outs[k], n == 1 ? "out" : ir_printf(g->ctx, "out%d", k));
    ir_buf_printf(decl, ", %s *%s", cg_dtype_cname(g, s->u.tensor.dtype), E->out_names[k]);
    ir_buf_printf(doc, " *   %-12s output, ", E->out_names[k]);
    print_shape(s, doc);
    ir_buf_puts(doc, "\n");
  }
  ent->nresult_dims = rdims.len;
  ent->result_dims = (IrPrimExpr **)ir_vec_freeze(g->ctx, &rdims);
  ent->result_bounds = ir_alloc(g->ctx, sizeof *ent->result_bounds * (size_t)(ent->nresult_dims + 1));
  for (int i = 0; i < ent->nresult_dims; i++) {
    int64_t lo = 0;
    ir_arith_range(E->arith, ent->result_dims[i], &lo, &ent->result_bounds[i]);
    ir_buf_printf(doc, " *   %-12s written: [%d] = %s, a dim that is tensor data, <= %lld (the "
                  "outputs using it are sized at that bound)\n", "result_dims", i,
                  ent->result_dims[i]->u.var, (long long)ent->result_bounds[i]);
  }
  if (ent->nresult_dims) {
    E->result_dims_name = cg_names_add(g, &E->names, &E->result_dims_name, "result_dims");
    ir_buf_printf(decl, ", rxc_i64 *%s", E->result_dims_name);
  }
  E->nouts = n;
  E->tuple_result = r && r->kind == IR_SI_TUPLE;
  ent->noutputs = n;
  ent->outputs = (const IrSInfo **)E->outs;
  ent->output_names = E->out_names;
  ir_buf_puts(decl, ")");
  return true;
}

static void
emit_return_if(CgFunc *E, const char *err, IrBuf *o)
{
  ir_buf_printf(o, ")\n    return %s_ERR_%s;\n", E->g->name, err);
}

/* The shape dims of s that the dims could make negative. */
static void
emit_shape_checks(CgFunc *E, const IrSInfo *s, IrBuf *o)
{
  for (int d = 0; d < s->u.tensor.ndim; d++) {
    IrPrimExpr *x = s->u.tensor.shape[d];
    if (x->kind == IR_PE_VAR || x->kind == IR_PE_INT)
      continue;
    IrPrimExpr *ge = ir_prim_bin(E->g->ctx, IR_PE_GE, x, ir_prim_int(E->g->ctx, x->dtype, 0));
    if (ir_arith_prove(E->arith, ge) == IR_PROVE_TRUE)
      continue;
    ir_buf_puts(o, "  if (");
    cg_emit_expr(E->g, &E->names, x, o);
    ir_buf_puts(o, " < 0");
    emit_return_if(E, "SHAPE", o);
  }
}

void
cg_emit_checks(CgFunc *E, const CgEntry *ent, IrBuf *o)
{
  const MpFunctionPlan *fp = E->fp;
  bool arena = fp->arena_expr || E->arena_bytes > 0;
  ir_buf_puts(o, "  /* every check before anything is written */\n  if (");
  int k = 0;
  for (int i = 0; i < E->f->nparams; i++) {
    const CgVar *v = cg_var_find(E, E->f->params[i]);
    if (v && v->kind == CG_V_TENSOR)
      ir_buf_printf(o, "%s!%s", k++ ? " || " : "", v->cname);
  }
  for (int i = 0; i < E->nouts; i++)
    ir_buf_printf(o, "%s!%s", k++ ? " || " : "", E->out_names[i]);
  if (ent->nresult_dims)
    ir_buf_printf(o, "%s!%s", k++ ? " || " : "", E->result_dims_name);
  if (arena)
    ir_buf_printf(o, "%s!arena", k++ ? " || " : "");
  if (!k)
    ir_buf_puts(o, "0");
  emit_return_if(E, "NULL", o);
  if (cg_weights_blob(E->g)) {
    ir_buf_printf(o, "  if (!%s_weights", E->g->name);
    emit_return_if(E, "WEIGHTS", o);
  }
  for (int i = 0; i < ent->ndims; i++) {
    const char *s = cg_names_find(&E->names, ent->dims[i]);
    int64_t lo = 0, hi = INT64_MAX;
    ir_arith_range(E->arith, ent->dims[i], &lo, &hi);
    ir_buf_printf(o, "  if (%s < %lld", s, (long long)(lo > 0 ? lo : 0));
    if (hi != INT64_MAX)
      ir_buf_printf(o, " || %s > %lldLL", s, (long long)hi);
    emit_return_if(E, "DIM", o);
  }
  for (int i = 0; i < ent->ninputs; i++)
    emit_shape_checks(E, ent->inputs[i], o);
  for (int i = 0; i < E->nouts; i++)
    emit_shape_checks(E, E->outs[i], o);
  if (arena && E->dim_cap >= 0) {
    ir_buf_puts(o, "  /* no arena is this large; the formula would overflow */\n  if (");
    cg_emit_cap_test(E, false, o);
    emit_return_if(E, "ARENA_SIZE", o);
  }
  if (E->defs.len)
    ir_buf_put(o, E->defs.data, E->defs.len);
  if (E->checks.len)
    ir_buf_put(o, E->checks.data, E->checks.len);
  if (arena) {
    /* compared in 64 bits: a size_t of 32 would truncate the formula */
    ir_buf_puts(o, "  if ((rxc_u64)arena_bytes < (rxc_u64)");
    if (fp->arena_expr)
      cg_emit_expr(E->g, &E->names, fp->arena_expr, o);
    else
      ir_buf_printf(o, "%lldu", (long long)E->arena_bytes);
    emit_return_if(E, "ARENA_SIZE", o);
    ir_buf_printf(o, "  if ((rxc_uptr)arena %% %lldu != 0", (long long)E->g->plan->align);
    emit_return_if(E, "ARENA_ALIGN", o);
  }
  for (int i = 0; i < fp->nchecks; i++) {
    if (cg_uses_late(E, fp->checks[i].cond))
      continue; /* at the late var's definition (gen_check.c) */
    ir_buf_printf(o, "  /* %s */\n  if (!", fp->checks[i].what ? fp->checks[i].what : "");
    cg_emit_expr(E->g, &E->names, fp->checks[i].cond, o);
    emit_return_if(E, "CHECK", o);
  }
}

/* Results not already in the caller's buffers are copied there. */
void
cg_emit_packed(CgFunc *E, const CgEntry *ent, IrBuf *o)
{
  CgGen *g = E->g;
  ir_buf_printf(
      o, "int\n%s(void *arena, size_t arena_bytes, void *const *tensors, const rxc_i64 *dims)\n{\n",
      ent->packed);
  int nt = ent->ninputs + ent->noutputs, nd = ent->ndims + ent->nresult_dims;
  if (nt || nd)
    ir_buf_printf(o, "  if (%s%s%s)\n    return %s_ERR_NULL;\n", nt ? "!tensors" : "",
                  nt && nd ? " || " : "", nd ? "!dims" : "", g->name);
  if (!nt)
    ir_buf_puts(o, "  (void)tensors;\n");
  if (!nd)
    ir_buf_puts(o, "  (void)dims;\n");
  ir_buf_printf(o, "  return %s(arena, arena_bytes", ent->symbol);
  for (int i = 0; i < ent->ninputs; i++)
    ir_buf_printf(o, ", (const %s *)tensors[%d]", cg_dtype_cname(g, ent->inputs[i]->u.tensor.dtype),
                  i);
  for (int i = 0; i < ent->ndims; i++)
    ir_buf_printf(o, ", dims[%d]", i);
  for (int i = 0; i < ent->noutputs; i++)
    ir_buf_printf(o, ", (%s *)tensors[%d]", cg_dtype_cname(g, ent->outputs[i]->u.tensor.dtype),
                  ent->ninputs + i);
  if (ent->nresult_dims) /* the caller's dims has room for them after its own */
    ir_buf_printf(o, ", (rxc_i64 *)&dims[%d]", ent->ndims);
  ir_buf_puts(o, ");\n}\n\n");
}

/* The function's bounds, and the configuration's, in a. */
static void
bound_dims(CgFunc *E, IrArith *a)
{
  const CfgOptions *cfg = E->g->cfg;
  IrVec vars = {0};
  ir_arith_bound_function(a, E->f);
  for (int i = 0; i < E->f->nparams; i++)
    sinfo_dims(E->f->params[i]->sinfo, &vars);
  for (int i = 0; i < vars.len; i++) {
    const IrPrimExpr *v = vars.items[i];
    int64_t lo, hi;
    for (int k = 0; k < cfg->memplan.nupper_bounds; k++)
      if (strcmp(cfg->memplan.upper_bounds[k].name, v->u.var) == 0)
        ir_arith_bound(a, v, INT64_MIN, cfg->memplan.upper_bounds[k].bound);
    if (cfg->memplan.default_upper_bound > 0 && (!ir_arith_range(a, v, &lo, &hi) || hi == INT64_MAX))
      ir_arith_bound(a, v, INT64_MIN, cfg->memplan.default_upper_bound);
  }
  ir_vec_free(&vars);
}

void
cg_entry_bounds(CgFunc *E)
{
  bound_dims(E, E->arith);
}

/* The arena formula's dims that have no upper bound, in vars. */
static void
unbounded_dims(CgFunc *E, IrVec *vars)
{
  IrVec in = {0};
  ir_prim_expr_vars(E->fp->arena_expr, &in);
  for (int i = 0; i < in.len; i++) {
    int64_t lo, hi;
    if (!ir_arith_range(E->arith, in.items[i], &lo, &hi) || hi == INT64_MAX)
      ir_vec_push(vars, in.items[i]);
  }
  ir_vec_free(&in);
}

/* Whether the arena formula, with every dim of vars at most cap, stays
 * below INT64_MAX / 2 (the arithmetic's range is unbounded when a product
 * overflows). */
static bool
arena_fits(CgFunc *E, const IrVec *vars, int64_t cap)
{
  IrArith *a = ir_arith_new(E->g->ctx);
  bound_dims(E, a);
  for (int i = 0; i < vars->len; i++)
    ir_arith_bound(a, vars->items[i], 0, cap);
  int64_t lo, hi;
  return ir_arith_range(a, E->fp->arena_expr, &lo, &hi) && hi < INT64_MAX / 2;
}

/* A dim without a bound is the caller's to choose, and an absurd one
 * would make the arena formula overflow int64 (wrapping to a small size
 * that a small arena passes).  The largest value at which the formula
 * fits, found by bisection, becomes a limit the entry checks before it
 * computes the formula: above it no machine has the arena anyway. */
void
cg_arena_cap(CgFunc *E)
{
  E->dim_cap = -1;
  if (!E->fp->arena_expr)
    return;
  IrVec vars = {0};
  unbounded_dims(E, &vars);
  if (vars.len) {
    int64_t lo = 0, hi = INT64_MAX / 2;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (arena_fits(E, &vars, mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    E->dim_cap = lo;
  }
  ir_vec_free(&vars);
}

/* "n > CAP || m > CAP": true when a dim is above cg_arena_cap's limit
 * (or below 0, with negative). */
void
cg_emit_cap_test(CgFunc *E, bool negative, IrBuf *o)
{
  IrVec vars = {0};
  unbounded_dims(E, &vars);
  for (int i = 0; i < vars.len; i++) {
    const char *s = cg_names_find(&E->names, vars.items[i]);
    ir_buf_printf(o, "%s%s > %lldLL", i ? " || " : "", s, (long long)E->dim_cap);
    if (negative)
      ir_buf_printf(o, " || %s < 0", s);
  }
  ir_vec_free(&vars);
}
