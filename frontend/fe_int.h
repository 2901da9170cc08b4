/*
 * fe_int.h - what the files of frontend/ share and no other folder sees:
 * tokens, the parser state, arena vectors, the scope and the entry points of
 * each part of the grammar.
 *
 * Key ideas:
 *  - The lexer turns the whole file into a token array first (Python-like
 *    NEWLINE/INDENT/DEDENT); a lexical error becomes a TK_ERROR token where
 *    lexing stopped, so it is reported in text order by the parser.
 *  - A syntax error longjmps to fe_parse (as Lua's parser throws): every
 *    temporary lives in the context's arena, so nothing leaks.  Name errors
 *    are recorded and parsing goes on, so several are reported at once.
 */
#ifndef RXC_FE_INT_H
#define RXC_FE_INT_H

#include <setjmp.h>

#include "fe.h"

typedef enum {
  TK_NAME,    /* identifier or keyword: sym */
  TK_INT,     /* ival (magnitude; the sign is a separate '-') */
  TK_FLOAT,   /* fval */
  TK_STR,     /* sym: decoded contents */
  TK_OP,      /* punctuation: sym */
  TK_NEWLINE, /* end of a logical line */
  TK_INDENT,  /* deeper indentation */
  TK_DEDENT,  /* back to an outer indentation */
  TK_EOF,     /* end of input */
  TK_ERROR,   /* lexing stopped here: sym is the message */
} TokKind;

typedef struct {
  TokKind kind;
  int line, col;    /* 1-based */
  int len;          /* bytes of text */
  const char *text; /* source bytes of the token */
  IrSym sym;        /* see TokKind */
  union {
    uint64_t ival;  /* TK_INT */
    double fval;    /* TK_FLOAT */
  };
  bool plain;       /* TK_STR: no escapes, contents map 1:1 to columns */
} Tok;              /* 48 bytes: a large module has millions */

/* A growable array in the arena (old storage is abandoned on growth). */
typedef struct {
  void *data;
  int len;
  int cap;
} FeVec;

typedef enum {
  SYM_RVAR,   /* rvar: a Relax variable */
  SYM_TVAR,   /* tvar: a TIR variable (symbolic dim, loop var, let var, handle) */
  SYM_BUFFER, /* buffer: a TIR buffer */
  SYM_MODULE, /* the module: "cls = Module" or the class name */
  SYM_LOOPS,  /* loops: `for iters in T.grid(m, n)`, the name of all its loops */
} SymKind;

typedef struct {
  IrSym name;
  SymKind kind;
  IrExpr *rvar;            /* SYM_RVAR */
  IrPrimExpr *tvar;        /* SYM_TVAR */
  IrBuffer *buffer;        /* SYM_BUFFER */
  IrPrimExpr *loop_min;    /* SYM_TVAR of a loop: its range, else NULL */
  IrPrimExpr *loop_extent; /* SYM_TVAR of a loop */
  int shadowed;            /* the entry of the same name this one hides, or -1 */
  bool sig_dim;            /* SYM_TVAR a signature string introduced */
  IrStmt **loops;          /* SYM_LOOPS: the loops, outermost first */
  int nloops;              /* SYM_LOOPS */
} FeEntry;

/* A scalar expression being built: bare is true for an untyped literal
 * (2, 0.5), which takes the dtype of the other operand it meets. */
typedef struct {
  IrPrimExpr *e;
  bool bare;
  double exact; /* a bare float literal's value before rounding to float32 */
} TExpr;

typedef struct {
  IrCtx *ctx;
  const IrSource *src;
  Tok *toks;              /* ends with TK_EOF or TK_ERROR */
  int ntoks;
  FeVec lexed;            /* Tok*: every array fe_lex made (heap), freed by fe_parse */
  size_t text_toks_bytes; /* the size of the text's array (the first in lexed) */
  int pos;                /* current token */
  jmp_buf *fail;          /* where a syntax error jumps */
  int depth;              /* nesting of recursive rules */
  FeVec scope;            /* FeEntry, innermost last; popped by fe_scope_pop */
  IrMap scope_index;      /* IrSym -> index + 1 of its innermost entry in scope */
  IrMap global_names;     /* IrSym -> itself: every global the module defines */
  IrSym module_name;      /* the class name, or "Module" */
  FeVec vdevices;         /* IrVDevice, from I.module_global_infos */
  bool define_symvars;    /* in a signature string: unknown names are new int64 vars */
  IrDType int_default;    /* dtype of a bare int: int32 in TIR, int64 in Relax */
  int metadata_at;        /* 1 + token of `metadata = tvm.ir.load_json(...)`, or 0 */
  bool has_metadata;      /* that section was read */
  FeVec metadata;         /* IrTensorData: its relax.expr.Constant entries */
} Parser;

