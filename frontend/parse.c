/*
 * parse.c - the reader's entry points, the module level, and the helpers
 * every part of the grammar uses (tokens, errors, scope, arena vectors).
 *
 * Key ideas: a recursive-descent parser over the token array of lex.c.  A
 * syntax error records a diagnostic and longjmps back to fe_parse (Lua's
 * luaD_throw does the same), so there is no recovery and nothing to free:
 * every temporary is in the arena.  Before the module's functions are read,
 * a pre-scan collects the names of all its globals, so a function may refer
 * to one defined later and a missing one is reported where it is used.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

/* --- errors and tokens ---------------------------------------------- */

IrLoc
fe_loc(const Parser *P, const Tok *t)
{
  IrLoc loc = {P->src, t->line, t->col};
  return loc;
}

void
fe_error(Parser *P, const Tok *t, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(P->ctx, IR_DIAG_ERROR, fe_loc(P, t), fmt, ap);
  va_end(ap);
}

/* Reports a syntax error and abandons the parse.  When lexing stopped at the
 * current token, its message is the one reported: it comes first. */
void
fe_fail(Parser *P, const Tok *t, const char *fmt, ...)
{
  const Tok *cur = &P->toks[P->pos];
  if (cur->kind == TK_ERROR) {
    ir_error(P->ctx, fe_loc(P, cur), "%s", cur->sym);
  } else {
    va_list ap;
    va_start(ap, fmt);
    ir_diag_v(P->ctx, IR_DIAG_ERROR, fe_loc(P, t), fmt, ap);
    va_end(ap);
  }
  longjmp(*P->fail, 1);
}

const Tok *
fe_peek(const Parser *P)
{
  return &P->toks[P->pos];
}

const Tok *
fe_peek_at(const Parser *P, int ahead)
{
  int i = P->pos + ahead;
  return &P->toks[i < P->ntoks ? i : P->ntoks - 1];
}

const Tok *
fe_next(Parser *P)
{
  const Tok *t = &P->toks[P->pos];
  if (t->kind == TK_ERROR)
    fe_fail(P, t, "%s", t->sym);
  if (t->kind != TK_EOF)
    P->pos++;
  return t;
}

bool
fe_is_op(const Tok *t, const char *op)
{
  return t->kind == TK_OP && strcmp(t->sym, op) == 0;
}

bool
fe_is_name(const Tok *t, const char *name)
{
  return t->kind == TK_NAME && strcmp(t->sym, name) == 0;
}

/* Writes a short description of t for "but found ..." messages. */
void
fe_describe(const Tok *t, char *buf, size_t size)
{
  switch (t->kind) {
  case TK_NEWLINE:
    snprintf(buf, size, "end of line");
    break;
  case TK_INDENT:
    snprintf(buf, size, "indent");
    break;
  case TK_DEDENT:
    snprintf(buf, size, "end of block");
    break;
  case TK_EOF:
    snprintf(buf, size, "end of file");
    break;
  default:
    snprintf(buf, size, "'%.*s'", t->len > 30 ? 30 : t->len, t->text);
  }
}

bool
fe_accept_op(Parser *P, const char *op)
{
  if (!fe_is_op(fe_peek(P), op))
    return false;
  fe_next(P);
  return true;
}

const Tok *
fe_expect_op(Parser *P, const char *op)
{
  const Tok *t = fe_peek(P);
  if (!fe_is_op(t, op)) {
    char found[48];
    fe_describe(t, found, sizeof found);
    fe_fail(P, t, "expected '%s' but found %s", op, found);
  }
  return fe_next(P);
}

const Tok *
fe_expect_kind(Parser *P, TokKind kind, const char *what)
{
  const Tok *t = fe_peek(P);
  if (t->kind != kind) {
    char found[48];
    fe_describe(t, found, sizeof found);
    fe_fail(P, t, "expected %s but found %s", what, found);
  }
  return fe_next(P);
}

const Tok *
fe_expect_name(Parser *P)
{
  return fe_expect_kind(P, TK_NAME, "a name");
}

void
fe_expect_newline(Parser *P)
{
  fe_expect_kind(P, TK_NEWLINE, "end of line");
}

