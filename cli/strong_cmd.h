/* gsw strong build|query|best (Connect Four's strong solution on BDDs)
 * and gsw count connect4 (every reachable position per ply, on BDDs). */
#ifndef GSW_STRONG_CMD_H
#define GSW_STRONG_CMD_H

#include "cli/opts.h"

/* gsw count connect4[:WxH] */
int cli_count_bdd(cli_opts_t *o);

extern const cli_verb_t verb_strong;

#endif
