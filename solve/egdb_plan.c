/* The slices an endgame-database build needs and their build order (see
 * egdb_plan.h): the target's slices, then Tarjan's strongly connected
 * components over their successors. */
#include "solve/egdb_plan.h"

#include <stdlib.h>
#include <string.h>

#include "core/retro.h"



int egdb_slices_find(const egdb_slices_t *s, uint64_t id)
{
    if (!s->hcap) return -1;
    for (int i = (int)((id * 0x9e3779b97f4a7c15ull) >> 40) & (s->hcap - 1);; i = (i + 1) & (s->hcap - 1)) {
        if (!s->hash[i]) return -1;
        if (s->id[s->hash[i] - 1] == id) return s->hash[i] - 1;
    }
}

static int set_add(egdb_slices_t *s, uint64_t id)
{
    int at = egdb_slices_find(s, id);
    if (at >= 0) return at;
    if (s->n + 1 > s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        uint64_t *nid = realloc(s->id, (size_t)cap * sizeof *nid);
        if (!nid) return -1;
        s->id = nid;
        s->cap = cap;
    }
    if ((s->n + 1) * 2 > s->hcap) {
        int hcap = s->hcap ? s->hcap * 2 : 512;
        while ((s->n + 1) * 2 > hcap) hcap *= 2;
        int *nh = calloc((size_t)hcap, sizeof *nh);
        if (!nh) return -1;
        free(s->hash);
        s->hash = nh;
        s->hcap = hcap;
        for (int k = 0; k < s->n; k++)
            for (int i = (int)((s->id[k] * 0x9e3779b97f4a7c15ull) >> 40) & (hcap - 1);; i = (i + 1) & (hcap - 1))
                if (!nh[i]) { nh[i] = k + 1; break; }
    }
    s->id[s->n] = id;
    for (int i = (int)((id * 0x9e3779b97f4a7c15ull) >> 40) & (s->hcap - 1);; i = (i + 1) & (s->hcap - 1))
        if (!s->hash[i]) { s->hash[i] = s->n + 1; break; }
    return s->n++;
}

static void set_free(egdb_slices_t *s)
{
    free(s->id);
    free(s->hash);
    memset(s, 0, sizeof *s);
}