/* Does the text at the current token spell dotted ("R.function")? */
bool
fe_peek_dotted(const Parser *P, const char *dotted)
{
  int i = 0;
  const char *p = dotted;
  for (;;) {
    const char *dot = strchr(p, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);
    const Tok *t = fe_peek_at(P, i);
    if (t->kind != TK_NAME || strlen(t->sym) != n || strncmp(t->sym, p, n) != 0)
      return false;
    if (!dot)
      return !fe_is_op(fe_peek_at(P, i + 1), ".") || fe_peek_at(P, i + 2)->kind != TK_NAME;
    if (!fe_is_op(fe_peek_at(P, i + 1), "."))
      return false;
    i += 2;
    p = dot + 1;
  }
}

/* Reads NAME ("." NAME)* and returns it joined; *first is its first token. */
const char *
fe_dotted(Parser *P, const Tok **first)
{
  const Tok *t = fe_expect_name(P);
  if (first)
    *first = t;
  IrBuf b = {0};
  ir_buf_puts(&b, t->sym);
  while (fe_is_op(fe_peek(P), ".") && fe_peek_at(P, 1)->kind == TK_NAME) {
    fe_next(P);
    ir_buf_printf(&b, ".%s", fe_next(P)->sym);
  }
  IrSym s = ir_sym(P->ctx, b.data);
  ir_buf_free(&b);
  return s;
}

/* Counts nesting of recursive rules; FE_MAX_DEPTH bounds the C stack. */
void
fe_enter(Parser *P)
{
  if (++P->depth > FE_MAX_DEPTH)
    fe_fail(P, fe_peek(P), "expression nested too deeply (more than %d levels)", FE_MAX_DEPTH);
}

/* Reports a lexical error in the rest of the current line first, so that a
 * name error in the same statement never comes before it. */
void
fe_check_line(Parser *P)
{
  for (int i = P->pos; i < P->ntoks; i++) {
    const Tok *t = &P->toks[i];
    if (t->kind == TK_ERROR) {
      P->pos = i;
      fe_fail(P, t, "%s", t->sym);
    }
    if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
      return;
  }
}

void
fe_leave(Parser *P)
{
  P->depth--;
}

/* Skips one balanced expression, up to a ',' ')' ']' '}' or end of line at
 * bracket depth 0; returns the index where it stopped. */
int
fe_skip_balanced(Parser *P)
{
  int depth = 0;
  for (;;) {
    const Tok *t = fe_peek(P);
    if (t->kind == TK_EOF || t->kind == TK_ERROR || t->kind == TK_NEWLINE)
      return P->pos;
    if (t->kind == TK_OP && strchr("([{", t->sym[0]) && t->sym[1] == '\0')
      depth++;
    if (t->kind == TK_OP && strchr(")]}", t->sym[0]) && t->sym[1] == '\0') {
      if (depth == 0)
        return P->pos;
      depth--;
    }
    if (depth == 0 && fe_is_op(t, ","))
      return P->pos;
    P->pos++;
  }
}

/* --- arena vectors and scope ----------------------------------------- */

void *
fe_vec_push(Parser *P, FeVec *v, size_t elem)
{
  if (v->len == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void *data = ir_alloc(P->ctx, elem * (size_t)cap);
    if (v->len)
      memcpy(data, v->data, elem * (size_t)v->len);
    v->data = data;
    v->cap = cap;
  }
  return (char *)v->data + elem * (size_t)v->len++;
}

void
fe_vec_ptr(Parser *P, FeVec *v, void *p)
{
  *(void **)fe_vec_push(P, v, sizeof(void *)) = p;
}

/* The scope index maps a name to its innermost entry's index in the scope
 * + 1 (NULL: none), in the arena like the scope. */

FeEntry *
fe_scope_add(Parser *P, IrSym name, SymKind kind)
{
  void **latest = ir_map_slot(&P->scope_index, name);
  int shadowed = (int)(uintptr_t)*latest - 1;
  *latest = (void *)(uintptr_t)(P->scope.len + 1);
  FeEntry *e = fe_vec_push(P, &P->scope, sizeof(FeEntry));
  memset(e, 0, sizeof *e);
  e->name = name;
  e->kind = kind;
  e->shadowed = shadowed;
  return e;
}

