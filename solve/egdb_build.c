/* Building and verifying endgame databases: the slices a target needs, in
 * dependency order (strongly connected groups of slices solved together as
 * one unit), each unit solved by core/retro.c with its exits read from the
 * finished files, checked for consistency, then written and renamed into
 * place. Verification re-reads the files and repeats the consistency pass. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/pfor.h"
#include "solve/egdb.h"
#include "solve/egdb_manifest.h"
#include "solve/egdb_plan.h"

/* ---- one unit ---------------------------------------------------------- */

typedef struct unit_ctx {
    egdb_set_t *set;
    const gv_t *v;
    const retro_game_t *rg;
    retro_metric_t mode;       /* the metric being solved */
    const uint64_t *slice;     /* the unit's slices */
    uint64_t *start;           /* node of each slice's first position; start[ns] = n */
    int ns;
    retro_val_t *val;          /* the unit's values being checked (NULL: read the files) */
    retro_val_t *wld;          /* dtc: the unit's win/draw/loss (NULL: read the files) */
    egdb_prober_t *pr;         /* one per thread */
    retro_move_t (*mv)[RETRO_MAX_MOVES];   /* scratch, one per thread */
    struct unit_ahead *ahead;  /* one per thread: init's nodes listed ahead (unit_moves) */
    size_t cache_mb;           /* each thread's block cache (MB) */
    retro_stats_t *stats;      /* the engine's figures of the last solve */
    const egdb_parts_t *parts; /* a divided unit: the parts' collectives, */
    const retro_comm_t *comm;  /* ... and this part's (NULL: the whole unit here) */
    egdb_build_report_t *rep;  /* NULL, or where they are summed */
    /* progress */
    const egdb_build_options_t *o;
    char label[160];
    double last_ms;
    uint64_t eta_done, eta_total;   /* positions of the units built before this one, and of all to build */
    double eta_t0;             /* when the build began */
} unit_ctx_t;

/* Init values each node's exits by probes into the finished files, read
 * at random: a thread lists the moves of the UNIT_AHEAD nodes after the
 * one it values and asks the memory for their exits' codes, so that they
 * arrive while it works (a 7-piece unit spent a quarter of init waiting on
 * them). Init goes through its nodes in order; any other order starts the
 * ring again. */
#define UNIT_AHEAD 8
typedef struct unit_ahead {
    uint64_t first;            /* the node at head */
    int head, filled;
    struct { int k; val_t term; retro_move_t mv[RETRO_MAX_MOVES]; } e[UNIT_AHEAD];
} unit_ahead_t;

static int unit_slot(const unit_ctx_t *c, uint64_t slice)
{
    for (int i = 0; i < c->ns; i++)
        if (c->slice[i] == slice) return i;
    return -1;
}

static void unit_node(const unit_ctx_t *c, uint64_t node, uint64_t *slice, uint64_t *index)
{
    int i = 0;
    while (i + 1 < c->ns && node >= c->start[i + 1]) i++;
    *slice = c->slice[i];
    *index = node - c->start[i];
}

/* Does move m leave the unit (its value read from a file, or dtc's own
 * win/draw/loss)? *u: its slice's place in the unit, or -1. */
static int unit_exit(const unit_ctx_t *c, const retro_move_t *m, int *u)
{
    *u = unit_slot(c, m->slice);
    return *u < 0 || (c->mode == RETRO_DTC && m->conv);
}

/* Where move m's stored value is: in the unit's own array (returned, *at
 * its place there: dtc's win/draw/loss for a conversion, else the values
 * being checked), or in the file of metric *fm (NULL returned). */
static const retro_val_t *unit_move_where(const unit_ctx_t *c, const retro_move_t *m, retro_metric_t *fm, uint64_t *at)
{
    int u = unit_slot(c, m->slice), conv = c->mode == RETRO_DTC && m->conv;
    const retro_val_t *own = conv ? c->wld : c->val;
    *fm = conv ? RETRO_WLD : c->mode;
    if (u < 0 || !own) return NULL;
    *at = c->start[u] + m->index;
    return own;
}

/* A move's value for the mover (its child's value brought up one ply; a
 * conversion in the distance-to-conversion metric ends the count). */
static int unit_move_value(unit_ctx_t *c, int tid, const retro_move_t *m, val_t *out, err_t *err)
{
    retro_metric_t fm;
    uint64_t at;
    retro_val_t r;
    const retro_val_t *own = unit_move_where(c, m, &fm, &at);
    if (own) r = own[at];
    else if (egdb_probe_index(&c->pr[tid], fm, m->slice, m->index, &r, err)) return -1;
    if (c->mode == RETRO_DTC && m->conv) *out = r == RETRO_UNKNOWN ? VAL_DRAW : retro_is_win(r) ? val_loss(1) : val_win(1);
    else *out = val_up(retro_to_val(r));
    return 0;
}

/* The code of an exit's file asked for ahead (unit_move_value reads it). */
static void unit_move_prefetch(unit_ctx_t *c, int tid, const retro_move_t *m)
{
    int u;
    retro_metric_t fm;
    uint64_t at;
    if (unit_exit(c, m, &u) && !unit_move_where(c, m, &fm, &at)) egdb_probe_prefetch(&c->pr[tid], fm, m->slice, m->index);
}

/* Node's moves: into the thread's scratch, or (init, exit_best set) from
 * the ring of nodes listed ahead, which is filled past it first. */
static const retro_move_t *unit_children(unit_ctx_t *c, int tid, uint64_t node, int ahead, int *k, val_t *term)
{
    uint64_t slice, index;
    unit_ahead_t *a = ahead && c->ahead ? &c->ahead[tid] : NULL;
    if (!a) {
        unit_node(c, node, &slice, &index);
        *term = VAL_DRAW;
        *k = c->rg->children(c->v, slice, index, c->mv[tid], term);
        return c->mv[tid];
    }
    if (!a->filled || a->first != node) a->first = node, a->head = 0, a->filled = 0;
    const uint64_t n = c->start[c->ns];
    while (a->filled < UNIT_AHEAD && a->first + (uint64_t)a->filled < n) {
        int at = (a->head + a->filled) % UNIT_AHEAD;
        unit_node(c, a->first + (uint64_t)a->filled, &slice, &index);
        a->e[at].term = VAL_DRAW;
        a->e[at].k = c->rg->children(c->v, slice, index, a->e[at].mv, &a->e[at].term);
        for (int i = 0; i < a->e[at].k; i++) unit_move_prefetch(c, tid, &a->e[at].mv[i]);
        a->filled++;
    }
    int at = a->head;
    a->head = (a->head + 1) % UNIT_AHEAD;
    a->first++;
    a->filled--;
    *k = a->e[at].k;
    *term = a->e[at].term;
    return a->e[at].mv;
}

