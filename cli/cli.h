/* The command line: `gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION]
 * [ARGS] [OPTIONS]`. main.c hands cli_main the table of every front end's
 * verbs (each a cli_verb_t defined beside its code, as tmux's cmd_entry
 * are); `gsw help` is generated from it. */
#ifndef GSW_CLI_H
#define GSW_CLI_H

#include "cli/opts.h"

/* Run argv (argv[0] is the program) against verbs (NULL-terminated);
 * returns the exit status. */
int cli_main(const cli_verb_t *const *verbs, int argc, char **argv);
/* The verb of that name in the table cli_main was given; NULL: none. */
const cli_verb_t *cli_find(const char *name);

/* help and version */
extern const cli_verb_t verb_help, verb_version;

#endif
