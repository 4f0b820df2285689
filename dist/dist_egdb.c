/* Endgame database builds on several ranks (see dist.h): rank 0's
 * egdb_build plans the units and hands each to a worker rank as soon as
 * the units it exits into are finished; the worker builds it into the
 * shared folder (the same files a single process writes) and answers
 * with what it built. The build's state is the folder: a stopped job
 * resumes from the finished files, as a single process does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"

/* A unit on the wire: this header, then ns slice ids. */
typedef struct job_msg {
    int32_t unit, ns, nneed, need[2];
} job_msg_t;

/* A worker's answer. */
typedef struct done_msg {
    int32_t unit, failed;
    err_t err;
    egdb_build_report_t part;
} done_msg_t;

static int farm_give(void *ctx, int worker, const egdb_unit_job_t *job, err_t *err)
{
    dist_t *d = ctx;
    size_t n = sizeof(job_msg_t) + (size_t)job->ns * sizeof(uint64_t);
    unsigned char *b = malloc(n);
    if (!b) return err_set(err, GSW_EFAIL, "out of memory");
    job_msg_t h = { .unit = job->unit, .ns = job->ns, .nneed = job->nneed, .need = { job->need[0], job->need[1] } };
    memcpy(b, &h, sizeof h);
    memcpy(b + sizeof h, job->slice, (size_t)job->ns * sizeof(uint64_t));
    int rc = dist_send(d, worker, DIST_TAG_JOB, b, n, err);
    free(b);
    return rc;
}

static int farm_take(void *ctx, int *worker, int *unit, egdb_build_report_t *part, int *failed, err_t *unit_err,
                     err_t *err)
{
    dist_t *d = ctx;
    int src, tag;
    void *b;
    size_t n;
    if (dist_recv(d, -1, &src, &tag, &b, &n, err)) return err->code;
    if (tag != DIST_TAG_DONE || n != sizeof(done_msg_t)) {
        free(b);
        return err_set(err, GSW_EFAIL, "--mpi: rank %d sent a message of %zu bytes, tag %d, where a unit's answer "
                                       "was due", src, n, tag);
    }
    done_msg_t m;
    memcpy(&m, b, sizeof m);
    free(b);
    *worker = src;
    *unit = m.unit;
    *part = m.part;
    part->units = NULL;
    *failed = m.failed;
    *unit_err = m.err;
    unit_err->msg[sizeof unit_err->msg - 1] = 0;
    return GSW_OK;
}

/* A worker: units until rank 0 says stop. */
static int egdb_serve(dist_t *d, egdb_set_t *set, const egdb_build_options_t *o, egdb_build_report_t *rep,
                      err_t *err)
{
    egdb_build_options_t wo = *o;
    wo.progress = NULL;   /* rank 0 says what is done */
    wo.farm = NULL;
    for (;;) {
        int src, tag;
        void *b;
        size_t n;
        if (dist_recv(d, 0, &src, &tag, &b, &n, err)) return err->code;
        if (tag == DIST_TAG_STOP) { free(b); return GSW_OK; }
        job_msg_t h;
        if (tag != DIST_TAG_JOB || n < sizeof h) { free(b); return err_set(err, GSW_EFAIL, "--mpi: a malformed job"); }
        memcpy(&h, b, sizeof h);
        if (h.ns < 1 || n != sizeof h + (size_t)h.ns * sizeof(uint64_t)) {
            free(b);
            return err_set(err, GSW_EFAIL, "--mpi: a malformed job");
        }
        uint64_t *ids = malloc((size_t)h.ns * sizeof *ids);
        if (!ids) { free(b); return err_set(err, GSW_EFAIL, "out of memory"); }
        memcpy(ids, (unsigned char *)b + sizeof h, (size_t)h.ns * sizeof *ids);
        free(b);
        egdb_unit_job_t job = { .unit = h.unit, .ns = h.ns, .slice = ids, .nneed = h.nneed,
                                .need = { h.need[0], h.need[1] } };
        done_msg_t m;
        memset(&m, 0, sizeof m);
        m.unit = h.unit;
        /* (the set keeps the files it opened: a unit's exits are finished before it is handed out, so
           no slice this worker looks up can be one another rank has still to write) */
        int rc = egdb_build_job(set, &wo, &job, &m.part, &m.err);
        free(ids);
        m.failed = rc != GSW_OK;
        m.part.units = NULL;
        if (!rc) {
            rep->built += m.part.built;
            rep->positions += m.part.positions;
        }
        if (dist_send(d, 0, DIST_TAG_DONE, &m, sizeof m, err)) return err->code;
    }
}

int dist_egdb_build(dist_t *d, egdb_set_t *set, egdb_build_options_t *o, egdb_build_report_t *rep, err_t *err)
{
    int size = dist_size(d);
    if (size < 2 || o->plan_only) {
        if (dist_rank(d) != 0) { memset(rep, 0, sizeof *rep); return GSW_OK; }
        return egdb_build(set, o, rep, err);
    }
    if (dist_rank(d) != 0) {
        memset(rep, 0, sizeof *rep);
        return egdb_serve(d, set, o, rep, err);
    }
    egdb_farm_t farm = { .workers = size - 1, .ctx = d, .give = farm_give, .take = farm_take };
    o->farm = &farm;
    int rc = egdb_build(set, o, rep, err);
    o->farm = NULL;
    dist_stop_workers(d);
    return rc;
}