/* The unit's moves of node as nodes, and with exit_best its best exit
 * (retro_unit_t.moves): a move inside the unit is one to one of its
 * slices, but a conversion in the distance-to-conversion metric leaves. */
static int unit_moves(void *ctx, int tid, uint64_t node, uint64_t *inside, val_t *exit_best, err_t *err)
{
    unit_ctx_t *c = ctx;
    val_t term;
    int k, n = 0, sym = 0;
    const retro_move_t *mv = unit_children(c, tid, node, exit_best != NULL, &k, &term);
    uint8_t img[RETRO_MAX_MOVES];
    if (exit_best) *exit_best = k == 0 ? term : VAL_WIN + 1;
    for (int i = 0; i < k; i++) {
        const retro_move_t *m = &mv[i];
        int u;
        if (!unit_exit(c, m, &u)) {
            img[n] = m->sym;
            inside[n++] = c->start[u] + m->index;
            sym |= m->sym;
            continue;
        }
        if (!exit_best) continue;
        val_t x;
        if (unit_move_value(c, tid, m, &x, err)) return -1;
        if (*exit_best > VAL_WIN || x > *exit_best) *exit_best = x;
    }
    return sym ? retro_unique(inside, img, n) : n;   /* (see retro_game_t.parents) */
}

static int unit_preds(void *ctx, int tid, uint64_t node, uint64_t *out, err_t *err)
{
    (void)err;
    unit_ctx_t *c = ctx;
    uint64_t slice, index;
    unit_node(c, node, &slice, &index);
    int k = (c->rg->parents_inside ? c->rg->parents_inside : c->rg->parents)(c->v, slice, index, c->mv[tid]), n = 0,
        sym = 0;
    uint8_t img[RETRO_MAX_MOVES];
    for (int i = 0; i < k; i++) {
        const retro_move_t *m = &c->mv[tid][i];
        int u;
        if (unit_exit(c, m, &u)) continue;
        img[n] = m->sym;
        out[n++] = c->start[u] + m->index;
        sym |= m->sym;
    }
    return sym ? retro_unique(out, img, n) : n;
}

static int unit_check(void *ctx, int tid, uint64_t node, const retro_val_t *val, err_t *err)
{
    unit_ctx_t *c = ctx;
    uint64_t slice, index;
    unit_node(c, node, &slice, &index);
    val_t term = VAL_DRAW, best = -VAL_INF;
    int k = c->rg->children(c->v, slice, index, c->mv[tid], &term);
    for (int i = 0; i < k; i++) {
        val_t x;
        if (unit_move_value(c, tid, &c->mv[tid][i], &x, err)) return err->code;
        if (x > best) best = x;
    }
    if (k == 0) best = term;
    retro_val_t r;
    if (val) r = val[node];
    else if (egdb_probe_index(&c->pr[tid], c->mode, slice, index, &r, err)) return err->code;
    val_t have = retro_to_val(r);
    int ok = c->mode == RETRO_WLD ? (have > 0) == (best > 0) && (have < 0) == (best < 0) : have == best;
    if (ok) return GSW_OK;
    char name[64], fen[256];
    GSW_POSBUF pos[GSW_MAX_POS];
    c->rg->slice_name(c->v, slice, name, sizeof name);
    c->rg->position(c->v, slice, index, pos);
    c->v->ops->pos_format(c->v, pos, fen, sizeof fen);
    return err_set(err, GSW_EFAIL, "%s %s position %llu (%s) is stored as %d but its moves give %d",
                   retro_game_metric_name(c->rg, c->mode), name, (unsigned long long)index, fen, (int)have, (int)best);
}

/* A node named for an error: its slice, index and position. */
static void unit_describe(void *ctx, uint64_t node, char *buf, size_t n)
{
    unit_ctx_t *c = ctx;
    uint64_t slice, index;
    unit_node(c, node, &slice, &index);
    char name[64], fen[200];
    GSW_POSBUF pos[GSW_MAX_POS];
    c->rg->slice_name(c->v, slice, name, sizeof name);
    c->rg->position(c->v, slice, index, pos);
    c->v->ops->pos_format(c->v, pos, fen, sizeof fen);
    snprintf(buf, n, "(%s %s position %llu, %s)", retro_game_metric_name(c->rg, c->mode), name,
             (unsigned long long)index, fen);
}

/* How far into its unit a phase has come, as a fraction of the unit's
 * time (the shares a 6-piece unit's phases took: init 0.35, propagate
 * 0.2, check 0.45). */
static double unit_fraction(const char *phase, double f)
{
    if (!strcmp(phase, "init")) return 0.35 * f;
    if (!strcmp(phase, "propagate")) return 0.35 + 0.2 * f;
    return 0.55 + 0.45 * f;
}

/* "build 12.3% of 2660 M, 25 min left": `done` of `total` positions
 * built since t0 (ms), the time left at the rate so far ("? s" at first). */
static void build_eta_text(double done, uint64_t total, double t0, char *buf, size_t n)
{
    double spent = (gsw_now_ms() - t0) / 1000, left = done > 0 ? spent * ((double)total - done) / done : 0;
    char t[40] = "? s", of[40];
    if (spent > 2 && done > 0) {
        if (left >= 3600) snprintf(t, sizeof t, "%d h %02d min", (int)(left / 3600), (int)(left / 60) % 60);
        else if (left >= 60) snprintf(t, sizeof t, "%d min", (int)(left / 60));
        else snprintf(t, sizeof t, "%d s", (int)left);
    }
    if (total < 10000000) snprintf(of, sizeof of, "%llu", (unsigned long long)total);
    else snprintf(of, sizeof of, "%.0f M", (double)total / 1e6);
    snprintf(buf, n, "build %.1f%% of %s, %s left", total ? 100 * done / (double)total : 100.0, of, t);
}

