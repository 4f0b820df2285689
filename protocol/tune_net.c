/* gsw tune chess --eval --net H: the evaluation network (games/chess/ch_nn.h)
 * trained on the positions of a --eval run, each scored by its teacher
 * (the --rescore engine's scores where there are some, else gsw's own).
 *
 * A position's target is the win probability its score stands for,
 * 1 / (1 + e^(-score / CH_NN_SCALE)), from the side to move's view; the
 * network's output o (in units of CH_NN_SCALE centipawns) is read the same
 * way. The output is the one the engine evaluates (ch_nn.c): antisymmetric,
 * the side to move's view's units less the other's, so a position and the
 * same one with the move passed score opposite and the side to move gets
 * nothing for the move (the teacher's scores of fast self-play positions
 * give it about 170 cp, which a search would count twice). The fit lowers the mean squared difference of the two by Adam
 * over minibatches, the positions shuffled each epoch, a game in ten held
 * out (as the linear fit holds them out). After each step every weight is
 * clipped to +-CH_NN_WMAX, so that the integers of the built network
 * cannot overflow. The step falls to a tenth over the last quarter of the
 * epochs. A minibatch is cut into TN_PARTS parts, each part's gradient
 * summed alone (by any of the threads) and the parts then added in order,
 * so the run is the same, for a given seed, on any number of threads.
 *
 * The built-in evaluation's loss on the same targets is printed beside
 * the network's, so a run says whether the network beats it. The weights,
 * in integers, go to DIR/ch_nn_weights.h: copied over
 * games/chess/ch_nn_weights.h and built, they are the engine's. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "core/ab.h"
#include "games/chess/ch.h"
#include "games/chess/ch_nn.h"
#include "protocol/tune.h"

#define TN_BATCH 2048
#define TN_PARTS 8   /* a minibatch's parts, each summed alone and then in order: the run is the same on any threads */

typedef struct tn_data {
    size_t n, ntrain, nvalid;
    uint16_t *feat;   /* [n][2][32]: the side to move's features, then the other's */
    uint8_t *nf;      /* [n][2] */
    float *target;
    uint8_t *valid;
    float *hce;       /* the built-in evaluation's win probability */
} tn_data_t;

typedef struct tn_net {
    int h;
    float *w1, *b1, *w2;   /* (no output bias: the antisymmetric output has none) */
} tn_net_t;


static float tn_sigmoid(double x) { return (float)(1 / (1 + exp(-x))); }

static void tn_data_free(tn_data_t *d)
{
    free(d->feat);
    free(d->nf);
    free(d->target);
    free(d->valid);
    free(d->hce);
    memset(d, 0, sizeof *d);
}

