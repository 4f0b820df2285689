/* The provenance of endgame-database files (solve/egdb_manifest.h): the
 * builder's record keeper and verify's check and adoption, one MANIFEST a
 * metric folder. */
#include "solve/egdb_manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/ab.h"
#include "db/manifest.h"
#include "solve/egdb_plan.h"

struct egdb_prov {
    egdb_set_t *set;
    int argc;
    char *const *argv;
    double t0;                  /* gsw_now_ms() when the build began */
    struct timespec wall0;      /* ... and on the clock files' times use */
    manifest_t m[RETRO_METRICS];
    int loaded[RETRO_METRICS];  /* m[k] read (or found absent) */
    int build[RETRO_METRICS];   /* its build record's id (0: none yet) */
    int dirty[RETRO_METRICS];
    int *fresh[RETRO_METRICS];  /* the files (indices into m[k].file) recorded since its last write */
    int nfresh[RETRO_METRICS], capfresh[RETRO_METRICS];
    int guard;                  /* the set's guard, off while it builds (its own new files are not listed yet) */
    double written;             /* gsw_now_ms() of the last write */
};

/* DIR/GAME/METRIC, the folder of metric m's files. */
static void metric_dir(egdb_set_t *set, retro_metric_t m, char *buf, size_t n)
{
    const gv_t *v = egdb_set_variant(set);
    snprintf(buf, n, "%s/%s/%s", egdb_set_dir(set), v->game->name, retro_game_metric_name(v->ops->retro, m));
}

/* A slice's file name in its folder. */
static void slice_file(egdb_set_t *set, uint64_t slice, char *buf, size_t n)
{
    char name[64];
    const gv_t *v = egdb_set_variant(set);
    v->ops->retro->slice_name(v, slice, name, sizeof name);
    snprintf(buf, n, "%s.egdb", name);
}

egdb_prov_t *egdb_prov_open(egdb_set_t *set, const egdb_build_options_t *o)
{
    egdb_prov_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->set = set;
    p->guard = egdb_set_guarded(set);
    egdb_set_guard(set, 0);
    p->argc = o->argv ? o->argc : 0;
    p->argv = o->argv;
    p->t0 = gsw_now_ms();
    clock_gettime(CLOCK_REALTIME, &p->wall0);
    p->wall0.tv_sec -= 1;   /* (a file's time comes from a coarser clock) */
    return p;
}

static int prov_load(egdb_prov_t *p, retro_metric_t m, err_t *err)
{
    if (p->loaded[m]) return GSW_OK;
    char dir[1200];
    metric_dir(p->set, m, dir, sizeof dir);
    if (manifest_load(dir, &p->m[m], err) < 0)
        return err_set(err, GSW_EFAIL, "%.400s (the build keeps each folder's MANIFEST: mend or remove it)", err->msg);
    p->loaded[m] = 1;
    return GSW_OK;
}

/* The SHA-256 of input file `input` (relative to metric m's folder) as its
 * folder's manifest gives it (when its size agrees), else hashed now. */
static int input_sha(egdb_prov_t *p, retro_metric_t im, const char *name, const char *dir, char *hex, err_t *err)
{
    if (prov_load(p, im, err)) return err->code;
    const manifest_file_t *f = manifest_find(&p->m[im], name);
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    if (f && f->bytes != MANIFEST_NO_BYTES && !stat(path, &st) && (uint64_t)st.st_size == f->bytes) {
        snprintf(hex, MANIFEST_SHA_HEX, "%s", f->sha256);
        return GSW_OK;
    }
    return manifest_sha256_file(path, hex, err);
}

