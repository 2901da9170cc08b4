/* cli_run.c - stub for rxc run and rxc equiv. */
#include <stdio.h>

#include "cli.h"

int
cmd_run(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  fputs("rxc: run is not implemented yet\n", stderr);
  return 2;
}

int
cmd_equiv(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  fputs("rxc: equiv is not implemented yet\n", stderr);
  return 2;
}
