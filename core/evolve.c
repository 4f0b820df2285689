/* The genetic algorithm of evolve.h: a deterministic generator, the
 * quick-tournament (level by level: every group of a level picks its pivot,
 * then all their games run at once on a pool of threads), the variation
 * operators, breeding, and the run's state as checksummed text. */
#include "core/evolve.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random numbers ---- */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void evo_rng_seed(evo_rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;   /* (the one state xoshiro cannot leave) */
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t evo_rng_next(evo_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double evo_rng_unit(evo_rng_t *r)
{
    return (double)(evo_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t evo_rng_below(evo_rng_t *r, uint64_t n)
{
    if (n <= 1) return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;   /* draws at or above it would favour small values */
    uint64_t x;
    do x = evo_rng_next(r);
    while (x >= limit);
    return x % n;
}

double evo_rng_gauss(evo_rng_t *r)
{
    double u1 = ((double)(evo_rng_next(r) >> 11) + 1.0) * 0x1.0p-53;   /* (0, 1]: log is finite */
    double u2 = evo_rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t evo_mix(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0xd1342543de82ef95ull + 0x632be59bd9b4e019ull);
    splitmix(&x);
    return splitmix(&x);
}

/* ---- parameters ---- */

void evo_config_default(evo_config_t *c, int n, int alleles)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->alleles = alleles;
    c->init_lo = 800;
    c->init_hi = 17000;
    c->lo = 1;
    c->hi = 17000;
    c->sigma = 400;
    c->p_mutate = 0.4;
    c->p_inherit = 2.0 / 3.0;
    c->min_parents = 2;
    c->max_parents = 4;
    c->frac_bottom = 0.2;
    c->frac_top = 0.2;
    c->p_keep = 0.2;
    c->p_mutant = 0.4;
}

int evo_bottom(const evo_config_t *c) { return (int)(c->frac_bottom * c->n + 0.5); }
int evo_top(const evo_config_t *c) { return (int)(c->frac_top * c->n + 0.5); }

static int clamp(const evo_config_t *c, long long v)
{
    return v < c->lo ? c->lo : v > c->hi ? c->hi : (int)v;
}

/* ---- the quick-tournament ---- */

typedef struct job {
    int white, black;
    uint64_t seed;
    int result;
} job_t;

typedef struct pool {
    const evo_hooks_t *h;
    const evo_ind_t *pop;
    job_t *jobs;
    int njobs, gen;
    pthread_mutex_t lock;      /* everything below */
    int next, done, stopped;
    int *played;               /* the generation's games so far */
} pool_t;

typedef struct pool_arg {
    pool_t *p;
    int worker;
} pool_arg_t;

static void *pool_run(void *arg)
{
    pool_arg_t *a = arg;
    pool_t *p = a->p;
    const evo_hooks_t *h = p->h;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int j = p->stopped || p->next >= p->njobs ? -1 : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (j < 0) break;
        int r = h->stop && __atomic_load_n(h->stop, __ATOMIC_RELAXED) ? EVO_STOPPED
              : h->play(h->ctx, a->worker, &p->pop[p->jobs[j].white], &p->pop[p->jobs[j].black], p->jobs[j].seed);
        pthread_mutex_lock(&p->lock);
        if (r < -1 || r > 1) p->stopped = 1;
        else {
            p->jobs[j].result = r;
            p->done++;
            ++*p->played;
            if (h->progress) h->progress(h->ctx, p->gen, *p->played);
        }
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

/* Play every job, h->threads at once; 0, or -1 when stopped. */
static int pool_play(const evo_hooks_t *h, const evo_ind_t *pop, job_t *jobs, int njobs, int gen, int *played)
{
    if (h->farm) {   /* the round elsewhere, in one go */
        evo_game_t *g = malloc((size_t)(njobs ? njobs : 1) * sizeof *g);
        if (!g) return -1;
        for (int j = 0; j < njobs; j++)
            g[j] = (evo_game_t){ .white = pop[jobs[j].white], .black = pop[jobs[j].black], .seed = jobs[j].seed };
        int rc = h->farm(h->farm_ctx, g, njobs);
        for (int j = 0; j < njobs && !rc; j++) {
            if (g[j].result < -1 || g[j].result > 1) { rc = -1; break; }
            jobs[j].result = g[j].result;
            ++*played;
        }
        free(g);
        if (!rc && h->progress) h->progress(h->ctx, gen, *played);
        return rc ? -1 : 0;
    }
    pool_t p = { .h = h, .pop = pop, .jobs = jobs, .njobs = njobs, .gen = gen, .played = played };
    pthread_mutex_init(&p.lock, NULL);
    int nt = h->threads < 1 ? 1 : h->threads;
    if (nt > njobs) nt = njobs;
    pthread_t th[256];
    pool_arg_t args[256];
    if (nt > 256) nt = 256;
    int started = 0;
    for (int i = 1; i < nt; i++) {   /* workers 1.., the caller is worker 0 */
        args[i] = (pool_arg_t){ &p, i };
        if (pthread_create(&th[i], NULL, pool_run, &args[i])) break;
        started = i;
    }
    args[0] = (pool_arg_t){ &p, 0 };
    pool_run(&args[0]);
    for (int i = 1; i <= started; i++) pthread_join(th[i], NULL);
    pthread_mutex_destroy(&p.lock);
    return p.stopped || p.done < njobs ? -1 : 0;
}

int evo_rank(evo_ind_t *pop, int n, uint64_t seed, int gen, const evo_hooks_t *h, int *order, int *games,
             int *draws, err_t *err)
{
    *games = *draws = 0;
    for (int i = 0; i < n; i++) {
        order[i] = i;
        pop[i].rank = 0;
        pop[i].games = pop[i].wins = pop[i].draws = pop[i].losses = 0;
    }
    if (n < 2) {
        if (n == 1) pop[0].rank = 1;
        return GSW_OK;
    }
    uint64_t gseed = evo_mix(seed, (uint64_t)gen);
    evo_rng_t pr;   /* the pivots */
    evo_rng_seed(&pr, evo_mix(gseed, 0x7069766f74ull));
    /* groups of the order still to sort: start and length; a pivot each */
    int *gs = malloc((size_t)n * sizeof *gs), *gl = malloc((size_t)n * sizeof *gl);
    int *gp = malloc((size_t)n * sizeof *gp), *tmp = malloc((size_t)n * sizeof *tmp);
    int *gs2 = malloc((size_t)n * sizeof *gs2), *gl2 = malloc((size_t)n * sizeof *gl2);
    job_t *jobs = malloc((size_t)n * sizeof *jobs);
    int rc = GSW_OK, ng = 1, played = 0;
    if (!gs || !gl || !gp || !tmp || !gs2 || !gl2 || !jobs) {
        rc = err_set(err, GSW_EFAIL, "out of memory");
        goto out;
    }
    gs[0] = 0;
    gl[0] = n;
    while (ng > 0) {
        int nj = 0;
        for (int g = 0; g < ng; g++) {   /* (every group here has two or more) */
            gp[g] = order[gs[g] + (int)evo_rng_below(&pr, (uint64_t)gl[g])];
            for (int i = gs[g]; i < gs[g] + gl[g]; i++) {
                int q = order[i];
                if (q == gp[g]) continue;
                jobs[nj].white = q;
                jobs[nj].black = gp[g];
                jobs[nj].seed = evo_mix(evo_mix(gseed, (uint64_t)q), (uint64_t)gp[g]);
                jobs[nj].result = 0;
                nj++;
            }
        }
        if (pool_play(h, pop, jobs, nj, gen, &played)) {
            rc = err_set(err, GSW_EFAIL, "stopped in generation %d after %d games", gen, played);
            goto out;
        }
        /* split each group: those who beat the pivot, the pivot, the rest */
        int j = 0, nng = 0;
        for (int g = 0; g < ng; g++) {
            int p = gp[g], up = 0, down = 0, len = gl[g] - 1;
            for (int k = 0; k < len; k++, j++) {
                job_t *b = &jobs[j];
                evo_ind_t *w = &pop[b->white], *bl = &pop[b->black];
                w->games++;
                bl->games++;
                ++*games;
                if (b->result > 0) { w->wins++; bl->losses++; }
                else if (b->result < 0) { w->losses++; bl->wins++; }
                else { w->draws++; bl->draws++; ++*draws; }
            }
            j -= len;
            for (int k = 0; k < len; k++, j++)
                if (jobs[j].result > 0) tmp[up++] = jobs[j].white;
            j -= len;
            tmp[up] = p;
            for (int k = 0; k < len; k++, j++)
                if (jobs[j].result <= 0) tmp[up + 1 + down++] = jobs[j].white;
            memcpy(order + gs[g], tmp, (size_t)gl[g] * sizeof *order);
            int s0 = gs[g];   /* the next level's groups, left to right */
            if (up >= 2) { gs2[nng] = s0; gl2[nng] = up; nng++; }
            if (down >= 2) { gs2[nng] = s0 + up + 1; gl2[nng] = down; nng++; }
        }
        ng = nng;
        memcpy(gs, gs2, (size_t)ng * sizeof *gs);
        memcpy(gl, gl2, (size_t)ng * sizeof *gl);
    }
    for (int r = 0; r < n; r++) pop[order[r]].rank = r + 1;
out:
    free(gs);
    free(gl);
    free(gp);
    free(tmp);
    free(gs2);
    free(gl2);
    free(jobs);
    return rc;
}

/* ---- variation ---- */

void evo_random(const evo_config_t *c, evo_rng_t *r, evo_ind_t *out)
{
    memset(out, 0, sizeof *out);
    for (int a = 0; a < c->alleles; a++)
        out->v[a] = c->init_lo + (int)evo_rng_below(r, (uint64_t)(c->init_hi - c->init_lo) + 1);
}

int evo_mutate(const evo_config_t *c, evo_rng_t *r, evo_ind_t *x)
{
    int changed = 0;
    for (int a = 0; a < c->alleles; a++) {
        if (evo_rng_unit(r) >= c->p_mutate) continue;
        x->v[a] = clamp(c, x->v[a] + llround(evo_rng_gauss(r) * c->sigma));
        changed++;
    }
    return changed;
}

void evo_crossover(const evo_config_t *c, evo_rng_t *r, const evo_ind_t *const *parents, int k, evo_ind_t *out)
{
    evo_ind_t child;
    memset(&child, 0, sizeof child);
    for (int a = 0; a < c->alleles; a++) {
        if (evo_rng_unit(r) < c->p_inherit) {
            child.v[a] = parents[evo_rng_below(r, (uint64_t)k)]->v[a];
        } else {
            long long sum = 0;
            for (int i = 0; i < k; i++) sum += parents[i]->v[a];
            child.v[a] = clamp(c, llround((double)sum / k));
        }
    }
    *out = child;
}

int evo_select(const evo_config_t *c, evo_rng_t *r)
{
    int n = c->n, m = n - evo_bottom(c);
    if (m < 1) m = 1;
    uint64_t total = 0;
    for (int k = 0; k < m; k++) total += (uint64_t)(n - k);
    uint64_t u = evo_rng_below(r, total);
    for (int k = 0; k < m; k++) {
        if (u < (uint64_t)(n - k)) return k;
        u -= (uint64_t)(n - k);
    }
    return m - 1;   /* (not reached) */
}

int evo_child(const evo_config_t *c, evo_rng_t *r, const evo_ind_t *pop, const int *order, evo_ind_t *out)
{
    int k = c->min_parents + (int)evo_rng_below(r, (uint64_t)(c->max_parents - c->min_parents) + 1);
    int m = c->n - evo_bottom(c), place[EVO_MAX_ALLELES * 2];
    const evo_ind_t *par[EVO_MAX_ALLELES * 2];
    for (int i = 0; i < k; i++) {
        int again;
        do {   /* distinct parents where there are enough to choose from */
            place[i] = evo_select(c, r);
            again = 0;
            for (int j = 0; j < i && m >= k; j++) again |= place[j] == place[i];
        } while (again);
        par[i] = &pop[order[place[i]]];
    }
    evo_crossover(c, r, par, k, out);
    return k;
}

/* ---- a run ---- */

void evo_start(evo_t *e, const evo_config_t *c, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    e->cfg = *c;
    e->seed = seed;
    evo_rng_seed(&e->rng, evo_mix(seed, 0x6272656564ull));
    for (int i = 0; i < c->n; i++) {
        evo_random(c, &e->rng, &e->pop[i]);
        e->pop[i].id = e->next_id++;
        e->pop[i].origin = 'i';
    }
}

void evo_breed(evo_t *e, const int *order)
{
    const evo_config_t *c = &e->cfg;
    int n = c->n, nb = evo_bottom(c), nt = evo_top(c);
    memcpy(e->prev, e->pop, (size_t)n * sizeof *e->pop);
    for (int r = 0; r < n; r++) {
        evo_ind_t x = e->prev[order[r]];
        if (r >= n - nb) {
            evo_random(c, &e->rng, &x);
            x.origin = 'r';
            x.id = e->next_id++;
        } else if (r < nt) {
            x.origin = 'k';
        } else {
            double u = evo_rng_unit(&e->rng);
            if (u < c->p_keep) {
                x.origin = 'k';
            } else if (u < c->p_keep + c->p_mutant) {
                evo_mutate(c, &e->rng, &x);
                x.origin = 'm';
                x.id = e->next_id++;
            } else {
                evo_child(c, &e->rng, e->prev, order, &x);
                x.origin = 'c';
                x.id = e->next_id++;
            }
        }
        x.rank = x.games = x.wins = x.draws = x.losses = 0;
        e->pop[r] = x;
    }
    e->generation++;
}

static int meta_key_ok(const char *k)
{
    size_t n = strlen(k);
    if (!n || n >= sizeof ((evo_t *)0)->meta_key[0]) return 0;
    for (; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_')) return 0;
    return 1;
}

static int meta_val_ok(const char *v)
{
    size_t n = strlen(v);
    if (!n || n >= sizeof ((evo_t *)0)->meta_val[0] || v[0] == ' ' || v[n - 1] == ' ') return 0;
    for (; *v; v++)
        if ((unsigned char)*v < ' ' || *v == 127) return 0;
    return 1;
}

int evo_meta_set(evo_t *e, const char *key, const char *val, err_t *err)
{
    if (!meta_key_ok(key)) return err_set(err, GSW_EINPUT, "bad setting name \"%.40s\"", key);
    if (!meta_val_ok(val)) return err_set(err, GSW_EINPUT, "bad value for setting %s", key);
    int i = 0;
    while (i < e->nmeta && strcmp(e->meta_key[i], key)) i++;
    if (i == e->nmeta) {
        if (e->nmeta >= EVO_MAX_META) return err_set(err, GSW_EINPUT, "more than %d settings", EVO_MAX_META);
        e->nmeta++;
    }
    snprintf(e->meta_key[i], sizeof e->meta_key[i], "%s", key);
    snprintf(e->meta_val[i], sizeof e->meta_val[i], "%s", val);
    return GSW_OK;
}

const char *evo_meta_get(const evo_t *e, const char *key)
{
    for (int i = 0; i < e->nmeta; i++)
        if (!strcmp(e->meta_key[i], key)) return e->meta_val[i];
    return NULL;
}

/* ---- the state as text ---- */

#define EVO_MAGIC "gsw-evolve 1"

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

typedef struct sbuf {
    char *b;
    size_t n, len;
} sbuf_t;

static void sb_printf(sbuf_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *at = s->len < s->n ? s->b + s->len : NULL;
    int k = vsnprintf(at, at ? s->n - s->len : 0, fmt, ap);
    va_end(ap);
    if (k > 0) s->len += (size_t)k;
}

size_t evo_state_format(const evo_t *e, char *buf, size_t n)
{
    const evo_config_t *c = &e->cfg;
    sbuf_t s = { buf, n, 0 };
    sb_printf(&s, "%s\n", EVO_MAGIC);
    sb_printf(&s, "seed %" PRIu64 "\n", e->seed);
    sb_printf(&s, "generation %d\n", e->generation);
    sb_printf(&s, "population %d\n", c->n);
    sb_printf(&s, "alleles %d\n", c->alleles);
    sb_printf(&s, "range %d %d\n", c->lo, c->hi);
    sb_printf(&s, "init %d %d\n", c->init_lo, c->init_hi);
    sb_printf(&s, "mutation %.17g %.17g\n", c->sigma, c->p_mutate);
    sb_printf(&s, "crossover %.17g %d %d\n", c->p_inherit, c->min_parents, c->max_parents);
    sb_printf(&s, "survivors %.17g %.17g %.17g %.17g\n", c->frac_bottom, c->frac_top, c->p_keep, c->p_mutant);
    sb_printf(&s, "next_id %" PRIu64 "\n", e->next_id);
    sb_printf(&s, "rng %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", e->rng.s[0], e->rng.s[1],
              e->rng.s[2], e->rng.s[3]);
    for (int i = 0; i < e->nmeta; i++) sb_printf(&s, "meta %s %s\n", e->meta_key[i], e->meta_val[i]);
    for (int i = 0; i < c->n; i++) {
        const evo_ind_t *x = &e->pop[i];
        sb_printf(&s, "ind %" PRIu64 " %c", x->id, x->origin);
        for (int a = 0; a < c->alleles; a++) sb_printf(&s, " %d", x->v[a]);
        sb_printf(&s, "\n");
    }
    size_t body = s.len;
    uint64_t h = s.len < n ? fnv1a(buf, body) : 0;
    sb_printf(&s, "end %016" PRIx64 "\n", h);
    return s.len;
}

/* Whole-word number readers over one line's words. */
static int word_ll(const char *w, long long lo, long long hi, long long *out)
{
    if (!w || !*w) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(w, &end, 10);
    if (*end || errno || v < lo || v > hi || (w[0] != '-' && (w[0] < '0' || w[0] > '9'))) return -1;
    *out = v;
    return 0;
}

static int word_u64(const char *w, int base, uint64_t *out)
{
    if (!w || !*w || w[0] == '-' || w[0] == '+' || w[0] == ' ') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(w, &end, base);
    if (*end || errno) return -1;
    *out = v;
    return 0;
}

static int word_dbl(const char *w, double lo, double hi, double *out)
{
    if (!w || !*w) return -1;
    char *end;
    errno = 0;
    double v = strtod(w, &end);
    if (*end || errno || !(v >= lo && v <= hi)) return -1;
    *out = v;
    return 0;
}

#define MAX_WORDS 16
/* Split line (modified) at single spaces into words; returns the count, or
 * -1 for more than MAX_WORDS or empty words (two spaces, a space at an end). */
static int split(char *line, char **w)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == MAX_WORDS) return -1;
        w[n++] = p;
        char *sp = strchr(p, ' ');
        if (!sp) break;
        *sp = 0;
        if (!*p) return -1;
        p = sp + 1;
    }
    return *w[n - 1] ? n : -1;
}

int evo_state_parse(const char *text, size_t len, evo_t *e, int flags, err_t *err)
{
    memset(e, 0, sizeof *e);
    evo_config_default(&e->cfg, 0, 0);
    enum { K_SEED, K_GEN, K_POP, K_ALL, K_RANGE, K_INIT, K_MUT, K_CROSS, K_SURV, K_NEXT, K_RNG, K_N };
    static const char *const keys[K_N] = { "seed", "generation", "population", "alleles", "range", "init",
                                           "mutation", "crossover", "survivors", "next_id", "rng" };
    int seen[K_N] = { 0 }, nind = 0, lineno = 0, ended = 0;
    size_t pos = 0;
    char line[1024];
    while (pos < len) {
        size_t start = pos;
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos;
        pos += ll + (nl ? 1 : 0);
        lineno++;
        if (ended) return err_set(err, GSW_EINPUT, "line %d: text after the end line", lineno);
        if (!nl) return err_set(err, GSW_EINPUT, "line %d: truncated (the last line has no newline)", lineno);
        if (ll >= sizeof line) return err_set(err, GSW_EINPUT, "line %d: too long", lineno);
        memcpy(line, text + start, ll);
        line[ll] = 0;
        if (ll && line[ll - 1] == '\r') line[--ll] = 0;
        for (size_t i = 0; i < ll; i++)
            if ((unsigned char)line[i] < ' ' || line[i] == 127)
                return err_set(err, GSW_EINPUT, "line %d: a control character", lineno);
        if (lineno == 1) {
            if (strcmp(line, EVO_MAGIC))
                return err_set(err, GSW_EINPUT, "line 1: not a gsw evolution state (expected \"%s\")", EVO_MAGIC);
            continue;
        }
        if (!strncmp(line, "meta ", 5)) {   /* meta KEY VALUE (the value may hold spaces) */
            char *k = line + 5, *sp = strchr(k, ' ');
            if (!sp) return err_set(err, GSW_EINPUT, "line %d: meta needs a name and a value", lineno);
            *sp = 0;
            if (evo_meta_get(e, k)) return err_set(err, GSW_EINPUT, "line %d: setting %s given twice", lineno, k);
            err_t e2;
            if (evo_meta_set(e, k, sp + 1, &e2)) return err_set(err, GSW_EINPUT, "line %d: %s", lineno, e2.msg);
            continue;
        }
        char *w[MAX_WORDS];
        int nw = split(line, w);
        if (nw < 0) return err_set(err, GSW_EINPUT, "line %d: malformed (words apart by one space)", lineno);
        const evo_config_t *c = &e->cfg;
        long long a = 0, b = 0, d3 = 0;
        if (!strcmp(w[0], "end")) {
            for (int k = 0; k < K_N; k++)
                if (!seen[k]) return err_set(err, GSW_EINPUT, "line %d: the end, but no %s line", lineno, keys[k]);
            if (nind != c->n)
                return err_set(err, GSW_EINPUT, "line %d: %d individuals, population %d", lineno, nind, c->n);
            uint64_t sum;
            if (nw != 2 || word_u64(w[1], 16, &sum) || strlen(w[1]) != 16)
                return err_set(err, GSW_EINPUT, "line %d: end needs a 16-digit checksum", lineno);
            if (!(flags & EVO_PARSE_NO_SUM) && sum != fnv1a(text, start))
                return err_set(err, GSW_EINPUT, "line %d: checksum mismatch (the file was changed or damaged)", lineno);
            ended = 1;
            continue;
        }
        if (!strcmp(w[0], "ind")) {
            if (!seen[K_POP] || !seen[K_ALL] || !seen[K_RANGE] || !seen[K_NEXT])
                return err_set(err, GSW_EINPUT, "line %d: an individual before population, alleles, range and next_id",
                               lineno);
            if (nind >= c->n) return err_set(err, GSW_EINPUT, "line %d: more individuals than the population %d", lineno, c->n);
            evo_ind_t *x = &e->pop[nind];
            memset(x, 0, sizeof *x);
            if (nw != 3 + c->alleles) return err_set(err, GSW_EINPUT, "line %d: an individual needs an id, an origin and %d values", lineno, c->alleles);
            if (word_u64(w[1], 10, &x->id) || x->id >= e->next_id)
                return err_set(err, GSW_EINPUT, "line %d: bad id (below next_id %" PRIu64 ")", lineno, e->next_id);
            for (int i = 0; i < nind; i++)
                if (e->pop[i].id == x->id) return err_set(err, GSW_EINPUT, "line %d: id %" PRIu64 " twice", lineno, x->id);
            if (strlen(w[2]) != 1 || !strchr("irkmc", w[2][0]))
                return err_set(err, GSW_EINPUT, "line %d: bad origin (i, r, k, m or c)", lineno);
            x->origin = w[2][0];
            for (int i = 0; i < c->alleles; i++) {
                if (word_ll(w[3 + i], c->lo, c->hi, &a))
                    return err_set(err, GSW_EINPUT, "line %d: value %d not a whole number from %d to %d", lineno, i + 1,
                                   c->lo, c->hi);
                x->v[i] = (int)a;
            }
            nind++;
            continue;
        }
        int k = 0;
        while (k < K_N && strcmp(w[0], keys[k])) k++;
        if (k == K_N) return err_set(err, GSW_EINPUT, "line %d: unknown line \"%.40s\"", lineno, w[0]);
        if (seen[k]) return err_set(err, GSW_EINPUT, "line %d: %s given twice", lineno, keys[k]);
        if (nind) return err_set(err, GSW_EINPUT, "line %d: %s after the individuals", lineno, keys[k]);
        seen[k] = 1;
        static const int words[K_N] = { 2, 2, 2, 2, 3, 3, 3, 4, 5, 2, 5 };
        if (nw != words[k])
            return err_set(err, GSW_EINPUT, "line %d: %s takes %d value%s", lineno, keys[k], words[k] - 1,
                           words[k] > 2 ? "s" : "");
        evo_config_t *cc = &e->cfg;
        int bad = 0;
        switch (k) {
        case K_SEED: bad = word_u64(w[1], 10, &e->seed); break;
        case K_GEN: bad = word_ll(w[1], 0, 1000000000, &a); e->generation = (int)a; break;
        case K_POP: bad = word_ll(w[1], 2, EVO_MAX_POP, &a); cc->n = (int)a; break;
        case K_ALL: bad = word_ll(w[1], 1, EVO_MAX_ALLELES, &a); cc->alleles = (int)a; break;
        case K_RANGE:
            bad = word_ll(w[1], 1, 1000000000, &a) || word_ll(w[2], a, 1000000000, &b);
            cc->lo = (int)a;
            cc->hi = (int)b;
            break;
        case K_INIT:
            if (!seen[K_RANGE]) return err_set(err, GSW_EINPUT, "line %d: init before range", lineno);
            bad = word_ll(w[1], cc->lo, cc->hi, &a) || word_ll(w[2], a, cc->hi, &b);
            cc->init_lo = (int)a;
            cc->init_hi = (int)b;
            break;
        case K_MUT: bad = word_dbl(w[1], 0, 1e6, &cc->sigma) || word_dbl(w[2], 0, 1, &cc->p_mutate); break;
        case K_CROSS:
            bad = word_dbl(w[1], 0, 1, &cc->p_inherit) || word_ll(w[2], 1, EVO_MAX_ALLELES * 2, &a)
                  || word_ll(w[3], a, EVO_MAX_ALLELES * 2, &d3);
            cc->min_parents = (int)a;
            cc->max_parents = (int)d3;
            break;
        case K_SURV:
            bad = word_dbl(w[1], 0, 1, &cc->frac_bottom) || word_dbl(w[2], 0, 1, &cc->frac_top)
                  || word_dbl(w[3], 0, 1, &cc->p_keep) || word_dbl(w[4], 0, 1, &cc->p_mutant)
                  || cc->frac_bottom + cc->frac_top > 1 || cc->p_keep + cc->p_mutant > 1;
            break;
        case K_NEXT: bad = word_u64(w[1], 10, &e->next_id); break;
        case K_RNG:
            for (int i = 0; i < 4; i++) bad |= strlen(w[1 + i]) != 16 || word_u64(w[1 + i], 16, &e->rng.s[i]);
            bad |= !(e->rng.s[0] | e->rng.s[1] | e->rng.s[2] | e->rng.s[3]);
            break;
        }
        if (bad) return err_set(err, GSW_EINPUT, "line %d: bad %s", lineno, keys[k]);
    }
    if (!ended)
        return err_set(err, GSW_EINPUT, "truncated: no end line after line %d", lineno);
    return GSW_OK;
}