/* "; build 12.3% of 2660 M, 25 min left" (positions): the whole
 * build, this unit `frac` done, at the rate so far ("" when not known). */
static void unit_eta(const unit_ctx_t *c, double frac, char *buf, size_t n)
{
    *buf = 0;
    if (!c->eta_total) return;
    char e[96];
    build_eta_text((double)c->eta_done + frac * (double)(c->start[c->ns]), c->eta_total, c->eta_t0, e, sizeof e);
    snprintf(buf, n, "; %s", e);
}

static void unit_progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    unit_ctx_t *c = ctx;
    if (!c->o || !c->o->progress) return;
    double now = gsw_now_ms();
    if (now - c->last_ms < 1000 && done < total) return;
    c->last_ms = now;
    double f = total ? (double)done / (double)total : 1.0;
    char line[400], eta[120];
    unit_eta(c, unit_fraction(phase, f), eta, sizeof eta);
    snprintf(line, sizeof line, "%s: %s %s %.0f%%%s", c->label, retro_game_metric_name(c->rg, c->mode), phase, 100 * f, eta);
    c->o->progress(c->o->progress_ctx, line);
}

/* The move lists' share of the budget once the arrays and the block caches
 * have theirs (retro_unit_t.keep_bytes). */
static uint64_t unit_ctx_keep_bytes(const unit_ctx_t *c, retro_metric_t m, int threads, uint64_t budget)
{
    uint64_t base = egdb_unit_array_memory(c->start[c->ns], m, threads) + (uint64_t)threads * ((uint64_t)c->cache_mb << 20);
    if (!budget) budget = EGDB_MEMORY_DEFAULT;
    return budget > base ? budget - base : 0;
}

static int unit_ctx_init(unit_ctx_t *c, egdb_set_t *set, const gv_t *v, const uint64_t *slice, int ns,
                         int threads, retro_metric_t mode, uint64_t budget, err_t *err)
{
    memset(c, 0, sizeof *c);
    c->set = set;
    c->v = v;
    c->rg = v->ops->retro;
    c->slice = slice;
    c->ns = ns;
    c->start = malloc(((size_t)ns + 1) * sizeof *c->start);
    c->pr = calloc((size_t)threads, sizeof *c->pr);
    c->mv = calloc((size_t)threads, sizeof *c->mv);
    c->ahead = calloc((size_t)threads, sizeof *c->ahead);
    if (!c->start || !c->pr || !c->mv || !c->ahead) return err_set(err, GSW_EFAIL, "out of memory");
    c->start[0] = 0;
    for (int i = 0; i < ns; i++) c->start[i + 1] = c->start[i] + c->rg->slice_size(v, slice[i]);
    size_t mb = egdb_unit_cache_mb(c->start[ns], mode, threads, budget), need = egdb_unit_exit_mb(v, slice, ns, mode);
    c->cache_mb = mb = need < mb ? need : mb;
    for (int t = 0; t < threads; t++)
        if (egdb_prober_init(&c->pr[t], set, mb, err)) return err->code;
    return GSW_OK;
}

static void unit_ctx_free(unit_ctx_t *c, int threads)
{
    if (c->pr)
        for (int t = 0; t < threads; t++) egdb_prober_free(&c->pr[t]);
    free(c->pr);
    free(c->mv);
    free(c->ahead);
    free(c->start);
}

/* Write metric m's file of every slice of the unit from val. */
/* The codes of one slice, encoded on the build's threads: chunk by chunk,
 * each chunk's exceptions listed apart and joined in order after. */
enum { ENC_CHUNK = 1 << 20 };
typedef struct enc_job {
    retro_metric_t m;
    const retro_val_t *val;     /* the slice's first value */
    uint8_t *codes;
    uint64_t **xi;              /* by chunk */
    uint16_t **xv;
    size_t *nx;
    int failed;                 /* out of memory (atomic) */
} enc_job_t;

static void encode_chunk(void *ctx, int tid, uint64_t a, uint64_t b)
{
    (void)tid;
    enc_job_t *e = ctx;
    uint64_t k = a / ENC_CHUNK;
    size_t nx = 0, cap = 0;
    uint64_t *xi = NULL;
    uint16_t *xv = NULL;
    for (uint64_t j = a; j < b; j++) {
        int exc;
        retro_val_t r = e->val[j];
        e->codes[j] = egdb_code_encode(e->m, r, &exc);
        if (!exc) continue;
        if (nx == cap) {
            cap = cap ? cap * 2 : 256;
            uint64_t *x = realloc(xi, cap * sizeof *xi);
            if (x) xi = x;
            uint16_t *y = x ? realloc(xv, cap * sizeof *xv) : NULL;
            if (y) xv = y;
            if (!x || !y) {
                __atomic_store_n(&e->failed, 1, __ATOMIC_RELAXED);
                break;
            }
        }
        xi[nx] = j;
        xv[nx++] = r;
    }
    e->xi[k] = xi;
    e->xv[k] = xv;
    e->nx[k] = nx;
}

