/* Proof trees for the front ends: find a position's tree in the cache or
 * prove it with df-pn (and store it), and the words for a node's value. */
#ifndef GSW_PROOF_H
#define GSW_PROOF_H

#include "core/dfpn.h"
#include "db/cache.h"

/* goal_text "win", "draw" or NULL (the goal that shows the value). *found:
 * read from the cache; *stored: proved now and stored. */
int proof_obtain(cache_t *cache, gv_t *v, const void *pos, const char *ptext, const char *goal_text,
                 const dfpn_options_t *dopt, proof_tree_t *t, int *found, int *stored, dfpn_result_t *r, err_t *err);
/* A node's value for its side to move: "=W", "=L", "≥D", "≤D" (ascii: ">=D"). */
const char *proof_value_text(const proof_tree_t *t, int attacker, int ascii);

#endif
