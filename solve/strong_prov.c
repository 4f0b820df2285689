/* The provenance of a strong solution's files (solve/strong_prov.h). */
#include "solve/strong_prov.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/ab.h"

struct strong_prov {
    char bdir[1100];
    int argc;
    char *const *argv;
    double t0;
    struct timespec wall0;
    manifest_t m;
    int loaded, build;
};

strong_prov_t *strong_prov_open(const char *bdir, int argc, char *const *argv)
{
    strong_prov_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    snprintf(p->bdir, sizeof p->bdir, "%s", bdir);
    p->argc = argv ? argc : 0;
    p->argv = argv;
    p->t0 = gsw_now_ms();
    clock_gettime(CLOCK_REALTIME, &p->wall0);
    p->wall0.tv_sec -= 1;   /* (a file's time comes from a coarser clock) */
    return p;
}

/* Record file i of set (k, v) of m as build's, its inputs the sets it was
 * made from: a forward set from the last ply's go-on set; a value set (or
 * part) from its ply's forward sets and the next ply's value sets (of a
 * part, the next ply's files its positions' drops reach). */
static int record_set(manifest_t *mf, int build, const char *bdir, const strong_manifest_t *m, int k, int v, int i,
                      err_t *err)
{
    char name[64];
    strong_file_name(m, k, v, i, name, sizeof name);
    struct strong_part rec = strong_file_rec(m, k, v, i);
    const u256_t *c = &rec.count;
    uint64_t positions = c->w[1] | c->w[2] | c->w[3] ? UINT64_MAX : c->w[0];   /* (none is past 2^64) */
    if (manifest_record_file(mf, build, bdir, name, positions, err)) return err->code;
    int in[5][2], n = 0;
    if (v >= STRONG_GO) {
        if (k > 0) in[n][0] = k - 1, in[n++][1] = STRONG_GO;
    } else {
        in[n][0] = k, in[n++][1] = STRONG_GO;
        in[n][0] = k, in[n++][1] = STRONG_ENDED;
        for (int x = 0; x < 3 && k < m->w * m->h; x++) in[n][0] = k + 1, in[n++][1] = x;
    }
    int split = v < 3 ? m->ply[k].split : 0;
    for (int j = 0; j < n; j++)
        for (int q = 0; q < strong_files(m, in[j][0], in[j][1]); q++) {
            /* a part: of the next ply's sets, the parts its drops reach */
            if (split && in[j][0] == k + 1 && !c4b_part_needs(m->h, split, k, (unsigned)i, m->ply[k + 1].split, (unsigned)q))
                continue;
            char iname[64];
            strong_file_name(m, in[j][0], in[j][1], q, iname, sizeof iname);
            const manifest_file_t *f = manifest_find(mf, iname);
            if (f && manifest_add_input(mf, name, iname, f->sha256)) return err_set(err, GSW_EFAIL, "out of memory");
        }
    return GSW_OK;
}

static int listed(const strong_manifest_t *m, const char *name)
{
    int k;
    if (sscanf(name, "ply%d-", &k) != 1 || k < 0 || k > m->w * m->h) return 0;
    for (int v = 0; v < STRONG_SETS; v++)
        for (int i = 0; i < strong_files(m, k, v); i++) {
            char s[64];
            strong_file_name(m, k, v, i, s, sizeof s);
            if (strong_file_listed(m, k, v, i) && !strcmp(s, name)) return 1;
        }
    return 0;
}

int strong_prov_sync(strong_prov_t *p, const strong_manifest_t *m, err_t *err)
{
    if (!p) return GSW_OK;
    if (!p->loaded) {
        if (manifest_load(p->bdir, &p->m, err) < 0) return err->code;
        p->loaded = 1;
    }
    int changed = 0;
    for (int i = p->m.nfile - 1; i >= 0; i--)   /* sets solved again from scratch, or gone */
        if (!listed(m, p->m.file[i].name)) manifest_remove_file(&p->m, p->m.file[i].name), changed = 1;
    /* the forward sets from ply 0 up, then the value sets from the last ply
       down: each set's inputs are recorded before it */
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j <= m->w * m->h; j++) {
            int k = pass ? m->w * m->h - j : j;
            for (int v = pass ? 0 : STRONG_GO; v < (pass ? 3 : STRONG_SETS); v++)
                for (int i = 0; i < strong_files(m, k, v); i++) {
                    if (!strong_file_listed(m, k, v, i)) continue;
                    char name[64], path[1300];
                    strong_file_name(m, k, v, i, name, sizeof name);
                    snprintf(path, sizeof path, "%s/%s", p->bdir, name);
                    struct stat st;
                    if (stat(path, &st)) continue;   /* (said by verify as missing) */
                    const manifest_file_t *f = manifest_find(&p->m, name);
                    int fresh = st.st_mtim.tv_sec > p->wall0.tv_sec ||
                                (st.st_mtim.tv_sec == p->wall0.tv_sec && st.st_mtim.tv_nsec >= p->wall0.tv_nsec);
                    if (f && f->bytes == (uint64_t)st.st_size && (!fresh || f->build == p->build)) continue;
                    if (!p->build && (p->build = manifest_build_begin(&p->m, p->argv ? p->argc : 0, p->argv)) < 0)
                        return err_set(err, GSW_EFAIL, "out of memory");
                    if (record_set(&p->m, p->build, p->bdir, m, k, v, i, err)) return err->code;
                    changed = 1;
                }
        }
    if (!changed && !p->build) return GSW_OK;
    if (p->build) manifest_build_done(&p->m, p->build, (gsw_now_ms() - p->t0) / 1000);
    manifest_prune(&p->m);
    return manifest_write(p->bdir, &p->m, err);
}

