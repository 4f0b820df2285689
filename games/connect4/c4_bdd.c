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
#include "games/connect4/c4_bdd_int.h"

#include <bdd.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- the engine --- */


static c4b_t *c4b_current;     /* the engine the hooks report to */
static jmp_buf c4b_jmp;
static int c4b_error;
static int c4b_guard;            /* c4b_jmp is live: a guarded call is running */
static gsw_flag_t *c4b_stop;

void c4b_err_handler(int e)
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


/* player p (0: first) holds cell (c, r) */
static BDD holds(const c4b_spec_t *s, int c, int r, int p)
{
    if (s->enc == C4B_CELLWISE) return bdd_ithvar(c4b_wvar(s, c, r, p));
    BDD below = bddfalse;   /* some cell above (c, r) is the column's marker */
    keep(below);
    for (int k = r + 1; k <= s->h; k++) set(&below, bdd_or(below, bdd_ithvar(c4b_cvar(s, c, k))));
    BDD h = bdd_and(p == 0 ? bdd_ithvar(c4b_cvar(s, c, r)) : bdd_nithvar(c4b_cvar(s, c, r)), below);
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
                BDD pre = keep(bdd_ithvar(c4b_cvar(s, c, r)));
                for (int k = r + 1; k <= s->h; k++) set(&pre, bdd_and(pre, bdd_nithvar(c4b_cvar(s, c, k))));
                b->pre[m] = pre;
                for (int p = 0; p < 2; p++) {
                    BDD post = keep(p == 0 ? bdd_ithvar(c4b_cvar(s, c, r)) : bdd_nithvar(c4b_cvar(s, c, r)));
                    set(&post, bdd_and(post, bdd_ithvar(c4b_cvar(s, c, r + 1))));
                    for (int k = r + 2; k <= s->h; k++) set(&post, bdd_and(post, bdd_nithvar(c4b_cvar(s, c, k))));
                    b->post[p][m] = post;
                }
            } else {
                /* pre: the cell empty and the one below not (image and
                 * preimage add the side to move); post: p's disc there and
                 * the other side to move */
                int v3[3] = { 0, c4b_wvar(s, c, r, 0), c4b_wvar(s, c, r, 1) };
                b->vars[m] = keep(bdd_makeset(v3, 3));
                BDD empty = keep(bdd_and(bdd_nithvar(v3[1]), bdd_nithvar(v3[2])));
                if (r > 0) set(&empty, bdd_and(empty, bdd_or(bdd_ithvar(c4b_wvar(s, c, r - 1, 0)),
                                                                bdd_ithvar(c4b_wvar(s, c, r - 1, 1)))));
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
    b->go = calloc((size_t)np, sizeof *b->go);
    b->fwd = calloc((size_t)np, 1);
    b->term = calloc((size_t)np, sizeof *b->term);
    b->val = calloc((size_t)np, sizeof *b->val);
    b->made = calloc((size_t)np, sizeof *b->made);
    b->pre = calloc((size_t)nm, sizeof *b->pre);
    b->vars = calloc((size_t)nm, sizeof *b->vars);
    for (int p = 0; p < 2; p++) {
        b->post[p] = calloc((size_t)nm, sizeof *b->post[p]);
        b->lines[p] = calloc((size_t)nm, sizeof *b->lines[p]);
    }
    if (!b->go || !b->fwd || !b->term || !b->val || !b->made || !b->pre || !b->vars || !b->post[0] || !b->post[1] ||
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
    free(b->go);
    free(b->fwd);
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

/* BuDDy nodes to array indices: a hash map that grows as the export goes
 * (no count of the nodes first: that would walk the set once more) */
typedef struct nmap {
    int *key;        /* 0: empty (no BuDDy node number is 0 here: 0 and 1 are the leaves) */
    uint32_t *val;
    size_t mask, n;
    size_t fcap;     /* the node array's room */
    int oom;
} nmap_t;

static uint32_t *nmap_slot(nmap_t *m, int k, int *found)
{
    size_t i = ((size_t)(unsigned)k * 0x9E3779B97F4A7C15ULL) & m->mask;
    while (m->key[i] && m->key[i] != k) i = (i + 1) & m->mask;
    *found = m->key[i] == k;
    if (!*found) m->n++;
    m->key[i] = k;
    return &m->val[i];
}

static int nmap_grow(nmap_t *m)
{
    size_t cap = (m->mask + 1) * 2;
    nmap_t g = { calloc(cap, sizeof(int)), calloc(cap, sizeof(uint32_t)), cap - 1, 0, m->fcap, 0 };
    if (!g.key || !g.val) {
        free(g.key);
        free(g.val);
        return -1;
    }
    for (size_t i = 0; i <= m->mask; i++)
        if (m->key[i]) {
            int found;
            *nmap_slot(&g, m->key[i], &found) = m->val[i];
        }
    free(m->key);
    free(m->val);
    *m = g;
    return 0;
}

static uint32_t export_node(bddf_t *f, nmap_t *m, BDD x)
{
    if (x == bddfalse) return BDDF_FALSE;
    if (x == bddtrue) return BDDF_TRUE;
    if (m->oom) return BDDF_FALSE;
    int found;
    uint32_t *slot = nmap_slot(m, x, &found);
    if (found) return *slot;
    *slot = UINT32_MAX;   /* (a DAG: never met again before it is set below) */
    if (m->n * 2 > m->mask && nmap_grow(m)) m->oom = 1;
    uint32_t lo = export_node(f, m, bdd_low(x));
    uint32_t hi = export_node(f, m, bdd_high(x));
    if (m->oom) return BDDF_FALSE;
    if (f->nnodes == m->fcap) {
        size_t cap = m->fcap * 2;
        bddf_node_t *nn = cap < UINT32_MAX - 2 ? realloc(f->node, cap * sizeof *nn) : NULL;
        if (!nn) {
            m->oom = 1;
            return BDDF_FALSE;
        }
        f->node = nn;
        m->fcap = cap;
    }
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
    if (x > 1) {
        size_t cap = 1 << 12;
        nmap_t m = { calloc(cap, sizeof(int)), calloc(cap, sizeof(uint32_t)), cap - 1, 0, cap / 2, 0 };
        f->node = malloc(sizeof *f->node * m.fcap);
        if (m.key && m.val && f->node) f->root = export_node(f, &m, x);
        free(m.key);
        free(m.val);
        if (!m.key || !m.val || !f->node || m.oom) {
            long n = (long)f->nnodes;
            bddf_free(f);
            return err_set(err, GSW_EFAIL, "out of memory exporting a BDD (%ld nodes and more)", n);
        }
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
    const c4b_fwd_t *o;
    err_t *err;
} fwd_args_t;

static BDD part_cube(c4b_t *b, int split, unsigned part);

/* The positions of f in part `part` of a split into 2^split (c4_assign.h),
 * held, made from the nodes below the part's path only: a part's peak is
 * the part's size, not the whole set's. (The split's variables are the
 * first ones, so the path runs through the top of the array.) Split 0:
 * the whole set. */
static BDD from_file_part(c4b_t *b, const bddf_t *f, int split, unsigned part)
{
    uint32_t r = f->root;
    while (r >= 2 && f->node[r - 2].var < (uint32_t)split) {
        const bddf_node_t *x = &f->node[r - 2];
        r = (part >> x->var) & 1 ? x->hi : x->lo;   /* (variable i: the part's bit i) */
    }
    if (r < 2) return r ? part_cube(b, split, part) : bddfalse;
    /* the nodes to make, children first: split 0, every node as the file
       has them; else those below the path's end (none lies past it) */
    uint32_t top = split ? r - 2 : f->nnodes - 1;
    BDD *ref = malloc(sizeof *ref * ((size_t)top + 1));
    if (!ref) c4b_err_handler(BDD_MEMORY);
    b->ffref = ref;
    for (uint32_t j = 0; j <= top; j++) ref[j] = split ? -1 : -2;   /* -1: left out; -2: to be made */
    ref[r - 2] = -2;
    for (uint32_t j = top + 1; split && j-- > 0;) {   /* parents before children */
        if (ref[j] != -2) continue;
        const bddf_node_t *x = &f->node[j];
        if (x->lo >= 2) ref[x->lo - 2] = -2;
        if (x->hi >= 2) ref[x->hi - 2] = -2;
    }
    for (uint32_t j = 0; j <= top; j++) {
        if (ref[j] != -2) continue;
        const bddf_node_t *x = &f->node[j];
        BDD lo = x->lo < 2 ? (x->lo ? bddtrue : bddfalse) : ref[x->lo - 2];
        BDD hi = x->hi < 2 ? (x->hi ? bddtrue : bddfalse) : ref[x->hi - 2];
        ref[j] = keep(bdd_ite(bdd_ithvar((int)x->var), hi, lo));
    }
    BDD res = keep(ref[r - 2]);
    if (split) {
        BDD cube = part_cube(b, split, part);
        set(&res, bdd_and(cube, res));
        drop(&cube);
    }
    for (uint32_t j = 0; j <= top; j++) drop(&ref[j]);
    free(ref);
    b->ffref = NULL;
    return res;
}

/* a node array as a BDD (held) */
static BDD from_file(const bddf_t *f) { return from_file_part(c4b_current, f, 0, 0); }

static int nvars_fit(c4b_t *b, const bddf_t *f, const char *what, int k, err_t *err)
{
    if (f->nvars == (uint32_t)b->nvars) return GSW_OK;
    return err_set(err, GSW_EFAIL, "%s of ply %d has %u variables, not %d", what, k, f->nvars, b->nvars);
}

/* the empty board (held) */
static BDD empty_board(c4b_t *b)
{
    const c4b_spec_t *s = &b->s;
    BDD init = keep(s->enc == C4B_CELLWISE ? bdd_nithvar(0) : bddtrue);
    for (int c = 0; c < s->w; c++)
        for (int r = 0; r < s->h; r++) {
            if (s->enc == C4B_CELLWISE) {
                set(&init, bdd_and(init, bdd_nithvar(c4b_wvar(s, c, r, 0))));
                set(&init, bdd_and(init, bdd_nithvar(c4b_wvar(s, c, r, 1))));
            } else {
                set(&init, bdd_and(init, r == 0 ? bdd_ithvar(c4b_cvar(s, c, 0)) : bdd_nithvar(c4b_cvar(s, c, r))));
            }
        }
    if (s->enc == C4B_COMPRESSED)
        for (int c = 0; c < s->w; c++) set(&init, bdd_and(init, bdd_nithvar(c4b_cvar(s, c, s->h))));
    return init;
}

/* Ply k is made: next (every position), go (no four) and ended (a four;
 * bddfalse until needed, then made from the two). Count it, save it, keep
 * it, report it. */
static int ply_done(c4b_t *b, const c4b_fwd_t *o, int k, BDD next, BDD go, BDD *ended, double *t0, err_t *err)
{
    c4b_ply_t st = { .ply = k, .nodes = bdd_nodecount(next) };
    if ((o->save || o->keep) && *ended == bddfalse && next != go) *ended = keep(bdd_apply(next, go, bddop_diff));
    bddf_t f[2] = { 0 };
    if (o->save) {
        if (to_file(b, go, &f[0], err)) return err->code;
        if (to_file(b, *ended, &f[1], err)) {
            bddf_free(&f[0]);
            return err->code;
        }
        st.positions = f[0].count;
        u256_add(&st.positions, &f[1].count);
        st.terminal = f[1].count;
    } else {
        u256_t n;
        if (count_bdd(b, next, &st.positions, err) || count_bdd(b, go, &n, err)) return err->code;
        st.terminal = st.positions;
        u256_sub(&st.terminal, &n);
    }
    if (o->keep) {
        b->go[k] = keep(go);
        b->term[k] = keep(*ended);
        b->fwd[k] = 1;
    }
    c4b_live(b);
    st.ms = now_ms() - *t0;
    int rc = o->save ? o->save(o->ctx, &st, &f[0], &f[1], err) : GSW_OK;
    bddf_free(&f[0]);
    bddf_free(&f[1]);
    if (rc) return rc;
    if (o->progress) o->progress(o->ctx, &st);
    *t0 = now_ms();   /* (the save's time is no ply's) */
    return GSW_OK;
}

static int forward(c4b_t *b, void *args)
{
    fwd_args_t *a = args;
    const c4b_fwd_t *o = a->o;
    const c4b_spec_t *s = &b->s;
    double t0 = now_ms();
    if (b->walks && b->four[0] == bddfalse)   /* every four of each player */
        for (int m = 0; m < b->cells; m++)
            for (int p = 0; p < 2; p++) {
                BDD hd = keep(holds(s, m / s->h, m % s->h, p));
                BDD t = keep(bdd_and(hd, b->lines[p][m]));
                set(&b->four[p], bdd_or(b->four[p], t));
                drop(&t);
                drop(&hd);
            }
    /* go: the last ply's positions that go on (no four) */
    BDD go, ended = bddfalse;
    int k0 = o->from;
    if (k0 > 0) {
        go = from_file(o->start);
    } else {
        go = empty_board(b);
        if (ply_done(b, o, 0, go, go, &ended, &t0, a->err)) {
            drop(&go);
            return a->err->code;
        }
    }
    for (int k = k0 + 1; k <= b->cells; k++) {   /* ply k from ply k-1 */
        int p = (k - 1) & 1;
        BDD E = go, next = keep(bddfalse);
        ended = bddfalse;
        if (c4b_stop && *c4b_stop) {
            drop(&E);
            drop(&next);
            return err_set(a->err, GSW_EFAIL, "stopped at ply %d", k);
        }
        if (b->walks) {   /* ply k - 1 held no four: one in ply k goes through the drop */
            drop(&next);
            next = c4b_walk_all(b, E, p, W_DROP, bddtrue);
            go = keep(bdd_apply(next, b->four[p], bddop_diff));
        } else {   /* one drop at a time; a four goes through the cell played */
            ended = keep(bddfalse);
            for (int m = 0; m < b->cells; m++) {
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
            go = keep(bdd_apply(next, ended, bddop_diff));
        }
        drop(&E);
        int rc = ply_done(b, o, k, next, go, &ended, &t0, a->err);
        drop(&next);
        drop(&ended);
        if (rc) {
            drop(&go);
            return rc;
        }
    }
    drop(&go);
    return GSW_OK;
}

/* the positions of mask with a move of the side to move at ply k into X
 * (ply k + 1); held */
static BDD pre_all(c4b_t *b, BDD X, int k, BDD mask)
{
    int p = k & 1;
    if (b->walks) return c4b_walk_all(b, X, p, W_UNDROP, mask);
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
    BDD E = keep(b->go[k]);
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
    }
    /* and ply k's forward sets */
    drop(&b->go[k]);
    drop(&b->term[k]);
    b->fwd[k] = 0;
    b->made[k] = 1;
    c4b_live(b);
    return GSW_OK;
}

/* --- a ply solved from files to files --- */

typedef struct solve_io_args {
    int ply;
    const c4b_solve_io_t *io;
    err_t *err;
} solve_io_args_t;

/* set `which` of ply k from io->load (part -1: whole), held in *out; with
 * split > 0, only its positions in the nin parts in[] of a split into
 * 2^split */
static int io_load_in(c4b_t *b, const c4b_solve_io_t *io, int k, int which, int part, int split, const unsigned *in,
                      int nin, BDD *out, err_t *err)
{
    bddf_t f;
    memset(&f, 0, sizeof f);
    if (io->load(io->ctx, k, which, part, &f, err)) return err->code;
    if (nvars_fit(b, &f, which >= C4B_GO ? "a forward set" : "a value set", k, err)) {
        bddf_free(&f);
        return err->code;
    }
    b->ffset = f;   /* from_file may not come back */
    b->ffset_live = 1;
    if (!split) {
        *out = from_file(&f);
    } else {
        *out = keep(bddfalse);
        for (int i = 0; i < nin; i++) {
            BDD t = from_file_part(b, &f, split, in[i]);
            set(out, bdd_or(*out, t));
            drop(&t);
        }
    }
    b->ffset_live = 0;
    bddf_free(&f);
    c4b_peak(b);
    return GSW_OK;
}

/* value set x of ply k (part -1: whole) to io->save; dropped */
static int io_save(c4b_t *b, const c4b_solve_io_t *io, int k, int value, int part, BDD *x, err_t *err)
{
    bddf_t f;
    int rc = to_file(b, *x, &f, err);
    drop(x);
    if (rc) return rc;
    rc = io->save(io->ctx, k, value, part, &f, err);
    bddf_free(&f);
    return rc;
}

static int stopped(int k, err_t *err)
{
    if (c4b_stop && *c4b_stop) return err_set(err, GSW_EFAIL, "stopped at ply %d", k);
    return GSW_OK;
}

/* the positions of part `part` of a split into 2^split (c4_assign.h:
 * variable i, the part's bit i); held */
static BDD part_cube(c4b_t *b, int split, unsigned part)
{
    (void)b;
    BDD c = keep(bddtrue);
    for (int i = split - 1; i >= 0; i--) set(&c, bdd_and(c, (part >> i) & 1 ? bdd_ithvar(i) : bdd_nithvar(i)));
    return c;
}

/* value set `which` of ply k + 1 as far as part `part` of ply k needs it
 * (the whole set when ply k is whole), held in *out: its positions in the
 * part and in the one the part's drops lead to, from the whole set or
 * from the parts of it that meet them */
static int io_load_next(c4b_t *b, const c4b_solve_io_t *io, int k, int which, unsigned part, BDD *out, err_t *err)
{
    int split = io->split, ns = io->next_split, h = b->s.h;
    unsigned in[2] = { part, 0 };
    int nin = 1, x = split ? c4b_part_next(h, split, k, part) : -1;
    if (x >= 0) in[nin++] = (unsigned)x;
    if (!ns) return io_load_in(b, io, k + 1, which, -1, split, in, nin, out, err);
    int rc = GSW_OK;
    *out = keep(bddfalse);
    for (unsigned q = 0; q < 1u << ns && !rc; q++) {
        if (split && !c4b_part_needs(h, split, k, part, ns, q)) continue;
        BDD t = bddfalse;
        if ((rc = io_load_in(b, io, k + 1, which, (int)q, split, in, nin, &t, err))) break;
        set(out, bdd_or(*out, t));
        drop(&t);
    }
    if (rc) drop(out);
    return rc;
}

/* solve_ply's steps with each set read just before it is needed and
 * written and dropped as soon as it is made: at most the ply's go-on set
 * (or what is left of it), one set of the ply after and the set being made
 * are held, not the five sets of two plies. In parts, each part's steps
 * take the part of the go-on set and of the ended set, and the parts of
 * the ply after's sets its positions reach (io_load_next). */
static int solve_part(c4b_t *b, const c4b_solve_io_t *io, int k, unsigned part, err_t *err)
{
    int rc, split = io->split, pi = split ? (int)part : -1;
    BDD E = bddfalse, X = bddfalse, won = bddfalse, drawn = bddfalse, lost = bddfalse;
    if ((rc = io_load_in(b, io, k, C4B_GO, -1, split, &part, 1, &E, err))) return rc;
    if (k == b->cells) {
        if ((rc = io_save(b, io, k, C4B_WON, pi, &won, err)) || (rc = io_save(b, io, k, C4B_DRAWN, pi, &E, err))) {
            drop(&E);
            return rc;
        }
    } else {
        rc = io_load_next(b, io, k, C4B_LOST, part, &X, err);
        if (!rc) {
            won = pre_all(b, X, k, E);
            drop(&X);
            set(&E, bdd_apply(E, won, bddop_diff));   /* E: what is not won */
            rc = io_save(b, io, k, C4B_WON, pi, &won, err);
        }
        if (!rc) rc = stopped(k, err);
        if (!rc) rc = io_load_next(b, io, k, C4B_DRAWN, part, &X, err);
        if (rc) {
            drop(&E);
            return rc;
        }
        drawn = pre_all(b, X, k, E);
        drop(&X);
        lost = keep(bdd_apply(E, drawn, bddop_diff));
        drop(&E);
        if ((rc = io_save(b, io, k, C4B_DRAWN, pi, &drawn, err))) {
            drop(&lost);
            return rc;
        }
    }
    BDD T = bddfalse;
    rc = io_load_in(b, io, k, C4B_ENDED, -1, split, &part, 1, &T, err);
    if (rc) {
        drop(&lost);
        return rc;
    }
    set(&lost, bdd_or(lost, T));
    drop(&T);
    c4b_live(b);
    return io_save(b, io, k, C4B_LOST, pi, &lost, err);
}

static int solve_ply_io(c4b_t *b, void *args)
{
    solve_io_args_t *a = args;
    const c4b_solve_io_t *io = a->io;
    int rc = GSW_OK;
    if (!io->split) return solve_part(b, io, a->ply, 0, a->err);
    for (unsigned part = 0; part < 1u << io->split && !rc; part++) {
        if (io->done && io->done(io->ctx, a->ply, (int)part)) continue;
        rc = solve_part(b, io, a->ply, part, a->err);
        if (!rc) rc = stopped(a->ply, a->err);
    }
    return rc;
}

typedef struct load_args {
    int ply, fwd;
    const bddf_t *sets;
    err_t *err;
} load_args_t;

static int load_ply(c4b_t *b, void *args)
{
    load_args_t *a = args;
    int k = a->ply;
    if (a->fwd) {
        for (int i = 0; i < 2; i++)
            if (nvars_fit(b, &a->sets[i], i ? "the ended set" : "the go-on set", k, a->err)) return a->err->code;
        drop(&b->go[k]);
        drop(&b->term[k]);
        b->go[k] = from_file(&a->sets[0]);
        b->term[k] = from_file(&a->sets[1]);
        b->fwd[k] = 1;
    } else {
        for (int i = 0; i < 3; i++)
            if (nvars_fit(b, &a->sets[i], "a set", k, a->err)) return a->err->code;
        for (int i = 0; i < 3; i++) {
            drop(&b->val[k][i]);
            b->val[k][i] = from_file(&a->sets[i]);
        }
        b->made[k] = 1;
    }
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
static int guarded(c4b_t *b, int (*fn)(c4b_t *, void *), void *args, gsw_flag_t *stop, err_t *err)
{
    c4b_stop = stop;
    c4b_error = 0;
    b->full = 0;
    if (setjmp(c4b_jmp)) {
        c4b_stop = NULL;
        if (b->walk) {   /* a walk stopped half way */
            c4b_walk_free(b);
        }
        free(b->ffref);   /* a set half taken in */
        b->ffref = NULL;
        if (b->ffset_live) bddf_free(&b->ffset);
        b->ffset_live = 0;
        if (c4b_error == 1) return err_set(err, GSW_EFAIL, "stopped");
        if (c4b_error == BDD_NODENUM || c4b_error == BDD_MEMORY) {
            b->full = 1;
            return err_set(err, GSW_EFAIL, "the BDD node table is full (%ld nodes): give it more --memory", b->table);
        }
        return err_set(err, GSW_EFAIL, "the BDD package failed: %s", bdd_errstring(c4b_error));
    }
    c4b_guard = 1;
    int rc = fn(b, args);
    c4b_guard = 0;
    c4b_stop = NULL;
    return rc;
}

int c4b_forward(c4b_t *b, int keep_sets, void (*progress)(void *ctx, const c4b_ply_t *p), void *ctx,
                gsw_flag_t *stop, err_t *err)
{
    c4b_fwd_t o = { .keep = keep_sets, .progress = progress, .ctx = ctx };
    return c4b_forward_run(b, &o, stop, err);
}

int c4b_forward_run(c4b_t *b, const c4b_fwd_t *o, gsw_flag_t *stop, err_t *err)
{
    if (o->from < 0 || o->from > b->cells || (o->from > 0 && (!o->start || o->keep)))
        return err_set(err, GSW_EINPUT, "the forward pass cannot start after ply %d%s", o->from,
                       o->keep ? " and keep every ply" : " without that ply's set");
    if (o->from > 0 && nvars_fit(b, o->start, "the go-on set", o->from, err)) return err->code;
    fwd_args_t a = { o, err };
    return guarded(b, forward, &a, stop, err);
}

int c4b_solve_ply(c4b_t *b, int ply, gsw_flag_t *stop, err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    if (ply < b->cells && !b->made[ply + 1]) return err_set(err, GSW_EFAIL, "ply %d needs ply %d first", ply, ply + 1);
    if (!b->fwd[ply]) return err_set(err, GSW_EFAIL, "ply %d needs its forward sets (kept or loaded)", ply);
    solve_args_t a = { ply, err };
    return guarded(b, solve_ply, &a, stop, err);
}

int c4b_solve_ply_io(c4b_t *b, int ply, const c4b_solve_io_t *io, gsw_flag_t *stop, err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    if (c4b_split_check(&b->s, io->split, err) || c4b_split_check(&b->s, io->next_split, err)) return err->code;
    solve_io_args_t a = { ply, io, err };
    return guarded(b, solve_ply_io, &a, stop, err);
}

int c4b_export(c4b_t *b, int ply, int value, bddf_t *out, err_t *err)
{
    export_args_t a = { ply, value, out, err };
    return guarded(b, export_set, &a, NULL, err);
}

int c4b_load_ply(c4b_t *b, int ply, bddf_t sets[3], err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    load_args_t a = { ply, 0, sets, err };
    return guarded(b, load_ply, &a, NULL, err);
}

int c4b_load_forward(c4b_t *b, int ply, const bddf_t sets[2], err_t *err)
{
    if (ply < 0 || ply > b->cells) return err_set(err, GSW_EINPUT, "no ply %d", ply);
    load_args_t a = { ply, 1, sets, err };
    return guarded(b, load_ply, &a, NULL, err);
}

int c4b_was_full(const c4b_t *b) { return b->full; }

int c4b_split_check(const c4b_spec_t *s, int split, err_t *err)
{
    int most = c4b_split_max(s);
    if (split && !most) return err_set(err, GSW_EINPUT, "parts need the compressed encoding in column order");
    if (split < 0 || split > most)
        return err_set(err, GSW_EINPUT, "connect4:%dx%d splits into %d parts at most (by the first column's %d cells)",
                       s->w, s->h, 1 << most, most);
    return GSW_OK;
}

long c4b_set_nodes(c4b_t *b, int ply, int value)
{
    if (ply < 0 || ply > b->cells || !b->made[ply]) return 0;
    BDD x = b->val[ply][value];
    return x > 1 ? bdd_nodecount(x) : 0;
}