static int plan_make(const gv_t *v, egdb_plan_t *pl, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    int n = pl->s.n;
    int *idx = malloc((size_t)n * sizeof *idx), *low = malloc((size_t)n * sizeof *low);
    int *stack = malloc((size_t)n * sizeof *stack), *on = calloc((size_t)n, sizeof *on);
    int *cstack = malloc((size_t)n * sizeof *cstack), *cedge = malloc((size_t)n * sizeof *cedge);
    uint64_t(*succ)[EGDB_SUCC_MAX] = NULL;
    int *nsucc = malloc((size_t)n * sizeof *nsucc);
    pl->order = malloc((size_t)n * sizeof *pl->order);
    pl->ustart = malloc(((size_t)n + 1) * sizeof *pl->ustart);
    int **adj = calloc((size_t)n, sizeof *adj);
    int rc = GSW_OK;
    if (!idx || !low || !stack || !on || !cstack || !cedge || !nsucc || !pl->order || !pl->ustart || !adj) {
        rc = err_set(err, GSW_EFAIL, "out of memory planning %d slices", n);
        goto out;
    }
    succ = malloc(sizeof *succ);
    if (!succ) { rc = err_set(err, GSW_EFAIL, "out of memory"); goto out; }
    for (int i = 0; i < n; i++) {
        int k = rg->slice_succ(v, pl->s.id[i], succ[0], EGDB_SUCC_MAX);
        if (k > EGDB_SUCC_MAX) { rc = err_set(err, GSW_EFAIL, "a slice with %d successors", k); goto out; }
        adj[i] = malloc(((size_t)k + 1) * sizeof **adj);
        if (!adj[i]) { rc = err_set(err, GSW_EFAIL, "out of memory"); goto out; }
        nsucc[i] = 0;
        for (int j = 0; j < k; j++) {
            int t = egdb_slices_find(&pl->s, succ[0][j]);
            if (t >= 0 && t != i) adj[i][nsucc[i]++] = t;
        }
    }
    for (int i = 0; i < n; i++) idx[i] = -1;
    int counter = 0, sp = 0, placed = 0;
    pl->nunits = 0;
    for (int root = 0; root < n; root++) {
        if (idx[root] >= 0) continue;
        int csp = 0;
        cstack[csp] = root;
        cedge[csp++] = 0;
        idx[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = 1;
        while (csp) {
            int x = cstack[csp - 1];
            if (cedge[csp - 1] < nsucc[x]) {
                int y = adj[x][cedge[csp - 1]++];
                if (idx[y] < 0) {
                    idx[y] = low[y] = counter++;
                    stack[sp++] = y;
                    on[y] = 1;
                    cstack[csp] = y;
                    cedge[csp++] = 0;
                } else if (on[y] && idx[y] < low[x]) low[x] = idx[y];
                continue;
            }
            csp--;
            if (csp && low[x] < low[cstack[csp - 1]]) low[cstack[csp - 1]] = low[x];
            if (low[x] == idx[x]) {   /* x roots a component: pop it as one unit */
                pl->ustart[pl->nunits++] = placed;
                int y;
                do {
                    y = stack[--sp];
                    on[y] = 0;
                    pl->order[placed++] = y;
                } while (y != x);
            }
        }
    }
    pl->ustart[pl->nunits] = placed;
out:
    if (adj)
        for (int i = 0; i < n; i++) free(adj[i]);
    free(adj);
    free(succ);
    free(idx);
    free(low);
    free(stack);
    free(on);
    free(cstack);
    free(cedge);
    free(nsucc);
    return rc;
}

void egdb_plan_free(egdb_plan_t *pl)
{
    set_free(&pl->s);
    free(pl->order);
    free(pl->ustart);
}

/* The target's slices: every slice of 1..pieces, or what pos can reach. */
int egdb_plan_target(const gv_t *v, const egdb_build_options_t *o, egdb_plan_t *pl, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    memset(pl, 0, sizeof *pl);
    if (o->for_pos || o->for_slice) {
        uint64_t slice, index;
        int flipped;
        if (o->for_slice) slice = *o->for_slice;
        else if (!rg->locate(v, o->for_pos, &slice, &index, &flipped))
            return err_set(err, GSW_EINPUT, "no %s database covers the position (at most %d pieces%s)",
                           v->game->name, rg->max_pieces,
                           rg->mate_metric ? ", no castling rights" : "");
        if (set_add(&pl->s, slice) < 0) return err_set(err, GSW_EFAIL, "out of memory");
        uint64_t succ[EGDB_SUCC_MAX];
        for (int i = 0; i < pl->s.n; i++) {
            int k = rg->slice_succ(v, pl->s.id[i], succ, EGDB_SUCC_MAX);
            for (int j = 0; j < k && j < EGDB_SUCC_MAX; j++)
                if (set_add(&pl->s, succ[j]) < 0) return err_set(err, GSW_EFAIL, "out of memory");
        }
    } else {
        if (o->pieces < 1 || o->pieces > rg->max_pieces)
            return err_set(err, GSW_EINPUT, "--pieces %d: %s databases cover 1 to %d pieces", o->pieces,
                           v->game->name, rg->max_pieces);
        for (int p = 1; p <= o->pieces; p++) {
            int k = rg->slices(v, p, NULL, 0);
            uint64_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
            if (!ids) return err_set(err, GSW_EFAIL, "out of memory");
            rg->slices(v, p, ids, k);
            for (int j = 0; j < k; j++) {
                if (o->max_per_side > 0) {   /* the counts: the side to move's half, then the other's */
                    int c[RETRO_MAX_COUNTS], nc = rg->slice_material(v, ids[j], c), a = 0, b = 0;
                    for (int i = 0; i < nc; i++) *(i < nc / 2 ? &a : &b) += c[i];
                    if (a > o->max_per_side || b > o->max_per_side) continue;
                }
                if (set_add(&pl->s, ids[j]) < 0) { free(ids); return err_set(err, GSW_EFAIL, "out of memory"); }
            }
            free(ids);
        }
    }
    return plan_make(v, pl, err);
}

/* ---- what a unit's build takes ------------------------------------------ */

/* The unit's arrays: nodes 6 + values 2 (+ dtc's own win/draw/loss 2) a
 * position, the frontier (4 bytes a position of the two largest levels: at
 * most a quarter of the unit), the propagation's buckets on a large unit,
 * 16 MB besides. */
uint64_t egdb_unit_array_memory(uint64_t n, retro_metric_t m, int threads)
{
    uint64_t per = m == RETRO_DTC ? 10 : 8;
    return n * per + n + retro_bucket_bytes(n, threads, 0) + (16u << 20);
}

/* Each thread's block cache for the probes into the slices the unit exits
 * to (MB): a quarter of what the arrays leave of the budget, shared out,
 * between 64 MB and 1 GB. A 7-piece unit whose men promote probes the
 * largest 7-piece file (4K v 3K, 235 MB of codes) at random: with 64 MB it
 * missed three probes in four, each a block decompressed. */
size_t egdb_unit_cache_mb(uint64_t n, retro_metric_t m, int threads, uint64_t budget)
{
    uint64_t arrays = egdb_unit_array_memory(n, m, threads);
    if (!budget) budget = EGDB_MEMORY_DEFAULT;
    uint64_t share = budget > arrays ? (budget - arrays) / 4 / (uint64_t)(threads > 0 ? threads : 1) >> 20 : 0;
    return share < 64 ? 64 : share > 1024 ? 1024 : (size_t)share;
}

/* What the probes of the unit's exits need of a block cache (MB): every
 * position of the slices it exits to, a byte each (dtc reads their
 * win/draw/loss files too), four times over: the cache is sets of 4 ways,
 * a power of two of them, and nearly full it misses by conflicts
 * (4K0C-3K0C's dtw init took 41.5 s instead of 25 with 1.125 times its
 * exits' bytes; 4 times measured as fast as the 680 MB it had before). A
 * thread's block cache needs no more, so what the budget gives past it
 * keeps move lists for the check. */
size_t egdb_unit_exit_mb(const gv_t *v, const uint64_t *slices, int ns, retro_metric_t m)
{
    const retro_game_t *rg = v->ops->retro;
    uint64_t bytes = 0, seen[512], succ[EGDB_SUCC_MAX];
    int nseen = 0;
    for (int i = 0; i < ns; i++) {
        int k = rg->slice_succ(v, slices[i], succ, EGDB_SUCC_MAX);
        for (int j = 0; j < k; j++) {
            int dup = 0;
            for (int q = 0; q < ns && !dup; q++) dup = slices[q] == succ[j];   /* (inside the unit) */
            for (int q = 0; q < nseen && !dup; q++) dup = seen[q] == succ[j];
            if (dup) continue;
            if (nseen == (int)(sizeof seen / sizeof seen[0])) return SIZE_MAX;   /* (too many to count: no cap) */
            seen[nseen++] = succ[j];
            bytes += rg->slice_size(v, succ[j]);
        }
    }
    if (m == RETRO_DTC) bytes *= 2;
    return (size_t)((4 * bytes) >> 20) + 16;
}

uint64_t egdb_unit_memory(uint64_t n, retro_metric_t m, int threads, uint64_t budget, size_t exit_mb)
{
    size_t mb = egdb_unit_cache_mb(n, m, threads, budget);
    if (exit_mb < mb) mb = exit_mb;
    /* without the kept lists, then the lists as far as the budget allows
       (retro_unit_t.keep_bytes: the build's unit_keep_bytes) */
    uint64_t base = egdb_unit_array_memory(n, m, threads) + (uint64_t)threads * ((uint64_t)mb << 20);
    if (!budget) budget = EGDB_MEMORY_DEFAULT;
    uint64_t keep = budget > base ? budget - base : 0, lists = 14 * n;
    return base + (lists < keep ? lists : keep);
}

uint64_t egdb_unit_disk(uint64_t n, retro_metric_t m)
{
    double per = m == RETRO_WLD ? 0.08 : 0.45;   /* dtw and dtc: their file and the wld file */
    return (uint64_t)((double)n * per) + 4096;
}

/* ---- the units' dependencies --------------------------------------------- */

/* The units each unit of pl exits into, turned round: *left[u] counts the
 * units u waits for, dep[dstart[t] .. dstart[t + 1]) lists the units
 * waiting on t (a unit's place comes after those it waits for). */
int egdb_plan_deps(const gv_t *v, const egdb_plan_t *pl, int **leftp, int **dstartp, int **depp, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    int U = pl->nunits, n = pl->s.n;
    int *unit_of = malloc(((size_t)n + 1) * sizeof *unit_of), *left = calloc((size_t)U + 1, sizeof *left);
    int *dstart = calloc((size_t)U + 2, sizeof *dstart), *dep = NULL;
    uint64_t *succ = malloc(EGDB_SUCC_MAX * sizeof *succ);
    int rc = GSW_OK;
    if (!unit_of || !left || !dstart || !succ) {
        rc = err_set(err, GSW_EFAIL, "out of memory");
        goto out;
    }
    for (int u = 0; u < U; u++)
        for (int i = pl->ustart[u]; i < pl->ustart[u + 1]; i++) unit_of[pl->order[i]] = u;
    for (int pass = 0; pass < 2; pass++) {
        for (int u = 0; u < U; u++)
            for (int i = pl->ustart[u]; i < pl->ustart[u + 1]; i++) {
                int k = rg->slice_succ(v, pl->s.id[pl->order[i]], succ, EGDB_SUCC_MAX);
                for (int j = 0; j < k && j < EGDB_SUCC_MAX; j++) {
                    int t = egdb_slices_find(&pl->s, succ[j]);
                    if (t < 0 || unit_of[t] == u) continue;
                    if (!pass) left[u]++, dstart[unit_of[t] + 1]++;
                    else dep[dstart[unit_of[t]]++] = u;
                }
            }
        if (!pass) {
            for (int u = 0; u < U; u++) dstart[u + 1] += dstart[u];
            dep = malloc(((size_t)dstart[U] + 1) * sizeof *dep);
            if (!dep) { rc = err_set(err, GSW_EFAIL, "out of memory"); goto out; }
        }
    }
    for (int u = U; u > 0; u--) dstart[u] = dstart[u - 1];   /* (the filling moved each start to the next) */
    dstart[0] = 0;
out:
    free(unit_of);
    free(succ);
    if (rc) {
        free(left);
        free(dstart);
        free(dep);
        left = dstart = dep = NULL;
    }
    *leftp = left;
    *dstartp = dstart;
    *depp = dep;
    return rc;
}

/* plan_only: the longest chain of units still to build (rep->units in
 * plan order), in positions: a unit's chain is its own positions and the
 * longest chain among the units it waits for. */
int egdb_plan_critical(const gv_t *v, const egdb_plan_t *pl, egdb_build_report_t *rep, err_t *err)
{
    int U = pl->nunits, *left, *dstart, *dep;
    uint64_t *chain = calloc((size_t)U + 1, sizeof *chain), *own = calloc((size_t)U + 1, sizeof *own);
    int rc = chain && own ? egdb_plan_deps(v, pl, &left, &dstart, &dep, err) : err_set(err, GSW_EFAIL, "out of memory");
    if (!rc) {
        for (int i = 0; i < rep->nunits; i++)
            if (!rep->units[i].finished) own[rep->units[i].unit] = rep->units[i].positions;
        rep->critical = 0;
        for (int u = 0; u < U; u++) {   /* (units come after those they wait for) */
            chain[u] += own[u];
            if (chain[u] > rep->critical) rep->critical = chain[u];
            for (int k = dstart[u]; k < dstart[u + 1]; k++)
                if (chain[u] > chain[dep[k]]) chain[dep[k]] = chain[u];
        }
        free(left);
        free(dstart);
        free(dep);
    }
    free(chain);
    free(own);
    return rc;
}
