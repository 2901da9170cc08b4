/*
 * so_stdio.c - libc's stdout, stderr and environ for the libtcc inside
 * librxc.so (only there: librxc.a and rxc link libtcc.a as it is).
 *
 * Key idea: Debian's libtcc.a is compiled as position-independent
 * *executable* code, which reads those three variables of libc at a fixed
 * offset from its code, as only an executable can (the linker copies them
 * next to it); a shared object cannot.  The Makefile renames them in a copy
 * of libtcc.a to the variables below, which sit in the shared object itself,
 * and a constructor sets them from libc's when the library is loaded.
 * libtcc reads them only where rxc does not reach (its default error
 * printer, tcc_run), so a later change to stdout does not matter.
 */
#include <stdio.h>

extern char **environ; /* POSIX; <unistd.h> declares it only for _GNU_SOURCE */

FILE *rxc_so_stdout;
FILE *rxc_so_stderr;
char **rxc_so_environ;

__attribute__((constructor)) static void
set_from_libc(void)
{
  rxc_so_stdout = stdout;
  rxc_so_stderr = stderr;
  rxc_so_environ = environ;
}