/* Record slice's file of metric m (just written) with its inputs. */
static int prov_file(egdb_prov_t *p, retro_metric_t m, uint64_t slice, const uint64_t *unit, int ns, err_t *err)
{
    const gv_t *v = egdb_set_variant(p->set);
    const retro_game_t *rg = v->ops->retro;
    char dir[1200], name[96];
    metric_dir(p->set, m, dir, sizeof dir);
    slice_file(p->set, slice, name, sizeof name);
    if (prov_load(p, m, err)) return err->code;
    manifest_t *mf = &p->m[m];
    if (!p->build[m]) {
        char *none[] = { "(a build gsw began on its own, for a solve or probe that needed it)" };
        p->build[m] = manifest_build_begin(mf, p->argv ? p->argc : 1, p->argv ? p->argv : none);
        if (p->build[m] < 0) return err_set(err, GSW_EFAIL, "out of memory");
        if (!p->argv) {   /* (not a command: said as it is, unquoted) */
            manifest_build_t *b = &mf->build[mf->nbuild - 1];
            snprintf(b->command, sizeof b->command, "%s", none[0]);
        }
    }
    if (manifest_record_file(mf, p->build[m], dir, name, rg->slice_size(v, slice), err)) return err->code;
    p->dirty[m] = 1;
    if (p->nfresh[m] == p->capfresh[m]) {
        int cap = p->capfresh[m] ? 2 * p->capfresh[m] : 64, *g = realloc(p->fresh[m], (size_t)cap * sizeof *g);
        if (!g) return err_set(err, GSW_EFAIL, "out of memory");
        p->fresh[m] = g, p->capfresh[m] = cap;
    }
    p->fresh[m][p->nfresh[m]++] = (int)(manifest_find(mf, name) - mf->file);
    /* its inputs: the files of the slices it exits into (same metric;
       distances to conversion read their win/draw/loss too, and the
       unit's own) */
    uint64_t *succ = malloc(EGDB_SUCC_MAX * sizeof *succ);
    if (!succ) return err_set(err, GSW_EFAIL, "out of memory");
    int k = rg->slice_succ(v, slice, succ, EGDB_SUCC_MAX);
    if (k > EGDB_SUCC_MAX) k = EGDB_SUCC_MAX;
    int rc = GSW_OK;
    for (int pass = 0; pass < (m == RETRO_DTC ? 2 : 1) && !rc; pass++) {
        retro_metric_t im = pass ? RETRO_WLD : m;
        char idir[1200];
        metric_dir(p->set, im, idir, sizeof idir);
        for (int j = -1; j < k && !rc; j++) {
            uint64_t s = j < 0 ? slice : succ[j];
            int inside = 0;
            for (int i = 0; i < ns; i++) inside |= unit[i] == s;
            if (inside && !pass) continue;   /* (the unit's own files of this metric are not its inputs) */
            char iname[96], rel[300], hex[MANIFEST_SHA_HEX];
            slice_file(p->set, s, iname, sizeof iname);
            if (!egdb_slice_present(p->set, im, s)) continue;
            if ((rc = input_sha(p, im, iname, idir, hex, err))) break;
            if (pass) snprintf(rel, sizeof rel, "../%s/%s", retro_game_metric_name(rg, im), iname);
            else snprintf(rel, sizeof rel, "%s", iname);
            if (manifest_add_input(mf, name, rel, hex)) rc = err_set(err, GSW_EFAIL, "out of memory");
        }
    }
    free(succ);
    return rc;
}

/* What manifest_update folds into a folder's MANIFEST as it is on disk:
 * build `build` of `mine` with its files (files[nfiles], or all of them
 * when files is NULL). Another gsw writing the same folder keeps its
 * records, and manifest_fold finds this build's record again each time. */
typedef struct fold_ctx {
    const manifest_t *mine;
    int build;
    const int *files;
    int nfiles;
} fold_ctx_t;

static int fold_in(void *ctx, manifest_t *disk, err_t *err)
{
    const fold_ctx_t *f = ctx;
    if (manifest_fold(disk, f->mine, f->build, f->files, f->nfiles)) return err_set(err, GSW_EFAIL, "out of memory");
    return GSW_OK;
}

static int prov_write(egdb_prov_t *p, err_t *err)
{
    for (int m = 0; m < RETRO_METRICS; m++) {
        if (!p->dirty[m]) continue;
        char dir[1200];
        metric_dir(p->set, (retro_metric_t)m, dir, sizeof dir);
        manifest_build_done(&p->m[m], p->build[m], (gsw_now_ms() - p->t0) / 1000);
        /* (only the files recorded since the last write: those before are there) */
        static const int none[1];
        fold_ctx_t f = { &p->m[m], p->build[m], p->fresh[m] ? p->fresh[m] : none, p->nfresh[m] };
        if (manifest_update(dir, fold_in, &f, err)) return err->code;
        p->dirty[m] = 0;
        p->nfresh[m] = 0;
    }
    return GSW_OK;
}

/* Was the file written since the build began? */
static int written_since(const char *path, const struct timespec *t0)
{
    struct stat st;
    if (stat(path, &st)) return 0;
    return st.st_mtim.tv_sec > t0->tv_sec || (st.st_mtim.tv_sec == t0->tv_sec && st.st_mtim.tv_nsec >= t0->tv_nsec);
}

/* The unit's files to record: those written since the build began, and
 * (found) those present that their folder's manifest does not list. */
static int prov_files(egdb_prov_t *p, const uint64_t *slices, int ns, int found, unsigned wrote, err_t *err)
{
    if (!p) return GSW_OK;
    for (int m = 0; m < RETRO_METRICS; m++)
        for (int i = 0; i < ns && (found || (wrote >> m & 1)); i++) {
            char path[1200], name[96];
            egdb_slice_path(p->set, (retro_metric_t)m, slices[i], path, sizeof path);
            if (found) {
                slice_file(p->set, slices[i], name, sizeof name);
                if (!egdb_slice_present(p->set, (retro_metric_t)m, slices[i])) continue;
                if (prov_load(p, (retro_metric_t)m, err)) return err->code;
                if (manifest_find(&p->m[m], name)) continue;
            } else if (!written_since(path, &p->wall0))
                continue;
            if (prov_file(p, (retro_metric_t)m, slices[i], slices, ns, err)) return err->code;
        }
    /* rewritten after a unit, at most four times a second (a build of
       small units would spend more on its manifest than on the units);
       egdb_prov_close writes the last */
    if (gsw_now_ms() - p->written < 250) return GSW_OK;
    p->written = gsw_now_ms();
    return prov_write(p, err);
}