static int tn_data_build(const tune_games_t *g, tn_data_t *d, err_t *err)
{
    memset(d, 0, sizeof *d);
    size_t n = g->n ? g->n : 1;
    d->feat = malloc(n * 64 * sizeof *d->feat);
    d->nf = malloc(n * 2);
    d->target = malloc(n * sizeof *d->target);
    d->valid = malloc(n);
    d->hce = malloc(n * sizeof *d->hce);
    if (!d->feat || !d->nf || !d->target || !d->valid || !d->hce) {
        tn_data_free(d);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    ch_params_t pp;
    ch_params_default(&pp);
    pp.net = 0;   /* (the evaluation by terms, to compare with) */
    for (size_t i = 0; i < g->n; i++) {
        if (g->score[i] == INT16_MIN) continue;   /* (no score kept) */
        const ch_pos_t *p = &g->pos[i];
        size_t m = d->n;
        for (int k = 0; k < 2; k++)
            d->nf[m * 2 + (size_t)k] = (uint8_t)ch_nn_features(p, k ? !p->side : p->side, d->feat + (m * 2 + (size_t)k) * 32);
        const double s = p->side == CH_WHITE ? g->score[i] : -g->score[i];
        d->target[m] = tn_sigmoid(s / CH_NN_SCALE);
        d->hce[m] = tn_sigmoid((double)ch_evaluate(&pp, p) / CH_NN_SCALE);
        d->valid[m] = tune_mix((uint64_t)g->game[i] ^ 0x5EEDull) % 10 == 0;   /* (the linear fit's games held out) */
        if (d->valid[m]) d->nvalid++;
        else d->ntrain++;
        d->n++;
    }
    return GSW_OK;
}

/* The clipped unit c of a hidden sum a. */
static inline float tn_clip(float a) { return a < 0 ? 0 : a > 1 ? 1 : a; }

/* The forward pass of position i: the hidden units' sums into acc[2][h]
 * (the side to move's view, the other's), and the output as the engine
 * evaluates it: the sum over the units of (w2 of the side to move's view
 * less the other's) times (c0^2 - c1^2), halved. */
static double tn_forward(const tn_net_t *t, const tn_data_t *d, size_t i, float *acc)
{
    const int h = t->h;
    for (int k = 0; k < 2; k++) {
        float *a = acc + k * h;
        memcpy(a, t->b1, (size_t)h * sizeof *a);
        const uint16_t *f = d->feat + (i * 2 + (size_t)k) * 32;
        for (int q = 0; q < d->nf[i * 2 + (size_t)k]; q++) {
            const float *w = t->w1 + (size_t)f[q] * (size_t)h;
            for (int j = 0; j < h; j++) a[j] += w[j];
        }
    }
    double out = 0;
    for (int j = 0; j < h; j++) {
        const float c0 = tn_clip(acc[j]), c1 = tn_clip(acc[h + j]);
        out += (double)(t->w2[j] - t->w2[h + j]) * (c0 * c0 - c1 * c1) / 2;
    }
    return out;
}

typedef struct tn_job {
    const tn_net_t *t;
    const tn_data_t *d;
    const size_t *idx;
    size_t lo, hi;
    float *gw1, *gb1, *gw2;
    double loss;
    uint8_t *touched;   /* [CH_NN_IN]: rows of gw1 written */
} tn_job_t;

static void tn_grad(tn_job_t *j)
{
    const tn_net_t *t = j->t;
    const int h = t->h;
    float acc[2 * 256], dacc[2 * 256];
    j->loss = 0;
    for (size_t q = j->lo; q < j->hi; q++) {
        const size_t i = j->idx[q];
        const double o = tn_forward(t, j->d, i, acc);
        const double p = 1 / (1 + exp(-o)), e = p - j->d->target[i];
        j->loss += e * e;
        const float g = (float)(2 * e * p * (1 - p));
        for (int u = 0; u < h; u++) {
            const float a0 = acc[u], a1 = acc[h + u], c0 = tn_clip(a0), c1 = tn_clip(a1);
            const float dw = (t->w2[u] - t->w2[h + u]) / 2, dq = (c0 * c0 - c1 * c1) / 2;
            j->gw2[u] += g * dq;
            j->gw2[h + u] -= g * dq;
            dacc[u] = a0 > 0 && a0 < 1 ? g * dw * 2 * a0 : 0;
            dacc[h + u] = a1 > 0 && a1 < 1 ? -g * dw * 2 * a1 : 0;
        }
        for (int k = 0; k < 2; k++) {
            const float *da = dacc + k * h;
            for (int u = 0; u < h; u++) j->gb1[u] += da[u];
            const uint16_t *f = j->d->feat + (i * 2 + (size_t)k) * 32;
            for (int r = 0; r < j->d->nf[i * 2 + (size_t)k]; r++) {
                float *gw = j->gw1 + (size_t)f[r] * (size_t)h;
                j->touched[f[r]] = 1;
                for (int u = 0; u < h; u++) gw[u] += da[u];
            }
        }
    }
}

/* A thread's share of a minibatch: parts first, first + step, ... */
typedef struct tn_runner {
    tn_job_t *job;
    int first, step;
} tn_runner_t;

static void *tn_run(void *arg)
{
    const tn_runner_t *r = arg;
    for (int k = r->first; k < TN_PARTS; k += r->step) tn_grad(&r->job[k]);
    return NULL;
}

/* The mean squared loss over the training (valid 0) or held-out (1)
 * positions. */
static double tn_loss(const tn_net_t *t, const tn_data_t *d, int valid)
{
    float acc[2 * 256];
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->valid[i] != valid) continue;
        const double o = tn_forward(t, d, i, acc);
        const double p = 1 / (1 + exp(-o)), e = p - d->target[i];
        sum += e * e;
        n++;
    }
    return n ? sum / (double)n : 0;
}