static int unit_write(unit_ctx_t *c, retro_metric_t m, const retro_val_t *val, int threads, err_t *err)
{
    for (int i = 0; i < c->ns; i++) {
        uint64_t n = c->start[i + 1] - c->start[i], nch = n / ENC_CHUNK + 1;
        uint8_t *codes = malloc(n ? n : 1);
        uint64_t *xi = NULL;
        uint16_t *xv = NULL;
        size_t nx = 0;
        enc_job_t e = { m, val + c->start[i], codes, calloc(nch, sizeof(uint64_t *)), calloc(nch, sizeof(uint16_t *)),
                        calloc(nch, sizeof(size_t)), 0 };
        if (codes && e.xi && e.xv && e.nx) gsw_pfor(threads, n, ENC_CHUNK, encode_chunk, &e);
        for (uint64_t k = 0; e.nx && k < nch; k++) nx += e.nx[k];
        if (codes && e.xi && e.xv && e.nx && !e.failed && nx) {
            xi = malloc(nx * sizeof *xi);
            xv = malloc(nx * sizeof *xv);
        }
        int ok = codes && e.xi && e.xv && e.nx && !e.failed && (!nx || (xi && xv));
        for (uint64_t k = 0, at = 0; e.xi && e.xv && e.nx && k < nch; k++) {
            if (ok && e.nx[k]) {
                memcpy(xi + at, e.xi[k], e.nx[k] * sizeof *xi);
                memcpy(xv + at, e.xv[k], e.nx[k] * sizeof *xv);
                at += e.nx[k];
            }
            free(e.xi[k]);
            free(e.xv[k]);
        }
        free(e.xi);
        free(e.xv);
        free(e.nx);
        if (!ok) {
            free(codes);
            free(xi);
            free(xv);
            return err_set(err, GSW_EFAIL, "out of memory");
        }
        egdb_info_t info = { .metric = (uint8_t)m, .bits = m == RETRO_WLD ? 2 : 8, .n = n, .nexc = nx };
        snprintf(info.game, sizeof info.game, "%s", c->v->game->name);
        c->rg->slice_name(c->v, c->slice[i], info.slice, sizeof info.slice);
        char path[1200], dir[1200];
        egdb_slice_path(c->set, m, c->slice[i], path, sizeof path);
        snprintf(dir, sizeof dir, "%s", path);
        for (char *q = dir + 1; *q; q++)   /* mkdir -p of the file's folder */
            if (*q == '/') {
                *q = 0;
                if (mkdir(dir, 0777) && errno != EEXIST) {
                    int e = errno;
                    free(codes);
                    free(xi);
                    free(xv);
                    return err_set(err, GSW_EFAIL, "%s: %s", dir, strerror(e));
                }
                *q = '/';
            }
        egdb_slice_forget(c->set, m, c->slice[i]);
        int rc = egdb_write_threads(path, &info, codes, xi, xv, threads, err);
        free(codes);
        free(xi);
        free(xv);
        if (rc) return rc;
    }
    return GSW_OK;
}

/* Solve the unit in metric `mode` into val, check it, write it. */
static int unit_solve(unit_ctx_t *c, retro_metric_t mode, retro_val_t *val, int threads, gsw_flag_t *stop,
                      err_t *err)
{
    c->mode = mode;
    c->val = NULL;
    retro_unit_t u = { .n = c->start[c->ns], .threads = threads, .stop = stop, .ctx = c, .moves = unit_moves,
                       .preds = unit_preds, .describe = unit_describe, .progress = unit_progress,
                       .stats = c->stats, .keep_bytes = unit_ctx_keep_bytes(c, mode, threads, c->o ? c->o->memory : 0),
                       .comm = c->comm };
    /* the check's order, slice by slice (retro_unit_t.span_low; none: index order) */
    uint64_t *low = c->rg->index_low && !c->comm ? malloc((size_t)c->ns * sizeof *low) : NULL;
    if (low) {
        for (int i = 0; i < c->ns; i++) low[i] = c->rg->index_low(c->v, c->slice[i]);
        u.nspans = c->ns;
        u.span_at = c->start;
        u.span_low = low;
    }
    double t0 = gsw_now_ms();
    int rc = retro_solve(&u, val, err);   /* solved and checked (a divided unit: every part, or none) */
    free(low);
    const retro_comm_t *cm = c->comm;
    if (!rc && cm) {   /* part 0 gathers the values and writes the files */
        uint64_t size[EGDB_PARTS_MAX];
        for (int p = 0; p < cm->parts; p++) size[p] = (cm->lo[p + 1] - cm->lo[p]) * sizeof *val;
        rc = c->parts->gather(cm->ctx, val, size, cm->me == 0 ? val : NULL, err);
    }
    double t1 = gsw_now_ms();
    if (c->rep) c->rep->solve_ms += t1 - t0;
    if (rc) return rc;
    if (c->rep) retro_stats_add(&c->rep->engine, c->stats);   /* the engine's figures, summed */
    if (!cm || cm->me == 0) {
        if (!(rc = unit_write(c, mode, val, threads, err)) && mode == RETRO_DTW)
            rc = unit_write(c, RETRO_WLD, val, threads, err);   /* its win/draw/loss comes free */
    }
    if (cm) {   /* every part hears whether the files are written (and waits for them) */
        int64_t x[1] = { rc != 0 };
        err_t e2;
        if (cm->max(cm->ctx, x, 1, &e2)) return *err = e2, e2.code;
        if (x[0] && !rc) rc = err_set(err, GSW_EFAIL, "retro: " RETRO_ANOTHER_PART);
    }
    if (c->rep) c->rep->write_ms += gsw_now_ms() - t1;
    return rc;
}

/* 1 if every slice of the unit has metric m's file and each passes its
 * checksums; 0 when one is missing; -1 when one is damaged (err). */
static int unit_finished(egdb_set_t *set, retro_metric_t m, const uint64_t *slice, int ns, err_t *err)
{
    for (int i = 0; i < ns; i++)
        if (!egdb_slice_present(set, m, slice[i])) return 0;
    for (int i = 0; i < ns; i++) {
        egdb_file_t *f;
        if (egdb_slice_file(set, m, slice[i], &f, err) || egdb_check(f, err)) return -1;
    }
    return 1;
}

/* Is unit u of the plan to be built (o->unit_only: only for_slice's)? */
static int unit_wanted(const egdb_build_options_t *o, const egdb_plan_t *pl, int u)
{
    if (!o->unit_only || !o->for_slice) return 1;
    for (int i = pl->ustart[u]; i < pl->ustart[u + 1]; i++)
        if (pl->s.id[pl->order[i]] == *o->for_slice) return 1;
    return 0;
}

static int build_threads(int t)
{
    if (t > 0) return t;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 64 ? 64 : n) : 1;
}

