/* Proof certificates: the writer (solve/certificate.h; the format is
 * docs/CERTIFICATE.md). A node is a position with a bound for its side to
 * move: ">=" nodes keep one move, "<=" nodes list every legal move, and
 * a node settled by the game's end, a database file or a strong
 * solution's set is a leaf. The moves kept come from the prover's trees
 * (hints, recorded for every chosen node of every tree proved), checked
 * again here line by line down to the evidence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "core/retro.h"
#include "db/manifest.h"
#include "solve/certificate.h"
#include "solve/egdb.h"
#include "solve/prover.h"
#include "solve/solver.h"
#include "solve/strong.h"

enum { K_NONE, K_ONE, K_ALL, K_END, K_DB, K_STRONG };
enum { S_BUILDING, S_DONE, S_FAILED };
#define HARD (-2)                  /* an error or a spent budget: give up */
#define FAIL (-1)                  /* this bound does not rest on evidence here */

typedef struct cnode {
    char *key;                     /* "G C|position": bound and position */
    int8_t ge, cls;                /* >= (1) or <= (0); win 1, draw 0, loss -1 */
    int need;                      /* a win or a loss within this many plies (-1: any) */
    uint8_t kind, state;
    int dist;                      /* plies, -1 unknown (draws: -1); -2 not worked out yet */
    int file;                      /* a leaf's evidence file */
    int n;                         /* children */
    move_t *mv;
    int *kid;
    int id;                        /* its number in the file (0: not written) */
    int depth;                     /* longest line below it; -1 not worked out */
} cnode_t;

/* A map from strings to ints: open addressing, keys owned by the caller. */
typedef struct smap {
    const char **key;
    int *val;
    size_t cap, n;
} smap_t;

static uint64_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int smap_get(const smap_t *m, const char *k, int *val)
{
    if (!m->cap) return 0;
    for (size_t i = str_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->key[i]) return 0;
        if (!strcmp(m->key[i], k)) { *val = m->val[i]; return 1; }
    }
}

static int smap_put(smap_t *m, const char *k, int val)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        const char **key = calloc(cap, sizeof *key);
        int *v = calloc(cap, sizeof *v);
        if (!key || !v) { free(key); free(v); return -1; }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->key[i]) continue;
            size_t j = str_hash(m->key[i]) & (cap - 1);
            while (key[j]) j = (j + 1) & (cap - 1);
            key[j] = m->key[i];
            v[j] = m->val[i];
        }
        free(m->key);
        free(m->val);
        m->key = key, m->val = v, m->cap = cap;
    }
    size_t i = str_hash(k) & (m->cap - 1);
    while (m->key[i] && strcmp(m->key[i], k)) i = (i + 1) & (m->cap - 1);
    if (!m->key[i]) m->n++;
    m->key[i] = k;
    m->val[i] = val;
    return 0;
}

typedef struct cfile {
    char *path;
    int strong;                    /* 0 a database file; 1 a strong set */
    int ply, set;
} cfile_t;

typedef struct cw {
    const cert_options_t *o;
    gv_t *v;
    const game_ops_t *O;
    cnode_t *node;
    int nnode, cap;
    smap_t nodes;                  /* key -> node */
    smap_t hints;                  /* key -> a move (-1: a "<=" node a tree covered) */
    char **owned;                  /* the hints' keys */
    int nowned, capowned;
    smap_t asked;                  /* key -> 1 proven, 0 refuted (a proof was run) */
    egdb_set_t *eg;
    egdb_prober_t pr;
    int have_eg;
    strong_t *st;
    cfile_t *file;
    int nfile;
    smap_t files;                  /* path -> file */
    prover_options_t po;
    double t0, next_progress;
    uint64_t proofs;
    int repeats;                   /* a repeated position is a draw in this game */
    solver_t sv;                   /* exact values with distances (a distance's moves) */
    int have_sv;
    err_t *err;
} cw_t;