static double tn_hce_loss(const tn_data_t *d, int valid)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        if (d->valid[i] == valid) {
            const double e = d->hce[i] - d->target[i];
            sum += e * e;
            n++;
        }
    return n ? sum / (double)n : 0;
}

/* Adam's step on w[0..n) with gradient g (the batch's mean), moments m and v. */
static void tn_adam(float *w, const float *g, float *m, float *v, size_t n, double lr, double c1, double c2, double scale)
{
    for (size_t i = 0; i < n; i++) {
        const float gi = (float)(g[i] * scale);
        m[i] = 0.9f * m[i] + 0.1f * gi;
        v[i] = 0.999f * v[i] + 0.001f * gi * gi;
        float x = w[i] - (float)(lr * (m[i] / c1) / (sqrt(v[i] / c2) + 1e-8));
        w[i] = x > (float)CH_NN_WMAX ? (float)CH_NN_WMAX : x < (float)-CH_NN_WMAX ? (float)-CH_NN_WMAX : x;
    }
}

static int tn_write(const char *path, const tn_net_t *t, const char *source, err_t *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return err_set(err, GSW_EFAIL, "cannot write %s", path);
    const int h = t->h;
    fprintf(f, "/* The evaluation network's weights (games/chess/ch_nn.h), made by gsw tune chess --eval --net:\n * %s */\n",
            source);
    fprintf(f, "#define CH_NN_H %d\n#define CH_NN_B2 0\n", h);
    fprintf(f, "static const int16_t ch_nn_b1[%d] = {", h);
    for (int j = 0; j < h; j++) fprintf(f, "%s%ld", j == 0 ? "\n" : j % 128 ? "," : ",\n", lround(t->b1[j] * CH_NN_QA));
    fprintf(f, "\n};\nstatic const int16_t ch_nn_w2[%d] = {", 2 * h);
    for (int j = 0; j < 2 * h; j++) fprintf(f, "%s%ld", j == 0 ? "\n" : j % 128 ? "," : ",\n", lround(t->w2[j] * CH_NN_QB));
    fprintf(f, "\n};\nstatic const int16_t ch_nn_w1[%d] = {", CH_NN_IN * h);
    for (size_t j = 0; j < (size_t)CH_NN_IN * (size_t)h; j++)
        fprintf(f, "%s%ld", j == 0 ? "\n" : j % 128 ? "," : ",\n", lround(t->w1[j] * CH_NN_QA));
    fprintf(f, "\n};\n");
    if (ferror(f) | fclose(f)) return err_set(err, GSW_EFAIL, "cannot write %s", path);
    return GSW_OK;
}