/* What the unit of these slices still needs: the metrics to build, in
 * order (need[], *nneed). 1 when anything is to build, 0 when its files
 * are all there and sound. */
static int unit_todo(egdb_set_t *set, const egdb_build_options_t *o, const uint64_t *slices, int ns,
                     retro_metric_t need[2], int *nneed, err_t *err)
{
    /* what this unit still needs: win/draw/loss (for wld and dtc), then the metric */
    int nn = 0;
    if (o->metric == RETRO_DTW) need[nn++] = RETRO_DTW;
    else {
        need[nn++] = RETRO_WLD;
        if (o->metric == RETRO_DTC) need[nn++] = RETRO_DTC;
    }
    int todo = 0;
    for (int k = 0; k < nn; k++) {
        int f = unit_finished(set, need[k], slices, ns, err);
        if (f < 0) {
            char line[700];
            snprintf(line, sizeof line, "%s (rebuilding it)", err->msg);
            if (o->progress) o->progress(o->progress_ctx, line);
            f = 0;
        }
        if (!f) todo = 1;
        else need[k] = RETRO_METRICS;   /* done */
    }
    if (o->metric == RETRO_DTW && need[0] == RETRO_METRICS && unit_finished(set, RETRO_WLD, slices, ns, err) != 1)
        todo = 1, need[0] = RETRO_DTW;   /* its win/draw/loss files are missing: build both again */
    *nneed = nn;
    return todo;
}

/* The metrics a unit's build of need[] writes, a bit 1 << m each (a
 * distance-to-win build writes the win/draw/loss files too). */
static unsigned need_wrote(const retro_metric_t *need, int nneed)
{
    unsigned bits = 0;
    for (int k = 0; k < nneed; k++)
        if (need[k] != RETRO_METRICS) bits |= 1u << need[k] | (need[k] == RETRO_DTW ? 1u << RETRO_WLD : 0);
    return bits;
}

/* The whole build's progress, for the time left in progress lines. */
typedef struct build_eta {
    uint64_t total, done;      /* positions of the units that need building (their files are absent) */
    double t0;                 /* when the first unit began building */
} build_eta_t;

/* Build one unit: its metrics need[] in order, files written; rep gets
 * its counts and times. */
static int unit_build(egdb_set_t *set, const egdb_build_options_t *o, const uint64_t *slices, int ns,
                      const retro_metric_t *need, int nneed, int parts, int part, const char *label, build_eta_t *eta,
                      egdb_build_report_t *rep, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    int threads = build_threads(o->threads);
    unit_ctx_t c;
    int rc = unit_ctx_init(&c, set, v, slices, ns, threads, o->metric, o->memory, err);
    if (rc) {
        unit_ctx_free(&c, threads);
        return rc;
    }
    /* a divided unit: this part's nodes, an even share */
    uint64_t lo[EGDB_PARTS_MAX + 1];
    retro_comm_t comm;
    if (parts > 1) {
        const egdb_parts_t *ps = o->parts;
        if (!ps || ps->comm.parts != parts || part != ps->comm.me || parts > EGDB_PARTS_MAX) {
            unit_ctx_free(&c, threads);
            return err_set(err, GSW_EFAIL, "a unit divided in %d parts was handed to a worker that is not part %d of them",
                           parts, part);
        }
        for (int p = 0; p <= parts; p++) lo[p] = c.start[ns] / (uint64_t)parts * (uint64_t)p;
        lo[parts] = c.start[ns];
        comm = ps->comm;
        comm.lo = lo;
        /* the check holds every part's values when they take at most a quarter of the memory */
        comm.replicate = (o->memory ? o->memory : EGDB_MEMORY_DEFAULT) / 4;
        c.parts = ps;
        c.comm = &comm;
    }
    c.o = o;
    retro_stats_t stats;
    c.stats = &stats;
    c.rep = rep;
    snprintf(c.label, sizeof c.label, "%s", label);
    uint64_t n = c.start[ns];
    if (!eta->t0) eta->t0 = gsw_now_ms();
    c.eta_total = eta->total;
    c.eta_done = eta->done;
    c.eta_t0 = eta->t0;
    uint64_t nval = c.comm && part > 0 ? lo[part + 1] - lo[part] : n;   /* part 0 gathers the whole unit */
    retro_val_t *val = malloc((nval ? nval : 1) * sizeof *val), *wld = NULL;
    retro_huge(val, nval * sizeof *val);
    if (!val) rc = err_set(err, GSW_EFAIL, "out of memory for %llu positions", (unsigned long long)n);
    for (int k = 0; k < nneed && !rc; k++) {
        if (need[k] == RETRO_METRICS) continue;
        if (need[k] == RETRO_DTC) {   /* its own win/draw/loss, from the files just written or found */
            wld = malloc((n ? n : 1) * sizeof *wld);
            if (!wld) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
            for (int i = 0; i < ns && !rc; i++)
                for (uint64_t j = 0; j < c.start[i + 1] - c.start[i] && !rc; j++)
                    rc = egdb_probe_index(&c.pr[0], RETRO_WLD, slices[i], j, &wld[c.start[i] + j], err);
            c.wld = wld;
        }
        if (!rc) rc = unit_solve(&c, need[k], val, threads, o->stop, err);
    }
    if (!rc && (!c.comm || part == 0)) {   /* (a divided unit is counted once, by part 0) */
        rep->built += ns;
        rep->positions += n;
        eta->done += n;
        if (o->progress) {
            char line[400], e[120];
            c.eta_done = eta->done - n;
            unit_eta(&c, 1.0, e, sizeof e);
            snprintf(line, sizeof line, "%s: done, %llu positions%s", c.label, (unsigned long long)n, e);
            o->progress(o->progress_ctx, line);
        }
    }
    free(val);
    free(wld);
    unit_ctx_free(&c, threads);
    return rc;
}

