/* What a unit divided between parts adds to the retrograde engine
 * (retro_unit_t.comm, core/retro.h): the meetings every part makes in the
 * same order, the exchange that ends each propagation round, and the check
 * across parts. The phases themselves are core/retro.c's. */
#include "core/retro_run.h"

#include "core/pfor.h"

/* Frontier nodes a part propagates between two exchanges, and nodes it
 * checks between two (a multiple of RETRO_CHUNK, so that a block reads
 * init's kept lists chunk by chunk). */
uint64_t retro_round(const retro_unit_t *u) { return u->round ? u->round : RETRO_ROUND; }
static uint64_t retro_cblock(const retro_unit_t *u)
{
    uint64_t b = retro_round(u) / RETRO_CHUNK * RETRO_CHUNK;
    return b < RETRO_CHUNK ? RETRO_CHUNK : b > 4 * RETRO_CHUNK ? 4 * RETRO_CHUNK : b;
}

/* Every part's maximum of x[1..k-1], and whether any part has failed so
 * far (x[0]): 1 when one has, and every part stops. */
int retro_meet(retro_run_t *r, int64_t *x, int k)
{
    err_t e = { 0 };
    x[0] = __atomic_load_n(&r->failed, __ATOMIC_RELAXED) ? 1 : 0;
    if (r->comm->max(r->comm->ctx, x, k, &e)) {
        retro_fail(r, &e);
        return 1;
    }
    if (x[0] && !r->failed) {
        err_set(&e, GSW_EFAIL, "retro: " RETRO_ANOTHER_PART);
        retro_fail(r, &e);
    }
    return (int)x[0];
}

/* The exchange: send[p] to part p; *recv and rcount[] what came. 1 when a
 * part has failed (every part stops). */
static int retro_swap(retro_run_t *r, void *const *send, const size_t *ns, void **recv, size_t *rcount)
{
    err_t e = { 0 };
    int failed = __atomic_load_n(&r->failed, __ATOMIC_RELAXED);
    *recv = NULL;
    if (r->comm->exchange(r->comm->ctx, send, ns, recv, rcount, &failed, &e)) {
        retro_fail(r, &e);
        return 1;
    }
    if (failed && !r->failed) {
        err_set(&e, GSW_EFAIL, "retro: " RETRO_ANOTHER_PART);
        retro_fail(r, &e);
    }
    return failed;
}

typedef struct retro_recv {
    retro_run_t *r;
    const uint64_t *w;
} retro_recv_t;

static void retro_settle_recv(void *ctx, int tid, uint64_t a, uint64_t b)
{
    retro_recv_t *j = ctx;
    retro_run_t *r = j->r;
    err_t e = { 0 };
    enum { AHEAD = 16 };   /* settlements land at random in the node array: their nodes are fetched ahead */
    for (uint64_t k = a; k < b && k < a + AHEAD; k++) {
        uint64_t o = (j->w[k] >> 1) - r->lo;
        if (o < r->nloc) __builtin_prefetch(&r->node[o], 1);
    }
    for (uint64_t k = a; k < b && !__atomic_load_n(&r->failed, __ATOMIC_RELAXED); k++) {
        if (k + AHEAD < b) {
            uint64_t f = (j->w[k + AHEAD] >> 1) - r->lo;
            if (f < r->nloc) __builtin_prefetch(&r->node[f], 1);
        }
        uint64_t o = (j->w[k] >> 1) - r->lo;
        if (o >= r->nloc) {
            err_set(&e, GSW_EFAIL, "retro: a settlement for node %llu reached the wrong part",
                    (unsigned long long)(j->w[k] >> 1));
            retro_fail(r, &e);
            return;
        }
        retro_settle(r, tid, o, (int)(j->w[k] & 1), &e);
    }
}

/* The end of a propagation round: the threads' settlements for other
 * parts joined per part and exchanged; those for this part settled on the
 * unit's threads. 1 when a part has failed. */
int retro_round_swap(retro_run_t *r)
{
    int P = r->comm->parts, t = retro_threads(r->u);
    void **send = calloc((size_t)P, sizeof *send);
    size_t *ns = calloc((size_t)P, sizeof *ns), *rcount = calloc((size_t)P, sizeof *rcount);
    err_t e = { 0 };
    if (!send || !ns || !rcount) {
        err_set(&e, GSW_EFAIL, "retro: out of memory for the messages to other parts");
        retro_fail(r, &e);
    }
    for (int p = 0; send && ns && p < P; p++) {
        size_t n = 0;
        for (int i = 0; i < t; i++) n += r->obox[(size_t)i * (size_t)P + (size_t)p].n;
        uint64_t *w = n && !r->failed ? malloc(n * sizeof *w) : NULL;
        if (n && !r->failed && !w) {
            err_set(&e, GSW_EFAIL, "retro: out of memory for the messages to other parts");
            retro_fail(r, &e);
        }
        size_t at = 0;
        for (int i = 0; i < t; i++) {
            retro_words_t *x = &r->obox[(size_t)i * (size_t)P + (size_t)p];
            if (w && x->n) memcpy(w + at, x->a, x->n * sizeof *w);
            at += x->n;
            x->n = 0;
        }
        send[p] = w;
        ns[p] = w ? n * sizeof *w : 0;
    }
    void *recv = NULL;
    int stop = send && ns && rcount ? retro_swap(r, send, ns, &recv, rcount) : 1;
    if (!stop) {
        size_t n = 0;
        for (int p = 0; p < P; p++) n += rcount[p] / sizeof(uint64_t);
        retro_recv_t j = { r, recv };
        if (n) gsw_pfor(t, n, 4096, retro_settle_recv, &j);
    }
    for (int p = 0; send && p < P; p++) free(send[p]);
    free(send);
    free(ns);
    free(rcount);
    free(recv);
    return stop;
}

