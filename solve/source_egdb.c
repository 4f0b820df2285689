/* Endgame databases and tablebases as a knowledge source (solve/source.h):
 * a game's folder of slice files (solve/egdb.h) answers the positions it
 * holds at the root and below it. Where the game builds its endings on
 * demand (chess's tablebases: retro_game_t.mate_metric), a solve of a
 * position whose ending is not built yet builds it first. */
#include "solve/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/egdb.h"

typedef struct egdb_src {
    gv_t *v;
    egdb_oracle_t egdb;        /* egdb.set NULL: no file of the game yet */
    char dir[1100];
    void (*warn)(void *ctx, const char *msg);
    void (*note)(void *ctx, const char *msg);
    char building[160];         /* the ending being built (progress lines name it) */
    uint64_t dtc_told;         /* the last slice whose distances to conversion were not built (said once) */
    uint64_t unbuilt_told;     /* the last slice said not built (no_build 2), plus 1; 0: none */
    int64_t stamp;             /* the newest change to the game's folders when last opened */
    double next_look;          /* when to look at them again (gsw_now_ms) */
    void *ctx;
} egdb_src_t;

static void egdb_src_say(egdb_src_t *e, const char *msg)
{
    if (e->warn) e->warn(e->ctx, msg);
    else fprintf(stderr, "gsw: %s\n", msg);
}

static int64_t egdb_src_stamp(const egdb_src_t *e)
{
    return egdb_folder_stamp(e->dir, e->v);
}

/* Files built since the databases were opened (by another gsw, while this
 * one runs): open them again, so they answer without a restart. Looked
 * at once every 2 s at most, at a root (never inside a search). */
static void egdb_src_refresh(egdb_src_t *e)
{
    double now = gsw_now_ms();
    if (now < e->next_look) return;
    e->next_look = now + 2000;
    int64_t t = egdb_src_stamp(e);
    if (t == e->stamp) return;
    e->stamp = t;
    err_t err;
    if (e->egdb.set) egdb_oracle_close(&e->egdb);
    memset(&e->egdb, 0, sizeof e->egdb);
    if (egdb_oracle_open(&e->egdb, e->v, e->dir, &err) < 0) egdb_src_say(e, err.msg);
}

static int egdb_src_open(const source_env_t *env, void **ctx, err_t *err)
{
    if (!env->v->ops->retro) return 0;
    egdb_src_t *e = calloc(1, sizeof *e);
    if (!e) return err_set(err, GSW_EFAIL, "out of memory"), -1;
    e->v = env->v;
    e->warn = env->warn;
    e->note = env->note;
    e->ctx = env->ctx;
    if (env->dir) snprintf(e->dir, sizeof e->dir, "%s", env->dir);
    else if (egdb_default_dir(env->db, e->dir, sizeof e->dir, err)) { free(e); return -1; }
    e->stamp = egdb_src_stamp(e);
    e->next_look = gsw_now_ms() + 2000;
    if (egdb_oracle_open(&e->egdb, e->v, e->dir, err) < 0) { free(e); return -1; }
    *ctx = e;   /* (no file yet: kept for the endings built on demand, or by another gsw) */
    return 1;
}

static void egdb_src_close(void *ctx)
{
    egdb_src_t *e = ctx;
    if (!e) return;
    if (e->egdb.set) egdb_oracle_close(&e->egdb);
    free(e);
}

/* A build's progress line, passed to whoever shows notes (the workbench's
 * status line): "building KRK: [2/3] KRK.w: propagate 45%". */
static void egdb_src_progress(void *ctx, const char *line)
{
    egdb_src_t *e = ctx;
    char msg[400];
    snprintf(msg, sizeof msg, "building %s: %s", e->building, line);
    e->note(e->ctx, msg);
}

/* A build on demand done: said to whoever shows notes, so that what
 * follows (a search) is not taken for the build ("built KRK: ..."; a
 * notice that begins "building " means one is under way). */
static void egdb_src_built(egdb_src_t *e, const egdb_build_report_t *rep)
{
    if (!e->note) return;
    char msg[300];
    snprintf(msg, sizeof msg, "built %s: %llu positions in %.1f s", e->building, (unsigned long long)rep->positions,
             rep->ms / 1000);
    e->note(e->ctx, msg);
}

/* The databases again, with the files just built. */
static void egdb_src_reopen(egdb_src_t *e)
{
    err_t err;
    if (e->egdb.set) egdb_oracle_close(&e->egdb);
    if (egdb_oracle_open(&e->egdb, e->v, e->dir, &err) < 0) egdb_src_say(e, err.msg);
}

