/* gsw proof run|show|export|check: the proof-tree manager's run, a stored
 * df-pn proof tree printed or exported, a certificate written or checked. */
#ifndef GSW_PROOF_CMD_H
#define GSW_PROOF_CMD_H

#include <stdio.h>

#include "cli/opts.h"
#include "core/game.h"
#include "core/value.h"

extern const cli_verb_t verb_proof;

/* A certificate (solve/certificate.h) of pos's value, or of the proven
 * bounds[0..1] where given (solve --certificate), written to path; its
 * summary on out (stdout: JSON under --json). Errors said on stderr. */
int proof_cert_write(cli_args_t *o, gv_t *v, const void *pos, const char *ptext, const val_t *bounds, const char *path,
                     FILE *out);

#endif
