/* gsw strong build|query|best (Connect Four's strong solution on BDDs)
 * and gsw count connect4 (every reachable position per ply, on BDDs). */
#ifndef GSW_STRONG_CMD_H
#define GSW_STRONG_CMD_H

#include "cli/opts.h"

/* gsw count connect4[:WxH] */
/* The BDD options of count and strong: --encoding, --order, --memory, --dir. */
extern const cli_opt_t strong_bdd_opts[];
int cli_count_bdd(cli_args_t *o);

extern const cli_verb_t verb_strong;

#endif