int egdb_build_job(egdb_set_t *set, const egdb_build_options_t *o, const egdb_unit_job_t *job,
                   egdb_build_report_t *rep, err_t *err)
{
    memset(rep, 0, sizeof *rep);
    double t0 = gsw_now_ms();
    const gv_t *v = egdb_set_variant(set);
    if (job->ns < 1 || job->nneed < 1 || job->nneed > 2) return err_set(err, GSW_EINPUT, "a malformed unit job");
    char name[64], label[160];
    v->ops->retro->slice_name(v, job->slice[0], name, sizeof name);
    snprintf(label, sizeof label, "unit %d, %s%s", job->unit + 1, name, job->ns > 1 ? " (+ partners)" : "");
    build_eta_t eta = { 0 };
    retro_metric_t need[2];
    for (int k = 0; k < job->nneed; k++) {
        if (job->need[k] < 0 || job->need[k] > RETRO_METRICS) return err_set(err, GSW_EINPUT, "a malformed unit job");
        need[k] = (retro_metric_t)job->need[k];
    }
    int rc = unit_build(set, o, job->slice, job->ns, need, job->nneed, job->parts, job->part, label, &eta, rep, err);
    rep->ms = gsw_now_ms() - t0;
    return rc;
}

/* Add what a worker built (egdb_build_job's report) to the build's. */
static void report_add(egdb_build_report_t *rep, const egdb_build_report_t *part)
{
    rep->built += part->built;
    rep->positions += part->positions;
    rep->solve_ms += part->solve_ms;
    rep->write_ms += part->write_ms;
    retro_stats_add(&rep->engine, &part->engine);
}

/* The plan's units handed to a farm's workers: a unit goes out when every
 * unit it exits into is finished; the first failure stops the handing out,
 * and the units in flight are waited for. */
static int build_farmed(egdb_set_t *set, const egdb_build_options_t *o, const egdb_plan_t *pl, build_eta_t *eta,
                        egdb_prov_t *prov, egdb_build_report_t *rep, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    const retro_game_t *rg = v->ops->retro;
    const egdb_farm_t *fm = o->farm;
    int U = pl->nunits, W = fm->workers;
    int *left = NULL, *dstart = NULL, *dep = NULL, *state = calloc((size_t)U + 1, sizeof *state);
    int *nneed = calloc((size_t)U + 1, sizeof *nneed), *on = malloc(((size_t)W + 1) * sizeof *on);
    int *pending = calloc((size_t)U + 1, sizeof *pending);   /* a divided unit's parts still out */
    uint64_t *size = calloc((size_t)U + 1, sizeof *size);
    retro_metric_t(*need)[2] = calloc((size_t)U + 1, sizeof *need);
    double *since = malloc(((size_t)W + 1) * sizeof *since), *given = malloc(((size_t)W + 1) * sizeof *given);
    int rc = egdb_plan_deps(v, pl, &left, &dstart, &dep, err);
    if (!rc && (!state || !nneed || !on || !need || !since || !given || !pending || !size))
        rc = err_set(err, GSW_EFAIL, "out of memory");
    if (rc) goto out;
    /* which units are divided between all the workers: those of at least
       o->divide positions, else those whose arrays exceed the memory */
    uint64_t budget = o->memory ? o->memory : EGDB_MEMORY_DEFAULT;
    for (int u = 0; u < U; u++)
        for (int i = pl->ustart[u]; i < pl->ustart[u + 1]; i++) size[u] += rg->slice_size(v, pl->s.id[pl->order[i]]);
#define DIVIDED(u) (W >= 2 && W <= EGDB_PARTS_MAX && (o->divide ? size[u] >= o->divide : egdb_unit_array_memory(size[u], o->metric, o->threads) > budget))
    /* units finished already, or not wanted, are done; the others wait (0) */
    enum { WAIT = 0, RUNNING, DONE };
    int ndone = 0, running = 0, next = 0, failed = 0;
    for (int u = 0; u < U && !rc; u++) {
        int ns = pl->ustart[u + 1] - pl->ustart[u];
        uint64_t ids[EGDB_SUCC_MAX];
        if (ns > EGDB_SUCC_MAX) { rc = err_set(err, GSW_EFAIL, "a unit of %d slices", ns); break; }
        for (int i = 0; i < ns; i++) ids[i] = pl->s.id[pl->order[pl->ustart[u] + i]];
        if (!unit_wanted(o, pl, u) || !unit_todo(set, o, ids, ns, need[u], &nneed[u], err)) {
            if (unit_wanted(o, pl, u)) rep->reused += ns, rc = egdb_prov_found(prov, ids, ns, err);
            state[u] = DONE;
        }
    }
    for (int u = 0; u < U && !rc; u++)
        if (state[u] == DONE) {
            ndone++;
            for (int k = dstart[u]; k < dstart[u + 1]; k++) left[dep[k]]--;
        }
    double last_given = 0;     /* when the last unit went out (0: units are left) */
    for (int w = 0; w <= W; w++) on[w] = -1, since[w] = eta->t0;
    while (!rc) {
        /* hand out what is ready, lowest unit first */
        for (int w = 1; w <= W && !failed && !(o->stop && *o->stop); w++) {
            if (on[w] >= 0) continue;
            while (next < U && state[next] != WAIT) next++;
            int u = next;
            while (u < U && (state[u] != WAIT || left[u] > 0)) u++;
            if (u >= U) break;
            uint64_t ids[EGDB_SUCC_MAX];
            int ns = pl->ustart[u + 1] - pl->ustart[u];
            for (int i = 0; i < ns; i++) ids[i] = pl->s.id[pl->order[pl->ustart[u] + i]];
            egdb_unit_job_t job = { .unit = u, .ns = ns, .slice = ids, .nneed = nneed[u] };
            for (int k = 0; k < 2; k++) job.need[k] = (int)need[u][k];
            int div = DIVIDED(u);
            if (div && running) break;   /* a divided unit waits for every worker */
            for (int x = div ? 1 : w; x <= (div ? W : w) && !rc; x++) {
                job.parts = div ? W : 1;
                job.part = div ? x - 1 : 0;
                if ((rc = fm->give(fm->ctx, x, &job, err))) break;
                on[x] = u;
                running++;
                given[x] = gsw_now_ms();
                rep->farm_wait_ms += given[x] - since[x];   /* idle while units were left: they waited on others */
            }
            if (rc) break;
            state[u] = RUNNING;
            pending[u] = div ? W : 1;
            if (div) rep->divided++;
        }
        if (!last_given) {
            int left_any = 0;
            for (int u = next; u < U && !left_any; u++) left_any = state[u] == WAIT;
            if (!left_any) last_given = gsw_now_ms();
        }
        if (rc || !running) break;
        int w = 0, u = -1, bad = 0;
        egdb_build_report_t part;
        err_t uerr = { 0 };
        memset(&part, 0, sizeof part);
        if ((rc = fm->take(fm->ctx, &w, &u, &part, &bad, &uerr, err))) break;
        if (w < 1 || w > W || u < 0 || u >= U || on[w] != u)
            { rc = err_set(err, GSW_EFAIL, "worker %d answered for a unit it was not given", w); break; }
        on[w] = -1;
        running--;
        since[w] = gsw_now_ms();
        rep->farm_busy_ms += part.ms;
        if (since[w] - given[w] > part.ms) rep->farm_comm_ms += since[w] - given[w] - part.ms;
        if (bad) {   /* the first failure is the build's (a part's own before "another part failed"); the
                        units in flight finish */
            if (!failed || (failed == 2 && bad == 1)) {
                *err = uerr;
                failed = bad == 2 ? 2 : 1;
            }
            continue;
        }
        report_add(rep, &part);
        eta->done += part.positions;
        if (--pending[u] > 0) continue;   /* a divided unit is done when every part is */
        state[u] = DONE;
        ndone++;
        for (int k = dstart[u]; k < dstart[u + 1]; k++) left[dep[k]]--;
        int ns = pl->ustart[u + 1] - pl->ustart[u];
        uint64_t ids[EGDB_SUCC_MAX];   /* its files in the folders' MANIFEST (rank 0 records) */
        for (int i = 0; i < ns && i < EGDB_SUCC_MAX; i++) ids[i] = pl->s.id[pl->order[pl->ustart[u] + i]];
        if ((rc = egdb_prov_unit(prov, ids, ns < EGDB_SUCC_MAX ? ns : EGDB_SUCC_MAX, need_wrote(need[u], nneed[u]), err)))
            break;
        if (o->progress) {
            char name[64], line[400], e[120], by[40];
            rg->slice_name(v, pl->s.id[pl->order[pl->ustart[u]]], name, sizeof name);
            build_eta_text((double)eta->done, eta->total, eta->t0, e, sizeof e);
            if (DIVIDED(u)) snprintf(by, sizeof by, "ranks 1-%d (divided)", W);
            else snprintf(by, sizeof by, "rank %d", w);
            snprintf(line, sizeof line, "[unit %d of %d] %s%s: done by %s, %llu positions; %s", u + 1, U, name,
                     ns > 1 ? " (+ partners)" : "", by, (unsigned long long)size[u], e);
            o->progress(o->progress_ctx, line);
        }
    }
    double end = gsw_now_ms();
    if (!last_given) last_given = end;
    for (int w = 1; w <= W; w++)
        if (on[w] < 0) {   /* idle to the end: waiting while units were left, then the tail */
            if (since[w] < last_given) rep->farm_wait_ms += last_given - since[w];
            rep->farm_tail_ms += end - (since[w] > last_given ? since[w] : last_given);
        }
    rep->farm_workers = W;
    if (!rc && failed) rc = err->code ? err->code : GSW_EFAIL;
    if (!rc && ndone < U && !(o->stop && *o->stop))
        rc = err_set(err, GSW_EFAIL, "%d units wait on units that never finish", U - ndone);
    if (!rc && o->stop && *o->stop) rc = err_set(err, GSW_EFAIL, "stopped");
out:
    free(left), free(dstart), free(dep), free(state), free(nneed), free(on);
    free(need), free(since), free(given), free(pending), free(size);
    return rc;
#undef DIVIDED
}

