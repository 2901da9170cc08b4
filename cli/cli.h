/* cli.h - what the command line's verbs share (cli.c), and the verbs that
 * live outside main.c. */
#ifndef RXC_CLI_H
#define RXC_CLI_H

#include <stdbool.h>

#include "../api/road.h"
#include "../ops/op.h"

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

/* cli.c */
/* Prints "rxc: <fmt with arg>" and a hint to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);
bool cli_is_help(const char *arg);
/* Prints, after a verb's own help, the global options every verb accepts
 * (main.c takes them out of argv before the verb sees it). */
void cli_help_global(void);
/* Parses path (and checks well-formedness when check is true); prints the
 * diagnostics and returns NULL on error.  For the verbs that read a
 * module without compiling it (check, equal, run, equiv). */
IrModule *cli_load(IrCtx *ctx, const char *path, bool check);
/* -O<digit>: whether arg is a level option. */
bool cli_is_level(const char *arg);
/* Sets cfg's [opt] level from -O0..-O2; -O3 and above are bad usage
 * (EXIT_USAGE after a message: there is no level above -O2). */
int cli_set_level(const char *arg, CfgOptions *cfg);

/* The road's step function for the verbs (RxcRoadIn.user: a CliStage):
 * prints and clears the diagnostics of reading before the passes run
 * (so warnings come before --time-passes lines), and with progress set
 * shows each stage (cli_progress). */
typedef struct {
  IrCtx *ctx;       /* the road's */
  const CfgOptions *cfg;
  const char *path; /* the model, for "reading PATH" */
  bool progress;    /* rxc compile and run --via */
} CliStage;
void cli_stage(void *user, RxcStage stage, const RxcRoadOut *so_far);
/* Prints the diagnostics the road left in st->ctx, each once. */
void cli_road_diags(const CliStage *st);
/* Writes data to path through a temporary file renamed into place, so a
 * failure leaves no partial file; creates the folders above path that are
 * missing (-o a/b/c.py works in an empty folder).  A path that exists and
 * is not a regular file (-o /dev/null, a pipe) is written in place: a
 * rename would replace the device itself.  False after a message. */
bool cli_write_file(const char *path, const IrBuf *data);
/* Creates the folder dir and those above it that are missing (mkdir -p);
 * false after a message naming the folder and the OS's reason. */
bool cli_make_dirs(const char *dir);

/* Progress of a long step on stderr: on a terminal (and not -q), one line
 * rewritten in place; with -v, a plain line wherever stderr goes;
 * otherwise nothing.  cli_progress_done() clears the terminal line. */
void cli_progress(const CfgOptions *cfg, const char *fmt, ...);
void cli_progress_done(const CfgOptions *cfg);

/* Each verb's --help: it opens with the verb's usage lines ("usage: rxc
 * VERB ...", continued on indented lines), which rxc --help prints as the
 * verb's synopsis; every option the verb's parser accepts is in them
 * (tests/cli/help_options.py checks). */
extern const char cli_run_help[], cli_equiv_help[], cli_plan_help[], cli_compile_help[],
    cli_import_help[], cli_list_help[];

/* run.c: rxc run, rxc equiv (argv[0] is the verb) */
int cmd_run(int argc, char **argv, CfgOptions *cfg);
int cmd_equiv(int argc, char **argv);

/* plan.c: rxc plan (argv[0] is the verb); -O sets cfg's [opt] level */
int cmd_plan(int argc, char **argv, CfgOptions *cfg);

/* compile.c: rxc compile; -O sets cfg's [opt] level */
int cmd_compile(int argc, char **argv, CfgOptions *cfg);

/* import.c: rxc import (argv[0] is the verb) */
int cmd_import(int argc, char **argv, IrDialect dialect);

/* list.c: rxc list ops|passes|onnx (argv[0] is the verb) */
int cmd_list(int argc, char **argv);

/* compile.c: the road to C for rxc compile and run --via. */
/* Reads file, checks it, runs cfg's pipeline (params: main's weights for
 * BindParams, or NULL), plans memory and generates C named name (NULL:
 * cfg's prefix, else file's base name), showing progress; for the JIT
 * when jit (RxcRoadIn.jit).  Prints the diagnostics (and clears them);
 * false on error. */
bool cli_build(IrCtx *ctx, const char *file, const char *params, const char *name,
               const CfgOptions *cfg, bool jit, RxcRoadOut *b);
/* Calls entry e of c (built as b, fn the lowered function) on the tensors
 * inputs (e->ninputs, signature order): binds the symbolic dims from their
 * shapes, allocates the arena and the outputs, and returns the result
 * shaped like fn's return (a tensor, or a tuple of them).  NULL after an
 * error in ctx. */
Value *cli_call_compiled(IrCtx *ctx, CgCompiled *c, const RxcRoadOut *b, const IrFunction *fn,
                         const CgEntry *e, const IrTensorData *const *inputs);

#endif