/* A root in a slice held in win/draw/loss files only: a winning line
 * needs the distances to conversion to make progress (each conversion, a
 * capture or a man's move, cannot be undone), so they are built for the
 * slice's unit alone (its exits need only their win/draw/loss). Quick
 * units are built at once; larger ones only by a solve without a budget,
 * and otherwise the person is told the command (once a slice). */
static void egdb_src_dtc(egdb_src_t *e, const source_query_t *q, egdb_set_t *set, uint64_t slice)
{
    if (egdb_slice_present(set, RETRO_DTW, slice) || egdb_slice_present(set, RETRO_DTC, slice)
        || !egdb_slice_present(set, RETRO_WLD, slice) || slice == e->dtc_told)
        return;
    err_t why;
    if (egdb_slice_vouched(set, RETRO_WLD, slice, &why)) return;   /* (refused: the probe says why) */
    egdb_build_options_t bo = { .for_slice = &slice, .unit_only = 1, .metric = RETRO_DTC, .plan_only = 1,
                                .threads = q->ab->threads };
    egdb_build_report_t rep;
    err_t err;
    int rc = egdb_build(set, &bo, &rep, &err);
    free(rep.units);
    if (rc) return;
    char name[64], msg[900];
    e->v->ops->retro->slice_name(e->v, slice, name, sizeof name);
    const char *qenv = getenv("GSW_EGDB_DTC_QUICK");   /* (tests set it lower) */
    uint64_t quick = qenv && *qenv ? strtoull(qenv, NULL, 10) : EGDB_DTC_QUICK;
    if ((q->ab->time_limit_ms > 0 || q->ab->node_limit) && rep.planned > quick) {
        e->dtc_told = slice;
        snprintf(msg, sizeof msg, "%s is held as win/draw/loss only: a win is played toward captures and man moves "
                 "once its distances to conversion are built (%llu positions): gsw egdb build %s %s --metric dtc "
                 "--dir %.300s", name, (unsigned long long)rep.planned, e->v->game->name, name, e->dir);
        egdb_src_say(e, msg);
        return;
    }
    snprintf(msg, sizeof msg, "building the distances to conversion of %s (%llu positions) in %.300s", name,
             (unsigned long long)rep.planned, e->dir);
    if (e->note) e->note(e->ctx, msg);
    else egdb_src_say(e, msg);
    snprintf(e->building, sizeof e->building, "the distances to conversion of %s", name);
    bo.plan_only = 0;
    bo.stop = q->ab->stop;
    bo.progress = e->note ? egdb_src_progress : NULL;
    bo.progress_ctx = e;
    if (egdb_build(set, &bo, &rep, &err)) {
        e->dtc_told = slice;   /* (not again in this run) */
        if (!(q->ab->stop && *q->ab->stop)) egdb_src_say(e, err.msg);
    } else {
        egdb_src_reopen(e);
        egdb_src_built(e, &rep);
    }
}

/* An ending built on demand in metric m (distance to mate, or to
 * conversion) with every ending it reaches, then the databases opened
 * again; a solve with a budget builds nothing and says so. */
static void egdb_src_build_metric(egdb_src_t *e, const source_query_t *q, egdb_set_t *set, uint64_t slice,
                                  retro_metric_t m)
{
    char name[64], msg[700], what[160];
    err_t err;
    e->v->ops->retro->slice_name(e->v, slice, name, sizeof name);
    if (m == RETRO_DTC) snprintf(what, sizeof what, "the %s tablebase's distances to conversion", name);
    else snprintf(what, sizeof what, "the %s tablebase", name);
    if (q->ab->time_limit_ms > 0 || q->ab->node_limit) {
        /* a solve with a budget: a build may take minutes and cannot count
           against it, so the search answers alone, and the person is told */
        snprintf(msg, sizeof msg, "%s %s not built (a solve with a budget does not build it): gsw egdb build %s %s%s; "
                 "answering from search", what, m == RETRO_DTC ? "are" : "is", e->v->game->name, name,
                 m == RETRO_DTC ? " --metric dtc" : "");
        egdb_src_say(e, msg);
        return;
    }
    snprintf(msg, sizeof msg, "building %s in %.300s", what, e->dir);
    if (e->note) e->note(e->ctx, msg);
    else egdb_src_say(e, msg);
    snprintf(e->building, sizeof e->building, "%s", what);
    egdb_build_options_t bo = { .for_slice = &slice, .metric = m, .threads = q->ab->threads, .stop = q->ab->stop,
                                .progress = e->note ? egdb_src_progress : NULL, .progress_ctx = e };
    egdb_build_report_t rep;
    if (egdb_build(set, &bo, &rep, &err)) {
        if (!(q->ab->stop && *q->ab->stop)) egdb_src_say(e, err.msg);
    } else {
        egdb_src_reopen(e);
        egdb_src_built(e, &rep);
    }
}