static int hard(cw_t *w, const char *fmt, const char *a)
{
    err_set(w->err, GSW_EFAIL, fmt, a);
    return HARD;
}

static char *key_of(int ge, int cls, int need, const char *text)
{
    size_t n = strlen(text) + 20;
    char *k = malloc(n);
    if (k) snprintf(k, n, "%d %d %d|%s", ge, cls, need, text);
    return k;
}

static int keep_key(cw_t *w, char *k)
{
    if (w->nowned == w->capowned) {
        int cap = w->capowned ? 2 * w->capowned : 1024;
        char **p = realloc(w->owned, (size_t)cap * sizeof *p);
        if (!p) return -1;
        w->owned = p, w->capowned = cap;
    }
    w->owned[w->nowned++] = k;
    return 0;
}

/* Does [lo, hi] settle the bound (a win or a loss within need plies)? */
static int satisfies(int ge, int cls, int need, val_t lo, val_t hi)
{
    if (ge) return cls > 0 ? val_is_win(lo) && (need < 0 || val_plies(lo) <= need) : cls == 0 ? lo >= VAL_DRAW : 1;
    return cls < 0 ? val_is_loss(hi) && (need < 0 || val_plies(hi) <= need) : cls == 0 ? hi <= VAL_DRAW : 1;
}

static int file_of(cw_t *w, const char *path, int strong, int ply, int set)
{
    int f;
    if (smap_get(&w->files, path, &f)) return f;
    cfile_t *p = realloc(w->file, (size_t)(w->nfile + 1) * sizeof *p);
    if (!p) return -1;
    w->file = p;
    char *real = realpath(path, NULL);
    if (!real) real = strdup(path);
    if (!real) return -1;
    p[w->nfile] = (cfile_t){ .path = real, .strong = strong, .ply = ply, .set = set };
    if (smap_put(&w->files, real, w->nfile)) return -1;
    if (strcmp(real, path)) {   /* asked by either name */
        char *again = strdup(path);
        if (!again || keep_key(w, again) || smap_put(&w->files, again, w->nfile)) { free(again); return -1; }
    }
    return w->nfile++;
}

/* What a database or a strong solution says of pos: 1 with its bounds
 * and the file, 0 nothing, HARD on a damaged file. */
static int evidence(cw_t *w, const void *pos, val_t *lo, val_t *hi, int *kind, int *file, int *dist)
{
    err_t e;
    if (w->have_eg) {
        retro_metric_t m;
        int r = egdb_probe(&w->pr, pos, lo, hi, &m, &e);
        if (r < 0) return hard(w, "%s", e.msg);
        uint64_t slice, index;
        int flipped;
        if (r == 1 && w->O->retro->locate(w->v, pos, &slice, &index, &flipped)) {
            char path[1200];
            egdb_slice_path(w->eg, m, slice, path, sizeof path);
            *kind = K_DB;
            *file = file_of(w, path, 0, 0, 0);
            *dist = *lo == *hi && val_is_proven_decisive(*lo) ? val_plies(*lo) : -1;
            return *file < 0 ? hard(w, "%s", "out of memory") : 1;
        }
    }
    if (w->st) {
        int k = w->O->pos_ply(w->v, pos);
        if (k >= w->st->lowest && k <= w->st->m.w * w->st->m.h) {
            char path[1200];
            int x = strong_value_file(w->st, pos, path, sizeof path, &e);
            if (x < 0) return hard(w, "%s", e.msg);
            *kind = K_STRONG;
            *file = file_of(w, path, 1, k, x);
            *dist = -1;
            if (x == C4B_WON) *lo = VAL_PROVEN, *hi = val_win(1);
            else if (x == C4B_LOST) *lo = val_loss(0), *hi = -VAL_PROVEN;
            else *lo = *hi = VAL_DRAW;
            return *file < 0 ? hard(w, "%s", "out of memory") : 1;
        }
    }
    return 0;
}