int egdb_build(egdb_set_t *set, const egdb_build_options_t *o, egdb_build_report_t *rep, err_t *err)
{
    const gv_t *v = NULL;
    memset(rep, 0, sizeof *rep);
    double t0 = gsw_now_ms();
    v = egdb_set_variant(set);
    egdb_plan_t pl;
    int rc = egdb_plan_target(v, o, &pl, err);
    if (rc) { egdb_plan_free(&pl); return rc; }
    int threads = build_threads(o->threads);
    rep->slices = pl.s.n;
    const retro_game_t *rg = v->ops->retro;
    uint64_t *slices = malloc((size_t)pl.s.n * sizeof *slices);
    if (!slices) { egdb_plan_free(&pl); return err_set(err, GSW_EFAIL, "out of memory"); }
    int done_slices = 0;
    build_eta_t eta = { 0 };
    if (o->plan_only) {
        rep->units = calloc((size_t)pl.nunits + 1, sizeof *rep->units);
        if (!rep->units) rc = err_set(err, GSW_EFAIL, "out of memory");
    } else
        for (int u = 0; u < pl.nunits; u++) {
            if (!unit_wanted(o, &pl, u)) continue;
            int absent = 0;
            uint64_t n = 0;
            for (int i = pl.ustart[u]; i < pl.ustart[u + 1]; i++) {
                uint64_t id = pl.s.id[pl.order[i]];
                n += rg->slice_size(v, id);
                absent |= !egdb_slice_present(set, o->metric, id) || !egdb_slice_present(set, RETRO_WLD, id);
            }
            if (absent) eta.total += n;
        }
    egdb_prov_t *prov = o->plan_only ? NULL : egdb_prov_open(set, o);   /* the folders' MANIFEST */
    if (!rc && !o->plan_only && o->farm && o->farm->workers > 0) {
        eta.t0 = gsw_now_ms();
        rc = build_farmed(set, o, &pl, &eta, prov, rep, err);
        if (egdb_prov_close(prov, rc ? NULL : err) && !rc) rc = err->code;
        free(slices);
        egdb_plan_free(&pl);
        rep->ms = gsw_now_ms() - t0;
        return rc;
    }
    for (int u = 0; u < pl.nunits && !rc; u++) {
        int ns = pl.ustart[u + 1] - pl.ustart[u];
        for (int i = 0; i < ns; i++) slices[i] = pl.s.id[pl.order[pl.ustart[u] + i]];
        done_slices += ns;
        if (!unit_wanted(o, &pl, u)) continue;
        retro_metric_t need[2];
        int nneed = 0;
        int todo = unit_todo(set, o, slices, ns, need, &nneed, err);
        if (o->plan_only) {   /* count, build nothing */
            uint64_t n = 0;
            for (int i = 0; i < ns; i++) n += rg->slice_size(v, slices[i]);
            rep->planned += n;
            if (!todo) rep->finished += n, rep->reused += ns;
            if (n > rep->largest) rep->largest = n;
            egdb_unit_plan_t *up = &rep->units[rep->nunits++];
            rg->slice_name(v, slices[0], up->first, sizeof up->first);
            up->slices = ns;
            up->positions = n;
            up->finished = !todo;
            up->unit = u;
            up->memory = egdb_unit_memory(n, o->metric, threads, o->memory, egdb_unit_exit_mb(v, slices, ns, o->metric));
            up->disk = egdb_unit_disk(n, o->metric);
            if (todo) {
                if (up->memory > rep->memory) rep->memory = up->memory;
                rep->disk += up->disk;
            }
            continue;
        }
        if (!todo) { rep->reused += ns; rc = egdb_prov_found(prov, slices, ns, err); continue; }
        char name[64], label[160];
        rg->slice_name(v, slices[0], name, sizeof name);
        snprintf(label, sizeof label, "[%d/%d] %s%s", done_slices, pl.s.n, name, ns > 1 ? " (+ partners)" : "");
        rc = unit_build(set, o, slices, ns, need, nneed, 1, 0, label, &eta, rep, err);
        if (!rc) rc = egdb_prov_unit(prov, slices, ns, need_wrote(need, nneed), err);
    }
    if (egdb_prov_close(prov, rc ? NULL : err) && !rc) rc = err->code;
    if (!rc && o->plan_only) rc = egdb_plan_critical(v, &pl, rep, err);
    free(slices);
    egdb_plan_free(&pl);
    rep->ms = gsw_now_ms() - t0;
    return rc;
}

