/* gsw proof run|show|export: the proof-tree manager's run, and a stored
 * df-pn proof tree printed or exported. */
#ifndef GSW_PROOF_CMD_H
#define GSW_PROOF_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_proof;

#endif