/* Record a tree's chosen moves (and the "<=" nodes it covers) as hints. */
static int record(cw_t *w, const proof_tree_t *t, int i, const void *pos, int ge, int cls)
{
    const proof_node_t *p = &t->node[i];
    if (!p->nchildren || p->leaf) return 0;
    char text[320];
    w->O->pos_format(w->v, pos, text, sizeof text);
    char *k = key_of(ge, cls, -1, text);
    int had;
    if (!k || keep_key(w, k)) { free(k); return -1; }
    if (!smap_get(&w->hints, k, &had) || (had < 0 && p->choice))
        if (smap_put(&w->hints, k, p->choice ? (int)t->node[i + 1].move : -1)) return -1;
    GSW_POSBUF child[GSW_MAX_POS];
    for (int c = 0, j = i + 1; c < p->nchildren; c++, j += t->node[j].size) {
        memcpy(child, pos, w->O->pos_size);
        w->O->play(w->v, child, t->node[j].move);
        if (record(w, t, j, child, !ge, -cls)) return -1;
    }
    return 0;
}

/* Prove the bound at pos with the prover (once per bound and position),
 * keeping its tree's choices as hints: 1 it holds, 0 refuted, HARD. */
static int ask(cw_t *w, const void *pos, const char *text, int ge, int cls)
{
    char *k = key_of(ge, cls, -1, text);
    if (!k) return hard(w, "%s", "out of memory");
    int seen;
    if (smap_get(&w->asked, k, &seen)) { free(k); return seen; }
    if (keep_key(w, k)) { free(k); return hard(w, "%s", "out of memory"); }
    /* >= win: "win?" proven; <= draw: "win?" disproven; >= draw: "at
     * least a draw?" proven; <= loss: that disproven */
    const char *goal = (ge && cls > 0) || (!ge && cls == 0) ? "win" : "draw";
    dfpn_status_t want = ge ? DFPN_PROVEN : DFPN_DISPROVEN;
    prover_options_t po = w->po;
    if (w->o->time_limit_ms > 0) {
        po.time_limit_ms = w->o->time_limit_ms - (gsw_now_ms() - w->t0);
        if (po.time_limit_ms <= 0) return hard(w, "%s", "the time budget ran out before the certificate was complete");
    }
    proof_tree_t t;
    int found = 0, stored = 0;
    dfpn_result_t r;
    err_t e;
    w->proofs++;
    if (prover_tree(&po, w->v, pos, text, goal, &t, &found, &stored, &r, &e)) {
        if (w->o->stop && *w->o->stop) return hard(w, "%s", "stopped");
        return hard(w, "%s", e.msg);
    }
    int holds = t.result == want;
    int rc = holds ? record(w, &t, 0, pos, ge, cls) : 0;
    proof_tree_free(&t);
    if (rc || smap_put(&w->asked, k, holds)) return hard(w, "%s", "out of memory");
    return holds;
}

static int new_node(cw_t *w, char *key, int ge, int cls)
{
    if ((uint64_t)w->nnode >= (w->o->max_nodes ? w->o->max_nodes : 2000000)) {
        free(key);
        err_set(w->err, GSW_EFAIL, "the certificate passed %d nodes (--nodes raises the limit)", w->nnode);
        return HARD;
    }
    if (w->nnode == w->cap) {
        int cap = w->cap ? 2 * w->cap : 4096;
        cnode_t *p = realloc(w->node, (size_t)cap * sizeof *p);
        if (!p) { free(key); return hard(w, "%s", "out of memory"); }
        w->node = p, w->cap = cap;
    }
    w->node[w->nnode] = (cnode_t){ .key = key, .ge = (int8_t)ge, .cls = (int8_t)cls, .state = S_BUILDING,
                                   .dist = -2, .file = -1, .depth = -1 };
    if (smap_put(&w->nodes, key, w->nnode)) return hard(w, "%s", "out of memory");
    return w->nnode++;
}

