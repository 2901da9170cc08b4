/*
 * lex.c - the TVMScript lexer: Python's lexical rules, the subset TVM prints.
 *
 * Key idea: the whole text becomes one token array.  Indentation becomes
 * INDENT/DEDENT tokens from a stack of widths; inside brackets newlines and
 * indentation are ignored (implicit line joining).  On the first lexical
 * error the array ends with a TK_ERROR token carrying the message, so the
 * parser reports it when it gets there, in text order.
 */
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

typedef struct {
  Parser *P;
  const char *text, *end, *p; /* the text and the current byte */
  const char *line_start;     /* first byte of the current line */
  int line;
  int col0;                   /* column of text[0] on the first line */
  Tok *toks;                  /* on the heap, grown by realloc */
  int ntoks, cap;
  int indents[FE_MAX_DEPTH + 1];
  int nindents;
  char brackets[FE_MAX_DEPTH + 1]; /* open brackets, innermost last */
  int bracket_line[FE_MAX_DEPTH + 1];
  int bracket_col[FE_MAX_DEPTH + 1];
  int nbrackets;
  bool failed;
} Lexer;

static const char *const ops3[] = {"**=", "//=", ">>=", "<<=", "...", NULL};
static const char *const ops2[] = {"==", "!=", "<=", ">=", "->", "//", "**", "+=", "-=",
                                   "*=", "/=", "%=", "<<", ">>", ":=", NULL};
static const char ops1[] = "()[]{},:.;@=<>+-*/%~&|^";

static int
column(const Lexer *L, const char *at)
{
  int col = (int)(at - L->line_start) + 1;
  return L->line_start == L->text ? col + L->col0 - 1 : col;
}

static Tok *
add(Lexer *L, TokKind kind, const char *at, int len)
{
  if (L->ntoks == L->cap) {
    L->cap = L->cap ? 2 * L->cap : 256;
    L->toks = ir_xrealloc(L->toks, (size_t)L->cap * sizeof *L->toks);
    ir_advise_huge(L->toks, (size_t)L->cap * sizeof *L->toks);
  }
  Tok *t = &L->toks[L->ntoks++];
  *t = (Tok){0};
  t->kind = kind;
  t->line = L->line;
  t->col = column(L, at);
  t->text = at;
  t->len = len;
  return t;
}

/* Ends the token array with an error token; the lexer stops. */
static void
lex_error(Lexer *L, const char *at, const char *fmt, const char *arg)
{
  Tok *t = add(L, TK_ERROR, at, 1);
  t->sym = ir_printf(L->P->ctx, fmt, arg);
  L->failed = true;
}

static void
new_line(Lexer *L, const char *next)
{
  L->line++;
  L->line_start = next;
}

/* Measures the indentation of the line at L->p and emits INDENT/DEDENT.
 * Blank and comment-only lines are skipped.  Returns false at the end. */
static bool
indentation(Lexer *L)
{
  for (;;) {
    const char *p = L->p;
    int width = 0;
    while (p < L->end && *p == ' ')
      p++, width++;
    if (p < L->end && (*p == '\t' || *p == '\f')) {
      lex_error(L, p, "tab in indentation; indent with spaces%s", "");
      return false;
    }
    while (p < L->end && *p == '#')
      while (p < L->end && *p != '\n' && *p != '\r')
        p++;
    if (p < L->end && (*p == '\n' || *p == '\r')) {
      p += (*p == '\r' && p + 1 < L->end && p[1] == '\n') ? 2 : 1;
      L->p = p;
      new_line(L, p);
      continue;
    }
    L->p = p;
    if (p >= L->end)
      return false;
    int top = L->indents[L->nindents - 1];
    if (width > top) {
      if (L->nindents > FE_MAX_DEPTH) {
        lex_error(L, p, "indentation nested too deeply%s", "");
        return false;
      }
      L->indents[L->nindents++] = width;
      add(L, TK_INDENT, p, 0);
    }
    while (width < L->indents[L->nindents - 1]) {
      L->nindents--;
      add(L, TK_DEDENT, p, 0);
    }
    if (width != L->indents[L->nindents - 1]) {
      lex_error(L, p, "unindent does not match any outer indentation level%s", "");
      return false;
    }
    return true;
  }
}

static int
hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Decodes one escape after a backslash at *pp into out; advances *pp. */
static void
escape(Lexer *L, const char **pp, IrBuf *out)
{
  const char *p = *pp + 1;
  char c = *p;
  const char *simple = "n\nt\tr\r0\0\\\\'\'\"\"a\ab\bf\fv\v";
  for (const char *s = simple; *s; s += 2)
    if (c == s[0]) {
      ir_buf_put(out, s + 1, 1);
      *pp = p + 1;
      return;
    }
  if (c == 'x' && p + 2 < L->end && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
    char v = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
    ir_buf_put(out, &v, 1);
    *pp = p + 3;
    return;
  }
  if (c == '\n') { /* line continuation inside a string */
    new_line(L, p + 1);
    *pp = p + 1;
    return;
  }
  ir_buf_put(out, "\\", 1); /* unknown escapes stay, as in Python */
  *pp = p;
}