int tune_net_fit(const tune_games_t *g, const tune_net_opts_t *o, FILE *say, tune_net_result_t *res, err_t *err)
{
    memset(res, 0, sizeof *res);
    const int h = o->hidden;
    if (h < 8 || h > 256 || h % 8) return err_set(err, GSW_EINPUT, "--net: from 8 to 256 hidden units, a multiple of 8");
    tn_data_t d;
    int rc = tn_data_build(g, &d, err);
    if (rc) return rc;
    if (d.ntrain < 100) {
        err_set(err, GSW_EINPUT, "%zu scored positions to train on: too few (more --games)", d.ntrain);
        tn_data_free(&d);
        return GSW_EINPUT;
    }
    const size_t nw1 = (size_t)CH_NN_IN * (size_t)h;
    tn_net_t t = { .h = h };
    float *all = calloc(3 * (nw1 + 3 * (size_t)h), sizeof *all);   /* weights, and Adam's two moments */
    int threads = o->threads < 1 ? 1 : o->threads > TN_PARTS ? TN_PARTS : o->threads;
    tn_job_t job[TN_PARTS];
    float *grads = calloc((size_t)TN_PARTS * (nw1 + 3 * (size_t)h), sizeof *grads);
    uint8_t *touched = calloc((size_t)TN_PARTS * CH_NN_IN, 1);
    size_t *idx = malloc(d.ntrain * sizeof *idx);
    float *gsum = calloc(nw1 + 3 * (size_t)h, sizeof *gsum);
    if (!all || !grads || !touched || !idx || !gsum) {
        free(all); free(grads); free(touched); free(idx); free(gsum);
        tn_data_free(&d);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    const size_t np = nw1 + 3 * (size_t)h;   /* w1, b1, w2 (2h) */
    t.w1 = all;
    t.b1 = all + nw1;
    t.w2 = t.b1 + h;
    float *m = all + np, *v = all + 2 * np;
    uint64_t r = o->seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < np; i++) {   /* small uniform weights; the biases start at a quarter */
        r = tune_mix(r);
        const float u = (float)((double)(r >> 11) / 9007199254740992.0 * 2 - 1);
        all[i] = i < nw1 ? u * 0.1f : i < nw1 + (size_t)h ? 0.25f : u * 0.5f;
    }
    for (size_t i = 0, k = 0; i < d.n; i++)
        if (!d.valid[i]) idx[k++] = i;
    const double hce_tr = tn_hce_loss(&d, 0), hce_va = tn_hce_loss(&d, 1);
    res->train = d.ntrain;
    res->held_out = d.nvalid;
    res->builtin_held_out = hce_va;
    res->start_held_out = tn_loss(&t, &d, 1);
    fprintf(say, "tune --net: %zu positions (%zu to train on, %zu held out), %d hidden units, %d epochs, %d thread%s; "
            "the built-in evaluation's loss %.6f, held out %.6f\n", d.n, d.ntrain, d.nvalid, h, o->epochs, threads,
            threads == 1 ? "" : "s", hce_tr, hce_va);
    fflush(say);
    double t0 = gsw_now_ms();
    long step = 0;
    int stopped = 0, ep;
    double tr = 0, va = 0;
    for (ep = 0; ep < o->epochs && !stopped; ep++) {
        for (size_t i = d.ntrain - 1; i > 0; i--) {   /* shuffled */
            r = tune_mix(r);
            size_t j = (size_t)(r % (i + 1)), x = idx[i];
            idx[i] = idx[j];
            idx[j] = x;
        }
        const double lr = o->rate * (ep >= o->epochs * 3 / 4 ? 0.1 : 1);
        double eloss = 0;
        for (size_t b = 0; b < d.ntrain && !stopped; b += TN_BATCH) {
            const size_t e = b + TN_BATCH < d.ntrain ? b + TN_BATCH : d.ntrain, per = (e - b + TN_PARTS - 1) / TN_PARTS;
            for (int k = 0; k < TN_PARTS; k++) {
                tn_job_t *j = &job[k];
                j->t = &t;
                j->d = &d;
                j->idx = idx;
                j->lo = b + (size_t)k * per < e ? b + (size_t)k * per : e;
                j->hi = j->lo + per < e ? j->lo + per : e;
                j->gw1 = grads + (size_t)k * np;
                j->gb1 = j->gw1 + nw1;
                j->gw2 = j->gb1 + h;
                j->touched = touched + (size_t)k * CH_NN_IN;
            }
            pthread_t th[TN_PARTS];
            tn_runner_t run[TN_PARTS];
            int started[TN_PARTS] = { 0 };
            for (int k = 0; k < threads; k++) {
                run[k] = (tn_runner_t){ job, k, threads };
                if (k > 0) started[k] = !pthread_create(&th[k], NULL, tn_run, &run[k]);
            }
            tn_run(&run[0]);
            for (int k = 1; k < threads; k++) {
                if (started[k]) pthread_join(th[k], NULL);
                else tn_run(&run[k]);   /* (no thread: here) */
            }
            memset(gsum + nw1, 0, 3 * (size_t)h * sizeof *gsum);
            for (int k = 0; k < TN_PARTS; k++) {
                tn_job_t *j = &job[k];
                eloss += j->loss;
                for (int row = 0; row < CH_NN_IN; row++) {
                    float *dst = gsum + (size_t)row * (size_t)h;
                    if (k == 0) memset(dst, 0, (size_t)h * sizeof *dst);
                    if (!j->touched[row]) continue;
                    const float *src = j->gw1 + (size_t)row * (size_t)h;
                    for (int u = 0; u < h; u++) dst[u] += src[u];
                    memset(j->gw1 + (size_t)row * (size_t)h, 0, (size_t)h * sizeof(float));
                    j->touched[row] = 0;
                }
                for (size_t u = nw1; u < np; u++) {
                    gsum[u] += j->gw1[u];
                    j->gw1[u] = 0;
                }
            }
            step++;
            const double c1 = 1 - pow(0.9, (double)step), c2 = 1 - pow(0.999, (double)step), sc = 1.0 / (double)(e - b);
            tn_adam(all, gsum, m, v, np, lr, c1, c2, sc);
            if (opts_stop) stopped = 1;
        }
        tr = eloss / (double)d.ntrain;
        va = tn_loss(&t, &d, 1);
        if (d.nvalid) fprintf(say, "tune --net: epoch %d, loss %.6f, held out %.6f, %.0f s\n", ep + 1, tr, va, (gsw_now_ms() - t0) / 1000);
        else fprintf(say, "tune --net: epoch %d, loss %.6f (no game held out), %.0f s\n", ep + 1, tr, (gsw_now_ms() - t0) / 1000);
        fflush(say);
    }
    res->epochs = ep - stopped;
    res->held_out_loss = ep ? va : res->start_held_out;
    res->train_loss = tr;
    res->time_s = (gsw_now_ms() - t0) / 1000;
    char source[600];
    snprintf(source, sizeof source, "%d of %d epochs of Adam (step %g, seed %llu) over %zu positions; held out %.6f\n"
             " * (the built-in evaluation's %.6f), win probabilities 1 / (1 + e^(-cp / %d))", res->epochs, o->epochs, o->rate,
             (unsigned long long)o->seed, d.ntrain, res->held_out_loss, hce_va, CH_NN_SCALE);
    rc = tn_write(o->path, &t, source, err);
    if (!rc)
        fprintf(say, "tune --net: %s %.6f (the evaluation by terms' %.6f), %.1f s; the "
                "weights in %s\n", d.nvalid ? "held out" : "no game held out; trained on, loss", d.nvalid ? va : tr,
                d.nvalid ? hce_va : hce_tr,
                (gsw_now_ms() - t0) / 1000, o->path);
    free(all);
    free(grads);
    free(touched);
    free(idx);
    free(gsum);
    tn_data_free(&d);
    if (!rc && stopped) return err_set(err, GSW_EFAIL, "interrupted: the weights so far are written");
    return rc;
}

