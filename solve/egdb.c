/* Endgame databases as the solvers see them (see egdb.h): the directory of
 * a game's slice files, opened on first use and kept; per-thread probers
 * with their own block caches; what the codes mean; probes by position. */
#include "solve/egdb.h"

#include "db/cache.h"
#include "solve/trust.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct egdb_set {
    const gv_t *v;
    const retro_game_t *rg;
    char dir[1024];
    pthread_mutex_t lock;
    /* open files by (metric, slice): open addressing, cap a power of two */
    struct egdb_slot { uint64_t slice; int metric; int state; egdb_file_t *f; } *slot;   /* state: 0 free, 1 open, 2 missing */
    size_t cap, used;
    int guard;                 /* egdb_set_guard */
    trust_dir_t trust[RETRO_METRICS];
};

void egdb_set_guard(egdb_set_t *s, int on)
{
    s->guard = on;
}

int egdb_set_guarded(const egdb_set_t *s)
{
    return s->guard;
}

int egdb_default_dir(const char *db, char *buf, size_t n, err_t *err)
{
    return cache_sibling_dir(db, "egdb", buf, n, err);
}

int egdb_set_open(const gv_t *v, const char *dir, egdb_set_t **out, err_t *err)
{
    if (!v->ops->retro) return err_set(err, GSW_EINPUT, "%s has no endgame databases", v->game->name);
    egdb_set_t *s = calloc(1, sizeof *s);
    if (!s) return err_set(err, GSW_EFAIL, "out of memory");
    s->v = v;
    s->rg = v->ops->retro;
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    pthread_mutex_init(&s->lock, NULL);
    s->cap = 256;
    s->slot = calloc(s->cap, sizeof *s->slot);
    if (!s->slot) { free(s); return err_set(err, GSW_EFAIL, "out of memory"); }
    *out = s;
    return GSW_OK;
}

void egdb_set_close(egdb_set_t *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i].state == 1) egdb_close(s->slot[i].f);
    free(s->slot);
    for (int m = 0; m < RETRO_METRICS; m++) trust_dir_free(&s->trust[m]);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

const char *egdb_set_dir(const egdb_set_t *s) { return s->dir; }
const gv_t *egdb_set_variant(const egdb_set_t *s) { return s->v; }

void egdb_slice_path(const egdb_set_t *s, retro_metric_t m, uint64_t slice, char *buf, size_t n)
{
    char name[64];
    s->rg->slice_name(s->v, slice, name, sizeof name);
    snprintf(buf, n, "%s/%s/%s/%s.egdb", s->dir, s->v->game->name, retro_game_metric_name(s->rg, m), name);
}

int egdb_slice_present(egdb_set_t *s, retro_metric_t m, uint64_t slice)
{
    char path[1200];
    struct stat st;
    egdb_slice_path(s, m, slice, path, sizeof path);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static size_t slot_hash(const egdb_set_t *s, int m, uint64_t slice)
{
    uint64_t h = (slice * 3 + (uint64_t)m) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (s->cap - 1);
}

/* The slot of (m, slice), or the empty one where it goes (under the lock). */
static struct egdb_slot *slot_find(egdb_set_t *s, int m, uint64_t slice)
{
    for (size_t i = slot_hash(s, m, slice);; i = (i + 1) & (s->cap - 1))
        if (!s->slot[i].state || (s->slot[i].slice == slice && s->slot[i].metric == m)) return &s->slot[i];
}

static int slot_grow(egdb_set_t *s)
{
    struct egdb_slot *old = s->slot;
    size_t ocap = s->cap;
    s->slot = calloc(ocap * 2, sizeof *s->slot);
    if (!s->slot) { s->slot = old; return -1; }
    s->cap = ocap * 2;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].state) *slot_find(s, old[i].metric, old[i].slice) = old[i];
    free(old);
    return 0;
}

/* Is the file at path (metric m's) listed in its folder's MANIFEST with
 * its size (or trust on)? Under the lock. */
static int slice_vouched(egdb_set_t *s, retro_metric_t m, const char *path, err_t *err)
{
    char dir[1200], fix[1300];
    snprintf(dir, sizeof dir, "%s", path);
    char *name = strrchr(dir, '/');
    *name++ = 0;
    snprintf(fix, sizeof fix, "gsw egdb verify %s --dir %s", s->v->game->name, s->dir);
    return trust_file(&s->trust[m], dir, name, fix, 1, err);
}

