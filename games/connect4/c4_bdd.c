/* Connect Four on BDDs: see c4_bdd.h.
 *
 * A move is a drop into column c landing on row r. In the compressed
 * encoding the column's cells r .. h before the move are the cube
 * "1 0 0 ..." (r discs below) and after it "p 1 0 ..." (p: the mover's
 * colour), so the image of a set S under the move is S restricted to the
 * first cube, conjoined with the second; the preimage is the converse. In
 * the cell-wise encoding the move quantifies the cell's two variables and
 * the side's, under "the cell is empty, the one below it is not".
 *
 * Termination: a position reached from one that had no four holds a four
 * only through the cell just played, so the new ply's ended positions are
 * the images conjoined with "the mover holds the other three cells of a
 * line through (c, r)"; they count, and are not expanded. */
#include "games/connect4/c4_bdd.h"

#include <bdd.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *c4b_encoding_name(c4b_encoding_t e) { return e == C4B_CELLWISE ? "cellwise" : "compressed"; }
const char *c4b_order_name(c4b_order_t o) { return o == C4B_ROW ? "row" : "column"; }

int c4b_encoding_parse(const char *s, c4b_encoding_t *e)
{
    if (!strcmp(s, "compressed")) *e = C4B_COMPRESSED;
    else if (!strcmp(s, "cellwise") || !strcmp(s, "cell-wise")) *e = C4B_CELLWISE;
    else return -1;
    return 0;
}

int c4b_order_parse(const char *s, c4b_order_t *o)
{
    if (!strcmp(s, "column") || !strcmp(s, "columns")) *o = C4B_COLUMN;
    else if (!strcmp(s, "row") || !strcmp(s, "rows")) *o = C4B_ROW;
    else return -1;
    return 0;
}

int c4b_nvars(const c4b_spec_t *s)
{
    return s->enc == C4B_COMPRESSED ? s->w * (s->h + 1) : 2 * s->w * s->h + 1;
}

/* compressed: the variable of cell (c, r), r in 0 .. h (h: the extra row) */
static int cvar(const c4b_spec_t *s, int c, int r)
{
    return s->order == C4B_COLUMN ? c * (s->h + 1) + r : r * s->w + c;
}

/* cell-wise: the variable of "player p's disc on (c, r)"; the side's is 0 */
static int wvar(const c4b_spec_t *s, int c, int r, int p)
{
    int cell = s->order == C4B_COLUMN ? c * s->h + r : r * s->w + c;
    return 1 + 2 * cell + p;
}

void c4b_assign(const c4b_spec_t *s, const int8_t *cells, int ply, uint8_t *bits)
{
    memset(bits, 0, (size_t)c4b_nvars(s));
    for (int c = 0; c < s->w; c++) {
        int n = 0;
        for (int r = 0; r < s->h; r++) {
            int x = cells[c * s->h + r];
            if (!x) break;
            n++;
            if (s->enc == C4B_COMPRESSED) bits[cvar(s, c, r)] = x == 1;
            else bits[wvar(s, c, r, x - 1)] = 1;
        }
        if (s->enc == C4B_COMPRESSED) bits[cvar(s, c, n)] = 1;
    }
    if (s->enc == C4B_CELLWISE) bits[0] = (uint8_t)(ply & 1);
}

/* --- the engine --- */

struct c4b {
    c4b_spec_t s;
    int nvars, cells;
    BDD *reach, *term;          /* by ply */
    BDD (*val)[3];              /* by ply: won, drawn, lost (0 before made: bddfalse is 0) */
    char *made;                 /* by ply: val made or loaded */
    BDD *pre, *post[2];         /* by move (c * h + r): before / after for player p */
    BDD *vars;                  /* cell-wise: the move's variables (a set) */
    BDD *lines[2];              /* by move: player p holds a line through it, less the cell */
    BDD four[2];                /* player p holds four in a line (somewhere) */
    int walks;                  /* compressed encoding in column order: one walk a ply */
    size_t memo_cap;            /* the walk's memo: the most entries */
    long memo_flushes;          /* times it was full and emptied */
    long peak;                  /* the most live nodes seen: after each garbage collection
                                   and at the end of each ply */
    long table;                 /* the largest node table (live, dead and free nodes) */
    struct lmemo *walk;         /* a walk's memo while one runs (freed on an error) */
};

