/* The proof-tree manager (see manager.h). The tree is an array: children
 * are appended when a node is expanded, so a child always comes after its
 * parent and a reverse sweep recomputes every number bottom-up. Worker
 * threads evaluate a batch of leaves at a time, each with its own tables. */
#include "core/manager.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "core/tt.h"

#define MG_ATTACKER(nd) ((nd)->attacker)

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= DFPN_INF ? DFPN_INF : (uint32_t)s;
}

int manager_init(manager_t *m, dfpn_goal_t goal, err_t *err)
{
    memset(m, 0, sizeof *m);
    m->goal = goal;
    m->cap = 1024;
    m->node = calloc((size_t)m->cap, sizeof *m->node);
    if (!m->node) return err_set(err, GSW_EFAIL, "out of memory");
    m->n = 1;
    mg_node_t *r = &m->node[0];
    r->move = MOVE_NONE;
    r->parent = -1;
    r->first_child = -1;
    r->pn = r->dn = 1;
    MG_ATTACKER(r) = 1;
    return GSW_OK;
}

void manager_free(manager_t *m)
{
    free(m->node);
    memset(m, 0, sizeof *m);
}

/* The position of node i, replayed from the root. */
static void mg_pos(const manager_t *m, const gv_t *v, const void *root, int i, void *out)
{
    move_t path[4096];
    int n = 0;
    for (int k = i; k > 0 && n < 4096; k = m->node[k].parent) path[n++] = m->node[k].move;
    memcpy(out, root, v->ops->pos_size);
    while (n > 0) v->ops->play(v, out, path[--n]);
}

int manager_check(const manager_t *m, const gv_t *v, const void *pos, err_t *err)
{
    const game_ops_t *O = v->ops;
    if (m->n < 1 || m->node[0].parent != -1 || !m->node[0].attacker)
        return err_set(err, GSW_EINPUT, "manager tree: the root is damaged");
    int root_turn = O->pos_turn(v, pos);
    GSW_POSBUF at[GSW_MAX_POS];
    move_t mv[GSW_MAX_MOVES];
    for (int i = 0; i < m->n; i++) {
        const mg_node_t *nd = &m->node[i];
        if (nd->first_child >= 0 && (nd->nchildren <= 0 || nd->first_child <= i || nd->first_child + nd->nchildren > m->n))
            return err_set(err, GSW_EINPUT, "manager tree: node %d expects children the tree does not hold", i);
        if (nd->status > MG_ASSUMED_DISPROVEN) return err_set(err, GSW_EINPUT, "manager tree: node %d has a bad status", i);
        for (int c = nd->first_child; nd->first_child >= 0 && c < nd->first_child + nd->nchildren; c++)
            if (m->node[c].parent != i) return err_set(err, GSW_EINPUT, "manager tree: node %d is not its parent's child", c);
        if (i == 0) continue;
        if (nd->parent < 0 || nd->parent >= i) return err_set(err, GSW_EINPUT, "manager tree: node %d comes before its parent", i);
        const mg_node_t *p = &m->node[nd->parent];
        if (i < p->first_child || i >= p->first_child + p->nchildren)
            return err_set(err, GSW_EINPUT, "manager tree: node %d is outside its parent's children", i);
        mg_pos(m, v, pos, nd->parent, at);   /* the parent's position: is the move legal there? */
        int n = O->moves(v, at, mv), legal = 0;
        for (int k = 0; k < n && !legal; k++) legal = mv[k] == nd->move;
        if (!legal) return err_set(err, GSW_EINPUT, "manager tree: node %d's move is not legal where it stands", i);
        O->play(v, at, nd->move);
        if ((O->pos_turn(v, at) == root_turn) != nd->attacker)
            return err_set(err, GSW_EINPUT, "manager tree: node %d records the wrong side to move", i);
    }
    return GSW_OK;
}