FeEntry *
fe_scope_find(Parser *P, IrSym name)
{
  uintptr_t latest = (uintptr_t)ir_map_get(&P->scope_index, name);
  return latest ? &((FeEntry *)P->scope.data)[latest - 1] : NULL;
}

void
fe_scope_pop(Parser *P, int mark)
{
  FeEntry *entries = P->scope.data;
  for (int k = P->scope.len - 1; k >= mark; k--) /* innermost first */
    ir_map_put(&P->scope_index, entries[k].name, (void *)(uintptr_t)(entries[k].shadowed + 1));
  P->scope.len = mark;
}

bool
fe_is_global(const Parser *P, IrSym name)
{
  return ir_map_has(&P->global_names, name);
}

/* Makes the parser read the tokens of text (a fragment at line:col) until
 * fe_restore_tokens.  Returns the saved position. */
int
fe_swap_tokens(Parser *P, const char *text, size_t len, int line, int col, Tok **saved,
               int *saved_n)
{
  int pos = P->pos, n;
  *saved = P->toks;
  *saved_n = P->ntoks;
  P->toks = fe_lex(P, text, len, line, col, true, &n);
  P->ntoks = n;
  P->pos = 0;
  return pos;
}

void
fe_restore_tokens(Parser *P, Tok *saved, int saved_n, int saved_pos)
{
  /* the fragment's array, lexed last, is done with: what its parse made
   * holds no token (each op call lexes its default arguments, so keeping
   * them cost ~1 KB a call to the end of the parse) */
  Tok **lexed = P->lexed.data;
  if (P->lexed.len > 1 && lexed[P->lexed.len - 1] == P->toks) {
    free(P->toks);
    P->lexed.len--;
  }
  P->toks = saved;
  P->ntoks = saved_n;
  P->pos = saved_pos;
}

/* --- module level ---------------------------------------------------- */

/* Records the name of every global: "def NAME" and "NAME = R.ExternFunc"
 * at the module's level (inside the class, or the top level without one). */
static void
collect_globals(Parser *P)
{
  int level = 0, target = 0;
  bool line_start = true;
  for (int i = 0; i < P->ntoks && P->toks[i].kind != TK_EOF && P->toks[i].kind != TK_ERROR; i++) {
    const Tok *t = &P->toks[i];
    if (t->kind == TK_INDENT || t->kind == TK_DEDENT) {
      level += t->kind == TK_INDENT ? 1 : -1;
      continue;
    }
    if (t->kind == TK_NEWLINE) {
      line_start = true;
      continue;
    }
    if (level == 0 && fe_is_name(t, "class"))
      target = 1;
    if (level == target && line_start && t->kind == TK_NAME) {
      const Tok *n = &P->toks[i + 1];
      if (fe_is_name(t, "def") && n->kind == TK_NAME)
        ir_map_put(&P->global_names, n->sym, (void *)n->sym);
      else if (fe_is_op(n, "=") && !fe_is_name(t, "metadata"))
        ir_map_put(&P->global_names, t->sym, (void *)t->sym);
    }
    if (level == 0 && line_start && fe_is_name(t, "metadata") && fe_is_op(&P->toks[i + 1], "=")) {
      if (P->metadata_at)
        fe_fail(P, t, "a second metadata section (the first is on line %d)",
                P->toks[P->metadata_at - 1].line);
      P->metadata_at = i + 1; /* the metadata section, before or after the module */
    }
    line_start = false;
  }
}

/* Reads "(k=v, ...)" after a decorator name, if present. */
void
fe_decorator_kwargs(Parser *P, bool *pure, bool *is_private)
{
  if (!fe_accept_op(P, "("))
    return;
  while (!fe_is_op(fe_peek(P), ")")) {
    const Tok *k = fe_expect_name(P);
    fe_expect_op(P, "=");
    const Tok *v = fe_expect_name(P);
    if (!fe_is_name(v, "True") && !fe_is_name(v, "False"))
      fe_fail(P, v, "expected True or False but found '%s'", v->sym);
    bool value = fe_is_name(v, "True");
    if (fe_is_name(k, "pure") && pure)
      *pure = value;
    else if (fe_is_name(k, "private") && is_private)
      *is_private = value;
    else if (!fe_is_name(k, "check_well_formed") && !fe_is_name(k, "s_tir"))
      fe_fail(P, k, "unexpected keyword argument '%s' in decorator", k->sym);
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, ")");
}

