/* gsw shell: the workbench's commands in a plain readline loop, or read
 * from a script or a pipe; and the opening and closing of a session as a
 * command line's options say, shared with the TUI. */
#ifndef GSW_SHELL_H
#define GSW_SHELL_H

#include "cli/opts.h"
#include "workbench/session.h"

/* Open a session as the options say: game (deflt when none is named),
 * position, opponent, side, cache. */
int shell_session_open(cli_args_t *o, session_t *s, const char *deflt, err_t *err);
/* Close it: the analyst's thread, the cache (its error, if any, in err). */
int shell_session_close(session_t *s, err_t *err);
/* The verb: a shell on the options' game, or a script. */
int shell_run(cli_args_t *o);

#endif
