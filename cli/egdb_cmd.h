/* gsw egdb build|probe|stats|verify (endgame databases and chess
 * tablebases) and gsw count GAME --pieces N. */
#ifndef GSW_EGDB_CMD_H
#define GSW_EGDB_CMD_H

#include "cli/opts.h"

/* gsw count GAME --pieces N */
int cli_count_pieces(cli_args_t *o);

extern const cli_verb_t verb_egdb;

#endif
