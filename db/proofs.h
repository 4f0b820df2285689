/* Proof trees in the cache file: one row per (game, variant, position key,
 * goal) with the result, size, depth and the nodes packed in depth-first
 * order (move, child count, flags), so a proof is never run twice. */
#ifndef GSW_PROOFS_H
#define GSW_PROOFS_H

#include "core/dfpn.h"
#include "core/manager.h"
#include "db/cache.h"

/* Store t for the position (key as pos_key made it; text for people). */
int proofs_put(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
               const char *text, const proof_tree_t *t, err_t *err);
/* 1 found (t filled; free with proof_tree_free), 0 none (or a damaged row,
 * which the next proofs_put replaces), -1 error. */
int proofs_get(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
               dfpn_goal_t goal, proof_tree_t *t, err_t *err);

/* The proof-tree manager's tree (state "running", "proven", "disproven"). */
int proofs_manager_put(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
                       const char *text, const manager_t *m, const char *state, err_t *err);
/* 1 found (m filled; free with manager_free), 0 none, -1 error. */
int proofs_manager_get(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
                       dfpn_goal_t goal, manager_t *m, char *state, size_t n, err_t *err);

#endif