static int settle(cw_t *w, int i, int kind, int n, const move_t *mv, const int *kid)
{
    cnode_t *c = &w->node[i];
    c->kind = (uint8_t)kind;
    c->state = S_DONE;
    c->n = n;
    if (n) {
        c->mv = malloc((size_t)n * sizeof *c->mv);
        c->kid = malloc((size_t)n * sizeof *c->kid);
        if (!c->mv || !c->kid) return hard(w, "%s", "out of memory");
        memcpy(c->mv, mv, (size_t)n * sizeof *mv);
        memcpy(c->kid, kid, (size_t)n * sizeof *kid);
    }
    return i;
}

static int failed(cw_t *w, int i)
{
    w->node[i].state = S_FAILED;
    return FAIL;
}

/* A move of pos that wins within need plies by the exact values (the
 * mate prover in a game won only on the winner's move, else alpha-beta
 * on each move), tried where the hints' tree is of no distance: the move,
 * or MOVE_NONE; HARD on an error. */
static int64_t fastest(cw_t *w, const void *pos, int need, const move_t *mv, int n)
{
    const game_ops_t *O = w->O;
    err_t e;
    if (O->pos_in_check) {   /* chess: "mate within (need + 1) / 2" by the mate prover */
        dfpn_options_t mo = { .hash_mb = w->po.hash_mb, .node_limit = 20000000, .stop = w->o->stop };
        proof_tree_t t;
        memset(&t, 0, sizeof t);
        dfpn_result_t r;
        int mate = 0;
        int rc = solver_mate(w->v, pos, (need + 1) / 2, &mo, &t, &mate, &r, &e);
        move_t m = !rc && mate > 0 && 2 * mate - 1 <= need && t.n > 1 ? t.node[1].move : MOVE_NONE;
        proof_tree_free(&t);
        return m;
    }
    if (!w->have_sv) {
        if (solver_init(&w->sv, w->v, w->po.hash_mb, NULL, &e)) return hard(w, "%s", e.msg);
        w->have_sv = 1;
        if (solver_open_egdb(&w->sv, w->o->egdb_dir, w->o->db, &e)) return hard(w, "%s", e.msg);
        solver_ignore_line(&w->sv);
        w->sv.ab.stop = w->o->stop;
    }
    GSW_POSBUF child[GSW_MAX_POS];
    for (int k = 0; k < n; k++) {
        memcpy(child, pos, O->pos_size);
        O->play(w->v, child, mv[k]);
        answer_t a;
        if (solver_run(&w->sv, child, &a, &e)) return hard(w, "%s", e.msg);
        if (val_is_loss(a.r.hi) && val_plies(a.r.hi) <= need - 1) return mv[k];
    }
    return MOVE_NONE;
}

/* The node proving bound (ge, cls; a win or a loss within need plies, -1
 * any) at pos: its index, FAIL or HARD. */