int strong_prov_close(strong_prov_t *p, err_t *err)
{
    if (!p) return GSW_OK;
    int rc = GSW_OK;
    if (p->build) {
        manifest_build_done(&p->m, p->build, (gsw_now_ms() - p->t0) / 1000);
        err_t e;
        rc = manifest_write(p->bdir, &p->m, err ? err : &e);
    }
    manifest_free(&p->m);
    free(p);
    return rc;
}

static int is_bdd(const char *name)
{
    size_t k = strlen(name);
    return k > 4 && !strcmp(name + k - 4, ".bdd");
}

int strong_prov_verify(const char *bdir, int record, int argc, char *const *argv,
                       void (*say)(void *ctx, const char *name, int status), void *ctx, int *files, int *bad,
                       int *recorded, err_t *err)
{
    *files = *bad = *recorded = 0;
    strong_manifest_t *sm = calloc(1, sizeof *sm);
    if (!sm) return err_set(err, GSW_EFAIL, "out of memory");
    int r = strong_manifest_load(bdir, sm, err);
    if (r <= 0) {
        free(sm);
        return r < 0 ? err->code : err_set(err, GSW_EFAIL, "no strong solution in %s (no manifest)", bdir);
    }
    int rc = GSW_OK;
    if (record) {   /* adopt: the sets that pass their own checksums, recorded as argv's */
        manifest_t mf;
        if (manifest_load(bdir, &mf, err) < 0) {
            free(sm);
            return err->code;
        }
        int build = 0;
        for (int k = 0; k <= sm->w * sm->h && !rc; k++)
            for (int v = 0; v < STRONG_SETS && !rc; v++)
                for (int i = 0; i < strong_files(sm, k, v) && !rc; i++) {
                    if (!strong_file_listed(sm, k, v, i)) continue;
                    char name[64];
                    strong_file_name(sm, k, v, i, name, sizeof name);
                    if (manifest_find(&mf, name)) continue;
                    if ((rc = strong_set_check(bdir, sm, k, v, i, err))) break;
                    if (!build && (build = manifest_build_begin(&mf, argc, argv)) < 0)
                        rc = err_set(err, GSW_EFAIL, "out of memory");
                    if (!rc) rc = record_set(&mf, build, bdir, sm, k, v, i, err);
                    if (!rc) ++*recorded;
                }
        if (!rc && build) manifest_prune(&mf), rc = manifest_write(bdir, &mf, err);
        manifest_free(&mf);
    }
    manifest_t mf;
    if (!rc && manifest_load(bdir, &mf, err) >= 0) {
        int n = manifest_verify(bdir, &mf, is_bdd, say, ctx, err);
        *files = mf.nfile;
        if (n < 0) rc = err->code;
        else *bad = n;
        /* sets the board's manifest lists, the MANIFEST not, whose file is gone (an unlisted file is said above) */
        for (int k = 0; k <= sm->w * sm->h && !rc; k++)
            for (int v = 0; v < STRONG_SETS; v++)
                for (int i = 0; i < strong_files(sm, k, v); i++) {
                    char name[64], path[1300];
                    strong_file_name(sm, k, v, i, name, sizeof name);
                    snprintf(path, sizeof path, "%s/%s", bdir, name);
                    struct stat st;
                    if (strong_file_listed(sm, k, v, i) && !manifest_find(&mf, name) && stat(path, &st)) {
                        if (say) say(ctx, name, MANIFEST_MISSING);
                        ++*bad;
                    }
                }
        manifest_free(&mf);
    } else if (!rc)
        rc = err->code;
    free(sm);
    return rc;
}
