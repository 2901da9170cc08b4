/* cli.h - the command line's verbs beyond main.c. */
#ifndef RXC_CLI_H
#define RXC_CLI_H

/* cli_run.c: rxc run, rxc equiv (argv[0] is the verb) */
int cmd_run(int argc, char **argv);
int cmd_equiv(int argc, char **argv);

#endif