static c4b_t *c4b_current;     /* the engine the hooks report to */
static jmp_buf c4b_jmp;
static int c4b_error;
static int c4b_guard;            /* c4b_jmp is live: a guarded call is running */
static volatile int *c4b_stop;

static void c4b_err_handler(int e)
{
    c4b_error = e;
    if (c4b_guard) {
        c4b_guard = 0;
        longjmp(c4b_jmp, 1);
    }
}

/* garbage collections come often in long operations: the place to stop */
static void c4b_gbc_handler(int pre, bddGbcStat *st)
{
    if (!pre && c4b_current) {   /* what survived the collection is live */
        long live = (long)st->nodes - (long)st->freenodes;
        if (live > c4b_current->peak) c4b_current->peak = live;
        if ((long)st->nodes > c4b_current->table) c4b_current->table = st->nodes;
    }
    if (!pre && c4b_guard && c4b_stop && *c4b_stop) {
        c4b_error = 1;
        c4b_guard = 0;
        longjmp(c4b_jmp, 1);
    }
}

/* the table's size; the live count is taken where it is known (below) */
static void c4b_peak(c4b_t *b)
{
    long n = bdd_getallocnum();
    if (n > b->table) b->table = n;
}

/* Collect the garbage and count what lives (the end of a ply). */
static void c4b_live(c4b_t *b)
{
    bdd_gbc();
    long n = bdd_getnodenum();
    if (n > b->peak) b->peak = n;
    c4b_peak(b);
}

static BDD keep(BDD x) { return bdd_addref(x); }
static void drop(BDD *x)
{
    if (*x > 1) bdd_delref(*x);
    *x = bddfalse;
}
/* *x = f(...), dropping the old value (f's operands still held) */
static void set(BDD *x, BDD v)
{
    v = keep(v);
    drop(x);
    *x = v;
}

/* player p (0: first) holds cell (c, r) */
static BDD holds(const c4b_spec_t *s, int c, int r, int p)
{
    if (s->enc == C4B_CELLWISE) return bdd_ithvar(wvar(s, c, r, p));
    BDD below = bddfalse;   /* some cell above (c, r) is the column's marker */
    keep(below);
    for (int k = r + 1; k <= s->h; k++) set(&below, bdd_or(below, bdd_ithvar(cvar(s, c, k))));
    BDD h = bdd_and(p == 0 ? bdd_ithvar(cvar(s, c, r)) : bdd_nithvar(cvar(s, c, r)), below);
    drop(&below);
    return h;
}