static int build(cw_t *w, const void *pos, int ge, int cls, int need)
{
    const game_ops_t *O = w->O;
    const gv_t *v = w->v;
    if (!cls || need < -1) need = -1;
    char text[320];
    O->pos_format(v, pos, text, sizeof text);
    char *key = key_of(ge, cls, need, text);
    if (!key) return hard(w, "%s", "out of memory");
    int i;
    if (smap_get(&w->nodes, key, &i)) {
        free(key);
        if (w->node[i].state == S_BUILDING)   /* a cycle: endless play draws, never wins */
            return cls == 0 && w->repeats ? i : FAIL;
        return w->node[i].state == S_DONE ? i : FAIL;
    }
    i = new_node(w, key, ge, cls);
    if (i < 0) return i;
    if (w->o->stop && *w->o->stop) return hard(w, "%s", "stopped");
    if (w->o->progress && gsw_now_ms() >= w->next_progress) {
        w->next_progress = gsw_now_ms() + 2000;
        w->o->progress(w->o->progress_ctx, (uint64_t)w->nnode, gsw_now_ms() - w->t0);
    }
    val_t lo, hi;
    if (O->terminal(v, pos, &lo)) {
        if (!satisfies(ge, cls, need, lo, lo)) return failed(w, i);
        w->node[i].dist = val_is_proven_decisive(lo) ? val_plies(lo) : -1;
        return settle(w, i, K_END, 0, NULL, NULL);
    }
    int kind, file, dist, r = evidence(w, pos, &lo, &hi, &kind, &file, &dist);
    if (r == HARD) return r;
    if (r) {
        if (!satisfies(ge, cls, need, lo, hi)) return failed(w, i);
        w->node[i].file = file;
        w->node[i].dist = cls ? dist : -1;
        return settle(w, i, kind, 0, NULL, NULL);
    }
    if (cls && need == 0) return failed(w, i);   /* only the game's end is a result in 0 plies */
    int down = need < 0 ? -1 : need - 1;
    move_t mv[GSW_MAX_MOVES];
    int kid[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    GSW_POSBUF child[GSW_MAX_POS];
    char *ckey = key_of(ge, cls, -1, text);   /* the hints are of the class alone */
    if (!ckey) return hard(w, "%s", "out of memory");
    int hint = -1, got = smap_get(&w->hints, ckey, &hint);
    if (!got || (ge && hint < 0)) {
        r = ask(w, pos, text, ge, cls);
        if (r == HARD || !r) { free(ckey); return r == HARD ? r : failed(w, i); }
        if (!smap_get(&w->hints, ckey, &hint)) hint = -1;
    }
    free(ckey);
    if (!ge) {   /* every move */
        for (int k = 0; k < n; k++) {
            memcpy(child, pos, O->pos_size);
            O->play(v, child, mv[k]);
            kid[k] = build(w, child, 1, -cls, down);
            if (kid[k] == HARD) return HARD;
            if (kid[k] == FAIL) return failed(w, i);
        }
        return settle(w, i, K_ALL, n, mv, kid);
    }
    int64_t fast = MOVE_NONE;   /* a distance to keep: the exact values' move, then the tree's */
    if (need > 0 && (fast = fastest(w, pos, need, mv, n)) == HARD) return HARD;
    for (int pass = 0; pass < 3; pass++)   /* that move, the tree's, then any other that holds */
        for (int k = 0; k < n; k++) {
            int tree = mv[k] == (move_t)hint, exact = mv[k] == (move_t)fast;
            if (pass == 0 ? !exact : pass == 1 ? !tree || exact : tree || exact) continue;
            memcpy(child, pos, O->pos_size);
            O->play(v, child, mv[k]);
            if (pass == 2) {
                char ct[320];
                O->pos_format(v, child, ct, sizeof ct);
                r = ask(w, child, ct, 0, -cls);
                if (r == HARD) return r;
                if (!r) continue;
            }
            int c = build(w, child, 0, -cls, down);
            if (c == HARD) return HARD;
            if (c >= 0) return settle(w, i, K_ONE, 1, &mv[k], &c);
        }
    return failed(w, i);
}

/* Distances: a win's or a loss's plies where every leaf below gives them. */
static int dist_of(cw_t *w, int i)
{
    cnode_t *c = &w->node[i];
    if (c->dist != -2) return c->dist;
    if (!c->cls || c->kind == K_STRONG) return c->dist = -1;
    c->dist = -1;   /* (no cycle passes a win or a loss; this guards the recursion) */
    int d = 0;
    for (int k = 0; k < c->n && d >= 0; k++) {
        int x = dist_of(w, w->node[i].kid[k]);
        d = x < 0 ? -1 : x > d ? x : d;
    }
    return w->node[i].dist = d < 0 ? -1 : d + 1;
}

/* Number the nodes a root reaches, depth first; the depth below each. */
static int number(cw_t *w, int i, int *next)
{
    cnode_t *c = &w->node[i];
    if (c->id) return c->depth < 0 ? 0 : c->depth;
    c->id = (*next)++;
    int d = 0;
    for (int k = 0; k < w->node[i].n; k++) {
        int x = number(w, w->node[i].kid[k], next) + 1;
        if (x > d) d = x;
    }
    return w->node[i].depth = d;
}

static void bound_text(const cnode_t *c, char *buf, size_t n)
{
    const char *cls = c->cls > 0 ? "win" : c->cls < 0 ? "loss" : "draw";
    if (c->cls && c->dist >= 0) snprintf(buf, n, "%s%s/%d", c->ge ? ">=" : "<=", cls, c->dist);
    else snprintf(buf, n, "%s%s", c->ge ? ">=" : "<=", cls);
}

static void claim_text(const cw_t *w, const int *root, int nroot, char *buf, size_t n)
{
    const cnode_t *a = &w->node[root[0]];
    if (nroot == 2) snprintf(buf, n, "draw");
    else if (a->cls && a->dist >= 0) snprintf(buf, n, "%s within %d pl%s", a->cls > 0 ? "win" : "loss", a->dist, a->dist == 1 ? "y" : "ies");
    else if (a->cls) snprintf(buf, n, "%s", a->cls > 0 ? "win" : "loss");
    else snprintf(buf, n, "%s", a->ge ? "at least a draw" : "at most a draw");
}

static int write_file(cw_t *w, const int *root, int nroot, const char *path, cert_report_t *rep)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return err_set(w->err, GSW_EFAIL, "cannot write %s", tmp);
    char spec[96];
    game_spec(w->v, spec, sizeof spec);
    fprintf(f, "gsw-certificate 1\n# %s: check it with gsw-check (docs/CERTIFICATE.md)\n", rep->claim);
    fprintf(f, "game %s\nrules position\n", spec);
    if (w->o->made) fprintf(f, "made %s\n", w->o->made);
    for (int r = 0; r < nroot; r++) fprintf(f, "root %d\n", w->node[root[r]].id);
    int rc = GSW_OK;
    for (int k = 0; k < w->nfile && !rc; k++) {
        char hex[MANIFEST_SHA_HEX];
        if (manifest_sha256_file(w->file[k].path, hex, w->err)) { rc = w->err->code; break; }
        const cfile_t *cf = &w->file[k];
        if (!cf->strong) fprintf(f, "file F%d egdb %s %s\n", k + 1, hex, cf->path);
        else fprintf(f, "file F%d strong %s %s %d %d %s %s %d %s\n", k + 1, hex, cf->path, w->st->m.w, w->st->m.h,
                     c4b_encoding_name(w->st->m.enc), c4b_order_name(w->st->m.order), cf->ply, strong_value_name(cf->set));
    }
    fprintf(f, "size %llu %d\n", (unsigned long long)rep->nodes, rep->depth);
    /* the nodes in their numbers' order */
    int *order = rc ? NULL : malloc((size_t)(rep->nodes + 1) * sizeof *order);
    if (!rc && !order) rc = err_set(w->err, GSW_EFAIL, "out of memory");
    for (int i = 0; !rc && i < w->nnode; i++)
        if (w->node[i].id) order[w->node[i].id] = i;
    static const char *const kinds[] = { "", "one", "all", "end", "db", "strong" };
    GSW_POSBUF pos[GSW_MAX_POS];
    for (uint64_t id = 1; !rc && id <= rep->nodes; id++) {
        const cnode_t *c = &w->node[order[id]];
        const char *text = strchr(c->key, '|') + 1;
        char b[32];
        bound_text(c, b, sizeof b);
        fprintf(f, "%llu %s %s", (unsigned long long)id, kinds[c->kind], b);
        if (c->kind == K_DB || c->kind == K_STRONG) fprintf(f, " F%d", c->file + 1);
        if (c->n) {
            err_t e;
            if (game_pos_parse(w->v, text, pos, &e)) { rc = err_set(w->err, GSW_EFAIL, "%s", e.msg); break; }
            for (int k = 0; k < c->n; k++) {
                char m[64];
                w->O->move_format(w->v, pos, c->mv[k], m, sizeof m);
                fprintf(f, " %s %d", m, w->node[c->kid[k]].id);
            }
        }
        fprintf(f, " | %s\n", text);
        rep->leaves[c->kind == K_END ? CERT_LEAF_END : c->kind == K_DB ? CERT_LEAF_DB : CERT_LEAF_STRONG] += !c->n;
    }
    free(order);
    if (fflush(f) || ferror(f)) rc = rc ? rc : err_set(w->err, GSW_EFAIL, "cannot write %s", tmp);
    if (fclose(f) && !rc) rc = err_set(w->err, GSW_EFAIL, "cannot write %s", tmp);
    if (!rc && rename(tmp, path)) rc = err_set(w->err, GSW_EFAIL, "cannot rename %s to %s", tmp, path);
    if (rc) remove(tmp);
    return rc;
}

