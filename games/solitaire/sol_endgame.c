/* The endgame table behind the search's strongest pruning: every position of
 * up to maxpegs pegs from which the goal can still be reached, found by
 * jumping backwards from the goal (folded over the goal's symmetries). It
 * is built once per variant, when a search first runs long, and levels are
 * added while each stays under SOL_ENDGAME_CAP positions. */
#include <stdlib.h>
#include <string.h>

#include "games/solitaire/sol.h"

#define SOL_ENDGAME_CAP 1000000

typedef struct eg_set { uint64_t *key, mask, used; } eg_set_t;

struct sol_endgame {
    int maxpegs;
    eg_set_t level[SOL_MAX_HOLES + 1];
};

static uint64_t eg_hash(uint64_t k) { return k * 0x9E3779B97F4A7C15ull >> 11; }

static int eg_add(eg_set_t *s, uint64_t k)
{
    if ((s->used + 1) * 2 > s->mask + 1) {
        uint64_t nmask = s->mask ? s->mask * 2 + 1 : 1023;
        uint64_t *t = calloc(nmask + 1, sizeof *t);
        if (!t) return 1;
        for (uint64_t i = 0; s->key && i <= s->mask; i++) {
            if (!s->key[i]) continue;
            uint64_t j = eg_hash(s->key[i]) & nmask;
            while (t[j]) j = (j + 1) & nmask;
            t[j] = s->key[i];
        }
        free(s->key);
        s->key = t;
        s->mask = nmask;
    }
    uint64_t j = eg_hash(k) & s->mask;
    while (s->key[j] && s->key[j] != k) j = (j + 1) & s->mask;
    if (!s->key[j]) { s->key[j] = k; s->used++; }
    return 0;
}

static int eg_has(const eg_set_t *s, uint64_t k)
{
    uint64_t j = eg_hash(k) & s->mask;
    while (s->key[j]) {
        if (s->key[j] == k) return 1;
        j = (j + 1) & s->mask;
    }
    return 0;
}

static struct sol_endgame *sol_endgame_build(const solv_t *d)
{
    struct sol_endgame *e = calloc(1, sizeof *e);
    if (!e || d->goal == SOL_GOAL_LEFT) return e;
    int bad = 0;
    if (d->goal == SOL_GOAL_HOLE) bad |= eg_add(&e->level[1], sol_canon(d, d->nsym, 1ull << d->goal_hole, NULL));
    else
        for (int i = 0; i < d->n; i++) bad |= eg_add(&e->level[1], sol_canon(d, d->nsym, 1ull << i, NULL));
    if (bad) return e;
    e->maxpegs = 1;
    for (int m = 1; m < d->n && m < 40; m++) {
        eg_set_t *cur = &e->level[m], *nxt = &e->level[m + 1];
        for (uint64_t i = 0; i <= cur->mask && !bad; i++) {
            uint64_t q = cur->key[i];
            if (!q) continue;
            for (int j = 0; j < d->nj && !bad; j++) {   /* a jump undone: t empties, f and o fill */
                if (!(q >> d->jt[j] & 1) || (q >> d->jf[j] & 1) || (q >> d->jo[j] & 1)) continue;
                uint64_t p = q ^ (1ull << d->jf[j] | 1ull << d->jo[j] | 1ull << d->jt[j]);
                bad = eg_add(nxt, sol_canon(d, d->nsym, p, NULL)) || nxt->used > SOL_ENDGAME_CAP;
            }
        }
        if (bad || !nxt->used) {
            free(nxt->key);
            memset(nxt, 0, sizeof *nxt);
            break;
        }
        e->maxpegs = m + 1;
    }
    return e;
}

void sol_endgame_prepare(const solv_t *dc)
{
    solv_t *d = (solv_t *)dc;   /* built once, under the lock; read only after */
    if (atomic_load_explicit(&d->endgame_ready, memory_order_acquire)) return;
    pthread_mutex_lock(&d->endgame_lock);
    if (!atomic_load_explicit(&d->endgame_ready, memory_order_relaxed)) {
        d->endgame = sol_endgame_build(d);
        atomic_store_explicit(&d->endgame_ready, 1, memory_order_release);
    }
    pthread_mutex_unlock(&d->endgame_lock);
}

int sol_endgame_prune(const solv_t *d, uint64_t p, char *reason, size_t n)
{
    if (!atomic_load_explicit(&d->endgame_ready, memory_order_acquire) || !d->endgame) return 0;
    int pegs = __builtin_popcountll(p);
    if (pegs > d->endgame->maxpegs || pegs < 1) return 0;
    if (eg_has(&d->endgame->level[pegs], sol_canon(d, d->nsym, p, NULL))) return 0;
    if (reason)
        snprintf(reason, n, "endgame table: no %d-peg position that can still reach the goal matches this one", pegs);
    return 1;
}

void sol_endgame_free(solv_t *d)
{
    if (!d->endgame) return;
    for (int m = 0; m <= SOL_MAX_HOLES; m++) free(d->endgame->level[m].key);
    free(d->endgame);
    d->endgame = NULL;
}