int egdb_slice_vouched(egdb_set_t *s, retro_metric_t m, uint64_t slice, err_t *err)
{
    char path[1200];
    egdb_slice_path(s, m, slice, path, sizeof path);
    pthread_mutex_lock(&s->lock);
    int rc = slice_vouched(s, m, path, err);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* The open file of (m, slice): 1, 0 when it is not built (remembered:
 * egdb_slice_forget makes the set look again), -1 on error. */
static int egdb_slice_lookup(egdb_set_t *s, retro_metric_t m, uint64_t slice, egdb_file_t **f, err_t *err)
{
    pthread_mutex_lock(&s->lock);
    struct egdb_slot *sl = slot_find(s, (int)m, slice);
    if (sl->state) {
        int st = sl->state;
        *f = sl->f;
        pthread_mutex_unlock(&s->lock);
        return st == 1 ? 1 : 0;
    }
    char path[1200];
    egdb_slice_path(s, m, slice, path, sizeof path);
    struct stat st;
    egdb_file_t *nf = NULL;
    int rc = GSW_OK, state = 2;
    if (stat(path, &st) == 0) {
        state = 1;
        if (s->guard) rc = slice_vouched(s, m, path, err);   /* the folder's MANIFEST must vouch for it */
        if (!rc) rc = egdb_open(path, &nf, err);
        if (!rc) {
            const egdb_info_t *in = egdb_file_info(nf);
            char name[64];
            s->rg->slice_name(s->v, slice, name, sizeof name);
            if (strcmp(in->game, s->v->game->name) || strcmp(in->slice, name) || in->metric != (int)m ||
                in->n != s->rg->slice_size(s->v, slice) || in->bits != (m == RETRO_WLD ? 2 : 8)) {
                if (!strcmp(in->game, s->v->game->name) && !strcmp(in->slice, name) && in->n != s->rg->slice_size(s->v, slice))
                    rc = err_set(err, GSW_EFAIL, "%s holds %llu positions where this gsw indexes %s in %llu (built "
                                 "by a gsw that indexed it otherwise): delete it and build it again (gsw egdb build "
                                 "%s %s)", path, (unsigned long long)in->n, name,
                                 (unsigned long long)s->rg->slice_size(s->v, slice), s->v->game->name, name);
                else
                    rc = err_set(err, GSW_EFAIL, "%s: the header says another slice or size (%s %s, %llu positions)",
                                 path, in->game, in->slice, (unsigned long long)in->n);
                egdb_close(nf);
            }
        }
    }
    if (!rc && (s->used + 1) * 2 > s->cap && slot_grow(s)) {
        if (nf) egdb_close(nf);
        rc = err_set(err, GSW_EFAIL, "out of memory");
    }
    if (!rc) {
        sl = slot_find(s, (int)m, slice);
        sl->slice = slice;
        sl->metric = (int)m;
        sl->state = state;
        sl->f = nf;
        s->used++;
        *f = nf;
    }
    pthread_mutex_unlock(&s->lock);
    return rc ? -1 : state == 1;
}

int egdb_damage_hint(const egdb_set_t *s, retro_metric_t m, uint64_t slice, err_t *err)
{
    char name[64];
    size_t k = strlen(err->msg);
    if (strstr(err->msg, "(rebuild it: ") || !(strstr(err->msg, "truncated") || strstr(err->msg, "corrupt") ||
                                                strstr(err->msg, "header") || strstr(err->msg, " is stored as ")))
        return err->code ? err->code : GSW_EFAIL;
    s->rg->slice_name(s->v, slice, name, sizeof name);
    snprintf(err->msg + k, sizeof err->msg - k, " (rebuild it: gsw egdb build %s %s --metric %s --dir %s)",
             s->v->game->name, name, retro_metric_name(m), egdb_set_dir(s));
    return err->code ? err->code : GSW_EFAIL;
}

int egdb_slice_file(egdb_set_t *s, retro_metric_t m, uint64_t slice, egdb_file_t **f, err_t *err)
{
    int rc = egdb_slice_lookup(s, m, slice, f, err);
    if (rc < 0) return egdb_damage_hint(s, m, slice, err);
    if (rc == 0) {
        char path[1200];
        egdb_slice_path(s, m, slice, path, sizeof path);
        return err_set(err, GSW_EFAIL, "%s: not built", path);
    }
    return GSW_OK;
}

void egdb_slice_forget(egdb_set_t *s, retro_metric_t m, uint64_t slice)
{
    pthread_mutex_lock(&s->lock);
    struct egdb_slot *sl = slot_find(s, (int)m, slice);
    if (sl->state) {   /* rebuild the table without it (linear probing has no holes) */
        if (sl->state == 1) egdb_close(sl->f);
        sl->state = 0;
        sl->f = NULL;
        s->used--;
        struct egdb_slot *old = s->slot;
        s->slot = calloc(s->cap, sizeof *s->slot);
        if (!s->slot) s->slot = old;   /* (cannot happen in practice; keep the old table) */
        else {
            for (size_t i = 0; i < s->cap; i++)
                if (old[i].state) *slot_find(s, old[i].metric, old[i].slice) = old[i];
            free(old);
        }
    }
    pthread_mutex_unlock(&s->lock);
}

int egdb_prober_init(egdb_prober_t *p, egdb_set_t *s, size_t cache_mb, err_t *err)
{
    memset(p, 0, sizeof *p);
    p->set = s;
    p->cache = egdb_cache_new(cache_mb);
    if (!p->cache) return err_set(err, GSW_EFAIL, "out of memory for a probe cache of %zu MB", cache_mb);
    return GSW_OK;
}

void egdb_prober_free(egdb_prober_t *p)
{
    if (p->cache) egdb_cache_free(p->cache);
    p->cache = NULL;
}

int egdb_code_decode(retro_metric_t m, uint8_t code, retro_val_t *r)
{
    if (code == 0) { *r = RETRO_UNKNOWN; return 0; }
    if (m == RETRO_WLD) {
        *r = code == 1 ? retro_win(1) : retro_loss(0);
        return 0;
    }
    if (code == 255) return 1;
    if (m == RETRO_DTW) {
        int d = code - 1;
        *r = d & 1 ? retro_win(d) : retro_loss(d);
    } else *r = code < 128 ? retro_win(code - 1) : retro_loss(code - 128);
    return 0;
}

uint8_t egdb_code_encode(retro_metric_t m, retro_val_t r, int *exception)
{
    *exception = 0;
    if (r == RETRO_UNKNOWN) return 0;
    int d = retro_dist(r);
    if (m == RETRO_WLD) return retro_is_win(r) ? 1 : 2;
    if (m == RETRO_DTW) {
        if (d <= 253) return (uint8_t)(d + 1);
    } else if (d <= 126) return (uint8_t)(retro_is_win(r) ? d + 1 : d + 128);
    *exception = 1;
    return 255;
}

static int prober_file(egdb_prober_t *p, retro_metric_t m, uint64_t slice, egdb_file_t **f, err_t *err)
{
    unsigned h = (unsigned)((slice * 3 + (uint64_t)m) * 0x9e3779b97f4a7c15ull >> 61);
    if (p->recent[h].state == 1 && p->recent[h].slice == slice && p->recent[h].metric == (int)m) {
        *f = p->recent[h].f;
        return GSW_OK;
    }
    int rc = egdb_slice_file(p->set, m, slice, f, err);
    if (rc) return rc;
    p->recent[h].slice = slice;
    p->recent[h].metric = (int)m;
    p->recent[h].state = 1;
    p->recent[h].f = *f;
    return GSW_OK;
}

int egdb_probe_index(egdb_prober_t *p, retro_metric_t m, uint64_t slice, uint64_t index, retro_val_t *r,
                     err_t *err)
{
    egdb_file_t *f;
    int rc = prober_file(p, m, slice, &f, err);
    if (rc) return rc;
    uint8_t code;
    if ((rc = egdb_get(p->cache, f, index, &code, err))) return egdb_damage_hint(p->set, m, slice, err);
    if (m == RETRO_WLD && code > 2) return err_set(err, GSW_EFAIL, "%s: code %d at position %llu", egdb_file_path(f),
                                                   code, (unsigned long long)index);
    if (egdb_code_decode(m, code, r)) {
        uint16_t x;
        if (!egdb_exception(f, index, &x))
            return err_set(err, GSW_EFAIL, "%s: position %llu has no exception entry", egdb_file_path(f),
                           (unsigned long long)index);
        *r = x;
    }
    return GSW_OK;
}

void egdb_probe_prefetch(egdb_prober_t *p, retro_metric_t m, uint64_t slice, uint64_t index)
{
    egdb_file_t *f;
    err_t err;
    if (!prober_file(p, m, slice, &f, &err)) egdb_prefetch(p->cache, f, index);
}

/* The stored value of (slice, index) in metric m's file: 1 with *r, 0
 * when that file is missing (remembered by the prober), -1 on error. */
static int egdb_probe_file(egdb_prober_t *p, retro_metric_t m, uint64_t slice, uint64_t index, retro_val_t *r,
                           err_t *err)
{
    unsigned h = (unsigned)((slice * 3 + (uint64_t)m) * 0x9e3779b97f4a7c15ull >> 61);
    int known = p->recent[h].state && p->recent[h].slice == slice && p->recent[h].metric == (int)m;
    egdb_file_t *f;
    int got = known ? p->recent[h].state == 1 : egdb_slice_lookup(p->set, m, slice, &f, err);
    if (got < 0) { egdb_damage_hint(p->set, m, slice, err); return -1; }
    if (!known && !got) {   /* remember the missing file too */
        p->recent[h].slice = slice;
        p->recent[h].metric = (int)m;
        p->recent[h].state = 2;
        p->recent[h].f = NULL;
    }
    if (!got) return 0;
    return egdb_probe_index(p, m, slice, index, r, err) ? -1 : 1;
}

int egdb_conversion(egdb_prober_t *p, const void *pos, int *plies, err_t *err)
{
    uint64_t slice, index;
    int flipped;
    retro_val_t r;
    if (!p->set->rg->locate(p->set->v, pos, &slice, &index, &flipped)) return 0;
    int got = egdb_probe_file(p, RETRO_DTC, slice, index, &r, err);
    if (got <= 0) return got;
    if (r == RETRO_UNKNOWN) return 0;   /* a draw: no conversion is forced */
    *plies = retro_dist(r);
    return 1;
}

int egdb_probe(egdb_prober_t *p, const void *pos, val_t *lo, val_t *hi, retro_metric_t *metric, err_t *err)
{
    const retro_game_t *rg = p->set->rg;
    uint64_t slice, index;
    int flipped;
    if (!rg->locate(p->set->v, pos, &slice, &index, &flipped)) return 0;
    /* distance to win, else distance to conversion (the same win/draw/loss,
       and egdb_conversion's distances), else win/draw/loss */
    static const retro_metric_t order[3] = { RETRO_DTW, RETRO_DTC, RETRO_WLD };
    for (int i = 0; i < 3; i++) {
        retro_metric_t m = order[i];
        retro_val_t r;
        int got = egdb_probe_file(p, m, slice, index, &r, err);
        if (got < 0) return -1;
        if (!got) continue;
        if (metric) *metric = m;
        if (m == RETRO_DTW) {
            *lo = *hi = retro_to_val(r);
        } else if (r == RETRO_UNKNOWN) {
            *lo = *hi = VAL_DRAW;
        } else if (retro_is_win(r)) {
            *lo = VAL_PROVEN;
            *hi = val_win(1);
        } else {
            *lo = val_loss(0);
            *hi = -VAL_PROVEN;
        }
        return 1;
    }
    return 0;
}

int egdb_list(egdb_set_t *s, retro_metric_t m, uint64_t *out, int max)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s/%s", s->dir, s->v->game->name, retro_game_metric_name(s->rg, m));
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".egdb")) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
        uint64_t slice;
        err_t err;
        if (s->rg->slice_parse(s->v, name, &slice, &err)) continue;
        if (out && n < max) out[n] = slice;
        n++;
    }
    closedir(d);
    return n;
}