int tune_net_run(cli_args_t *o, const tune_games_t *g, const char *dir, FILE *say)
{
    char npath[1040];
    snprintf(npath, sizeof npath, "%s/ch_nn_weights.h", dir);
    tune_net_opts_t no = { .hidden = args_int(o, "net", 128), .epochs = args_int(o, "epochs", 20),
                           .threads = opts_threads(o), .rate = args_num(o, "rate", 0.001),
                           .seed = args_u64(o, "seed", 1), .path = npath };
    tune_net_result_t nr;
    err_t err;
    int rc = tune_net_fit(g, &no, say, &nr, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    if ((!rc || nr.train) && args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", "chess");
        json_str(&j, "out", dir);
        json_int(&j, "games", g->games);
        json_int(&j, "hidden", no.hidden);
        json_int(&j, "train", (int64_t)nr.train);
        json_int(&j, "held_out", (int64_t)nr.held_out);
        if (g->rescored_nodes) {
            json_obj(&j, "rescored");
            json_str(&j, "by", g->rescored_by);
            json_int(&j, "nodes", (int64_t)g->rescored_nodes);
            json_close(&j, '}');
        } else
            json_null(&j, "rescored");
        json_int(&j, "epochs", nr.epochs);
        json_bool(&j, "interrupted", rc != GSW_OK);
        json_obj(&j, "loss");
        tune_json_fine(&j, "builtin_held_out", nr.builtin_held_out);
        tune_json_fine(&j, "held_out_before", nr.start_held_out);
        tune_json_fine(&j, "held_out_after", nr.held_out_loss);
        tune_json_fine(&j, "train_after", nr.train_loss);
        json_close(&j, '}');
        json_str(&j, "weights", npath);
        json_num(&j, "time_s", nr.time_s);
        json_end(&j);
    }
    return rc;
}