int egdb_prov_unit(egdb_prov_t *p, const uint64_t *slices, int ns, unsigned wrote, err_t *err)
{
    return prov_files(p, slices, ns, 0, wrote, err);
}

int egdb_prov_found(egdb_prov_t *p, const uint64_t *slices, int ns, err_t *err)
{
    return prov_files(p, slices, ns, 1, 0, err);
}

int egdb_prov_close(egdb_prov_t *p, err_t *err)
{
    if (!p) return GSW_OK;
    for (int m = 0; m < RETRO_METRICS; m++) p->dirty[m] |= p->build[m] != 0;   /* the final time */
    err_t e;
    int rc = prov_write(p, err ? err : &e);
    egdb_set_guard(p->set, p->guard);
    for (int m = 0; m < RETRO_METRICS; m++) manifest_free(&p->m[m]), free(p->fresh[m]);
    free(p);
    return rc;
}

/* ---- verify ---- */

static int is_egdb(const char *name)
{
    size_t k = strlen(name);
    return k > 5 && !strcmp(name + k - 5, ".egdb");
}

typedef struct vctx {
    void (*say)(void *ctx, const char *metric, const char *name, int status);
    void *ctx;
    const char *metric;
} vctx_t;

static void vsay(void *ctx, const char *name, int status)
{
    vctx_t *c = ctx;
    c->say(c->ctx, c->metric, name, status);
}

int egdb_manifest_verify(egdb_set_t *set, void (*say)(void *ctx, const char *metric, const char *name, int status),
                         void *ctx, int *files, int *bad, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    *files = *bad = 0;
    for (int m = 0; m < RETRO_METRICS; m++) {
        char dir[1200];
        metric_dir(set, (retro_metric_t)m, dir, sizeof dir);
        struct stat st;
        if (stat(dir, &st) || !S_ISDIR(st.st_mode)) continue;
        manifest_t mf;
        int r = manifest_load(dir, &mf, err);
        if (r < 0) return err->code;
        vctx_t c = { say, ctx, retro_game_metric_name(v->ops->retro, (retro_metric_t)m) };
        int n = manifest_verify(dir, &mf, is_egdb, vsay, &c, err);
        *files += mf.nfile;
        manifest_free(&mf);
        if (n < 0) return err->code;
        *bad += n;
    }
    return GSW_OK;
}

int egdb_manifest_record(egdb_set_t *set, int argc, char *const *argv, int *recorded, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    const retro_game_t *rg = v->ops->retro;
    *recorded = 0;
    for (int m = 0; m < RETRO_METRICS; m++) {
        int k = egdb_list(set, (retro_metric_t)m, NULL, 0);
        if (!k) continue;
        uint64_t *ids = malloc((size_t)k * sizeof *ids);
        if (!ids) return err_set(err, GSW_EFAIL, "out of memory");
        k = egdb_list(set, (retro_metric_t)m, ids, k);
        char dir[1200];
        metric_dir(set, (retro_metric_t)m, dir, sizeof dir);
        manifest_t mf;
        if (manifest_load(dir, &mf, err) < 0) {
            free(ids);
            return err->code;
        }
        int build = 0, rc = GSW_OK;
        for (int i = 0; i < k && !rc; i++) {
            char name[96], path[1400], hex[MANIFEST_SHA_HEX];
            slice_file(set, ids[i], name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            const manifest_file_t *f = manifest_find(&mf, name);
            if ((rc = manifest_sha256_file(path, hex, err))) break;
            if (f && !strcmp(f->sha256, hex)) continue;   /* vouched for already */
            if (!build && (build = manifest_build_begin(&mf, argc, argv)) < 0) rc = err_set(err, GSW_EFAIL, "out of memory");
            struct stat st;
            if (!rc && stat(path, &st)) rc = err_set(err, GSW_EFAIL, "cannot read %s", path);
            if (!rc && manifest_set_file(&mf, build, name, hex, rg->slice_size(v, ids[i])))
                rc = err_set(err, GSW_EFAIL, "out of memory");
            if (!rc) ((manifest_file_t *)manifest_find(&mf, name))->bytes = (uint64_t)st.st_size, ++*recorded;
        }
        if (!rc && build) {   /* folded into the folder's MANIFEST as it is now (a build may be writing it) */
            fold_ctx_t f = { &mf, build, NULL, 0 };
            rc = manifest_update(dir, fold_in, &f, err);
        }
        manifest_free(&mf);
        free(ids);
        if (rc) return rc;
    }
    return GSW_OK;
}