static void cw_free(cw_t *w)
{
    for (int i = 0; i < w->nnode; i++) {
        free(w->node[i].key);
        free(w->node[i].mv);
        free(w->node[i].kid);
    }
    free(w->node);
    for (int i = 0; i < w->nowned; i++) free(w->owned[i]);
    free(w->owned);
    for (int i = 0; i < w->nfile; i++) free(w->file[i].path);
    free(w->file);
    smap_t *maps[] = { &w->nodes, &w->hints, &w->asked, &w->files };
    for (int k = 0; k < 4; k++) free(maps[k]->key), free(maps[k]->val);
    if (w->have_eg) egdb_prober_free(&w->pr);
    if (w->eg) egdb_set_close(w->eg);
    if (w->st) strong_close(w->st);
    if (w->have_sv) solver_free(&w->sv);
}

static int cw_open(cw_t *w, const cert_options_t *o, gv_t *v, err_t *err)
{
    memset(w, 0, sizeof *w);
    w->o = o, w->v = v, w->O = v->ops, w->err = err;
    w->t0 = gsw_now_ms();
    w->next_progress = w->t0 + 2000;
    w->repeats = v->ops->repetition != NULL;
    w->po = (prover_options_t){ .cache = NULL, .egdb_dir = o->egdb_dir, .db = o->db, .hash_mb = o->hash_mb ? o->hash_mb : 64,
                                .stop = o->stop };
    if (v->ops->retro) {
        char dir[1024];
        const char *d = o->egdb_dir;
        if (!d) {
            if (egdb_default_dir(o->db, dir, sizeof dir, err)) return err->code;
            d = dir;
        }
        if (egdb_set_open(v, d, &w->eg, err)) return err->code;
        egdb_set_guard(w->eg, 1);   /* evidence only from files their folder's MANIFEST vouches for */
        if (egdb_prober_init(&w->pr, w->eg, 64, err)) return err->code;
        w->have_eg = 1;
    }
    if (strong_supported(v)) {
        char dir[1024];
        const char *d = o->strong_dir;
        if (!d) {
            if (strong_default_dir(o->db, dir, sizeof dir, err)) return err->code;
            d = dir;
        }
        if (strong_open(&w->st, v, d, err) < 0) return err->code;
        if (w->st) w->st->guard = 1;
    }
    return GSW_OK;
}

