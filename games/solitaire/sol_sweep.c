/* The level sweep behind `gsw count` and `--min-moves`: every position
 * reachable from the start, one level (number of jumps made) at a time,
 * folded over the symmetries that fix the start and the goal. Per
 * position it carries the number of jump sequences reaching it (summed over
 * its symmetry class, so a class's total is its representative's plus its
 * images') and the fewest moves (chains of jumps by one peg) reaching it
 * with the holes where the last move can have ended: a later state ending
 * elsewhere costs one move more and can never do better than starting a
 * new move, so these two facts make the minimum exact. */
#include <stdlib.h>
#include <string.h>

#include "core/puzzle.h"
#include "games/solitaire/sol.h"

typedef unsigned __int128 u128;

typedef struct slot {
    uint64_t key;         /* canonical position; 0 = empty */
    uint64_t last;        /* SWEEP_MIN_MOVES: holes where a fewest-move history ends */
    u128 count;           /* SWEEP_SOLUTIONS: jump sequences; else the fewest moves */
} slot_t;

typedef struct level {
    slot_t *s;
    uint64_t cap, used;
} level_t;

static uint64_t lv_hash(uint64_t k, uint64_t mask)
{
    return (k * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

static int lv_alloc(level_t *l, uint64_t cap)
{
    l->cap = cap;
    l->used = 0;
    l->s = calloc(cap, sizeof *l->s);
    return !l->s;
}

static void lv_free(level_t *l)
{
    free(l->s);
    memset(l, 0, sizeof *l);
}

static uint64_t lv_slot(const level_t *l, uint64_t k)
{
    uint64_t i = lv_hash(k, l->cap - 1);
    while (l->s[i].key && l->s[i].key != k) i = (i + 1) & (l->cap - 1);
    return i;
}

static int lv_grow(level_t *l)
{
    level_t n;
    if (lv_alloc(&n, l->cap * 2)) return 1;
    for (uint64_t i = 0; i < l->cap; i++)
        if (l->s[i].key) n.s[lv_slot(&n, l->s[i].key)] = l->s[i];
    n.used = l->used;
    lv_free(l);
    *l = n;
    return 0;
}

/* A finished level kept for the path back (SWEEP_MIN_MOVES): sorted keys. */
typedef struct kept { uint64_t *key, *last; uint8_t *mm; uint64_t n; } kept_t;

static int kept_cmp(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int kept_make(const level_t *l, kept_t *k)
{
    uint64_t *tmp = malloc(l->used * 3 * sizeof *tmp);
    k->key = malloc(l->used * sizeof *k->key);
    k->last = malloc(l->used * sizeof *k->last);
    k->mm = malloc(l->used ? l->used : 1);
    if (!tmp || !k->key || !k->last || !k->mm) { free(tmp); return 1; }
    uint64_t n = 0;
    for (uint64_t i = 0; i < l->cap; i++)
        if (l->s[i].key) { tmp[3 * n] = l->s[i].key; tmp[3 * n + 1] = l->s[i].last; tmp[3 * n + 2] = (uint64_t)l->s[i].count; n++; }
    qsort(tmp, n, 3 * sizeof *tmp, kept_cmp);
    for (uint64_t i = 0; i < n; i++) {
        k->key[i] = tmp[3 * i];
        k->last[i] = tmp[3 * i + 1];
        k->mm[i] = (uint8_t)tmp[3 * i + 2];
    }
    k->n = n;
    free(tmp);
    return 0;
}

static int64_t kept_find(const kept_t *k, uint64_t key)
{
    uint64_t lo = 0, hi = k->n;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (k->key[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->n && k->key[lo] == key ? (int64_t)lo : -1;
}

static uint64_t sol_map_set(const uint8_t *perm, uint64_t set)
{
    uint64_t r = 0;
    for (; set; set &= set - 1) r |= 1ull << perm[__builtin_ctzll(set)];
    return r;
}

/* Walk back from the goal through the kept levels to a shortest solution. */
static void sol_path(const solv_t *d, int H, kept_t *kept, int top, uint64_t q, puzzle_sweep_t *sw)
{
    int s;
    uint64_t c = sol_canon(d, H, q, &s);
    int64_t at = kept_find(&kept[top], c);
    int m = kept[top].mm[at];
    uint64_t allowed = sol_map_set(d->inv[s], kept[top].last[at]);
    sw->npath = top;
    for (int k = top; k > 0; k--) {
        int found = 0;
        for (int j = 0; j < d->nj && !found; j++) {
            int f = d->jf[j], o = d->jo[j], t = d->jt[j];
            if (!(allowed >> t & 1) || !(q >> t & 1) || (q >> f & 1) || (q >> o & 1)) continue;
            uint64_t p = q ^ (1ull << f | 1ull << o | 1ull << t);
            uint64_t pc = sol_canon(d, H, p, &s);
            int64_t i = kept_find(&kept[k - 1], pc);
            if (i < 0) continue;
            int pm = kept[k - 1].mm[i];
            uint64_t pl = sol_map_set(d->inv[s], kept[k - 1].last[i]);
            int cont = pl >> f & 1;
            if (pm + !cont != m) continue;
            sw->path[k - 1] = sol_move(f, o, t);
            allowed = cont ? 1ull << f : pl;
            m = pm;
            q = p;
            found = 1;
        }
        if (!found) { sw->npath = 0; return; }   /* cannot happen */
    }
}

int sol_sweep(const gv_t *v, const void *pos, puzzle_sweep_t *sw, err_t *err)
{
    const solv_t *d = sol_data(v);
    int what = sw->what, H = d->nsym_start;
    int prune = !(what & SWEEP_POSITIONS);
    uint64_t p0 = sol_pos(pos);
    /* fold only symmetries that fix this position (and the goal) */
    while (H > 1) {
        int ok = 1;
        for (int s = 1; s < H && ok; s++) ok = sol_map(d, s, p0) == p0;
        if (ok) break;
        H = 1;
    }
    sw->nsym = H;
    sw->levels = 0;
    sw->solutions = 0;
    sw->min_moves = -1;
    sw->npath = 0;
    sw->aborted = 0;
    int maxlev = __builtin_popcountll(p0);
    kept_t *kept = (what & SWEEP_MIN_MOVES) ? calloc((size_t)maxlev + 1, sizeof *kept) : NULL;
    level_t cur, nxt, spare = { 0 };   /* spare: the level before, reused (no fresh pages) */
    int counting = (what & SWEEP_SOLUTIONS) != 0, minmv = (what & SWEEP_MIN_MOVES) != 0;
    if (counting && minmv) return err_set(err, GSW_EINPUT, "count solutions and fewest moves in separate sweeps");
    if (lv_alloc(&cur, 1024) || (minmv && !kept)) {
        lv_free(&cur);
        free(kept);
        return err_set(err, GSW_EFAIL, "out of memory for the sweep");
    }
    uint64_t c0 = sol_canon(d, H, p0, NULL);
    slot_t *s0 = &cur.s[lv_slot(&cur, c0)];
    s0->key = c0;
    s0->count = counting ? 1 : 0;
    cur.used = 1;
    int rc = GSW_OK, best_level = -1;
    uint64_t best_pos = 0;
    move_t mv[GSW_MAX_MOVES];
    enum { BATCH = 64 };
    struct child { uint64_t key, land; u128 val; uint64_t slot; } batch[BATCH + GSW_MAX_MOVES];
    for (int lev = 0;; lev++) {
        /* this level's tallies */
        uint64_t folded = 0, all = 0;
        for (uint64_t i = 0; i < cur.cap; i++) {
            uint64_t k = cur.s[i].key;
            if (!k) continue;
            folded++;
            int stab = 1;
            for (int s = 1; s < H; s++) stab += sol_map(d, s, k) == k;
            all += (uint64_t)(H / stab);
            int counted = sol_goal_met(d, k)
                          && (d->goal != SOL_GOAL_LEFT || __builtin_popcountll(k) == d->goal_left || lev == 0);
            if (counted && counting) sw->solutions += cur.s[i].count;
            if (counted && minmv && (sw->min_moves < 0 || (int)cur.s[i].count < sw->min_moves)) {
                sw->min_moves = (int)cur.s[i].count;
                best_level = lev;
                best_pos = k;
            }
        }
        sw->positions[lev] = all;
        sw->folded[lev] = folded;
        sw->levels = lev + 1;
        if (kept && kept_make(&cur, &kept[lev])) { rc = err_set(err, GSW_EFAIL, "out of memory for the sweep"); break; }
        if (lev + 1 >= SWEEP_MAX_LEVELS || (sw->stop && *sw->stop)) {
            sw->aborted = sw->stop && *sw->stop;
            break;
        }
        if (spare.cap == cur.cap) {
            nxt = spare;
            nxt.used = 0;
            memset(nxt.s, 0, nxt.cap * sizeof *nxt.s);
            spare.s = NULL;
            spare.cap = 0;
        } else if (lv_alloc(&nxt, cur.cap)) {
            rc = err_set(err, GSW_EFAIL, "out of memory for the sweep");
            break;
        }
        int nb = 0;
        for (uint64_t i = 0; i <= cur.cap && rc == GSW_OK; i++) {
            /* children of a batch of parents: canonical keys first, their slots prefetched, then stored */
            if (i < cur.cap) {
                const slot_t *ps = &cur.s[i];
                uint64_t p = ps->key;
                if (!p) continue;
                if ((i & 0xffff) == 0 && sw->stop && *sw->stop) break;
                if (d->goal == SOL_GOAL_LEFT && __builtin_popcountll(p) <= d->goal_left && !(what & SWEEP_POSITIONS))
                    continue;
                int n = sol_gen_fast(d, p, mv);
                for (int m = 0; m < n; m++) {
                    uint64_t q = sol_apply(p, mv[m]);
                    if (prune && sol_prune(d, q, NULL, 0)) continue;
                    uint64_t c = q, land = 1ull << sol_mt(mv[m]);
                    for (int s = 1; s < H; s++) {
                        uint64_t img = sol_map(d, s, q);
                        uint64_t t = 1ull << d->perm[s][sol_mt(mv[m])];
                        if (img < c) { c = img; land = t; }
                        else if (img == c) land |= t;
                    }
                    struct child *ch = &batch[nb++];
                    ch->key = c;
                    ch->land = land;
                    ch->val = counting ? ps->count : ps->count + !(ps->last >> sol_mf(mv[m]) & 1);
                }
                if (nb < BATCH) continue;
            }
            if ((nxt.used + (uint64_t)nb) * 2 > nxt.cap && lv_grow(&nxt)) {
                rc = err_set(err, GSW_EFAIL, "out of memory for the sweep");
                break;
            }
            for (int b = 0; b < nb; b++) {
                batch[b].slot = lv_hash(batch[b].key, nxt.cap - 1);
                __builtin_prefetch(&nxt.s[batch[b].slot], 1);
            }
            for (int b = 0; b < nb; b++) {
                struct child *ch = &batch[b];
                uint64_t j = ch->slot;
                while (nxt.s[j].key && nxt.s[j].key != ch->key) j = (j + 1) & (nxt.cap - 1);
                slot_t *t = &nxt.s[j];
                if (!t->key) {
                    t->key = ch->key;
                    nxt.used++;
                    t->count = counting ? 0 : 255;
                }
                if (counting) t->count += ch->val;
                else if (ch->val < t->count) { t->count = ch->val; t->last = ch->land; }
                else if (ch->val == t->count) t->last |= ch->land;
            }
            nb = 0;
        }
        if (sw->stop && *sw->stop) sw->aborted = 1;
        lv_free(&spare);
        spare = cur;
        cur = nxt;
        if (rc || sw->aborted || !cur.used) break;
    }
    lv_free(&cur);
    lv_free(&spare);
    if (!rc && !sw->aborted && kept && best_level >= 0) sol_path(d, H, kept, best_level, best_pos, sw);
    if (kept) {
        for (int k = 0; k <= maxlev; k++) { free(kept[k].key); free(kept[k].last); free(kept[k].mm); }
        free(kept);
    }
    return rc;
}