/* A string literal: '...', "...", or triple-quoted. */
static void
string(Lexer *L)
{
  const char *start = L->p, *p = L->p;
  int line = L->line, col = column(L, start);
  char q = *p;
  bool triple = p + 2 < L->end && p[1] == q && p[2] == q;
  p += triple ? 3 : 1;
  IrBuf buf = {0};
  bool plain = !triple;
  for (;;) {
    if (p >= L->end || (!triple && (*p == '\n' || *p == '\r'))) {
      ir_buf_free(&buf);
      L->line = line;
      Tok *t = add(L, TK_ERROR, start, 1);
      t->col = col;
      t->sym = ir_sym(L->P->ctx, "unterminated string");
      L->failed = true;
      return;
    }
    if (*p == q && (!triple || (p + 2 < L->end && p[1] == q && p[2] == q)))
      break;
    if (*p == '\\') {
      plain = false;
      escape(L, &p, &buf);
      continue;
    }
    if (*p == '\n')
      new_line(L, p + 1);
    ir_buf_put(&buf, p, 1);
    p++;
  }
  p += triple ? 3 : 1;
  Tok t = {.kind = TK_STR, .line = line, .col = col, .len = (int)(p - start), .text = start,
           .plain = plain};
  t.sym = ir_sym_n(L->P->ctx, buf.data ? buf.data : "", buf.len);
  ir_buf_free(&buf);
  *add(L, TK_STR, start, t.len) = t;
  L->p = p;
}

static bool
is_digit(char c)
{
  return c >= '0' && c <= '9';
}

static bool
is_ident(char c, bool first)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && is_digit(c));
}

/* A decimal or hex integer, or a float with optional exponent. */
static void
number(Lexer *L)
{
  const char *start = L->p, *p = L->p;
  bool is_float = false;
  if (p[0] == '0' && p + 1 < L->end && (p[1] == 'x' || p[1] == 'X')) {
    p += 2;
    while (p < L->end && hex_digit(*p) >= 0)
      p++;
  } else {
    while (p < L->end && is_digit(*p))
      p++;
    if (p < L->end && *p == '.') {
      is_float = true;
      p++;
      while (p < L->end && is_digit(*p))
        p++;
    }
    if (p < L->end && (*p == 'e' || *p == 'E')) {
      const char *q = p + 1;
      if (q < L->end && (*q == '+' || *q == '-'))
        q++;
      if (q < L->end && is_digit(*q)) {
        is_float = true;
        p = q;
        while (p < L->end && is_digit(*p))
          p++;
      }
    }
  }
  if (p < L->end && is_ident(*p, false)) {
    lex_error(L, p, "invalid number literal%s", "");
    return;
  }
  char *s = ir_strdup(L->P->ctx, start, (size_t)(p - start));
  Tok *t = add(L, is_float ? TK_FLOAT : TK_INT, start, (int)(p - start));
  errno = 0;
  if (is_float) {
    t->fval = strtod(s, NULL);
  } else {
    t->ival = strtoull(s, NULL, 0);
    if (errno == ERANGE) {
      L->ntoks--;
      lex_error(L, start, "integer literal %s is too large", s);
      return;
    }
  }
  L->p = p;
}

/* Brackets must match; their depth is limited to FE_MAX_DEPTH. */
static void
bracket(Lexer *L, char c)
{
  if (strchr("([{", c)) {
    if (L->nbrackets >= FE_MAX_DEPTH) {
      lex_error(L, L->p, "brackets nested too deeply%s", "");
      return;
    }
    L->bracket_line[L->nbrackets] = L->line;
    L->bracket_col[L->nbrackets] = column(L, L->p);
    L->brackets[L->nbrackets++] = c;
    return;
  }
  char open = c == ')' ? '(' : c == ']' ? '[' : '{';
  if (L->nbrackets == 0) {
    static const char *const unmatched[] = {"unmatched ')'", "unmatched ']'", "unmatched '}'"};
    lex_error(L, L->p, "%s", unmatched[c == ')' ? 0 : c == ']' ? 1 : 2]);
    return;
  }
  if (L->brackets[L->nbrackets - 1] != open) {
    char msg[64];
    snprintf(msg, sizeof msg, "closing '%c' does not match '%c'", c, L->brackets[L->nbrackets - 1]);
    lex_error(L, L->p, "%s", msg);
    return;
  }
  L->nbrackets--;
}