/* Endings built on demand: build the one pos belongs to when its distance
 * file is missing, then open the databases again. */
static void egdb_src_build(egdb_src_t *e, const source_query_t *q)
{
    const retro_game_t *rg = e->v->ops->retro;
    uint64_t slice, index;
    int flipped;
    if (q->no_build == 1 || !rg || !rg->locate(e->v, q->pos, &slice, &index, &flipped)) return;
    if (q->no_build && (!rg->mate_metric || e->unbuilt_told == slice + 1)) return;
    egdb_set_t *set;
    err_t err;
    if (egdb_set_open(e->v, e->dir, &set, &err)) return;
    if (q->no_build) {   /* (2) nothing is built here: the person hears once which ending is missing */
        if (!egdb_slice_present(set, RETRO_DTW, slice)) {
            char name[64], msg[600];
            rg->slice_name(e->v, slice, name, sizeof name);
            snprintf(msg, sizeof msg, "the %s tablebase is not built (answering from search): gsw egdb build %s %s "
                     "--dir %.300s", name, e->v->game->name, name, e->dir);
            egdb_src_say(e, msg);
        }
        e->unbuilt_told = slice + 1;
        egdb_set_close(set);
        return;
    }
    if (!rg->mate_metric) {
        egdb_src_dtc(e, q, set, slice);
        egdb_set_close(set);
        return;
    }
    if (!egdb_slice_present(set, RETRO_DTW, slice)) egdb_src_build_metric(e, q, set, slice, RETRO_DTW);
    /* under the move-count rule, a mate longer than the plies the rule
       leaves (a clock already running, or five pieces' KBNKN's 213 plies
       from a fresh one) needs the distances to conversion too: a capture
       or a pawn's move in time then decides the result. A mate within
       them stands as the tablebase has it, whatever the line does. */
    val_t lo, hi;
    if (q->ab && q->ab->count && e->egdb.set && egdb_slice_present(set, RETRO_DTW, slice)
        && !egdb_slice_present(set, RETRO_DTC, slice)
        && e->egdb.oracle.probe(e->egdb.oracle.ctx, e->v, q->pos, &lo, &hi) && lo == hi && lo != VAL_DRAW
        && val_plies(lo) > game_count_left(e->v, q->pos))
        egdb_src_build_metric(e, q, set, slice, RETRO_DTC);
    egdb_set_close(set);
}

static int egdb_src_probe(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err)
{
    (void)err;
    egdb_src_t *e = ctx;
    egdb_src_refresh(e);
    egdb_src_build(e, q);
    if (!e->egdb.set) return 0;
    int r = source_oracle_answer(q, &e->egdb.oracle, a);
    if (!r && e->egdb.damaged) egdb_src_say(e, e->egdb.damage);
    return r;
}

/* A file the search's probes found damaged or unvouched (its MANIFEST):
 * said once the search ends, since the search went on without it. */
static void egdb_src_after_search(void *ctx)
{
    egdb_src_t *e = ctx;
    if (e->egdb.set && e->egdb.damaged) egdb_src_say(e, e->egdb.damage);
}

static const gsw_oracle_t *egdb_src_oracle(void *ctx, const source_query_t *q)
{
    (void)q;   /* every root; the heuristic engine's too */
    egdb_src_t *e = ctx;
    return e->egdb.set ? &e->egdb.oracle : NULL;
}

static int egdb_src_conversion(void *ctx, const void *pos, int *plies)
{
    egdb_src_t *e = ctx;
    return e->egdb.set && egdb_oracle_conversion(&e->egdb, pos, plies);
}

static void egdb_src_describe(void *ctx, source_description_t *d)
{
    (void)ctx;
    d->name = "egdb";
    d->phrase = "the endgame databases";
}

const source_kind_t source_egdb = {
    .open = egdb_src_open,
    .probe = egdb_src_probe,
    .oracle = egdb_src_oracle,
    .describe = egdb_src_describe,
    .close = egdb_src_close,
    .conversion = egdb_src_conversion,
    .after_search = egdb_src_after_search,
    .with_dirs = 1,
};