static BDD line_through(const c4b_spec_t *s, int c, int r, int p)
{
    static const int dir[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
    BDD any = keep(bddfalse);
    for (int d = 0; d < 4; d++)
        for (int o = 0; o < 4; o++) {   /* (c, r) is the line's o-th cell */
            int c0 = c - o * dir[d][0], r0 = r - o * dir[d][1];
            int c3 = c0 + 3 * dir[d][0], r3 = r0 + 3 * dir[d][1];
            if (c0 < 0 || c3 >= s->w || r0 < 0 || r0 >= s->h || r3 < 0 || r3 >= s->h) continue;
            BDD all = keep(bddtrue);
            for (int i = 0; i < 4; i++) {
                if (i == o) continue;
                BDD hd = keep(holds(s, c0 + i * dir[d][0], r0 + i * dir[d][1], p));
                set(&all, bdd_and(all, hd));
                drop(&hd);
            }
            set(&any, bdd_or(any, all));
            drop(&all);
        }
    return any;   /* held */
}

static void c4b_build_moves(c4b_t *b)
{
    const c4b_spec_t *s = &b->s;
    for (int c = 0; c < s->w; c++)
        for (int r = 0; r < s->h; r++) {
            int m = c * s->h + r;
            if (s->enc == C4B_COMPRESSED) {
                BDD pre = keep(bdd_ithvar(cvar(s, c, r)));
                for (int k = r + 1; k <= s->h; k++) set(&pre, bdd_and(pre, bdd_nithvar(cvar(s, c, k))));
                b->pre[m] = pre;
                for (int p = 0; p < 2; p++) {
                    BDD post = keep(p == 0 ? bdd_ithvar(cvar(s, c, r)) : bdd_nithvar(cvar(s, c, r)));
                    set(&post, bdd_and(post, bdd_ithvar(cvar(s, c, r + 1))));
                    for (int k = r + 2; k <= s->h; k++) set(&post, bdd_and(post, bdd_nithvar(cvar(s, c, k))));
                    b->post[p][m] = post;
                }
            } else {
                /* pre: the cell empty and the one below not (image and
                 * preimage add the side to move); post: p's disc there and
                 * the other side to move */
                int v3[3] = { 0, wvar(s, c, r, 0), wvar(s, c, r, 1) };
                b->vars[m] = keep(bdd_makeset(v3, 3));
                BDD empty = keep(bdd_and(bdd_nithvar(v3[1]), bdd_nithvar(v3[2])));
                if (r > 0) set(&empty, bdd_and(empty, bdd_or(bdd_ithvar(wvar(s, c, r - 1, 0)),
                                                                bdd_ithvar(wvar(s, c, r - 1, 1)))));
                b->pre[m] = empty;   /* without the side: added by player below */
                for (int p = 0; p < 2; p++) {
                    BDD post = keep(bdd_and(bdd_ithvar(v3[1 + p]), bdd_nithvar(v3[2 - p])));
                    set(&post, bdd_and(post, p == 0 ? bdd_ithvar(0) : bdd_nithvar(0)));
                    b->post[p][m] = post;
                }
            }
            for (int p = 0; p < 2; p++) b->lines[p][m] = line_through(s, c, r, p);
            c4b_peak(b);
        }
}

/* the side's literal: player p to move */
static BDD side(int p) { return p == 0 ? bdd_nithvar(0) : bdd_ithvar(0); }

/* the positions after player p's drop m from those of S */
static BDD image(c4b_t *b, BDD S, int m, int p)
{
    if (b->s.enc == C4B_COMPRESSED) {
        BDD t = keep(bdd_restrict(S, b->pre[m]));
        BDD r = bdd_and(t, b->post[p][m]);
        drop(&t);
        return r;
    }
    BDD pre = keep(bdd_and(b->pre[m], side(p)));
    BDD t = keep(bdd_appex(S, pre, bddop_and, b->vars[m]));
    drop(&pre);
    BDD r = bdd_and(t, b->post[p][m]);
    drop(&t);
    return r;
}

/* the positions from which player p's drop m reaches X */
static BDD preimage(c4b_t *b, BDD X, int m, int p)
{
    if (b->s.enc == C4B_COMPRESSED) {
        BDD t = keep(bdd_restrict(X, b->post[p][m]));
        BDD r = bdd_and(t, b->pre[m]);
        drop(&t);
        return r;
    }
    BDD t = keep(bdd_appex(X, b->post[p][m], bddop_and, b->vars[m]));
    BDD pre = keep(bdd_and(b->pre[m], side(p)));
    BDD r = bdd_and(t, pre);
    drop(&t);
    drop(&pre);
    return r;
}

/* --- one walk for every drop (compressed encoding, column order) ---
 *
 * With each column's h + 1 variables together, a drop in column c only
 * rewrites the paths through column c's levels: the pattern "colours, 1,
 * 0 ..." becomes "colours, p, 1, 0 ...", and the node a path leaves the
 * column by (its exit) stays. So the union of every drop's image is one
 * walk over S, and likewise the union of the preimages (the converse
 * rewriting). Levels are variables (BuDDy never reorders here); a node's
 * skipped levels are read as a node with equal children. */

enum { W_DROP, W_UNDROP };

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

/* every position one drop of player p from S (move W_DROP), or from which
 * one drop of p reaches S (W_UNDROP); compressed encoding, column order;
 * held */
static BDD walk_all(c4b_t *b, BDD S, int p, int move, BDD mask)
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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int c4b_inited;

int c4b_open(c4b_t **out, const c4b_spec_t *s, double memory_gb, err_t *err)
{
    *out = NULL;
    if (s->w < 1 || s->h < 1 || s->w * (s->h + 1) > 128)
        return err_set(err, GSW_EINPUT, "connect4 %dx%d: a board needs width*(height+1) <= 128", s->w, s->h);
    if (c4b_inited) return err_set(err, GSW_EFAIL, "the BDD package is already in use");
    if (!(memory_gb > 0) || memory_gb > 4096) return err_set(err, GSW_EINPUT, "--memory wants a size in GB above 0");
    /* BuDDy: 20 bytes a node, six operation caches of 24-byte entries at one
     * entry per 8 nodes (the cache ratio below), and the table doubles by
     * reallocation: 6x5's strong build was seen at 75 bytes a node. The
     * walk's memo (32-byte slots, at most half full) gets a fifth of it. */
    const char *pm = getenv("GSW_C4B_MOVES");
    int walks = s->enc == C4B_COMPRESSED && s->order == C4B_COLUMN && !s->per_move && !(pm && *pm && strcmp(pm, "0"));
    double share = walks ? 0.8 : 1.0;
    double maxn = memory_gb * share * 1073741824.0 / 80.0;
    if (maxn > (double)(1 << 30)) maxn = (double)(1 << 30);
    if (maxn < 10000) maxn = 10000;
    int init = maxn / 4 < (1 << 20) ? (int)(maxn / 4) : 1 << 20;   /* below the limit: BuDDy refuses a limit under its table */
    c4b_t *b = calloc(1, sizeof *b);
    if (!b) return err_set(err, GSW_EFAIL, "out of memory");
    b->s = *s;
    b->walks = walks;
    double cap = memory_gb * 0.2 * 1073741824.0 / 64.0;
    b->memo_cap = s->memo_cap ? (size_t)s->memo_cap : cap > (double)(1 << 16) ? (size_t)cap : (size_t)1 << 16;
    b->nvars = c4b_nvars(s);
    b->cells = s->w * s->h;
    int np = b->cells + 1, nm = b->cells;
    b->reach = calloc((size_t)np, sizeof *b->reach);
    b->term = calloc((size_t)np, sizeof *b->term);
    b->val = calloc((size_t)np, sizeof *b->val);
    b->made = calloc((size_t)np, sizeof *b->made);
    b->pre = calloc((size_t)nm, sizeof *b->pre);
    b->vars = calloc((size_t)nm, sizeof *b->vars);
    for (int p = 0; p < 2; p++) {
        b->post[p] = calloc((size_t)nm, sizeof *b->post[p]);
        b->lines[p] = calloc((size_t)nm, sizeof *b->lines[p]);
    }
    if (!b->reach || !b->term || !b->val || !b->made || !b->pre || !b->vars || !b->post[0] || !b->post[1] ||
        !b->lines[0] || !b->lines[1]) {
        c4b_close(b);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    if (bdd_init(init, init / 8 > 1000 ? init / 8 : 1000) < 0) {
        c4b_close(b);
        return err_set(err, GSW_EFAIL, "cannot start the BDD package");
    }
    c4b_inited = 1;
    bdd_error_hook(c4b_err_handler);
    bdd_gbc_hook(c4b_gbc_handler);
    bdd_resize_hook(NULL);
    bdd_setcacheratio(8);
    bdd_setmaxnodenum((int)maxn);
    bdd_setmaxincrease((int)maxn);
    bdd_setvarnum(b->nvars);
    c4b_stop = NULL;
    c4b_current = b;
    if (setjmp(c4b_jmp)) {
        c4b_close(b);
        return err_set(err, GSW_EFAIL, "the BDD node table is full (--memory %.3g GB): cannot set up the board",
                       memory_gb);
    }
    c4b_guard = 1;
    c4b_build_moves(b);
    c4b_guard = 0;
    *out = b;
    return GSW_OK;
}

void c4b_close(c4b_t *b)
{
    c4b_current = NULL;
    if (c4b_inited) {
        bdd_done();
        c4b_inited = 0;
    }
    if (!b) return;
    free(b->reach);
    free(b->term);
    free(b->val);
    free(b->made);
    free(b->pre);
    free(b->vars);
    for (int p = 0; p < 2; p++) {
        free(b->post[p]);
        free(b->lines[p]);
    }
    free(b);
}

int c4b_plies(const c4b_t *b) { return b->cells + 1; }
long c4b_peak_nodes(const c4b_t *b) { return b->peak; }
long c4b_table_nodes(const c4b_t *b) { return b->table; }
long c4b_memo_flushes(const c4b_t *b) { return b->memo_flushes; }

/* --- BuDDy to node arrays --- */

typedef struct nmap {
    int *key;
    uint32_t *val;
    size_t mask;
} nmap_t;

static uint32_t *nmap_slot(nmap_t *m, int k, int *found)
{
    size_t i = ((size_t)(unsigned)k * 0x9E3779B97F4A7C15ULL) & m->mask;
    while (m->key[i] && m->key[i] != k) i = (i + 1) & m->mask;
    *found = m->key[i] == k;
    m->key[i] = k;
    return &m->val[i];
}

static uint32_t export_node(bddf_t *f, nmap_t *m, BDD x)
{
    if (x == bddfalse) return BDDF_FALSE;
    if (x == bddtrue) return BDDF_TRUE;
    int found;
    uint32_t *slot = nmap_slot(m, x, &found);
    if (found) return *slot;
    *slot = UINT32_MAX;   /* (a DAG: never met again before it is set below) */
    uint32_t lo = export_node(f, m, bdd_low(x));
    uint32_t hi = export_node(f, m, bdd_high(x));
    bddf_node_t *n = &f->node[f->nnodes];
    n->var = (uint32_t)bdd_var(x);
    n->lo = lo;
    n->hi = hi;
    uint32_t ref = 2 + f->nnodes++;
    *nmap_slot(m, x, &found) = ref;
    return ref;
}

/* x as a node array, counted */
static int to_file(c4b_t *b, BDD x, bddf_t *f, err_t *err)
{
    memset(f, 0, sizeof *f);
    f->nvars = (uint32_t)b->nvars;
    long n = x > 1 ? bdd_nodecount(x) : 0;
    if (n) {
        size_t cap = 16;
        while (cap < (size_t)n * 2) cap <<= 1;
        nmap_t m = { calloc(cap, sizeof(int)), calloc(cap, sizeof(uint32_t)), cap - 1 };
        f->node = malloc(sizeof *f->node * (size_t)n);
        if (!m.key || !m.val || !f->node) {
            free(m.key);
            free(m.val);
            bddf_free(f);
            return err_set(err, GSW_EFAIL, "out of memory exporting a BDD of %ld nodes", n);
        }
        f->root = export_node(f, &m, x);
        free(m.key);
        free(m.val);
    } else {
        f->root = x == bddtrue ? BDDF_TRUE : BDDF_FALSE;
    }
    if (bddf_count(f, &f->count)) {
        bddf_free(f);
        return err_set(err, GSW_EFAIL, "a count passed 2^256");
    }
    return GSW_OK;
}

static int count_bdd(c4b_t *b, BDD x, u256_t *out, err_t *err)
{
    if (b->nvars <= 52) {   /* every count below 2^53: BuDDy's doubles are exact */
        *out = u256_of((uint64_t)bdd_satcount(x));
        return GSW_OK;
    }
    bddf_t f;
    if (to_file(b, x, &f, err)) return err->code;
    *out = f.count;
    bddf_free(&f);
    return GSW_OK;
}

/* --- the passes (inside the BuDDy error guard) --- */

typedef struct fwd_args {
    int keep;
    void (*progress)(void *ctx, const c4b_ply_t *p);
    void *ctx;
    err_t *err;
} fwd_args_t;

static int forward(c4b_t *b, void *args)
{
    fwd_args_t *a = args;
    const c4b_spec_t *s = &b->s;
    double t0 = now_ms();
    BDD init = keep(s->enc == C4B_CELLWISE ? bdd_nithvar(0) : bddtrue);
    for (int c = 0; c < s->w; c++)
        for (int r = 0; r < s->h; r++) {
            if (s->enc == C4B_CELLWISE) {
                set(&init, bdd_and(init, bdd_nithvar(wvar(s, c, r, 0))));
                set(&init, bdd_and(init, bdd_nithvar(wvar(s, c, r, 1))));
            } else {
                set(&init, bdd_and(init, r == 0 ? bdd_ithvar(cvar(s, c, 0)) : bdd_nithvar(cvar(s, c, r))));
            }
        }
    if (s->enc == C4B_COMPRESSED)
        for (int c = 0; c < s->w; c++) set(&init, bdd_and(init, bdd_nithvar(cvar(s, c, s->h))));
    b->reach[0] = init;
    b->term[0] = bddfalse;
    if (b->walks && b->four[0] == bddfalse)   /* every four of each player */
        for (int m = 0; m < b->cells; m++)
            for (int p = 0; p < 2; p++) {
                BDD hd = keep(holds(s, m / s->h, m % s->h, p));
                BDD t = keep(bdd_and(hd, b->lines[p][m]));
                set(&b->four[p], bdd_or(b->four[p], t));
                drop(&t);
                drop(&hd);
            }
    /* walks: the ply's positions that go on (no four), kept from the ply
     * before rather than taken again as reach less term */
    BDD En = b->walks ? keep(init) : bddfalse;
    for (int k = 0; k <= b->cells; k++) {
        if (k > 0) {   /* ply k from ply k-1 */
            int p = (k - 1) & 1;
            if (c4b_stop && *c4b_stop) {
                drop(&En);
                return err_set(a->err, GSW_EFAIL, "stopped at ply %d", k);
            }
            BDD E = En;
            En = bddfalse;
            if (!b->walks) E = keep(bdd_apply(b->reach[k - 1], b->term[k - 1], bddop_diff));
            if (!a->keep) {
                drop(&b->reach[k - 1]);
                drop(&b->term[k - 1]);
            }
            BDD next = keep(bddfalse), ended = keep(bddfalse);
            if (b->walks) {
                /* ply k - 1 held no four: one in ply k goes through the drop */
                drop(&next);
                next = walk_all(b, E, p, W_DROP, bddtrue);
                En = keep(bdd_apply(next, b->four[p], bddop_diff));
                if (a->keep) set(&ended, bdd_apply(next, En, bddop_diff));
            }
            for (int m = 0; m < b->cells && !b->walks; m++) {
                if (c4b_stop && *c4b_stop) {
                    drop(&E);
                    drop(&next);
                    drop(&ended);
                    return err_set(a->err, GSW_EFAIL, "stopped at ply %d", k);
                }
                BDD img = keep(image(b, E, m, p));
                if (img != bddfalse) {
                    set(&next, bdd_or(next, img));
                    BDD t = keep(bdd_and(img, b->lines[p][m]));
                    set(&ended, bdd_or(ended, t));
                    drop(&t);
                }
                drop(&img);
                c4b_peak(b);
            }
            drop(&E);
            b->reach[k] = next;
            b->term[k] = ended;
        }
        c4b_live(b);
        c4b_ply_t st = { .ply = k, .nodes = bdd_nodecount(b->reach[k]) };
        if (count_bdd(b, b->reach[k], &st.positions, a->err)) return a->err->code;
        if (b->walks) {   /* the ended ones: the rest */
            u256_t go;
            if (count_bdd(b, En, &go, a->err)) return a->err->code;
            st.terminal = st.positions;
            u256_sub(&st.terminal, &go);
        } else if (count_bdd(b, b->term[k], &st.terminal, a->err)) {
            return a->err->code;
        }
        double t1 = now_ms();
        st.ms = t1 - t0;
        t0 = t1;
        if (a->progress) a->progress(a->ctx, &st);
    }
    drop(&En);
    if (!a->keep) {
        drop(&b->reach[b->cells]);
        drop(&b->term[b->cells]);
    }
    return GSW_OK;
}

/* the positions of mask with a move of the side to move at ply k into X
 * (ply k + 1); held */
static BDD pre_all(c4b_t *b, BDD X, int k, BDD mask)
{
    int p = k & 1;
    if (b->walks) return walk_all(b, X, p, W_UNDROP, mask);
    BDD r = keep(bddfalse);
    for (int m = 0; m < b->cells; m++) {
        BDD t = keep(preimage(b, X, m, p));
        set(&r, bdd_or(r, t));
        drop(&t);
        c4b_peak(b);
    }
    set(&r, bdd_and(r, mask));
    return r;   /* held */
}

typedef struct solve_args {
    int ply;
    err_t *err;
} solve_args_t;

static int solve_ply(c4b_t *b, void *args)
{
    solve_args_t *a = args;
    int k = a->ply;
    BDD *v = b->val[k];
    for (int i = 0; i < 3; i++) drop(&v[i]);
    BDD E = keep(bdd_apply(b->reach[k], b->term[k], bddop_diff));
    if (k == b->cells) {
        v[C4B_WON] = keep(bddfalse);
        v[C4B_DRAWN] = E;
        v[C4B_LOST] = keep(b->term[k]);
    } else {
        BDD *n = b->val[k + 1];
        v[C4B_WON] = pre_all(b, n[C4B_LOST], k, E);
        BDD rest = keep(bdd_apply(E, v[C4B_WON], bddop_diff));
        drop(&E);
        if (c4b_stop && *c4b_stop) {
            drop(&rest);
            return err_set(a->err, GSW_EFAIL, "stopped at ply %d", k);
        }
        v[C4B_DRAWN] = pre_all(b, n[C4B_DRAWN], k, rest);
        BDD lost = keep(bdd_apply(rest, v[C4B_DRAWN], bddop_diff));
        drop(&rest);
        v[C4B_LOST] = keep(bdd_or(lost, b->term[k]));
        drop(&lost);
        /* ply k + 1 is done with */
        for (int i = 0; i < 3; i++) drop(&n[i]);
        b->made[k + 1] = 0;
        drop(&b->reach[k + 1]);
        drop(&b->term[k + 1]);
    }
    b->made[k] = 1;
    c4b_live(b);
    return GSW_OK;
}

typedef struct load_args {
    int ply;
    bddf_t *sets;
    err_t *err;
} load_args_t;

static int load_ply(c4b_t *b, void *args)
{
    load_args_t *a = args;
    int k = a->ply;
    for (int i = 0; i < 3; i++) {
        bddf_t *f = &a->sets[i];
        if (f->nvars != (uint32_t)b->nvars) return err_set(a->err, GSW_EFAIL, "a set of ply %d has %u variables, not %d", k, f->nvars, b->nvars);
        BDD *ref = malloc(sizeof *ref * (f->nnodes ? f->nnodes : 1));
        if (!ref) return err_set(a->err, GSW_EFAIL, "out of memory");
        for (uint32_t j = 0; j < f->nnodes; j++) {
            const bddf_node_t *x = &f->node[j];
            BDD lo = x->lo < 2 ? (x->lo ? bddtrue : bddfalse) : ref[x->lo - 2];
            BDD hi = x->hi < 2 ? (x->hi ? bddtrue : bddfalse) : ref[x->hi - 2];
            ref[j] = keep(bdd_ite(bdd_ithvar((int)x->var), hi, lo));
        }
        drop(&b->val[k][i]);
        b->val[k][i] = f->root < 2 ? (f->root ? bddtrue : bddfalse) : keep(ref[f->root - 2]);
        for (uint32_t j = 0; j < f->nnodes; j++) drop(&ref[j]);
        free(ref);
    }
    b->made[k] = 1;
    c4b_peak(b);
    return GSW_OK;
}

typedef struct export_args {
    int ply, value;
    bddf_t *out;
    err_t *err;
} export_args_t;

static int export_set(c4b_t *b, void *args)
{
    export_args_t *a = args;
    if (!b->made[a->ply]) return err_set(a->err, GSW_EFAIL, "ply %d is not solved", a->ply);
    return to_file(b, b->val[a->ply][a->value], a->out, a->err);
}

/* Every BuDDy call runs under this guard: a full node table, an error of
 * the package or a stop (seen at a garbage collection) comes back here. No
 * local of this function changes after setjmp. */
static int guarded(c4b_t *b, int (*fn)(c4b_t *, void *), void *args, volatile int *stop, err_t *err)
{
    c4b_stop = stop;
    c4b_error = 0;
    if (setjmp(c4b_jmp)) {
        c4b_stop = NULL;
        if (b->walk) {   /* a walk stopped half way */
            lmemo_free(b->walk);
            free(b->walk);
            b->walk = NULL;
        }
        if (c4b_error == 1) return err_set(err, GSW_EFAIL, "stopped");
        if (c4b_error == BDD_NODENUM || c4b_error == BDD_MEMORY)
            return err_set(err, GSW_EFAIL, "the BDD node table is full (%ld nodes): give it more --memory", b->table);
        return err_set(err, GSW_EFAIL, "the BDD package failed: %s", bdd_errstring(c4b_error));
    }
    c4b_guard = 1;
    int rc = fn(b, args);
    c4b_guard = 0;
    c4b_stop = NULL;
    return rc;
}

int c4b_forward(c4b_t *b, int keep_sets, void (*progress)(void *ctx, const c4b_ply_t *p), void *ctx,
                volatile int *stop, err_t *err)
{
    fwd_args_t a = { keep_sets, progress, ctx, err };
    return guarded(b, forward, &a, stop, err);
}

int c4b_solve_ply(c4b_t *b, int ply, volatile int *stop, err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    if (ply < b->cells && !b->made[ply + 1]) return err_set(err, GSW_EFAIL, "ply %d needs ply %d first", ply, ply + 1);
    solve_args_t a = { ply, err };
    return guarded(b, solve_ply, &a, stop, err);
}

int c4b_export(c4b_t *b, int ply, int value, bddf_t *out, err_t *err)
{
    export_args_t a = { ply, value, out, err };
    return guarded(b, export_set, &a, NULL, err);
}

int c4b_load_ply(c4b_t *b, int ply, bddf_t sets[3], err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    load_args_t a = { ply, sets, err };
    return guarded(b, load_ply, &a, NULL, err);
}

long c4b_set_nodes(c4b_t *b, int ply, int value)
{
    if (ply < 0 || ply > b->cells || !b->made[ply]) return 0;
    BDD x = b->val[ply][value];
    return x > 1 ? bdd_nodecount(x) : 0;
}
