/* Provenance at the door (solve/trust.h): the cheap manifest check of a
 * source's files, and --trust. */
#include "solve/trust.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int trust_flag;

void source_set_trust(int on)
{
    trust_flag = on;
}

int source_trusted(void)
{
    const char *e = getenv("GSW_TRUST");
    return trust_flag || (e && !strcmp(e, "1"));
}

void trust_dir_free(trust_dir_t *t)
{
    if (t->state == 1) manifest_free(&t->m);
    memset(t, 0, sizeof *t);
}

/* The MANIFEST's time and size (-1, -1: none). */
static void stamp(const char *dir, long long *mtime_ns, long long *size)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST_NAME);
    struct stat st;
    if (stat(path, &st)) {
        *mtime_ns = *size = -1;
        return;
    }
    *mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    *size = (long long)st.st_size;
}

static void load(trust_dir_t *t)
{
    if (t->state == 1) manifest_free(&t->m);
    stamp(t->dir, &t->mtime_ns, &t->size);
    err_t e;
    int r = manifest_load(t->dir, &t->m, &e);
    t->state = r > 0 ? 1 : r == 0 ? 2 : 3;
    if (r < 0) snprintf(t->why, sizeof t->why, "%.399s", e.msg);
}

static int check(trust_dir_t *t, const char *name, err_t *e)
{
    if (t->state == 2) return err_set(e, GSW_EFAIL, "%s has no %s to vouch for %s", t->dir, MANIFEST_NAME, name);
    if (t->state == 3) return err_set(e, GSW_EFAIL, "%s", t->why);
    return manifest_check_size(t->dir, &t->m, name, e);
}

int trust_file(trust_dir_t *t, const char *dir, const char *name, const char *fix, int record, err_t *err)
{
    if (strcmp(t->dir, dir)) {
        trust_dir_free(t);
        snprintf(t->dir, sizeof t->dir, "%s", dir);
    }
    if (!t->state) load(t);
    err_t e;
    int rc = check(t, name, &e);
    if (rc) {   /* written since? */
        long long mt, sz;
        stamp(dir, &mt, &sz);
        if (mt != t->mtime_ns || sz != t->size) load(t), rc = check(t, name, &e);
    }
    if (!rc) return GSW_OK;
    if (source_trusted()) {
        static int warned;   /* once a process */
        if (!warned) fprintf(stderr, "gsw: warning: %s; used anyway (--trust)\n", e.msg);
        warned = 1;
        return GSW_OK;
    }
    return err_set(err, GSW_EFAIL, "%.300s: refused (check it: %s%s%s; or --trust)", e.msg, fix,
                   record ? "; adopt files built before manifests: " : "", record ? "the same with --record" : "");
}