/* Numbers of node i from its status (leaves) or its children. */
static void mg_numbers(manager_t *m, int i)
{
    mg_node_t *nd = &m->node[i];
    if (nd->first_child < 0) {
        if (nd->status == MG_PROVEN || nd->status == MG_ASSUMED_PROVEN) { nd->pn = 0; nd->dn = DFPN_INF; }
        else if (nd->status == MG_DISPROVEN || nd->status == MG_ASSUMED_DISPROVEN) { nd->pn = DFPN_INF; nd->dn = 0; }
        return;
    }
    uint32_t mn = DFPN_INF, sum = 0;
    int or_node = MG_ATTACKER(nd);
    for (int c = nd->first_child; c < nd->first_child + nd->nchildren; c++) {
        uint32_t a = or_node ? m->node[c].pn : m->node[c].dn, b = or_node ? m->node[c].dn : m->node[c].pn;
        if (a < mn) mn = a;
        sum = sat_add(sum, b);
    }
    nd->pn = or_node ? mn : sum;
    nd->dn = or_node ? sum : mn;
}

static void mg_backup(manager_t *m, int i)
{
    for (; i >= 0; i = m->node[i].parent) mg_numbers(m, i);
}

static void mg_recompute(manager_t *m)
{
    for (int i = m->n - 1; i >= 0; i--) mg_numbers(m, i);
}

/* The most proving leaf under i that is not in a worker's hands: -1 none. */
static int mg_select(manager_t *m, int i)
{
    mg_node_t *nd = &m->node[i];
    if (nd->pn == 0 || nd->dn == 0) return -1;
    if (nd->first_child < 0) return nd->busy ? -1 : i;
    int or_node = MG_ATTACKER(nd), k = nd->nchildren, order[GSW_MAX_MOVES];
    for (int c = 0; c < k; c++) order[c] = nd->first_child + c;
    for (int a = 1; a < k; a++)   /* by pn at OR nodes, dn at AND nodes */
        for (int b = a; b > 0; b--) {
            uint32_t x = or_node ? m->node[order[b]].pn : m->node[order[b]].dn;
            uint32_t y = or_node ? m->node[order[b - 1]].pn : m->node[order[b - 1]].dn;
            if (x >= y) break;
            int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
        }
    for (int c = 0; c < k; c++) {
        int r = mg_select(m, order[c]);
        if (r >= 0) return r;
    }
    return -1;
}

/* Add the children of leaf i (the moves worth searching). */
static int mg_expand(manager_t *m, const gv_t *v, const void *root, int i, err_t *err)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS];
    mg_pos(m, v, root, i, pos);
    move_t mv[GSW_MAX_MOVES];
    val_t lo = -VAL_INF, hi = VAL_INF;
    int n = O->ab_expand ? O->ab_expand(v, pos, mv, &lo, &hi) : O->moves(v, pos, mv);
    if (n <= 0) n = O->moves(v, pos, mv);
    if (n <= 0) return GSW_OK;
    if (m->n + n > m->cap) {
        int cap = m->cap * 2;
        while (cap < m->n + n) cap *= 2;
        mg_node_t *nn = realloc(m->node, (size_t)cap * sizeof *nn);
        if (!nn) return err_set(err, GSW_EFAIL, "out of memory");
        m->node = nn;
        m->cap = cap;
    }
    int root_turn = O->pos_turn(v, root);
    GSW_POSBUF child[GSW_MAX_POS];
    m->node[i].first_child = m->n;
    m->node[i].nchildren = n;
    for (int k = 0; k < n; k++) {
        mg_node_t *c = &m->node[m->n++];
        memset(c, 0, sizeof *c);
        c->move = mv[k];
        c->parent = i;
        c->first_child = -1;
        c->pn = c->dn = 1;
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv[k]);
        MG_ATTACKER(c) = O->pos_turn(v, child) == root_turn;
    }
    m->expansions++;
    mg_backup(m, i);
    return GSW_OK;
}

/* ---- leaf evaluation, on worker threads ---- */

typedef mg_leaf_t mg_job_t;

typedef struct mg_worker {
    tt_t tt;
    dfpn_table_t pn;
    mg_job_t *job;
    pthread_t th;
} mg_worker_t;