/* Build the bounds' roots with w (open) and write the file. *unsettled:
 * a bound did not come to rest on evidence (as opposed to an error). */
static int run(cw_t *w, const void *pos, const int (*bound)[3], int nb, const char *path, cert_report_t *rep,
               int *unsettled, err_t *err)
{
    int rc = GSW_OK, root[2], nroot = 0;
    *unsettled = 0;
    for (int b = 0; !rc && b < nb; b++) {
        int r = build(w, pos, bound[b][0], bound[b][1], bound[b][2]);
        if (r == HARD) rc = err->code ? err->code : GSW_EFAIL;
        else if (r == FAIL) {
            *unsettled = 1;
            rc = err_set(err, GSW_EFAIL, "the proof of %s did not come to rest on evidence the checker can judge",
                         bound[b][1] > 0 ? "the win" : bound[b][1] < 0 ? "the loss" : "the draw");
        } else root[nroot++] = r;
    }
    if (!rc) {
        int next = 1;
        for (int r = 0; r < nroot; r++) {
            dist_of(w, root[r]);
            int d = number(w, root[r], &next);
            if (d > rep->depth) rep->depth = d;
        }
        rep->nodes = (uint64_t)(next - 1);
        rep->files = w->nfile;
        claim_text(w, root, nroot, rep->claim, sizeof rep->claim);
        rc = write_file(w, root, nroot, path, rep);
    }
    rep->proofs += w->proofs;
    rep->ms = gsw_now_ms() - w->t0;
    return rc;
}

