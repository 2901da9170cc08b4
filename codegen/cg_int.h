/*
 * cg_int.h - internals shared by codegen's compiling back ends.
 *
 * A CgCompiled is either a shared object loaded with dlopen (cc.c: dl and
 * the temporary directory dir that holds it) or a libtcc state compiled in
 * memory (jit.c: tcc).  Only jit.c includes <libtcc.h>, so the tcc state
 * travels as void * and cc.c reaches it through cg_tcc_symbol / cg_tcc_free.
 */
#ifndef RXC_CG_INT_H
#define RXC_CG_INT_H

#include "cg.h"

struct CgCompiled {
  void *dl;  /* dlopen handle (cc.c), or NULL */
  void *tcc; /* libtcc state (jit.c), or NULL */
  char *dir; /* temporary directory to remove on free (cc.c), or NULL */
};

/* jit.c: cg_jit_tcc with tcc's library directory (libtcc1.a and include/)
 * at lib_path instead of libtcc's built-in one (NULL: the built-in one). */
CgCompiled *cg_jit_tcc_at(IrCtx *ctx, const CgOutput *out, const char *lib_path);
/* jit.c: the address of symbol in a relocated tcc state, or NULL. */
void *cg_tcc_symbol(void *tcc, const char *name);
/* jit.c: releases a tcc state (serialized with every other libtcc use). */
void cg_tcc_free(void *tcc);

#endif