static void
operator(Lexer *L)
{
  const char *p = L->p;
  size_t left = (size_t)(L->end - p);
  for (int i = 0; ops3[i]; i++)
    if (left >= 3 && memcmp(p, ops3[i], 3) == 0) {
      add(L, TK_OP, p, 3)->sym = ir_sym_n(L->P->ctx, p, 3);
      L->p += 3;
      return;
    }
  for (int i = 0; ops2[i]; i++)
    if (left >= 2 && memcmp(p, ops2[i], 2) == 0) {
      add(L, TK_OP, p, 2)->sym = ir_sym_n(L->P->ctx, p, 2);
      L->p += 2;
      return;
    }
  if (*p != '\0' && strchr(ops1, *p)) {
    if (strchr("()[]{}", *p)) {
      bracket(L, *p);
      if (L->failed)
        return;
    }
    add(L, TK_OP, p, 1)->sym = ir_sym_n(L->P->ctx, p, 1);
    L->p++;
    return;
  }
  char what[32];
  unsigned char c = (unsigned char)*p;
  if (c == 0)
    snprintf(what, sizeof what, "NUL byte");
  else if (c >= 0x80 || c < 0x20 || c == 0x7f)
    snprintf(what, sizeof what, "byte 0x%02x", c);
  else
    snprintf(what, sizeof what, "character '%c'", c);
  lex_error(L, p, "unexpected %s", what);
}

/* Handles the end of a physical line; returns true if the loop goes on. */
static bool
end_of_line(Lexer *L, bool fragment)
{
  const char *p = L->p;
  p += (*p == '\r' && p + 1 < L->end && p[1] == '\n') ? 2 : 1;
  if (L->nbrackets == 0 && !fragment) {
    int n = L->ntoks;
    if (n > 0 && L->toks[n - 1].kind != TK_NEWLINE)
      add(L, TK_NEWLINE, L->p, 0);
  }
  L->p = p;
  new_line(L, p);
  if (L->nbrackets == 0 && !fragment)
    return indentation(L);
  return true;
}

/* One token (or whitespace/comment) at L->p; returns false at the end. */
static bool
step(Lexer *L, bool fragment)
{
  char c = *L->p;
  if (c == ' ' || c == '\t' || c == '\f') {
    L->p++;
  } else if (c == '#') {
    while (L->p < L->end && *L->p != '\n' && *L->p != '\r')
      L->p++;
  } else if (c == '\n' || c == '\r') {
    return end_of_line(L, fragment);
  } else if (c == '\\' && L->p + 1 < L->end && (L->p[1] == '\n' || L->p[1] == '\r')) {
    L->p += (L->p[1] == '\r' && L->p + 2 < L->end && L->p[2] == '\n') ? 3 : 2;
    new_line(L, L->p);
  } else if (c == '"' || c == '\'') {
    string(L);
  } else if (is_digit(c) || (c == '.' && L->p + 1 < L->end && is_digit(L->p[1]))) {
    number(L);
  } else if (is_ident(c, true)) {
    const char *s = L->p;
    while (L->p < L->end && is_ident(*L->p, false))
      L->p++;
    add(L, TK_NAME, s, (int)(L->p - s))->sym = ir_sym_n(L->P->ctx, s, (size_t)(L->p - s));
  } else {
    operator(L);
  }
  return !L->failed;
}

Tok *
fe_lex(Parser *P, const char *text, size_t len, int line, int col, bool fragment, int *ntoks)
{
  Lexer L = {0};
  L.P = P;
  L.text = L.p = L.line_start = text;
  L.end = text + len;
  L.line = line;
  L.col0 = col;
  L.indents[0] = 0;
  L.nindents = 1;
  /* room for a token every 2 bytes: TVMScript has one every 2.5 to 4, so
   * the array is rarely copied, and a large one's unused tail is address
   * space the program never touches */
  L.cap = fragment && len < 1024 ? (int)len + 2 /* a token a byte at most, and EOF */
                                 : (int)(len / 2 < INT_MAX / 2 ? len / 2 : INT_MAX / 2) + 256;
  L.toks = ir_xmalloc((size_t)L.cap * sizeof *L.toks);
  ir_advise_huge(L.toks, (size_t)L.cap * sizeof *L.toks);
  bool more = fragment || indentation(&L);
  if (more && !fragment && L.ntoks > 0 && L.toks[0].kind == TK_INDENT) {
    L.ntoks = 0;
    lex_error(&L, L.p, "unexpected indent%s", "");
  }
  while (!L.failed && L.p < L.end && step(&L, fragment))
    ;
  if (!L.failed) {
    if (L.nbrackets > 0) {
      char open[2] = {L.brackets[L.nbrackets - 1], 0};
      lex_error(&L, L.end, "'%s' was never closed", open);
      Tok *t = &L.toks[L.ntoks - 1];
      t->line = L.bracket_line[L.nbrackets - 1];
      t->col = L.bracket_col[L.nbrackets - 1];
    } else {
      if (!fragment && L.ntoks > 0 && L.toks[L.ntoks - 1].kind != TK_NEWLINE)
        add(&L, TK_NEWLINE, L.p, 0);
      for (; !fragment && L.nindents > 1; L.nindents--)
        add(&L, TK_DEDENT, L.p, 0);
      add(&L, TK_EOF, L.p, 0);
    }
  }
  fe_vec_ptr(P, &P->lexed, L.toks);
  if (!fragment)
    P->text_toks_bytes = (size_t)L.cap * sizeof *L.toks;
  *ntoks = L.ntoks;
  return L.toks;
}