/* ---- the searches' oracle ---- */

typedef struct oracle_slot {
    pthread_mutex_t lock;
    egdb_prober_t pr;
} oracle_slot_t;

/* A free prober of o, locked (the calling thread's first choice). */
static oracle_slot_t *egdb_oracle_slot(egdb_oracle_t *o)
{
    oracle_slot_t *slots = o->slot;
    uint64_t h = (uint64_t)(uintptr_t)pthread_self() * 0x9e3779b97f4a7c15ull;
    unsigned i = (unsigned)(h >> 60) & (EGDB_ORACLE_SLOTS - 1);
    while (pthread_mutex_trylock(&slots[i].lock)) i = (i + 1) & (EGDB_ORACLE_SLOTS - 1);
    return &slots[i];
}

/* A probe's error, kept once for the caller to show. */
static void egdb_oracle_damage(egdb_oracle_t *o, const err_t *err)
{
    if (!__atomic_exchange_n(&o->damaged, 1, __ATOMIC_RELAXED)) snprintf(o->damage, sizeof o->damage, "%s", err->msg);
}

static int egdb_oracle_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    egdb_oracle_t *o = ctx;
    uint64_t slice, index;
    int flipped;
    /* most of a search's positions lie outside every ending: they are
       told apart before a prober is locked */
    if (!o->set->rg->locate(v, pos, &slice, &index, &flipped)) return 0;
    oracle_slot_t *slot = egdb_oracle_slot(o);
    err_t err;
    int got = egdb_probe(&slot->pr, pos, lo, hi, NULL, &err);
    if (got < 0) egdb_oracle_damage(o, &err);
    pthread_mutex_unlock(&slot->lock);
    return got > 0;
}

