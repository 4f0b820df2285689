/* Packing and checking the messages between ranks (see dist_wire.h). */
#include "dist/dist_wire.h"

#include <stdlib.h>
#include <string.h>

void *dist_job_pack(const egdb_unit_job_t *job, size_t *n)
{
    *n = sizeof(dist_job_hdr_t) + (size_t)job->ns * sizeof(uint64_t);
    unsigned char *b = malloc(*n);
    if (!b) return NULL;
    dist_job_hdr_t h = { .unit = job->unit, .ns = job->ns, .nneed = job->nneed,
                         .need = { job->need[0], job->need[1] }, .parts = job->parts, .part = job->part };
    memcpy(b, &h, sizeof h);
    memcpy(b + sizeof h, job->slice, (size_t)job->ns * sizeof(uint64_t));
    return b;
}

int dist_job_read(const void *b, size_t n, egdb_unit_job_t *job, uint64_t **ids, err_t *err)
{
    dist_job_hdr_t h;
    *ids = NULL;
    if (n < sizeof h) return err_set(err, GSW_EFAIL, "--mpi: a unit job of %zu bytes", n);
    memcpy(&h, b, sizeof h);
    if (h.unit < 0 || h.ns < 1 || h.ns > 1 << 20 || n != sizeof h + (size_t)h.ns * sizeof(uint64_t)
        || h.nneed < 1 || h.nneed > 2 || h.parts < 0 || h.parts > EGDB_PARTS_MAX || h.part < 0
        || (h.parts > 1 ? h.part >= h.parts : h.part != 0))
        return err_set(err, GSW_EFAIL, "--mpi: a malformed unit job");
    for (int k = 0; k < h.nneed; k++)
        if (h.need[k] < 0 || h.need[k] > RETRO_METRICS) return err_set(err, GSW_EFAIL, "--mpi: a malformed unit job");
    uint64_t *s = malloc((size_t)h.ns * sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory");
    memcpy(s, (const unsigned char *)b + sizeof h, (size_t)h.ns * sizeof *s);
    *job = (egdb_unit_job_t){ .unit = h.unit, .ns = h.ns, .slice = s, .nneed = h.nneed,
                              .need = { h.need[0], h.need[1] }, .parts = h.parts, .part = h.part };
    *ids = s;
    return GSW_OK;
}

int dist_done_read(const void *b, size_t n, dist_done_t *m, err_t *err)
{
    if (n != sizeof *m) return err_set(err, GSW_EFAIL, "--mpi: a unit's answer of %zu bytes", n);
    memcpy(m, b, sizeof *m);
    m->part.units = NULL;
    m->err.msg[sizeof m->err.msg - 1] = 0;
    if (m->unit < 0 || m->failed < 0 || m->failed > 2) return err_set(err, GSW_EFAIL, "--mpi: a malformed answer");
    return GSW_OK;
}

int dist_leaf_read(const void *b, size_t n, mg_leaf_t *leaf, err_t *err)
{
    if (n != sizeof *leaf) return err_set(err, GSW_EFAIL, "--mpi: a leaf of %zu bytes", n);
    memcpy(leaf, b, sizeof *leaf);
    leaf->v = NULL;
    leaf->o = NULL;
    if (leaf->nline < 0 || leaf->nline > MG_LINE || leaf->node < 0
        || (leaf->goal != DFPN_GOAL_WIN && leaf->goal != DFPN_GOAL_DRAW))
        return err_set(err, GSW_EFAIL, "--mpi: a malformed leaf");
    return GSW_OK;
}

int dist_game_read(const void *b, size_t n, dist_game_t *m, err_t *err)
{
    if (n != sizeof *m) return err_set(err, GSW_EFAIL, "--mpi: a game of %zu bytes", n);
    memcpy(m, b, sizeof *m);
    if (m->idx < 0) return err_set(err, GSW_EFAIL, "--mpi: a malformed game");
    return GSW_OK;
}

int dist_result_read(const void *b, size_t n, dist_result_t *m, err_t *err)
{
    if (n != sizeof *m) return err_set(err, GSW_EFAIL, "--mpi: a result of %zu bytes", n);
    memcpy(m, b, sizeof *m);
    if (m->idx < 0) return err_set(err, GSW_EFAIL, "--mpi: a malformed result");
    return GSW_OK;
}