static void
add_global(Parser *P, FeVec *globals, IrGlobal g, const Tok *at)
{
  IrGlobal *all = globals->data;
  for (int i = 0; i < globals->len; i++)
    if (all[i].name == g.name)
      fe_error(P, at, "global '%s' is defined twice", g.name);
  *(IrGlobal *)fe_vec_push(P, globals, sizeof(IrGlobal)) = g;
}

/* A global's "global_symbol" equal to its own name is what the name already
 * implies (TVM's printer leaves it out): drop it, so both spellings read to
 * one module. */
static IrAttr *
drop_implied_symbol(Parser *P, IrAttr *attrs, IrSym name)
{
  const IrAttr *sym = ir_attr_get(attrs, "global_symbol");
  if (!sym || sym->kind != IR_AT_STR || strcmp(sym->u.s, name) != 0)
    return attrs;
  return ir_attr_dict_remove(P->ctx, attrs, "global_symbol");
}

/* A decorated definition: "@R.function..." or "@T.prim_func..." followed
 * by "def"; the decorator's '@' is the current token. */
static void
definition(Parser *P, FeVec *globals)
{
  const Tok *at = fe_expect_op(P, "@"), *name_tok;
  const char *deco = fe_dotted(P, &name_tok);
  bool pure = true, is_private = false;
  IrGlobal g = {0};
  if (strcmp(deco, "R.function") == 0) {
    fe_decorator_kwargs(P, &pure, &is_private);
    fe_expect_newline(P);
    const Tok *name_at = fe_peek_at(P, 1);
    g.name = name_at->sym;
    g.kind = IR_GLOBAL_RELAX;
    g.u.relax = fe_relax_function(P, pure, is_private, at);
    g.u.relax->attrs = drop_implied_symbol(P, g.u.relax->attrs, g.name);
    add_global(P, globals, g, name_at);
  } else if (strcmp(deco, "T.prim_func") == 0) {
    fe_decorator_kwargs(P, NULL, &is_private);
    fe_expect_newline(P);
    const Tok *name_at = fe_peek_at(P, 1);
    g.kind = IR_GLOBAL_PRIM;
    g.u.prim = fe_prim_func(P, is_private, at, &g.name);
    g.u.prim->attrs = drop_implied_symbol(P, g.u.prim->attrs, g.name);
    add_global(P, globals, g, name_at);
  } else {
    fe_fail(P, name_tok, "expected @R.function or @T.prim_func but found '@%s'", deco);
  }
}

/* I.vdevice(target, vdevice_id=0, memory_scope="global") */
static void
vdevice(Parser *P)
{
  const Tok *at;
  const char *name = fe_dotted(P, &at);
  if (strcmp(name, "I.vdevice") != 0)
    fe_fail(P, at, "expected I.vdevice but found '%s'", name);
  fe_expect_op(P, "(");
  IrVDevice *d = fe_vec_push(P, &P->vdevices, sizeof(IrVDevice));
  d->memory_scope = ir_sym(P->ctx, "global");
  const Tok *target_at = fe_peek(P);
  d->target = fe_attr_value(P);
  const IrAttr *kind = d->target->kind == IR_AT_DICT ? ir_attr_get(d->target, "kind") : d->target;
  if (!kind || kind->kind != IR_AT_STR)
    fe_fail(P, target_at, "a vdevice target must be a string or a dict with a \"kind\"");
  const char *space = strchr(kind->u.s, ' ');
  d->kind = space ? ir_sym_n(P->ctx, kind->u.s, (size_t)(space - kind->u.s)) : kind->u.s;
  for (int i = 0; fe_accept_op(P, ",") && !fe_is_op(fe_peek(P), ")"); i++) {
    const Tok *k = fe_peek(P);
    if (k->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      fe_next(P);
      fe_next(P);
      i = fe_is_name(k, "vdevice_id") ? 0 : fe_is_name(k, "memory_scope") ? 1 : -1;
      if (i < 0)
        fe_fail(P, k, "unexpected keyword argument '%s' for I.vdevice", k->sym);
    }
    int64_t id;
    if (i == 0 && fe_int_literal(P, false, &id))
      d->vdevice_id = (int)id;
    else if (i == 1)
      d->memory_scope = fe_expect_kind(P, TK_STR, "a memory scope string")->sym;
    else
      fe_fail(P, fe_peek(P), "unexpected argument to I.vdevice");
  }
  fe_expect_op(P, ")");
}

