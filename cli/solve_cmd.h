/* gsw solve and gsw analyze: a position's proven value, or every move's,
 * through the solver door (a batch file of positions too). */
#ifndef GSW_SOLVE_CMD_H
#define GSW_SOLVE_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_solve, verb_analyze;

#endif
