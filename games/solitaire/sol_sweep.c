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

typedef struct level {
    uint64_t *key;        /* canonical positions; 0 = empty slot */
    u128 *count;          /* SWEEP_SOLUTIONS */
    uint8_t *mm;          /* SWEEP_MIN_MOVES: fewest moves */
    uint64_t *last;       /* ... holes where such a last move ends */
    uint64_t cap, used;
} level_t;

static uint64_t lv_hash(uint64_t k, uint64_t mask)
{
    return (k * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

static int lv_alloc(level_t *l, uint64_t cap, int what)
{
    memset(l, 0, sizeof *l);
    l->cap = cap;
    l->key = calloc(cap, sizeof *l->key);
    if (what & SWEEP_SOLUTIONS) l->count = calloc(cap, sizeof *l->count);
    if (what & SWEEP_MIN_MOVES) {
        l->mm = malloc(cap);
        l->last = calloc(cap, sizeof *l->last);
        if (l->mm) memset(l->mm, 0xff, cap);
    }
    return !l->key || ((what & SWEEP_SOLUTIONS) && !l->count) || ((what & SWEEP_MIN_MOVES) && (!l->mm || !l->last));
}

static void lv_free(level_t *l)
{
    free(l->key);
    free(l->count);
    free(l->mm);
    free(l->last);
    memset(l, 0, sizeof *l);
}

static uint64_t lv_slot(const level_t *l, uint64_t k)
{
    uint64_t i = lv_hash(k, l->cap - 1);
    while (l->key[i] && l->key[i] != k) i = (i + 1) & (l->cap - 1);
    return i;
}

static int lv_grow(level_t *l, int what)
{
    level_t n;
    if (lv_alloc(&n, l->cap * 2, what)) { lv_free(&n); return 1; }
    for (uint64_t i = 0; i < l->cap; i++) {
        if (!l->key[i]) continue;
        uint64_t j = lv_slot(&n, l->key[i]);
        n.key[j] = l->key[i];
        if (n.count) n.count[j] = l->count[i];
        if (n.mm) { n.mm[j] = l->mm[i]; n.last[j] = l->last[i]; }
    }
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
        if (l->key[i]) { tmp[3 * n] = l->key[i]; tmp[3 * n + 1] = l->last[i]; tmp[3 * n + 2] = l->mm[i]; n++; }
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
static void sol_path(const solv_t *d, kept_t *kept, int top, uint64_t q, puzzle_sweep_t *sw)
{
    int H = d->nsym_start, s;
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
    level_t cur, nxt;
    if (lv_alloc(&cur, 1024, what) || ((what & SWEEP_MIN_MOVES) && !kept)) {
        lv_free(&cur);
        free(kept);
        return err_set(err, GSW_EFAIL, "out of memory for the sweep");
    }
    uint64_t c0 = sol_canon(d, H, p0, NULL);
    uint64_t i0 = lv_slot(&cur, c0);
    cur.key[i0] = c0;
    cur.used = 1;
    if (cur.count) cur.count[i0] = 1;
    if (cur.mm) { cur.mm[i0] = 0; cur.last[i0] = 0; }
    int rc = GSW_OK, best_level = -1;
    uint64_t best_pos = 0;
    move_t mv[GSW_MAX_MOVES];
    for (int lev = 0;; lev++) {
        /* this level's tallies */
        uint64_t folded = 0, all = 0;
        for (uint64_t i = 0; i < cur.cap; i++) {
            uint64_t k = cur.key[i];
            if (!k) continue;
            folded++;
            int stab = 1;
            for (int s = 1; s < H; s++) stab += sol_map(d, s, k) == k;
            all += (uint64_t)(H / stab);
            int counted = sol_goal_met(d, k)
                          && (d->goal != SOL_GOAL_LEFT || __builtin_popcountll(k) == d->goal_left || lev == 0);
            if (counted && cur.count) sw->solutions += cur.count[i];
            if (counted && cur.mm && (sw->min_moves < 0 || cur.mm[i] < sw->min_moves)) {
                sw->min_moves = cur.mm[i];
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
        if (lv_alloc(&nxt, cur.cap, what)) { rc = err_set(err, GSW_EFAIL, "out of memory for the sweep"); break; }
        for (uint64_t i = 0; i < cur.cap && rc == GSW_OK; i++) {
            uint64_t p = cur.key[i];
            if (!p) continue;
            if ((i & 0xffff) == 0 && sw->stop && *sw->stop) break;
            if (d->goal == SOL_GOAL_LEFT && __builtin_popcountll(p) <= d->goal_left && !(what & SWEEP_POSITIONS))
                continue;
            int n = sol_gen(d, p, mv);
            for (int m = 0; m < n; m++) {
                uint64_t q = sol_apply(p, mv[m]);
                if (prune && sol_prune(d, q, NULL, 0)) continue;
                /* canonical form; with the landing holes seen from it */
                uint64_t c = q, land = 1ull << sol_mt(mv[m]);
                for (int s = 1; s < H; s++) {
                    uint64_t img = sol_map(d, s, q);
                    uint64_t t = 1ull << d->perm[s][sol_mt(mv[m])];
                    if (img < c) { c = img; land = t; }
                    else if (img == c) land |= t;
                }
                uint64_t j = lv_slot(&nxt, c);
                if (!nxt.key[j]) {
                    nxt.key[j] = c;
                    nxt.used++;
                }
                if (nxt.count) nxt.count[j] += cur.count[i];
                if (nxt.mm) {
                    int cost = cur.mm[i] + !(cur.last[i] >> sol_mf(mv[m]) & 1);
                    if (cost < nxt.mm[j]) { nxt.mm[j] = (uint8_t)cost; nxt.last[j] = land; }
                    else if (cost == nxt.mm[j]) nxt.last[j] |= land;
                }
                if (nxt.used * 2 > nxt.cap && lv_grow(&nxt, what)) {
                    rc = err_set(err, GSW_EFAIL, "out of memory for the sweep");
                    break;
                }
            }
        }
        if (sw->stop && *sw->stop) sw->aborted = 1;
        lv_free(&cur);
        cur = nxt;
        if (rc || sw->aborted || !cur.used) break;
    }
    lv_free(&cur);
    if (!rc && !sw->aborted && kept && best_level >= 0) sol_path(d, kept, best_level, best_pos, sw);
    if (kept) {
        for (int k = 0; k <= maxlev; k++) { free(kept[k].key); free(kept[k].last); free(kept[k].mm); }
        free(kept);
    }
    return rc;
}
