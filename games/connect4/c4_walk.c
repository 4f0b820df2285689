/* Connect Four on BDDs: the one walk a ply (see c4_bdd_int.h), the forward
 * and backward passes' transition in the compressed encoding, column order. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "games/connect4/c4_bdd_int.h"

/* --- one walk for every drop (compressed encoding, column order) ---
 *
 * With each column's h + 1 variables together, a drop in column c only
 * rewrites the paths through column c's levels: the pattern "colours, 1,
 * 0 ..." becomes "colours, p, 1, 0 ...", and the node a path leaves the
 * column by (its exit) stays. So the union of every drop's image is one
 * walk over S, and likewise the union of the preimages (the converse
 * rewriting). Levels are variables (BuDDy never reorders here); a node's
 * skipped levels are read as a node with equal children. */

static int wtop(BDD n) { return n < 2 ? 1 << 20 : bdd_var(n); }
static BDD wlo(BDD n, int l) { return wtop(n) > l ? n : bdd_low(n); }
static BDD whi(BDD n, int l) { return wtop(n) > l ? n : bdd_high(n); }

/* the node (l ? hi : lo), lo and hi held by the caller; the result unheld */
static BDD wmk(int l, BDD lo, BDD hi)
{
    return lo == hi ? lo : bdd_ite(bdd_ithvar(l), hi, lo);
}

static BDD w_or(BDD a, BDD b) { return a == bddfalse ? b : b == bddfalse ? a : bdd_or(a, b); }

/* the exit of the all-zero path from level l to the column's end e */
static BDD wzeros(BDD n, int l, int e)
{
    for (; l < e && n != bddfalse; l++) n = wlo(n, l);
    return n;
}

/* --- the walk in lockstep ---
 * A first version built, at each column's top, the union of the images
 * of the later columns for every exit and ORed it with the column's
 * rewritten part: unions that mostly never reach the result (1.45 times
 * slower on 6x5). In lockstep, a state at level l of column c is the set
 * of paths still to
 * be laid out below it, as cursors into the source set:
 *   a  the drop is still to come (in this column or a later one);
 *   d  the drop is in this column, above l (the column read as it is);
 *   m  (drops) the drop was at l - 1: 1 at l, zeros to the column's end,
 *      then the exit m;
 *   z  zeros to the column's end, then the exit z;
 *   b  the drop is done (the source read as it is);
 *   e  the mask: the result is conjoined with it as the walk goes (true:
 *      none; the backward pass wants "these positions with a move into
 *      X", and a path off the mask stops at once).
 * Each of a branch's cursors goes to that branch's child state, one node
 * is made a state, and at a column's end b and z join in one OR. A state
 * with nothing but b is b (and e) itself: the walk stops there. Every
 * key's b is held by the memo (an OR's result may die otherwise, and its
 * number be reused); the other cursors are nodes of the source set and of
 * the mask, held by the caller. */
typedef struct lkey { int32_t l, a, d, m, z, b, e; } lkey_t;

typedef struct lmemo {
    lkey_t *key;     /* l == -1: empty */
    BDD *val;        /* held */
    size_t mask, n;
    size_t cap;      /* the most entries; then the memo is emptied (a cache:
                        what it forgets is made again, the same nodes) */
    long flushes;
} lmemo_t;

static size_t lhash(const lkey_t *k)
{
    uint64_t h = (uint64_t)(uint32_t)k->a * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)(uint32_t)k->d * 0xC2B2AE3D27D4EB4FULL + (h >> 29);
    h ^= (uint64_t)(uint32_t)k->m * 0x165667B19E3779F9ULL + (h >> 31);
    h ^= (uint64_t)(uint32_t)k->z * 0x85EBCA77C2B2AE63ULL + (h >> 27);
    h ^= (uint64_t)(uint32_t)k->b * 0x27D4EB2F165667C5ULL + (h >> 33);
    h ^= (uint64_t)(uint32_t)k->e * 0xD6E8FEB86659FD93ULL + (h >> 30);
    h ^= (uint64_t)(uint32_t)k->l * 0xFF51AFD7ED558CCDULL;
    return (size_t)(h ^ (h >> 32));
}

static int lkey_eq(const lkey_t *x, const lkey_t *y) { return !memcmp(x, y, sizeof *x); }