typedef struct retro_clist {
    retro_run_t *r;
    uint64_t a;                /* the block's first node (this part's numbering) */
    uint8_t *nm;               /* each node's moves inside the unit */
    uint64_t *kid;             /* ... the nodes they lead to, RETRO_MAX_MOVES a node */
} retro_clist_t;

/* The check's lists of nodes a+x .. a+y-1 of a block: init's kept lists
 * where they were kept (a chunk of them: blocks and chunks start at
 * multiples of RETRO_CHUNK), else the moves listed again. */
static void retro_check_list(void *ctx, int tid, uint64_t x, uint64_t y)
{
    retro_clist_t *j = ctx;
    retro_run_t *r = j->r;
    err_t e = { 0 };
    uint64_t first = j->a + x;
    const uint8_t *cur = r->kept ? r->kept[first / RETRO_CHUNK] : NULL;
    for (uint64_t i = x; i < y; i++) {
        uint64_t *l = j->kid + i * RETRO_MAX_MOVES;
        int n;
        if (cur)
            cur = retro_keep_get(cur, l, &n);
        else if ((n = r->u->moves(r->u->ctx, tid, r->lo + j->a + i, l, NULL, &e)) < 0) {
            retro_fail(r, &e);
            return;
        }
        for (int k = 0; k < n; k++)
            if (l[k] >= r->u->n) {
                err_set(&e, GSW_EFAIL, "retro: node %llu has a move to %llu outside the unit",
                        (unsigned long long)(r->lo + j->a + i), (unsigned long long)l[k]);
                retro_fail(r, &e);
                return;
            }
        j->nm[i] = (uint8_t)n;
    }
}

/* retro_solve's check of a divided unit when every part can hold the
 * whole unit's values: one exchange gives each part all of them, then the
 * check runs as an undivided unit's does, on this part's nodes. */
int retro_check_replicated(retro_run_t *r, double *wall)
{
    const retro_comm_t *c = r->comm;
    int P = c->parts;
    uint64_t n = r->u->n;
    err_t e = { 0 };
    void **send = calloc((size_t)P, sizeof *send);
    size_t *ns = calloc((size_t)P, sizeof *ns), *rcount = calloc((size_t)P, sizeof *rcount);
    r->all = malloc((n ? n : 1) * sizeof *r->all);
    if (!send || !ns || !rcount || !r->all) {
        err_set(&e, GSW_EFAIL, "retro: out of memory for the check (every part's values)");
        retro_fail(r, &e);
    }
    retro_val_t *own = r->all ? r->all + r->lo : NULL;
    retro_job_t job = { r, NULL, NULL, 0, own };
    if (own) gsw_pfor(r->u->threads, r->nloc, 1 << 20, retro_copy_vals, &job);
    for (int p = 0; send && ns && p < P; p++)
        if (p != c->me && own) send[p] = own, ns[p] = r->nloc * sizeof *own;
    void *recv = NULL;
    int stop = send && ns && rcount ? retro_swap(r, send, ns, &recv, rcount) : 1;
    if (!stop) {
        const char *b = recv;
        for (int p = 0; p < P; p++) {
            if (p == c->me) continue;
            if (rcount[p] != (c->lo[p + 1] - c->lo[p]) * sizeof *r->all) {
                err_set(&e, GSW_EFAIL, "retro: part %d sent %zu bytes of values", p, rcount[p]);
                retro_fail(r, &e);
                break;
            }
            if (rcount[p]) memcpy(r->all + c->lo[p], b, rcount[p]);
            b += rcount[p];
        }
        free(recv);
        double t = 0;
        if (!r->failed) retro_phase(r, 4, r->nloc, &t);   /* (a failure is told at the meeting) */
        *wall += t;
        int64_t x[1];
        stop = retro_meet(r, x, 1);
    }
    free(send);
    free(ns);
    free(rcount);
    free(r->all);
    r->all = NULL;
    return stop ? -1 : 0;
}

/* retro_solve's check of a divided unit, block by block: each block's
 * moves listed, the values of the nodes other parts own asked for and
 * answered (two exchanges), then every value compared with its moves'. */