/* parse.c: tokens, errors, scope, vectors */
void fe_fail(Parser *P, const Tok *t, const char *fmt, ...);
void fe_error(Parser *P, const Tok *t, const char *fmt, ...);
IrLoc fe_loc(const Parser *P, const Tok *t);
const Tok *fe_peek(const Parser *P);
const Tok *fe_peek_at(const Parser *P, int ahead);
const Tok *fe_next(Parser *P);
bool fe_is_op(const Tok *t, const char *op);
bool fe_is_name(const Tok *t, const char *name);
bool fe_accept_op(Parser *P, const char *op);
const Tok *fe_expect_op(Parser *P, const char *op);
const Tok *fe_expect_name(Parser *P);
const Tok *fe_expect_kind(Parser *P, TokKind kind, const char *what);
void fe_expect_newline(Parser *P);
bool fe_peek_dotted(const Parser *P, const char *dotted);
const char *fe_dotted(Parser *P, const Tok **first);
void fe_describe(const Tok *t, char *buf, size_t size);
void fe_enter(Parser *P);
void fe_leave(Parser *P);
void fe_check_line(Parser *P);
void *fe_vec_push(Parser *P, FeVec *v, size_t elem);
void fe_vec_ptr(Parser *P, FeVec *v, void *p);
FeEntry *fe_scope_add(Parser *P, IrSym name, SymKind kind);
FeEntry *fe_scope_find(Parser *P, IrSym name);
/* Drops the entries added since the scope had mark entries. */
void fe_scope_pop(Parser *P, int mark);
bool fe_is_global(const Parser *P, IrSym name);
int fe_swap_tokens(Parser *P, const char *text, size_t len, int line, int col, Tok **saved,
                   int *saved_n);
void fe_restore_tokens(Parser *P, Tok *saved, int saved_n, int saved_pos);
int fe_skip_balanced(Parser *P);

/* lex.c */
/* Tokenizes text (which starts at line:col of the source).  A fragment is
 * one expression (the inside of a string): no NEWLINE/INDENT tokens.
 * Always succeeds; a lexical error ends the array with TK_ERROR.  The
 * array is on the heap, listed in P->lexed for fe_parse to free (grown in
 * the arena, its doublings left ~2x its size in pages never used again);
 * the text's, which a large module makes 100 MB, becomes arena space. */
Tok *fe_lex(Parser *P, const char *text, size_t len, int line, int col, bool fragment, int *ntoks);

/* metadata.c: mod.script(show_meta=True)'s metadata section */
/* Reads `metadata = tvm.ir.load_json("""JSON""")` at P->pos; its constants
 * go to P->metadata.  A malformed section fails at its place in the JSON. */
void fe_metadata_read(Parser *P);
/* metadata["relax.expr.Constant"][i] at P->pos: that constant. */
IrExpr *fe_metadata_ref(Parser *P);

/* parse_prim.c: scalar expressions, literals and attribute values */
TExpr fe_texpr(Parser *P);
bool fe_accept_empty_index(Parser *P);
IrPrimExpr *fe_prim(Parser *P);
IrPrimExpr *fe_prim_as(Parser *P, TExpr x, IrDType t);
TExpr fe_texpr_bin(Parser *P, IrPrimKind kind, TExpr a, TExpr b);
bool fe_int_literal(Parser *P, bool negative, int64_t *out);
IrAttr *fe_attr_value(Parser *P);
IrAttr *fe_attr_dict(Parser *P);
IrDType fe_dtype_str(Parser *P);
IrSym fe_attr_key(Parser *P, IrSym key);
IrExpr *fe_const(Parser *P, const Tok *at);
bool fe_special_float(const char *s, double *out);

/* parse_sinfo.c */
IrSInfo *fe_sinfo(Parser *P);
bool fe_at_sinfo(const Parser *P);
IrPrimExpr **fe_shape_list(Parser *P, int *n);

/* parse_call.c: Relax expressions and calls */
IrExpr *fe_rexpr(Parser *P);
IrExpr *fe_r_call(Parser *P, const char *name, const Tok *at);

/* parse_relax.c */
IrFunction *fe_relax_function(Parser *P, bool pure, bool is_private, const Tok *at);
void fe_decorator_kwargs(Parser *P, bool *pure, bool *is_private);

/* parse_tir.c */
IrPrimFunc *fe_prim_func(Parser *P, bool is_private, const Tok *at, IrSym *name);

#endif