static int start(const cert_options_t *o, gv_t *v, cw_t *w, cert_report_t *rep, err_t *err)
{
    memset(rep, 0, sizeof *rep);
    if (v->game->players != 2)
        return err_set(err, GSW_EINPUT, "%s is a one-player game: certificates are for two players", v->game->name);
    int rc = cw_open(w, o, v, err);
    if (rc) cw_free(w);
    return rc;
}

int cert_export(const cert_options_t *o, gv_t *v, const void *pos, cert_goal_t goal, const char *path,
                cert_report_t *rep, err_t *err)
{
    cw_t w;
    if (start(o, v, &w, rep, err)) return err->code;
    int b[2][3] = { { 1, 1, -1 }, { 0, 0, -1 } }, nb = 1;
    if (goal == CERT_DRAW) b[0][1] = 0;
    else if (goal == CERT_VALUE) {   /* the value: a win? else at most a draw: at least a draw? */
        char text[320];
        v->ops->pos_format(v, pos, text, sizeof text);
        int win = ask(&w, pos, text, 1, 1), draw = win == 0 ? ask(&w, pos, text, 1, 0) : 0;
        if (win == HARD || draw == HARD) {
            cw_free(&w);
            return err->code ? err->code : GSW_EFAIL;
        }
        if (!win && draw) b[0][1] = 0, nb = 2;
        else if (!win) b[0][0] = 0, b[0][1] = -1;
    }
    int unsettled, rc = run(&w, pos, (const int (*)[3])b, nb, path, rep, &unsettled, err);
    cw_free(&w);
    return rc;
}

int cert_export_bounds(const cert_options_t *o, gv_t *v, const void *pos, val_t lo, val_t hi, const char *path,
                       cert_report_t *rep, err_t *err)
{
    int b[2][3], nb = 0;
    if (val_is_win(lo)) b[nb][0] = 1, b[nb][1] = 1, b[nb++][2] = lo == hi ? val_plies(lo) : -1;
    else if (val_is_loss(hi)) b[nb][0] = 0, b[nb][1] = -1, b[nb++][2] = lo == hi ? val_plies(hi) : -1;
    else {
        if (lo >= VAL_DRAW) b[nb][0] = 1, b[nb][1] = 0, b[nb++][2] = -1;
        if (hi <= VAL_DRAW) b[nb][0] = 0, b[nb][1] = 0, b[nb++][2] = -1;
    }
    if (!nb) return err_set(err, GSW_EINPUT, "the value is not proven: there is nothing to certify");
    cw_t w;
    if (start(o, v, &w, rep, err)) return err->code;
    int unsettled, rc = run(&w, pos, (const int (*)[3])b, nb, path, rep, &unsettled, err);
    cw_free(&w);
    if (rc && unsettled && b[0][2] >= 0) {   /* the distance rests on no evidence (a win/draw/loss file): the result alone */
        b[0][2] = -1;
        uint64_t proofs = rep->proofs;
        if (start(o, v, &w, rep, err)) return err->code;
        rep->proofs = proofs;
        rc = run(&w, pos, (const int (*)[3])b, nb, path, rep, &unsettled, err);
        cw_free(&w);
    }
    return rc;
}
