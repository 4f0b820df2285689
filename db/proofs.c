/* Proof trees in the cache file (see proofs.h). A node packs into 12 bytes:
 * move, child count, flags (bit 0: one child chosen, bit 1: a leaf), little
 * endian; sizes and parents are rebuilt from the depth-first order. */
#include "db/proofs.h"

#include "db/cache_private.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void put32(uint8_t *p, uint32_t x) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(x >> (8 * i)); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* A proof table's row key: the cache's (game, variant, key) and the goal
 * proved, as ?1 to ?4. */
static void proofs_bind_key(sqlite3_stmt *st, const char *game, const char *variant, const uint8_t *key, size_t klen,
                            dfpn_goal_t goal)
{
    cache_bind_key(st, game, variant, key, klen);
    sqlite3_bind_text(st, 4, goal == DFPN_GOAL_WIN ? "win" : "draw", -1, SQLITE_STATIC);
}

int proofs_put(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
               const char *text, const proof_tree_t *t, err_t *err)
{
    if (!cache_may_store(c)) return GSW_OK;   /* read-only: said once */
    uint8_t *blob = malloc((size_t)t->n * 12 + 1);
    if (!blob) return err_set(err, GSW_EFAIL, "out of memory");
    for (int i = 0; i < t->n; i++) {
        put32(blob + 12 * i, t->node[i].move);
        put32(blob + 12 * i + 4, (uint32_t)t->node[i].nchildren);
        put32(blob + 12 * i + 8, (uint32_t)(t->node[i].choice | t->node[i].leaf << 1));
    }
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    int rc = GSW_OK;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO proof_tree (game, variant, key, goal, position, result, size, "
                               "depth, nodes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", -1, &st, NULL)) {
        free(blob);
        return cache_fail(c, err, "store a proof tree");
    }
    proofs_bind_key(st, game, variant, key, klen, t->goal);
    sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, t->result == DFPN_PROVEN ? "proven" : "disproven", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, t->n);
    sqlite3_bind_int64(st, 8, t->depth);
    sqlite3_bind_blob(st, 9, blob, t->n * 12, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = cache_store_failed(c, err, "store a proof tree");
    sqlite3_finalize(st);
    free(blob);
    return rc;
}

int proofs_get(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
               dfpn_goal_t goal, proof_tree_t *t, err_t *err)
{
    memset(t, 0, sizeof *t);
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT result, depth, nodes, size FROM proof_tree WHERE game = ?1 AND variant = ?2 "
                               "AND key = ?3 AND goal = ?4", -1, &st, NULL)) {
        cache_fail(c, err, "read proof trees");
        return -1;
    }
    proofs_bind_key(st, game, variant, key, klen, goal);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        const uint8_t *b = sqlite3_column_blob(st, 2);
        int bytes = sqlite3_column_bytes(st, 2), n = bytes / 12;
        const unsigned char *res = sqlite3_column_text(st, 0);
        t->goal = goal;
        t->result = res && !strcmp((const char *)res, "proven") ? DFPN_PROVEN : DFPN_DISPROVEN;
        t->depth = sqlite3_column_int(st, 1);
        t->node = calloc((size_t)(n ? n : 1), sizeof *t->node);
        if (!t->node) {
            found = -1;
            err_set(err, GSW_EFAIL, "out of memory");
        } else if (bytes % 12 || n == 0 || sqlite3_column_int64(st, 3) != n) {   /* cut short, or padded */
            found = 0;
        } else {
            t->n = t->cap = n;
            /* parents and sizes from the depth-first order */
            int *stack = malloc((size_t)n * sizeof *stack), *left = malloc((size_t)n * sizeof *left), sp = 0;
            int ok = stack && left;
            for (int i = 0; i < n && ok; i++) {
                proof_node_t *p = &t->node[i];
                p->move = get32(b + 12 * i);
                uint32_t nc = get32(b + 12 * i + 4);
                if (nc > (uint32_t)(n - 1 - i)) { ok = 0; break; }   /* more children than nodes follow */
                p->nchildren = (int)nc;
                uint32_t f = get32(b + 12 * i + 8);
                p->choice = f & 1;
                p->leaf = (f >> 1) & 3;   /* 1 settled by the rules, 2 by the search */
                if (p->leaf == 3 || (p->leaf && nc)) { ok = 0; break; }
                while (sp > 0 && left[stack[sp - 1]] == 0) sp--;
                p->parent = sp ? stack[sp - 1] : -1;
                if (sp) left[stack[sp - 1]]--;
                else if (i) ok = 0;   /* a second root */
                left[i] = p->nchildren;
                stack[sp++] = i;
            }
            while (ok && sp > 0) ok = left[stack[--sp]] == 0;   /* a node still expecting children */
            for (int i = 0; i < n && ok; i++) t->searched += t->node[i].leaf == 2;
            for (int i = n - 1; i >= 0 && ok; i--) {
                t->node[i].size++;
                if (t->node[i].parent >= 0) t->node[t->node[i].parent].size += t->node[i].size;
            }
            free(stack);
            free(left);
            found = ok ? 1 : 0;   /* damaged: as good as absent; proved again, the row is replaced */
        }
        if (found <= 0) proof_tree_free(t);
    } else if (rc != SQLITE_DONE) {
        cache_fail(c, err, "read proof trees");
        found = -1;
    }
    sqlite3_finalize(st);
    return found;
}