int retro_check_parts(retro_run_t *r, double *wall)
{
    const retro_comm_t *c = r->comm;
    int P = c->parts;
    double t0 = retro_ms();
    uint64_t most = 0;
    for (int p = 0; p < P; p++)
        if (c->lo[p + 1] - c->lo[p] > most) most = c->lo[p + 1] - c->lo[p];
    uint64_t B = retro_cblock(r->u), nblk = (most + B - 1) / B;
    retro_clist_t j = { r, 0, malloc(B), malloc((size_t)B * RETRO_MAX_MOVES * sizeof(uint64_t)) };
    retro_words_t *req = calloc((size_t)P, sizeof *req);
    void **send = calloc((size_t)P, sizeof *send);
    size_t *ns = calloc((size_t)P, sizeof *ns), *rc1 = calloc((size_t)P, sizeof *rc1), *rc2 = calloc((size_t)P, sizeof *rc2);
    size_t *at = calloc((size_t)P, sizeof *at);
    err_t e = { 0 };
    if (!j.nm || !j.kid || !req || !send || !ns || !rc1 || !rc2 || !at) {
        err_set(&e, GSW_EFAIL, "retro: out of memory for the check");
        retro_fail(r, &e);
    }
    int stop = 0;
    for (uint64_t blk = 0; blk < nblk && !stop; blk++) {
        uint64_t a = blk * B, b = a + B < r->nloc ? a + B : r->nloc;
        if (a > b) a = b;
        j.a = a;
        if (!r->failed && b > a) gsw_pfor(r->u->threads, b - a, RETRO_CHUNK, retro_check_list, &j);
        /* the values asked of other parts, in the order the lists name them */
        for (int p = 0; req && p < P; p++) req[p].n = 0;
        for (uint64_t i = 0; !r->failed && i < b - a; i++)
            for (int k = 0; k < j.nm[i]; k++) {
                uint64_t g = j.kid[i * RETRO_MAX_MOVES + (size_t)k];
                if (g - r->lo < r->nloc) continue;
                if (retro_words_add(&req[retro_owner(r, g)], g)) {
                    err_set(&e, GSW_EFAIL, "retro: out of memory for the check");
                    retro_fail(r, &e);
                    break;
                }
            }
        for (int p = 0; send && p < P; p++) {
            send[p] = r->failed ? NULL : req[p].a;
            ns[p] = r->failed ? 0 : req[p].n * sizeof(uint64_t);
        }
        void *asked = NULL, *told = NULL;
        if ((stop = send && ns && rc1 ? retro_swap(r, send, ns, &asked, rc1) : 1)) { free(asked); break; }
        /* the answers: each asked node's value, in the order asked */
        size_t nasked = 0;
        for (int p = 0; p < P; p++) nasked += rc1[p] / sizeof(uint64_t);
        uint16_t *ans = malloc((nasked ? nasked : 1) * sizeof *ans);
        if (!ans) {
            err_set(&e, GSW_EFAIL, "retro: out of memory for the check");
            retro_fail(r, &e);
        }
        for (size_t k = 0; ans && k < nasked; k++) {
            uint64_t o = ((const uint64_t *)asked)[k] - r->lo;
            if (o >= r->nloc) {
                err_set(&e, GSW_EFAIL, "retro: a part asked for node %llu of another",
                        (unsigned long long)((const uint64_t *)asked)[k]);
                retro_fail(r, &e);
                break;
            }
            ans[k] = r->node[o].val;
        }
        for (size_t p = 0, off = 0; p < (size_t)P; p++) {
            send[p] = r->failed ? NULL : ans + off;
            ns[p] = r->failed ? 0 : rc1[p] / sizeof(uint64_t) * sizeof *ans;
            off += rc1[p] / sizeof(uint64_t);
        }
        stop = retro_swap(r, send, ns, &told, rc2);
        free(asked);
        free(ans);
        if (stop) { free(told); break; }
        /* every value against the best of its exit and its moves */
        for (size_t p = 0, off = 0; p < (size_t)P; p++) {
            at[p] = off;
            off += rc2[p] / sizeof(uint16_t);
        }
        const uint16_t *tv = told;
        for (uint64_t i = 0; !r->failed && i < b - a; i++) {
            const retro_node_t *x = &r->node[a + i];
            val_t best = ex_value(x->ex);
            if (best > VAL_WIN) best = -VAL_INF;
            for (int k = 0; k < j.nm[i]; k++) {
                uint64_t g = j.kid[i * RETRO_MAX_MOVES + (size_t)k], o = g - r->lo;
                retro_val_t cv = o < r->nloc ? r->node[o].val : tv[at[retro_owner(r, g)]++];
                val_t cb = val_up(retro_to_val(cv));
                if (cb > best) best = cb;
            }
            if (retro_to_val(x->val) == best) continue;
            retro_mismatch(r, r->lo + a + i, retro_to_val(x->val), best, &e);
        }
        free(told);
    }
    if (!stop) {   /* a failure in the last block */
        int64_t x[1];
        stop = retro_meet(r, x, 1);
    }
    for (int p = 0; req && p < P; p++) free(req[p].a);
    free(req);
    free(send);
    free(ns);
    free(rc1);
    free(rc2);
    free(at);
    free(j.nm);
    free(j.kid);
    *wall += retro_ms() - t0;
    return stop ? -1 : 0;
}