/* I.module_global_infos({"vdevice": [I.vdevice(...), ...]}) */
static void
global_infos(Parser *P)
{
  fe_expect_op(P, "(");
  fe_expect_op(P, "{");
  while (!fe_is_op(fe_peek(P), "}")) {
    const Tok *key = fe_expect_kind(P, TK_STR, "a string key");
    if (strcmp(key->sym, "vdevice") != 0)
      fe_fail(P, key, "unsupported global info '%s' (only \"vdevice\" is read)", key->sym);
    fe_expect_op(P, ":");
    fe_expect_op(P, "[");
    while (!fe_is_op(fe_peek(P), "]")) {
      vdevice(P);
      if (!fe_accept_op(P, ","))
        break;
    }
    fe_expect_op(P, "]");
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, "}");
  fe_expect_op(P, ")");
  fe_expect_newline(P);
}

/* NAME = R.ExternFunc("symbol") */
static void
extern_func(Parser *P, FeVec *globals)
{
  const Tok *name = fe_expect_name(P);
  fe_expect_op(P, "=");
  const Tok *at;
  const char *f = fe_dotted(P, &at);
  if (strcmp(f, "R.ExternFunc") != 0)
    fe_fail(P, at, "expected R.ExternFunc, a function or a module attribute but found '%s'", f);
  fe_expect_op(P, "(");
  IrGlobal g = {name->sym, IR_GLOBAL_EXTERN, {0}};
  g.u.extern_sym = fe_expect_kind(P, TK_STR, "a symbol string")->sym;
  fe_expect_op(P, ")");
  fe_expect_newline(P);
  add_global(P, globals, g, name);
}

/* The body of an @I.ir_module class. */
static void
module_items(Parser *P, IrModule *m, FeVec *globals)
{
  fe_expect_kind(P, TK_INDENT, "an indented class body");
  while (fe_peek(P)->kind != TK_DEDENT) {
    const Tok *t = fe_peek(P);
    if (fe_is_op(t, "@")) {
      definition(P, globals);
    } else if (fe_peek_dotted(P, "I.module_attrs")) {
      fe_dotted(P, NULL);
      fe_expect_op(P, "(");
      m->attrs = fe_attr_dict(P);
      fe_expect_op(P, ")");
      fe_expect_newline(P);
    } else if (fe_peek_dotted(P, "I.module_global_infos")) {
      fe_dotted(P, NULL);
      global_infos(P);
    } else if (fe_is_name(t, "pass") || t->kind == TK_STR) { /* or a docstring */
      fe_next(P);
      fe_expect_newline(P);
    } else if (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=")) {
      extern_func(P, globals);
    } else {
      char found[48];
      fe_describe(t, found, sizeof found);
      fe_fail(P, t, "expected a function in the module but found %s", found);
    }
  }
  fe_next(P);
}

/* "@I.ir_module [(...)]" NEWLINE "class NAME:" body; '@' is current. */
static void
module_class(Parser *P, IrModule *m, FeVec *globals)
{
  fe_next(P);
  fe_dotted(P, NULL);
  fe_decorator_kwargs(P, NULL, NULL);
  fe_expect_newline(P);
  const Tok *cls = fe_expect_name(P);
  if (!fe_is_name(cls, "class"))
    fe_fail(P, cls, "expected 'class' but found '%s'", cls->sym);
  m->name = P->module_name = fe_expect_name(P)->sym;
  if (fe_accept_op(P, "(")) {
    fe_expect_name(P);
    fe_expect_op(P, ")");
  }
  fe_expect_op(P, ":");
  fe_expect_newline(P);
  module_items(P, m, globals);
}

