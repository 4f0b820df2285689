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
#include "dist/dist_wire.h"

static int farm_give(void *ctx, int worker, const egdb_unit_job_t *job, err_t *err)
{
    size_t n;
    void *b = dist_job_pack(job, &n);
    if (!b) return err_set(err, GSW_EFAIL, "out of memory");
    int rc = dist_send(ctx, worker, DIST_TAG_JOB, b, n, err);
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
    dist_done_t m;
    int rc = tag == DIST_TAG_DONE ? dist_done_read(b, n, &m, err)
                                  : err_set(err, GSW_EFAIL, "--mpi: rank %d sent tag %d where a unit's answer was due", src, tag);
    free(b);
    if (rc) return rc;
    *worker = src;
    *unit = m.unit;
    *part = m.part;
    *failed = m.failed;
    *unit_err = m.err;
    return GSW_OK;
}

/* A worker: units until rank 0 says stop. */
static int egdb_serve(dist_t *d, egdb_set_t *set, const egdb_build_options_t *o, egdb_build_report_t *rep,
                      err_t *err)
{
    egdb_build_options_t wo = *o;
    wo.progress = NULL;   /* rank 0 says what is done */
    wo.farm = NULL;
    egdb_parts_t parts;   /* this worker as a part of divided units */
    if (!dist_worker_parts(d, &parts)) wo.parts = &parts;
    for (;;) {
        int src, tag;
        void *b;
        size_t n;
        if (dist_recv(d, 0, &src, &tag, &b, &n, err)) return err->code;
        if (tag == DIST_TAG_STOP) { free(b); return GSW_OK; }
        egdb_unit_job_t job;
        uint64_t *ids;
        int bad = tag != DIST_TAG_JOB ? err_set(err, GSW_EFAIL, "--mpi: tag %d where a job was due", tag)
                                      : dist_job_read(b, n, &job, &ids, err);
        free(b);
        if (bad) return bad;
        dist_done_t m;
        memset(&m, 0, sizeof m);
        m.unit = job.unit;
        /* (the set keeps the files it opened: a unit's exits are finished before it is handed out, so
           no slice this worker looks up can be one another rank has still to write) */
        int rc = egdb_build_job(set, &wo, &job, &m.part, &m.err);
        free(ids);
        m.failed = rc == GSW_OK ? 0 : strstr(m.err.msg, RETRO_ANOTHER_PART) ? 2 : 1;
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
