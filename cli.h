/* cli.h - what the command line's verbs share (cli.c), and the verbs that
 * live outside main.c. */
#ifndef RXC_CLI_H
#define RXC_CLI_H

#include <stdbool.h>

#include "config/cfg.h"
#include "ir/ir.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

/* cli.c */
/* Prints "rxc: <fmt with arg>" and a hint to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);
bool cli_is_help(const char *arg);
/* Parses path (and checks well-formedness when check is true); prints the
 * diagnostics and returns NULL on error. */
IrModule *cli_load(IrCtx *ctx, const char *path, bool check);
/* Writes data to path through a temporary file renamed into place, so a
 * failure leaves no partial file; false after a message. */
bool cli_write_file(const char *path, const IrBuf *data);

/* cli_run.c: rxc run, rxc equiv (argv[0] is the verb) */
int cmd_run(int argc, char **argv);
int cmd_equiv(int argc, char **argv);

/* cli_plan.c: rxc plan (argv[0] is the verb); -O sets cfg's [opt] level */
int cmd_plan(int argc, char **argv, CfgOptions *cfg);

#endif