static void
skip_line(Parser *P)
{
  while (fe_peek(P)->kind != TK_NEWLINE && fe_peek(P)->kind != TK_EOF)
    fe_next(P);
  fe_accept_op(P, ";");
  if (fe_peek(P)->kind == TK_NEWLINE)
    fe_next(P);
}

/* The whole file: imports, then one module class or one function. */
static IrModule *
parse_file(Parser *P)
{
  IrModule *m = ir_alloc(P->ctx, sizeof *m);
  FeVec globals = {0};
  m->name = P->module_name = ir_sym(P->ctx, "Module");
  bool seen = false;
  if (P->metadata_at) { /* before the module: it may come after its uses */
    int pos = P->pos;
    P->pos = P->metadata_at - 1;
    fe_metadata_read(P);
    P->pos = pos;
  }
  for (const Tok *t; (t = fe_peek(P))->kind != TK_EOF;) {
    /* imports (also `from __future__ import annotations`), and `n =
     * TypeVar("n")`: the generic header's names are symbolic vars anyway */
    if (fe_is_name(t, "import") || fe_is_name(t, "from") ||
        (t->kind == TK_NAME && fe_is_op(fe_peek_at(P, 1), "=") &&
         fe_is_name(fe_peek_at(P, 2), "TypeVar"))) {
      skip_line(P);
      continue;
    }
    if (fe_is_name(t, "metadata") && fe_is_op(fe_peek_at(P, 1), "=")) {
      skip_line(P); /* read above */
      continue;
    }
    if (seen && t->kind != TK_ERROR)
      fe_fail(P, t, "only one module or function may be given per file");
    if (!fe_is_op(t, "@")) {
      char found[48];
      fe_describe(t, found, sizeof found);
      fe_fail(P, t, "expected @I.ir_module, @R.function or @T.prim_func but found %s", found);
    }
    seen = true;
    if (fe_is_name(fe_peek_at(P, 1), "I") || fe_is_name(fe_peek_at(P, 1), "tvm"))
      module_class(P, m, &globals);
    else
      definition(P, &globals);
  }
  if (globals.len == 0) {
    IrLoc start = {P->src, 1, 1};
    ir_error(P->ctx, start, "no function in file: expected an @I.ir_module class with functions, "
                           "an @R.function or a @T.prim_func");
    return NULL;
  }
  m->globals = globals.data;
  m->nglobals = globals.len;
  m->vdevices = P->vdevices.data;
  m->nvdevices = P->vdevices.len;
  return m;
}

IrModule *
fe_parse(IrCtx *ctx, const IrSource *src)
{
  Parser P = {0};
  jmp_buf fail;
  P.ctx = ctx;
  ir_map_init_arena(&P.scope_index, ctx);
  ir_map_init_arena(&P.global_names, ctx);
  P.src = src;
  P.fail = &fail;
  P.int_default = IR_I64;
  P.toks = fe_lex(&P, src->text, src->len, 1, 1, false, &P.ntoks);
  int errors = ir_error_count(ctx);
  IrModule *volatile m = NULL;
  if (setjmp(fail) == 0) {
    collect_globals(&P);
    m = parse_file(&P);
  }
  /* the text's tokens, done with, are pages the arena takes next instead
   * of fresh ones from the kernel (which zeroes each on its first touch) */
  for (int i = 0; i < P.lexed.len; i++)
    if (i == 0 && P.text_toks_bytes)
      ir_arena_adopt(ctx, ((Tok **)P.lexed.data)[i], P.text_toks_bytes);
    else
      free(((Tok **)P.lexed.data)[i]);
  return ir_error_count(ctx) > errors ? NULL : m;
}

IrModule *
fe_parse_file(IrCtx *ctx, const char *path)
{
  const IrSource *src = ir_source_read(ctx, path);
  return src ? fe_parse(ctx, src) : NULL;
}

IrModule *
fe_parse_string(IrCtx *ctx, const char *name, const char *text)
{
  return fe_parse(ctx, ir_source_add(ctx, name, text, strlen(text)));
}
