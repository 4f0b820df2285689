/* Proof trees on several ranks (see dist.h): rank 0 runs the proof-tree
 * manager with its cache and stored tree; each batch's leaves that the
 * cache and the databases do not settle there go to the workers, place k
 * to rank k+1, each of which evaluates them with its own tables and
 * databases (prover_serve_leaves) and sends the leaf back. */
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/dist_wire.h"

static int farm_leaves(void *ctx, mg_leaf_t *leaf, int n, err_t *err)
{
    dist_t *d = ctx;
    int out = 0;
    if (n > dist_size(d) - 1) return err_set(err, GSW_EFAIL, "--mpi: a batch of %d leaves for %d workers", n, dist_size(d) - 1);
    for (int k = 0; k < n; k++) {
        if (leaf[k].settled) continue;
        if (dist_send(d, k + 1, DIST_TAG_JOB, &leaf[k], sizeof leaf[k], err)) return err->code;
        out++;
    }
    while (out-- > 0) {
        int src, tag;
        void *b;
        size_t len;
        if (dist_recv(d, -1, &src, &tag, &b, &len, err)) return err->code;
        mg_leaf_t r0;
        int rc = tag == DIST_TAG_DONE ? dist_leaf_read(b, len, &r0, err) : err_set(err, GSW_EFAIL, "--mpi: tag %d", tag);
        free(b);
        if (rc) return rc;
        if (src < 1 || src > n || leaf[src - 1].settled)
            return err_set(err, GSW_EFAIL, "--mpi: rank %d sent a leaf it owed no one", src);
        const mg_leaf_t *r = &r0;
        mg_leaf_t *l = &leaf[src - 1];
        l->status = r->status;
        l->pn = r->pn;
        l->dn = r->dn;
        l->score = r->score;
        l->nodes = r->nodes;
        l->ms = r->ms;
        l->failed = r->failed;
    }
    return GSW_OK;
}

static int leaf_next(void *ctx, mg_leaf_t *leaf, err_t *err)
{
    dist_t *d = ctx;
    int src, tag;
    void *b;
    size_t len;
    if (dist_recv(d, 0, &src, &tag, &b, &len, err)) return -1;
    if (tag == DIST_TAG_STOP) { free(b); return 0; }
    int rc = tag == DIST_TAG_JOB ? dist_leaf_read(b, len, leaf, err) : err_set(err, GSW_EFAIL, "--mpi: tag %d", tag);
    free(b);
    return rc ? -1 : 1;
}

static int leaf_answer(void *ctx, const mg_leaf_t *leaf, err_t *err)
{
    return dist_send(ctx, 0, DIST_TAG_DONE, leaf, sizeof *leaf, err);
}

int dist_proof_run(dist_t *d, const prover_options_t *po, gv_t *v, const void *pos, const char *text,
                   prover_run_t *run, err_t *err)
{
    int size = dist_size(d);
    if (size < 2) return prover_manager_run(po, v, pos, text, run, err);
    if (dist_rank(d) != 0) return prover_serve_leaves(po, v, leaf_next, leaf_answer, d, err);
    run->workers = size - 1;
    run->farm = farm_leaves;
    run->farm_ctx = d;
    int rc = prover_manager_run(po, v, pos, text, run, err);
    run->farm = NULL;
    dist_stop_workers(d);
    return rc;
}