static int lmemo_grow(lmemo_t *m)
{
    size_t cap = m->mask ? 2 * (m->mask + 1) : 1 << 16;
    lkey_t *key = malloc(cap * sizeof *key);
    BDD *val = malloc(cap * sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    for (size_t i = 0; i < cap; i++) key[i].l = -1;
    for (size_t i = 0; m->mask && i <= m->mask; i++)
        if (m->key[i].l >= 0) {
            size_t j = lhash(&m->key[i]) & (cap - 1);
            while (key[j].l >= 0) j = (j + 1) & (cap - 1);
            key[j] = m->key[i];
            val[j] = m->val[i];
        }
    free(m->key);
    free(m->val);
    m->key = key;
    m->val = val;
    m->mask = cap - 1;
    return 0;
}

static BDD *lmemo_find(lmemo_t *m, const lkey_t *k)
{
    for (size_t i = lhash(k) & m->mask;; i = (i + 1) & m->mask) {
        if (m->key[i].l < 0) return NULL;
        if (lkey_eq(&m->key[i], k)) return &m->val[i];
    }
}

/* forget every entry, dropping their references */
static void lmemo_flush(lmemo_t *m)
{
    for (size_t i = 0; i <= m->mask; i++)
        if (m->key[i].l >= 0) {
            if (m->val[i] > 1) bdd_delref(m->val[i]);
            if (m->key[i].b > 1) bdd_delref(m->key[i].b);
            m->key[i].l = -1;
        }
    m->n = 0;
    m->flushes++;
}

/* v held by the caller: the memo takes that reference, and one on k->b */
static BDD lmemo_put(lmemo_t *m, const lkey_t *k, BDD v)
{
    if (m->n + 1 > m->cap) lmemo_flush(m);
    if ((m->n + 1) * 2 > m->mask + 1 && lmemo_grow(m)) c4b_err_handler(BDD_MEMORY);
    size_t i = lhash(k) & m->mask;
    while (m->key[i].l >= 0) i = (i + 1) & m->mask;
    m->key[i] = *k;
    m->val[i] = v;
    if (k->b > 1) bdd_addref(k->b);
    m->n++;
    return v;
}

static void lmemo_free(lmemo_t *m)
{
    for (size_t i = 0; m->mask && i <= m->mask; i++)
        if (m->key[i].l >= 0) {
            if (m->val[i] > 1) bdd_delref(m->val[i]);
            if (m->key[i].b > 1) bdd_delref(m->key[i].b);
        }
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

typedef struct lwalk {
    int p, H, w, move;
    lmemo_t *m;
} lwalk_t;

static BDD l_state(lwalk_t *w, const lkey_t *k);

/* a column's end: b and z join; the next column starts with the drop
 * still to come from a (held result) */
static BDD l_cross(lwalk_t *w, int l, BDD a, BDD z, BDD b, BDD e)
{
    if (e == bddfalse) return bddfalse;
    BDD nb = keep(w_or(b, z));
    if (a == bddfalse || l / w->H == w->w) {
        if (e != bddtrue) set(&nb, bdd_and(nb, e));
        return nb;
    }
    lkey_t k = { l, a, a, bddfalse, bddfalse, nb, e };
    BDD r = l_state(w, &k);
    drop(&nb);
    return r;
}

/* the result of state k (held) */
static BDD l_state(lwalk_t *w, const lkey_t *k)
{
    if (k->e == bddfalse) return bddfalse;
    if (k->a == bddfalse && k->d == bddfalse && k->m == bddfalse && k->z == bddfalse)
        return keep(k->e == bddtrue ? k->b : bdd_and(k->b, k->e));
    BDD *hit = lmemo_find(w->m, k);
    if (hit) return keep(*hit);
    int l = k->l, e = (l / w->H + 1) * w->H;
    lkey_t ch[2];
    for (int x = 0; x < 2; x++) {
        ch[x].l = l + 1;
        ch[x].a = x ? whi(k->a, l) : wlo(k->a, l);
        ch[x].b = x ? whi(k->b, l) : wlo(k->b, l);
        ch[x].e = x ? whi(k->e, l) : wlo(k->e, l);
        ch[x].d = l < e - 1 ? (x ? whi(k->d, l) : wlo(k->d, l)) : bddfalse;   /* no drop into a full column */
        ch[x].m = ch[x].z = bddfalse;
    }
    if (k->m != bddfalse) ch[1].z = k->m;   /* the 1 above the drop */
    if (k->z != bddfalse) ch[0].z = k->z;
    if (k->d != bddfalse && l < e - 1) {
        if (w->move == W_DROP) {   /* the source's marker here: the mover's disc, the marker above */
            BDD X = wzeros(whi(k->d, l), l + 1, e);
            if (X != bddfalse) ch[w->p == 0 ? 1 : 0].m = X;
        } else {   /* the mover's disc here and the marker above: the marker here before */
            BDD X = wzeros(whi(w->p == 0 ? whi(k->d, l) : wlo(k->d, l), l + 1), l + 2, e);
            if (X != bddfalse) ch[1].z = X;
        }
    }
    BDD r2[2];
    for (int x = 0; x < 2; x++) {
        if (l + 1 == e) r2[x] = l_cross(w, e, ch[x].a, ch[x].z, ch[x].b, ch[x].e);
        else r2[x] = l_state(w, &ch[x]);
    }
    BDD r = keep(wmk(l, r2[0], r2[1]));
    drop(&r2[0]);
    drop(&r2[1]);
    return keep(lmemo_put(w->m, k, r));
}

BDD c4b_walk_all(c4b_t *b, BDD S, int p, int move, BDD mask)
{
    lwalk_t w = { p, b->s.h + 1, b->s.w, move, NULL };
    if (!(w.m = b->walk = calloc(1, sizeof *w.m)) || lmemo_grow(w.m)) c4b_err_handler(BDD_MEMORY);
    w.m->cap = b->memo_cap;
    lkey_t k = { 0, S, S, bddfalse, bddfalse, bddfalse, mask };
    BDD r = l_state(&w, &k);
    b->memo_flushes += w.m->flushes;
    lmemo_free(w.m);
    free(w.m);
    b->walk = NULL;
    return r;
}
void c4b_walk_free(c4b_t *b)
{
    if (!b->walk) return;
    lmemo_free(b->walk);
    free(b->walk);
    b->walk = NULL;
}
