/* The slices an endgame-database build needs and their build order (see
 * egdb_plan.h): the target's slices, then Tarjan's strongly connected
 * components over their successors. */
#include "solve/egdb_plan.h"

#include <stdlib.h>
#include <string.h>



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