int mg_leaf_settle(mg_leaf_t *j)
{
    const gv_t *v = j->v;
    const game_ops_t *O = v->ops;
    double t0 = gsw_now_ms();
    val_t T = j->goal == DFPN_GOAL_WIN ? 1 : 0, tv;
    j->status = MG_OPEN;
    j->pn = j->dn = 1;
    j->settled = 1;
    /* the game itself: over, or a repetition of the line */
    if (O->terminal(v, j->pos, &tv)) {
        j->status = (j->attacker ? tv >= T : tv <= -T) ? MG_PROVEN : MG_DISPROVEN;
        goto done;
    }
    if (O->repetition && j->node > 0) {   /* (the root is the position asked about) */
        uint64_t h = O->pos_hash(v, j->pos);
        for (int i = 0; i < j->nline; i++)
            if (j->line[i] == h && O->repetition(v, j->pos, &tv)) {
                j->status = (j->attacker ? tv >= T : tv <= -T) ? MG_PROVEN : MG_DISPROVEN;
                goto done;
            }
    }
    int proven;
    if (j->o->probe && j->o->probe(j->o->probe_ctx, v, j->pos, j->goal, j->attacker, &proven)) {
        j->status = proven ? MG_PROVEN : MG_DISPROVEN;
        goto done;
    }
    val_t olo, ohi;
    if (j->o->oracle && j->o->oracle->probe(j->o->oracle->ctx, v, j->pos, &olo, &ohi)) {
        if (j->attacker ? olo >= T : ohi <= -T) { j->status = MG_PROVEN; goto done; }
        if (j->attacker ? ohi < T : olo > -T) { j->status = MG_DISPROVEN; goto done; }
    }
    j->settled = 0;
done:
    j->ms = gsw_now_ms() - t0;
    return j->settled;
}

static void mg_eval(mg_worker_t *w, mg_job_t *j)
{
    if (j->settled || mg_leaf_settle(j)) return;
    const gv_t *v = j->v;
    const game_ops_t *O = v->ops;
    double t0 = gsw_now_ms() - j->ms;
    val_t T = j->goal == DFPN_GOAL_WIN ? 1 : 0;
    /* a heuristic search: a proof, or a score the threshold may take as one */
    err_t err;
    if (O->evaluate) {
        ab_options_t ao = { .threads = 1, .depth_limit = j->o->ab_depth > 0 ? j->o->ab_depth : 8,
                            .time_limit_ms = 2000, .stop = j->o->stop, .oracle = j->o->oracle };
        ab_result_t r;
        if (ab_think(v, &w->tt, j->pos, &ao, &r, &err) == GSW_OK) {
            j->nodes += r.nodes;
            int32_t s = j->attacker ? r.score : -r.score;
            j->score = s;
            if (val_is_proven_decisive(r.score) && !r.aborted) {
                j->status = (j->attacker ? r.score >= T : r.score <= -T) ? MG_PROVEN : MG_DISPROVEN;
                goto done;
            }
            if (s >= j->t) { j->status = MG_ASSUMED_PROVEN; goto done; }
            if (s <= -j->t) { j->status = MG_ASSUMED_DISPROVEN; goto done; }
        }
    }
    /* exact alpha-beta (win/draw/loss) with a node budget: the bounds it
     * proves may settle the goal (where positions repeat it carries the
     * leaf's line, as df-pn does) */
    {
        ab_options_t ao = { .threads = 1, .wdl_only = 1, .no_best = 1,
                            .node_limit = j->o->dfpn_budget ? j->o->dfpn_budget : 200000, .stop = j->o->stop,
                            .history = j->line, .history_len = j->nline, .oracle = j->o->oracle };
        ab_result_t r;
        if (ab_solve(v, &w->tt, j->pos, &ao, &r, &err) == GSW_OK) {
            j->nodes += r.nodes;
            if (j->attacker ? r.lo >= T : r.hi <= -T) { j->status = MG_PROVEN; goto done; }
            if (j->attacker ? r.hi < T : r.lo > -T) { j->status = MG_DISPROVEN; goto done; }
        }
    }
    /* df-pn with a budget */
    dfpn_options_t po = { .table = &w->pn, .node_limit = j->o->dfpn_budget ? j->o->dfpn_budget : 200000,
                          .stop = j->o->stop, .history = j->line, .nhistory = j->nline, .oracle = j->o->oracle };
    dfpn_result_t r;
    /* df-pn proves goals of the side to move: at a defender node, "the
     * attacker wins" is "the defender does not reach a draw", and "the
     * attacker draws" is "the defender does not win"; the answer turns round */
    dfpn_goal_t g = j->attacker ? j->goal : j->goal == DFPN_GOAL_WIN ? DFPN_GOAL_DRAW : DFPN_GOAL_WIN;
    if (dfpn_prove(v, j->pos, g, &po, &r, &err)) { j->failed = 1; goto done; }
    j->nodes += r.nodes;
    int yes = j->attacker ? r.status == DFPN_PROVEN : r.status == DFPN_DISPROVEN;
    int no = j->attacker ? r.status == DFPN_DISPROVEN : r.status == DFPN_PROVEN;
    if (yes) j->status = MG_PROVEN;
    else if (no) j->status = MG_DISPROVEN;
    else {
        uint32_t a = r.pn ? r.pn : 1, b = r.dn ? r.dn : 1;
        j->pn = j->attacker ? a : b;
        j->dn = j->attacker ? b : a;
    }
done:
    j->ms = gsw_now_ms() - t0;
}