int egdb_oracle_conversion(egdb_oracle_t *o, const void *pos, int *plies)
{
    if (!o->set) return 0;
    oracle_slot_t *slot = egdb_oracle_slot(o);
    err_t err;
    int got = egdb_conversion(&slot->pr, pos, plies, &err);
    if (got < 0) egdb_oracle_damage(o, &err);
    pthread_mutex_unlock(&slot->lock);
    return got > 0;
}

static int egdb_oracle_conv(void *ctx, const void *pos, int *plies)
{
    return egdb_oracle_conversion(ctx, pos, plies);
}

int egdb_oracle_open(egdb_oracle_t *o, const gv_t *v, const char *dir, err_t *err)
{
    memset(o, 0, sizeof *o);
    if (!v->ops->retro) return 0;
    char path[1100];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, v->game->name);
    if (stat(path, &st) || !S_ISDIR(st.st_mode)) return 0;
    if (egdb_set_open(v, dir, &o->set, err)) return -1;
    egdb_set_guard(o->set, 1);
    if (!egdb_list(o->set, RETRO_WLD, NULL, 0) && !egdb_list(o->set, RETRO_DTW, NULL, 0)) {
        egdb_set_close(o->set);
        o->set = NULL;
        return 0;
    }
    oracle_slot_t *slots = calloc(EGDB_ORACLE_SLOTS, sizeof *slots);
    if (!slots) { egdb_set_close(o->set); o->set = NULL; err_set(err, GSW_EFAIL, "out of memory"); return -1; }
    for (int i = 0; i < EGDB_ORACLE_SLOTS; i++) {
        pthread_mutex_init(&slots[i].lock, NULL);
        if (egdb_prober_init(&slots[i].pr, o->set, 16, err)) {
            for (int k = 0; k <= i; k++) { egdb_prober_free(&slots[k].pr); pthread_mutex_destroy(&slots[k].lock); }
            free(slots);
            egdb_set_close(o->set);
            o->set = NULL;
            return -1;
        }
    }
    o->slot = slots;
    o->oracle.probe = egdb_oracle_probe;
    o->oracle.conversion = egdb_oracle_conv;
    o->oracle.ctx = o;
    return 1;
}

void egdb_oracle_close(egdb_oracle_t *o)
{
    oracle_slot_t *slots = o->slot;
    if (slots)
        for (int i = 0; i < EGDB_ORACLE_SLOTS; i++) {
            egdb_prober_free(&slots[i].pr);
            pthread_mutex_destroy(&slots[i].lock);
        }
    free(slots);
    if (o->set) egdb_set_close(o->set);
    memset(o, 0, sizeof *o);
}

int egdb_oracle_open_at(egdb_oracle_t *o, const gv_t *v, const char *dir, const char *db, err_t *err)
{
    char d[1100];
    memset(o, 0, sizeof *o);
    if (!v->ops->retro) return 0;
    if (dir) snprintf(d, sizeof d, "%s", dir);
    else if (egdb_default_dir(db, d, sizeof d, err)) return -1;
    return egdb_oracle_open(o, v, d, err);
}

int64_t egdb_folder_stamp(const char *dir, const gv_t *v)
{
    static const char *const sub[] = { "", "/wld", "/dtc", "/dtw", "/dtm" };
    int64_t t = 0;
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
        char p[1300];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s%s", dir, v->game->name, sub[i]);
        if (stat(p, &st)) continue;
        int64_t m = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        if (m > t) t = m;
    }
    return t;
}