/* egdb_verify's damaged files: each said (progress: "damaged: ...") with
 * the command that rebuilds it, counted, the first kept in *err. */
typedef struct { egdb_set_t *set; int n; err_t *err; void (*say)(void *ctx, const char *line); void *ctx; } vbad_t;
static void verify_bad(vbad_t *b, retro_metric_t m, uint64_t slice, err_t *e)
{
    char line[600];
    egdb_damage_hint(b->set, m, slice, e);
    if (!b->n++) *b->err = *e;
    snprintf(line, sizeof line, "damaged: %s", e->msg);
    if (b->say) b->say(b->ctx, line);
}

int egdb_verify(egdb_set_t *set, const uint64_t *only, int threads, gsw_flag_t *stop,
                void (*progress)(void *ctx, const char *line), void *pctx, int *checked, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    threads = build_threads(threads);
    *checked = 0;
    egdb_build_options_t po = { .progress = progress, .progress_ctx = pctx };
    int total = 0, at = 0;   /* the files to check, for "file 3 of 40" */
    vbad_t bad = { set, 0, err, progress, pctx };
    for (int m = 0; m < RETRO_METRICS; m++) {
        if (only) { total += egdb_slice_present(set, (retro_metric_t)m, *only); continue; }
        int k = egdb_list(set, (retro_metric_t)m, NULL, 0);
        uint64_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
        if (!ids) return err_set(err, GSW_EFAIL, "out of memory");
        egdb_list(set, (retro_metric_t)m, ids, k);
        for (int i = 0; i < k; i++) total += egdb_slice_present(set, (retro_metric_t)m, ids[i]);
        free(ids);
    }
    for (int m = 0; m < RETRO_METRICS; m++) {
        int k = only ? 1 : egdb_list(set, (retro_metric_t)m, NULL, 0);
        uint64_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
        if (!ids) return err_set(err, GSW_EFAIL, "out of memory");
        if (only) ids[0] = *only;
        else egdb_list(set, (retro_metric_t)m, ids, k);
        int rc = GSW_OK;
        for (int i = 0; i < k && !rc; i++) {
            if (!egdb_slice_present(set, (retro_metric_t)m, ids[i])) continue;
            egdb_file_t *f;
            err_t e;   /* a damaged file is said and the others still checked */
            if (egdb_slice_file(set, (retro_metric_t)m, ids[i], &f, &e) || egdb_check(f, &e)) {
                verify_bad(&bad, (retro_metric_t)m, ids[i], &e);
                continue;
            }
            unit_ctx_t c;
            if (!(rc = unit_ctx_init(&c, set, v, &ids[i], 1, threads, (retro_metric_t)m, 0, err))) {
                c.mode = (retro_metric_t)m, c.o = &po;
                char name[64];
                v->ops->retro->slice_name(v, ids[i], name, sizeof name);
                snprintf(c.label, sizeof c.label, "file %d of %d: verify %s", ++at, total, name);
                retro_unit_t u = { .n = c.start[1], .threads = threads, .stop = stop, .ctx = &c,
                                   .check = unit_check, .progress = unit_progress };
                if ((rc = retro_check(&u, NULL, &e)) && !(stop && *stop) && !strstr(e.msg, "out of memory")) {
                    /* inconsistent (a position named), or another damaged file (said on its own) */
                    if (strstr(e.msg, egdb_file_path(f)) || !strstr(e.msg, ".egdb")) verify_bad(&bad, (retro_metric_t)m, ids[i], &e);
                    rc = GSW_OK;
                } else if (rc) *err = e;
            }
            unit_ctx_free(&c, threads);
            if (!rc) ++*checked;
        }
        free(ids);
        if (rc) return rc;
    }
    err_t first = *err;   /* (the first damaged file's, when any) */
    if (bad.n > 1)
        return err_set(err, GSW_EFAIL, "%d of %d files damaged (each said above); the first: %.300s", bad.n, total, first.msg);
    return bad.n ? err->code : GSW_OK;
}