/* ---- the manager's trees: 32 bytes a node ---- */

#define MG_REC 32

int proofs_manager_put(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
                       const char *text, const manager_t *m, const char *state, err_t *err)
{
    if (!cache_may_store(c)) return GSW_OK;   /* read-only: said once */
    uint8_t *blob = calloc((size_t)m->n, MG_REC);
    if (!blob) return err_set(err, GSW_EFAIL, "out of memory");
    for (int i = 0; i < m->n; i++) {
        const mg_node_t *nd = &m->node[i];
        uint8_t *p = blob + (size_t)MG_REC * i;
        put32(p, nd->move);
        put32(p + 4, (uint32_t)nd->parent);
        put32(p + 8, (uint32_t)nd->first_child);
        put32(p + 12, (uint32_t)nd->nchildren);
        put32(p + 16, nd->pn);
        put32(p + 20, nd->dn);
        put32(p + 24, (uint32_t)nd->score);
        p[28] = nd->status;
        p[29] = nd->evaluated;
        p[30] = nd->attacker;
    }
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    int rc = GSW_OK;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO manager_tree (game, variant, key, goal, position, threshold, "
                               "state, nodes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &st, NULL)) {
        free(blob);
        return cache_fail(c, err, "store the manager's tree");
    }
    proofs_bind_key(st, game, variant, key, klen, m->goal);
    sqlite3_bind_text(st, 5, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, m->t);
    sqlite3_bind_text(st, 7, state, -1, SQLITE_STATIC);
    sqlite3_bind_blob(st, 8, blob, m->n * MG_REC, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = cache_store_failed(c, err, "store the manager's tree");
    sqlite3_finalize(st);
    free(blob);
    return rc;
}

int proofs_manager_get(cache_t *c, const char *game, const char *variant, const uint8_t *key, size_t klen,
                       dfpn_goal_t goal, manager_t *m, char *state, size_t n, err_t *err)
{
    sqlite3 *db = cache_sqlite(c, NULL, 0);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT threshold, state, nodes FROM manager_tree WHERE game = ?1 AND variant = ?2 "
                               "AND key = ?3 AND goal = ?4", -1, &st, NULL)) {
        cache_fail(c, err, "read the manager's trees");
        return -1;
    }
    proofs_bind_key(st, game, variant, key, klen, goal);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        const uint8_t *b = sqlite3_column_blob(st, 2);
        int bytes = sqlite3_column_bytes(st, 2), k = bytes / MG_REC;
        const unsigned char *s = sqlite3_column_text(st, 1);
        snprintf(state, n, "%s", s ? (const char *)s : "");
        memset(m, 0, sizeof *m);
        m->goal = goal;
        m->t = sqlite3_column_int(st, 0);
        m->node = calloc((size_t)(k ? k : 1), sizeof *m->node);
        found = 1;
        if (!m->node || k == 0 || bytes % MG_REC) found = -1;
        for (int i = 0; i < k && found == 1; i++) {
            const uint8_t *p = b + (size_t)MG_REC * i;
            mg_node_t *nd = &m->node[i];
            nd->move = get32(p);
            nd->parent = (int32_t)get32(p + 4);
            nd->first_child = (int32_t)get32(p + 8);
            nd->nchildren = (int32_t)get32(p + 12);
            nd->pn = get32(p + 16);
            nd->dn = get32(p + 20);
            nd->score = (int32_t)get32(p + 24);
            nd->status = p[28];
            nd->evaluated = p[29];
            nd->attacker = p[30];
            /* children after their parent and inside the tree, or it is damaged */
            if (nd->parent >= i || (i == 0) != (nd->parent < 0) || nd->nchildren < 0
                || (nd->first_child >= 0 && (nd->first_child <= i || nd->nchildren > k - nd->first_child)))
                found = -1;
        }
        m->n = m->cap = k;
        if (found < 0) { err_set(err, GSW_EFAIL, "cache: a stored manager tree is damaged"); manager_free(m); }
    } else if (rc != SQLITE_DONE) {
        cache_fail(c, err, "read the manager's trees");
        found = -1;
    }
    sqlite3_finalize(st);
    return found;
}