struct mg_solver { mg_worker_t w; };

int mg_solver_new(size_t hash_mb, mg_solver_t **out, err_t *err)
{
    mg_solver_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory");
    size_t mb = hash_mb ? hash_mb : 32;
    if (tt_init(&s->w.tt, mb, err) || dfpn_table_init(&s->w.pn, mb, err)) {
        mg_solver_free(s);
        return err->code;
    }
    *out = s;
    return GSW_OK;
}

void mg_solver_free(mg_solver_t *s)
{
    if (!s) return;
    tt_free(&s->w.tt);
    dfpn_table_free(&s->w.pn);
    free(s);
}

void mg_solver_eval(mg_solver_t *s, mg_leaf_t *leaf)
{
    mg_eval(&s->w, leaf);
}

static void *mg_thread(void *arg)
{
    mg_worker_t *w = arg;
    mg_eval(w, w->job);
    return NULL;
}

int manager_assumes(const manager_t *m, int i)
{
    const mg_node_t *nd = &m->node[i];
    if (nd->first_child < 0) return nd->status == MG_ASSUMED_PROVEN || nd->status == MG_ASSUMED_DISPROVEN;
    int proven = nd->pn == 0;
    int choose = proven == MG_ATTACKER(nd);   /* the favoured side picks one child */
    if (choose) {
        for (int c = nd->first_child; c < nd->first_child + nd->nchildren; c++)
            if ((proven ? m->node[c].pn == 0 : m->node[c].dn == 0) && !manager_assumes(m, c)) return 0;
        return 1;
    }
    for (int c = nd->first_child; c < nd->first_child + nd->nchildren; c++)
        if (manager_assumes(m, c)) return 1;
    return 0;
}

int manager_run(manager_t *m, const gv_t *v, const void *pos, const manager_options_t *o, int *done,
                dfpn_status_t *status, err_t *err)
{
    *done = 0;
    *status = DFPN_UNKNOWN;
    int W = o->workers > 0 ? o->workers : 1;
    if (W > 64) W = 64;
    if (!m->t) m->t = o->t0 > 0 ? o->t0 : 100;
    double t0 = gsw_now_ms(), deadline = o->time_limit_ms > 0 ? t0 + o->time_limit_ms : 0;
    mg_worker_t *w = calloc((size_t)W, sizeof *w);
    mg_job_t *jobs = calloc((size_t)W, sizeof *jobs);
    if (!w || !jobs) { free(w); free(jobs); return err_set(err, GSW_EFAIL, "out of memory"); }
    int rc = GSW_OK;
    size_t mb = o->hash_mb ? o->hash_mb : 32;
    for (int k = 0; k < W && !rc && !o->farm; k++) {   /* (a farm's workers have their own) */
        if (tt_init(&w[k].tt, mb, err) || dfpn_table_init(&w[k].pn, mb, err)) rc = err->code;
    }
    const game_ops_t *O = v->ops;
    int root_turn = O->pos_turn(v, pos);
    for (int i = 0; i < m->n; i++) m->node[i].busy = 0;   /* a resumed tree */
    mg_recompute(m);
    while (!rc) {
        double mt0 = gsw_now_ms();
        if ((o->stop && *o->stop) || (deadline > 0 && gsw_now_ms() >= deadline)) break;
        if (o->node_limit && m->solver_nodes >= o->node_limit) break;
        mg_node_t *root = &m->node[0];
        if (root->pn == 0 || root->dn == 0) {
            if (!manager_assumes(m, 0)) {
                *done = 1;
                *status = root->pn == 0 ? DFPN_PROVEN : DFPN_DISPROVEN;
                break;
            }
            /* settled on assumptions: raise t, and solve what it no longer covers */
            m->t = m->t >= VAL_PROVEN / 4 ? VAL_INF : m->t * 4;
            for (int i = 0; i < m->n; i++) {
                mg_node_t *nd = &m->node[i];
                if ((nd->status == MG_ASSUMED_PROVEN && nd->score < m->t)
                    || (nd->status == MG_ASSUMED_DISPROVEN && nd->score > -m->t)) {
                    nd->status = MG_OPEN;
                    nd->evaluated = 0;
                    nd->pn = nd->dn = 1;
                }
            }
            mg_recompute(m);
            m->manager_ms += gsw_now_ms() - mt0;
            continue;
        }
        /* a batch of the most proving leaves; evaluated open leaves expand */
        int nb = 0;
        while (nb < W) {
            int leaf = mg_select(m, 0);
            if (leaf < 0) break;
            mg_node_t *nd = &m->node[leaf];
            if (nd->evaluated && nd->status == MG_OPEN) {
                if ((rc = mg_expand(m, v, pos, leaf, err))) break;
                if (m->node[leaf].first_child < 0) { m->node[leaf].status = MG_DISPROVEN; mg_backup(m, leaf); }
                continue;
            }
            nd->busy = 1;
            mg_job_t *j = &jobs[nb];
            memset(j, 0, sizeof *j);
            j->v = v;
            j->o = o;
            j->goal = m->goal;
            j->t = m->t;
            j->node = leaf;
            mg_pos(m, v, pos, leaf, j->pos);
            if (O->repetition) {   /* the line: the history's last positions, then the tree's from the root */
                move_t path[MG_LINE];
                int np = 0;
                for (int k = leaf; k > 0 && np < MG_LINE; k = m->node[k].parent) path[np++] = m->node[k].move;
                int nh = o->history ? o->nhistory : 0;
                if (nh > MG_LINE - np) nh = MG_LINE - np;   /* (the oldest go first: they are the least likely met) */
                for (int k = o->nhistory - nh; k < o->nhistory; k++) j->line[j->nline++] = o->history[k];
                GSW_POSBUF q[GSW_MAX_POS];
                memcpy(q, pos, O->pos_size);
                while (np > 0 && j->nline < MG_LINE) { j->line[j->nline++] = O->pos_hash(v, q); O->play(v, q, path[--np]); }
            }
            j->attacker = O->pos_turn(v, j->pos) == root_turn;
            nb++;
        }
        if (rc || nb == 0) break;
        m->manager_ms += gsw_now_ms() - mt0;
        double st0 = gsw_now_ms();
        if (o->farm) {
            for (int k = 0; k < nb; k++) mg_leaf_settle(&jobs[k]);
            if ((rc = o->farm(o->farm_ctx, jobs, nb, err))) break;
        } else
        for (int k = 0; k < nb; k++) {
            w[k].job = &jobs[k];
            if (nb == 1 || pthread_create(&w[k].th, NULL, mg_thread, &w[k])) { mg_eval(&w[k], &jobs[k]); w[k].th = 0; }
        }
        for (int k = 0; k < nb && !o->farm; k++)
            if (nb > 1 && w[k].th) pthread_join(w[k].th, NULL);
        m->solver_ms += gsw_now_ms() - st0;
        mt0 = gsw_now_ms();
        for (int k = 0; k < nb; k++) {
            mg_job_t *j = &jobs[k];
            mg_node_t *nd = &m->node[j->node];
            nd->busy = 0;
            if (j->failed) continue;
            nd->evaluated = 1;
            nd->status = (uint8_t)j->status;
            nd->score = j->score;
            if (j->status == MG_OPEN) { nd->pn = j->pn; nd->dn = j->dn; }
            m->leaves++;
            m->solver_nodes += j->nodes;
            mg_backup(m, j->node);
        }
        if (o->progress && o->progress(o->progress_ctx, m, gsw_now_ms() - t0)) { m->manager_ms += gsw_now_ms() - mt0; break; }
        m->manager_ms += gsw_now_ms() - mt0;
    }
    for (int k = 0; k < W; k++) { tt_free(&w[k].tt); dfpn_table_free(&w[k].pn); }
    free(w);
    free(jobs);
    return rc;
}
