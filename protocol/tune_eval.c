/* gsw tune chess --eval: the whole evaluation tuned from the positions of
 * self-play games.
 *
 * 1. Self-play. gsw plays itself, N nodes a move, from a built-in opening
 *    followed by a few random moves (both picked by the run's seed and the
 *    game's number, so a game is the same on any number of threads). A
 *    game ends by the rules, at 400 plies (a draw), or when the search has
 *    given one side 10 pawns or more for 8 plies running. Each position
 *    after the random moves whose side to move is not in check and whose
 *    chosen move is quiet is kept with the search's score and the game's
 *    result. Games are appended to DIR/games.txt as they finish; Ctrl-C
 *    keeps every finished game, and the same command goes on.
 * 2. Tuning. The evaluation is linear in its weights (ch_eval_trace) but
 *    for the king danger, a square of a linear sum of its own features;
 *    every position is turned once into both kinds of features (its
 *    gradient goes through the sum); a game in ten is held
 *    out. The scale K of the logistic is fitted to the built-in weights and
 *    the results (the method Texel's author published), then every weight
 *    (middlegame and endgame) moves by Adam over the whole training set,
 *    minimising the mean squared difference between a target and
 *    1 / (1 + 10^(-K * eval / 400)): lambda times the result plus the rest
 *    times the same logistic of the search's score. DIR/ch_eval_weights.h
 *    gets the weights in the form of games/chess/ch_eval_weights.h.
 *
 * games.txt: a header line "# gsw tune chess --eval: nodes N seed S random
 * R", then a block a game: "game I R P" (I its number, R 1-0, 1/2-1/2 or
 * 0-1, P its positions), then P lines "FEN;SCORE" (SCORE White's, within
 * +-3000; a line without it, from an older file, has the result alone). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/json.h"
#include "cli/opts.h"
#include "db/dbfile.h"
#include "games/chess/ch.h"
#include "protocol/match.h"
#include "protocol/tune.h"
#include "solve/solver.h"

#define TE_RANDOM_PLIES 4     /* random moves after the book opening (--random-plies) */
#define TE_RANDOM_MAX 40
#define TE_MAX_PLIES 400
#define TE_ADJUDICATE_CP 1000
#define TE_SCORE_MAX TUNE_SCORE_MAX
#define TE_NO_SCORE INT16_MIN
#define TE_ADJUDICATE_PLIES 8
#define TE_MAX_GAMES 10000000
#define TE_L2 1e-5            /* the fit's pull to the starting weights (--pull) */
#define TE_LAMBDA 0             /* the result's share of the target in percent, the search's score the rest (--lambda) */

/* ---- games.txt ---- */

static int te_result_parse(const char *s, size_t n)
{
    if (n == 3 && !memcmp(s, "1-0", 3)) return 2;
    if (n == 7 && !memcmp(s, "1/2-1/2", 7)) return 1;
    if (n == 3 && !memcmp(s, "0-1", 3)) return 0;
    return -1;
}
const char *tune_result_name(int r) { return r == 2 ? "1-0" : r == 1 ? "1/2-1/2" : "0-1"; }

void tune_games_free(tune_games_t *s)
{
    free(s->pos);
    free(s->game);
    free(s->result);
    free(s->score);
    free(s->done);
    memset(s, 0, sizeof *s);
}

static int te_push(tune_games_t *s, const ch_pos_t *p, int game, int result, int score)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        ch_pos_t *np = realloc(s->pos, cap * sizeof *np);
        if (np) s->pos = np;
        int32_t *ng = realloc(s->game, cap * sizeof *ng);
        if (ng) s->game = ng;
        int8_t *nr = realloc(s->result, cap * sizeof *nr);
        if (nr) s->result = nr;
        int16_t *ns = realloc(s->score, cap * sizeof *ns);
        if (ns) s->score = ns;
        if (!np || !ng || !nr || !ns) return -1;
        s->cap = cap;
    }
    s->pos[s->n] = *p;
    s->game[s->n] = game;
    s->result[s->n] = (int8_t)result;
    s->score[s->n] = (int16_t)score;
    s->n++;
    return 0;
}

static int te_mark(tune_games_t *s, int g)
{
    if (g >= s->done_cap) {
        int cap = s->done_cap ? s->done_cap : 1024;
        while (cap <= g) cap *= 2;
        uint8_t *nd = realloc(s->done, (size_t)cap);
        if (!nd) return -1;
        memset(nd + s->done_cap, 0, (size_t)(cap - s->done_cap));
        s->done = nd;
        s->done_cap = cap;
    }
    if (s->done[g]) return 1;
    s->done[g] = 1;
    s->games++;
    return 0;
}

/* A line of text at *at: its start and length; *at moves past its newline.
 * 0 when the text ends without one (a line being written). */
static int te_line(const char *text, size_t len, size_t *at, const char **line, size_t *n)
{
    const char *nl = memchr(text + *at, '\n', len - *at);
    if (!nl) return 0;
    *line = text + *at;
    *n = (size_t)(nl - (text + *at));
    *at = (size_t)(nl - text) + 1;
    return 1;
}

int tune_games_parse(const char *text, size_t len, tune_games_t *s, size_t *good, err_t *err)
{
    ch_init();   /* (the FEN parser's tables) */
    memset(s, 0, sizeof *s);
    *good = 0;
    size_t at = 0, n;
    const char *line;
    int lineno = 1;
    char buf[256];
    if (!te_line(text, len, &at, &line, &n)) {
        if (len == 0) return err_set(err, GSW_EINPUT, "empty: no header line");
        return err_set(err, GSW_EINPUT, "line 1: the header is cut short");
    }
    unsigned long long nodes, seed, rnodes = 0;
    if (n >= sizeof buf) return err_set(err, GSW_EINPUT, "line 1: not a tune --eval header");
    memcpy(buf, line, n);
    buf[n] = 0;
    int random = TE_RANDOM_PLIES, used = 0, used2 = 0;
    int got = sscanf(buf, "# gsw tune chess --eval: nodes %llu seed %llu%n random %d%n", &nodes, &seed, &used, &random,
                     &used2);
    /* (then, in a file of another engine's scores: " rescored M by CMD") */
    const char *tail = got == 3 ? buf + used2 : got == 2 ? buf + used : NULL;
    int by = 0;
    if (tail && *tail && (sscanf(tail, " rescored %llu by %n", &rnodes, &by) != 1 || !by || !tail[by] || rnodes < 1))
        tail = NULL;
    if (!tail || nodes < 1 || random < 0 || random > TE_RANDOM_MAX)
        return err_set(err, GSW_EINPUT, "line 1: not a tune --eval header (# gsw tune chess --eval: nodes N seed S [random R] "
                       "[rescored M by CMD])");
    s->nodes = nodes;
    s->seed = seed;
    s->random = random;
    if (by) {
        s->rescored_nodes = rnodes;
        snprintf(s->rescored_by, sizeof s->rescored_by, "%s", tail + by);
    }
    *good = at;
    while (at < len) {
        size_t block = at;
        lineno++;
        if (!te_line(text, len, &at, &line, &n)) break;   /* a block cut short: dropped */
        if (n >= sizeof buf) goto bad_head;
        memcpy(buf, line, n);
        buf[n] = 0;
        int g, np, used = 0;
        char res[16];
        if (sscanf(buf, "game %d %15s %d%n", &g, res, &np, &used) != 3 || used != (int)n || g < 0 || g >= TE_MAX_GAMES
            || np < 0 || np > TE_MAX_PLIES)
            goto bad_head;
        int r = te_result_parse(res, strlen(res));
        if (r < 0) goto bad_head;
        int complete = 1;
        size_t first = s->n;
        for (int i = 0; i < np; i++) {
            lineno++;
            if (!te_line(text, len, &at, &line, &n)) { complete = 0; break; }
            if (n >= sizeof buf) { tune_games_free(s); return err_set(err, GSW_EINPUT, "line %d: not a FEN", lineno); }
            memcpy(buf, line, n);
            buf[n] = 0;
            int score = TE_NO_SCORE;
            char *semi = strchr(buf, ';');
            if (semi) {   /* FEN;SCORE: the search's score, White's view */
                char *end;
                errno = 0;
                long sc = strtol(semi + 1, &end, 10);
                if (end == semi + 1 || *end || errno || sc < -TE_SCORE_MAX || sc > TE_SCORE_MAX) {
                    tune_games_free(s);
                    return err_set(err, GSW_EINPUT, "line %d: the score after ';' is not a number within +-%d", lineno, TE_SCORE_MAX);
                }
                score = (int)sc;
                *semi = 0;
            }
            ch_pos_t p;
            err_t fe;
            if (ch_parse_fen(buf, &p, &fe)) {
                tune_games_free(s);
                return err_set(err, GSW_EINPUT, "line %d: %s", lineno, fe.msg);
            }
            if (te_push(s, &p, g, r, score)) { tune_games_free(s); return err_set(err, GSW_EFAIL, "out of memory"); }
        }
        if (!complete) {   /* the last game, cut short: dropped */
            s->n = first;
            at = block;
            break;
        }
        int m = te_mark(s, g);
        if (m < 0) { tune_games_free(s); return err_set(err, GSW_EFAIL, "out of memory"); }
        if (m) { tune_games_free(s); return err_set(err, GSW_EINPUT, "line %d: game %d is there twice", lineno - np, g); }
        *good = at;
        continue;
    bad_head:
        tune_games_free(s);
        return err_set(err, GSW_EINPUT, "line %d: not a game's line (game I 1-0|1/2-1/2|0-1 P)", lineno);
    }
    return GSW_OK;
}

/* ---- self-play ---- */

typedef struct te_run te_run_t;

typedef struct te_worker {
    te_run_t *r;
    solver_t s;
    int up;
    unsigned char *line;   /* the game's positions, GSW_MAX_POS bytes each */
    uint64_t *hist;
    const void **ptrs;
    int cap;
    char *out;             /* the game's block */
    size_t out_len, out_cap;
} te_worker_t;

struct te_run {
    gv_t *base;
    match_opening_t *book;
    int nbook;
    uint64_t nodes, seed;
    int random;
    int target;
    const uint8_t *done;   /* games already in the file */
    int done_cap;
    int next;              /* the next game number to look at (under lock) */
    int played, positions, results[3];
    FILE *f;
    pthread_mutex_t lock;
    int failed;
    char fail[256];
    int tty;
    double t0;
};

#define TE_POS(w, i) ((void *)((w)->line + (size_t)(i) * GSW_MAX_POS))

static int te_append(te_worker_t *w, const char *line)
{
    size_t n = strlen(line);
    if (w->out_len + n + 2 > w->out_cap) {
        size_t cap = w->out_cap ? w->out_cap * 2 : 65536;
        while (cap < w->out_len + n + 2) cap *= 2;
        char *o = realloc(w->out, cap);
        if (!o) return -1;
        w->out = o;
        w->out_cap = cap;
    }
    memcpy(w->out + w->out_len, line, n);
    w->out_len += n;
    w->out[w->out_len++] = '\n';
    return 0;
}

/* Game g: its block in w->out (without the "game" line, returned in *result
 * and *npos); -1 when stopped. */
static int te_play(te_worker_t *w, int g, int *result, int *npos)
{
    te_run_t *r = w->r;
    const gv_t *v = r->base;
    const game_ops_t *O = v->ops;
    uint64_t rng = tune_mix(r->seed ^ tune_mix((uint64_t)g));
    const match_opening_t *op = &r->book[rng % (uint64_t)r->nbook];
    memcpy(TE_POS(w, 0), op->start, O->pos_size);
    int n = 1;
    w->out_len = 0;
    *npos = 0;
    for (int i = 0; i < op->n + r->random; i++) {
        move_t list[GSW_MAX_MOVES];
        const void *cur = TE_POS(w, n - 1);
        int nm = O->moves(v, cur, list);
        if (!nm) break;
        move_t m = i < op->n ? op->moves[i] : list[(rng = tune_mix(rng)) % (uint64_t)nm];
        w->hist[n - 1] = O->pos_hash(v, cur);
        memcpy(TE_POS(w, n), cur, O->pos_size);
        O->play(v, TE_POS(w, n), m);
        n++;
    }
    solver_clear(&w->s);
    int run = 0, run_sign = 0;
    for (;;) {
        const ch_pos_t *cur = TE_POS(w, n - 1);
        int turn = cur->side;
        val_t val;
        char why[128];
        err_t err;
        if (O->terminal(v, cur, &val) || (O->line_over && O->line_over(v, w->ptrs, n, &val, why, sizeof why))) {
            *result = val == VAL_DRAW ? 1 : (val > 0) == (turn == CH_WHITE) ? 2 : 0;
            break;
        }
        if (n - 1 >= TE_MAX_PLIES || n >= w->cap) { *result = 1; break; }
        ab_options_t ao;
        memset(&ao, 0, sizeof ao);
        ao.threads = 1;
        ao.stop = &opts_stop;
        ao.node_limit = r->nodes;
        w->s.ab.history = w->hist;
        w->s.ab.history_len = n - 1;
        ab_result_t res;
        memset(&res, 0, sizeof res);
        res.best = MOVE_NONE;
        if (solver_think(&w->s, cur, &ao, &res, &err)) res.best = MOVE_NONE;
        if (opts_stop) return -1;
        move_t list[GSW_MAX_MOVES];
        int nm = O->moves(v, cur, list), ok = 0;
        for (int i = 0; i < nm; i++) ok |= list[i] == res.best;
        move_t m = ok ? res.best : list[0];
        int32_t white = turn == CH_WHITE ? res.score : -res.score;
        if (ok && !ch_in_check(cur) && !ch_captured(cur, m) && ch_kind(m) != CH_PROMO) {
            char line[160];
            ch_format_fen(cur, line, 128);
            size_t at = strlen(line);   /* the search's score, White's view, within TE_SCORE_MAX */
            snprintf(line + at, sizeof line - at, ";%d", white > TE_SCORE_MAX ? TE_SCORE_MAX : white < -TE_SCORE_MAX ? -TE_SCORE_MAX : white);
            if (te_append(w, line)) return -2;
            ++*npos;
        }
        /* one side 10 pawns up, by the search, for 8 plies running */
        int sign = ok && (white >= TE_ADJUDICATE_CP) ? 1 : ok && (white <= -TE_ADJUDICATE_CP) ? -1 : 0;
        run = sign && sign == run_sign ? run + 1 : sign ? 1 : 0;
        run_sign = sign;
        if (run >= TE_ADJUDICATE_PLIES) { *result = sign > 0 ? 2 : 0; break; }
        w->hist[n - 1] = O->pos_hash(v, cur);
        memcpy(TE_POS(w, n), cur, O->pos_size);
        O->play(v, TE_POS(w, n), m);
        n++;
    }
    return 0;
}

static void *te_worker_main(void *arg)
{
    te_worker_t *w = arg;
    te_run_t *r = w->r;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        while (r->next < r->target && r->next < r->done_cap && r->done[r->next]) r->next++;
        int g = r->next < r->target && !r->failed ? r->next++ : -1;
        pthread_mutex_unlock(&r->lock);
        if (g < 0 || opts_stop) break;
        int result = 1, npos = 0, rc = te_play(w, g, &result, &npos);
        if (rc == -1) break;
        pthread_mutex_lock(&r->lock);
        if (rc == -2) {
            r->failed = 1;
            snprintf(r->fail, sizeof r->fail, "out of memory");
        } else if (!r->failed) {
            if (fprintf(r->f, "game %d %s %d\n", g, tune_result_name(result), npos) < 0
                || fwrite(w->out, 1, w->out_len, r->f) != w->out_len || fflush(r->f)) {
                r->failed = 1;
                snprintf(r->fail, sizeof r->fail, "cannot write the games (%s)", strerror(errno));
            } else {
                r->played++;
                r->positions += npos;
                r->results[result]++;
                double s = (gsw_now_ms() - r->t0) / 1000;
                if (r->tty)
                    fprintf(stderr, "\rtune --eval: %d games played (+%d =%d -%d), %d positions, %.0f s ", r->played,
                            r->results[2], r->results[1], r->results[0], r->positions, s);
                else if (r->played % 100 == 0)
                    fprintf(stderr, "tune --eval: %d games played, %d positions, %.0f s\n", r->played, r->positions, s);
                fflush(stderr);
            }
        }
        pthread_mutex_unlock(&r->lock);
    }
    return NULL;
}

/* ---- tuning ---- */

/* The positions as linear models: feature k of position i is (idx[k],
 * coef[k]) for k in start[i] .. start[i + 1]. */
typedef struct te_data {
    size_t n;
    size_t *start;
    uint16_t *idx;
    float *coef;
    float *offset, *scale, *result;
    float *target;    /* what the fit aims at: result, blended with the search's score by --lambda */
    int16_t *score;   /* the search's score, White's view (TE_NO_SCORE: none) */
    uint8_t *phase;
    uint8_t *valid;   /* held out */
    uint8_t *kd;      /* the king danger's features: 2 * CH_KD_N a position (White's attack, Black's) */
    size_t ntrain, nvalid;
} te_data_t;

static void te_data_free(te_data_t *d)
{
    free(d->start);
    free(d->idx);
    free(d->coef);
    free(d->offset);
    free(d->scale);
    free(d->result);
    free(d->target);
    free(d->score);
    free(d->phase);
    free(d->valid);
    free(d->kd);
    memset(d, 0, sizeof *d);
}

static int te_data_build(const tune_games_t *g, te_data_t *d, err_t *err)
{
    memset(d, 0, sizeof *d);
    ch_params_t pp;
    ch_params_default(&pp);
    size_t cap = g->n * 48 + 1024, k = 0;
    d->start = malloc((g->n + 1) * sizeof *d->start);
    d->idx = malloc(cap * sizeof *d->idx);
    d->coef = malloc(cap * sizeof *d->coef);
    d->offset = malloc((g->n + 1) * sizeof *d->offset);
    d->scale = malloc((g->n + 1) * sizeof *d->scale);
    d->result = malloc((g->n + 1) * sizeof *d->result);
    d->target = malloc((g->n + 1) * sizeof *d->target);
    d->score = malloc((g->n + 1) * sizeof *d->score);
    d->phase = malloc(g->n + 1);
    d->valid = malloc(g->n + 1);
    d->kd = malloc((g->n + 1) * 2 * CH_KD_N);
    if (!d->start || !d->idx || !d->coef || !d->offset || !d->scale || !d->result || !d->target || !d->score || !d->phase
        || !d->valid || !d->kd) {
        te_data_free(d);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    ch_eval_trace_t tr;
    for (size_t i = 0; i < g->n; i++) {
        ch_eval_trace(&pp, &g->pos[i], &tr);
        if (!tr.linear) continue;   /* a bare king against mating material: not the model's */
        size_t m = d->n;
        d->start[m] = k;
        for (int f = 0; f < CH_EW_N; f++) {
            if (tr.coef[f] == 0) continue;
            if (k == cap) {
                cap *= 2;
                uint16_t *ni = realloc(d->idx, cap * sizeof *ni);
                if (ni) d->idx = ni;
                float *nc = realloc(d->coef, cap * sizeof *nc);
                if (nc) d->coef = nc;
                if (!ni || !nc) { te_data_free(d); return err_set(err, GSW_EFAIL, "out of memory"); }
            }
            d->idx[k] = (uint16_t)f;
            d->coef[k++] = tr.coef[f];
        }
        d->offset[m] = tr.offset;
        d->scale[m] = tr.scale;
        d->phase[m] = (uint8_t)tr.phase;
        for (int c = 0; c < 2; c++)   /* (counts of squares and pieces: under 256) */
            for (int j = 0; j < CH_KD_N; j++) d->kd[(m * 2 + (size_t)c) * CH_KD_N + j] = (uint8_t)tr.kd[c][j];
        d->result[m] = d->target[m] = (float)g->result[i] / 2;
        d->score[m] = g->score[i];
        d->valid[m] = tune_mix((uint64_t)g->game[i] ^ 0x5EEDull) % 10 == 0;   /* a game in ten, held out */
        if (d->valid[m]) d->nvalid++;
        else d->ntrain++;
        d->n++;
    }
    d->start[d->n] = k;
    return GSW_OK;
}

/* Side c's king danger D in position i under weights w. */
static double te_kd_sum(const te_data_t *d, size_t i, int c, const double (*w)[2])
{
    const uint8_t *q = d->kd + (i * 2 + (size_t)c) * CH_KD_N;
    double x = 0;
    for (int j = 0; j < CH_KD_N; j++) x += q[j] * w[CH_EW_KD + j][0];
    return x;
}

/* White's score of position i under weights w (NULL: the score kept with
 * it, TE_NO_SCORE's positions aside by the caller); each side's king
 * danger's slope by its sum D into kd_slope[] (NULL: not wanted), for the
 * gradient. */
static double te_score(const te_data_t *d, size_t i, const double (*w)[2], double kd_slope[2])
{
    if (!w) return d->score[i];
    double ph = d->phase[i], s = 0;
    for (size_t k = d->start[i]; k < d->start[i + 1]; k++) {
        const double *x = w[d->idx[k]];
        s += d->coef[k] * (x[0] * ph + x[1] * (CH_EVAL_PHASE_MAX - ph));
    }
    for (int c = 0; c < 2; c++)
        s += (c ? -1 : 1) * ch_kd_blend(te_kd_sum(d, i, c, w), d->phase[i], kd_slope ? &kd_slope[c] : NULL);
    return d->scale[i] * (d->offset[i] + s / CH_EVAL_PHASE_MAX);
}

static double te_sigmoid(double k, double s) { return 1 / (1 + exp(-k * s * M_LN10 / 400)); }

/* The mean squared error over the training positions (valid 0: against
 * the targets) or the held-out ones (1: against the games' results); w
 * NULL: of the scores kept (te_score). */
static double te_loss(const te_data_t *d, const double (*w)[2], double k, int valid)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->valid[i] != valid || (!w && d->score[i] == TE_NO_SCORE)) continue;
        double e = (valid ? d->result[i] : d->target[i]) - te_sigmoid(k, te_score(d, i, w, NULL));
        sum += e * e;
        n++;
    }
    return n ? sum / (double)n : NAN;   /* (no game held out) */
}

/* K minimising the training loss under w (a golden-section search; w
 * NULL: of the scores kept, before any target is set from them). */
static double te_fit_k(const te_data_t *d, const double (*w)[2])
{
    double a = 0.05, b = 4.0, gr = (sqrt(5.0) - 1) / 2;
    double c = b - gr * (b - a), e = a + gr * (b - a);
    double fc = te_loss(d, w, c, 0), fe = te_loss(d, w, e, 0);
    for (int it = 0; it < 40; it++) {
        if (fc < fe) { b = e; e = c; fe = fc; c = b - gr * (b - a); fc = te_loss(d, w, c, 0); }
        else { a = c; c = e; fc = fe; e = a + gr * (b - a); fe = te_loss(d, w, e, 0); }
    }
    return (a + b) / 2;
}

/* Weights no position's result can say much of, kept as set, and the
 * king danger's unused endgame halves ([i][j]). */
static int te_fixed(int i, int j) { return i == CH_EW_UNSTOPPABLE || (i >= CH_EW_KD && j == 1); }

/* Adam over the training set, full batch, epochs steps, with a penalty of
 * l2 * ((w - w0) / 100)^2 a weight pulling it to where it started (a weight
 * few positions speak for stays near it: Adam alone moves every weight at
 * the same pace, however thin its evidence); *stopped when Ctrl-C cut it
 * short. */
static void te_adam(const te_data_t *d, double (*w)[2], double k, int epochs, double rate, double l2, int tty, int *stopped)
{
    double (*w0)[2] = malloc(CH_EW_N * sizeof *w0);
    if (!w0) return;
    memcpy(w0, w, CH_EW_N * sizeof *w0);
    double (*gr)[2] = calloc(CH_EW_N, sizeof *gr), (*m)[2] = calloc(CH_EW_N, sizeof *m), (*v)[2] = calloc(CH_EW_N, sizeof *v);
    if (!gr || !m || !v) { free(w0); free(gr); free(m); free(v); return; }
    const double b1 = 0.9, b2 = 0.999, c = k * M_LN10 / 400;
    double p1 = 1, p2 = 1;
    for (int ep = 1; ep <= epochs; ep++) {
        if (opts_stop) { *stopped = 1; break; }
        memset(gr, 0, CH_EW_N * sizeof *gr);
        for (size_t i = 0; i < d->n; i++) {
            if (d->valid[i]) continue;
            double slope[2];
            double p = te_sigmoid(k, te_score(d, i, (const double (*)[2])w, slope));
            double g = -2 * (d->target[i] - p) * p * (1 - p) * c * d->scale[i] / CH_EVAL_PHASE_MAX;
            double gm = g * d->phase[i], ge = g * (CH_EVAL_PHASE_MAX - d->phase[i]);
            for (size_t q = d->start[i]; q < d->start[i + 1]; q++) {
                gr[d->idx[q]][0] += gm * d->coef[q];
                gr[d->idx[q]][1] += ge * d->coef[q];
            }
            for (int c = 0; c < 2; c++) {   /* the king danger: through its sum D */
                if (slope[c] == 0) continue;
                const uint8_t *x = d->kd + (i * 2 + (size_t)c) * CH_KD_N;
                const double gk = (c ? -g : g) * slope[c];
                for (int j = 0; j < CH_KD_N; j++) gr[CH_EW_KD + j][0] += gk * x[j];
            }
        }
        p1 *= b1;
        p2 *= b2;
        for (int i = 0; i < CH_EW_N; i++)
            for (int j = 0; j < 2; j++) {
                if (te_fixed(i, j)) continue;
                double g = gr[i][j] / (double)d->ntrain + 2 * l2 * (w[i][j] - w0[i][j]) / 1e4;
                m[i][j] = b1 * m[i][j] + (1 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1 - b2) * g * g;
                w[i][j] -= rate * (m[i][j] / (1 - p1)) / (sqrt(v[i][j] / (1 - p2)) + 1e-12);
                if (w[i][j] > 2000) w[i][j] = 2000;
                if (w[i][j] < -2000) w[i][j] = -2000;
            }
        if (tty && (ep % 10 == 0 || ep == epochs)) {
            fprintf(stderr, "\rtune --eval: epoch %d of %d ", ep, epochs);
            fflush(stderr);
        }
    }
    if (tty) fputc('\n', stderr);
    free(w0);
    free(gr);
    free(m);
    free(v);
}

/* The weights as games/chess/ch_eval_weights.h has them. */
static int te_write_header(const char *path, const int16_t (*w)[2], const char *source, err_t *err)
{
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory");
#define TE_OUT(...) (len += (size_t)snprintf(buf + len, cap - len, __VA_ARGS__))
    static const char *const types[7] = { "none", "pawn", "knight", "bishop", "rook", "queen", "king" };
    TE_OUT("/* The chess evaluation's weights: {middlegame, endgame} in centipawns,\n"
           " * in the order of ch.h's CH_EW_* indices. `gsw tune chess --eval` writes\n"
           " * a file of this form (DIR/ch_eval_weights.h); copied here, it becomes the\n"
           " * engine's default. Generated: %s. */\n"
           "const int16_t ch_eval_weights[][2] = {\n", source);
    for (int t = 0; t < 7; t++) {
        TE_OUT("    /* piece-square: %s, as drawn (rank 8 first) */\n", types[t]);
        for (int s = 0; s < 64; s++) {
            int i = CH_EW_PST + t * 64 + s;
            TE_OUT("%s{%d, %d},%s", s % 8 ? " " : "    ", w[i][0], w[i][1], s % 8 == 7 ? "\n" : "");
        }
    }
    TE_OUT("    /* passed pawn by rank (the mover's frame) */\n");
    for (int r = 0; r < 8; r++) TE_OUT("%s{%d, %d},%s", r ? " " : "    ", w[CH_EW_PASSED + r][0], w[CH_EW_PASSED + r][1], r == 7 ? "\n" : "");
    TE_OUT("    /* mobility per attacked square, by piece type */\n");
    for (int t = 0; t < 7; t++) TE_OUT("%s{%d, %d},%s", t ? " " : "    ", w[CH_EW_MOB + t][0], w[CH_EW_MOB + t][1], t == 6 ? "\n" : "");
    for (int i = CH_EW_DOUBLED; i < CH_EW_N; i++) {
        char name[96];
        ch_eval_weight_name(i, name, sizeof name);
        TE_OUT("    /* %s */ {%d, %d},\n", name, w[i][0], w[i][1]);
    }
    TE_OUT("};\n");
#undef TE_OUT
    int rc = len >= cap ? err_set(err, GSW_EFAIL, "the weights' file outgrew its buffer") : db_write_atomic(path, buf, len, err);
    free(buf);
    return rc;
}

/* ---- the verb ---- */

/* A number with its figures (json_num keeps three decimals; a loss needs more). */
void tune_json_fine(json_t *j, const char *k, double v)
{
    char buf[40];
    if (!isfinite(v)) json_null(j, k);
    else {
        snprintf(buf, sizeof buf, "%.8g", v);
        json_digits(j, k, buf);
    }
}

int tune_read_file(const char *path, char **text, size_t *len, err_t *err)
{
    *text = NULL;
    *len = 0;
    if (access(path, F_OK) && errno == ENOENT) return GSW_OK;
    uint8_t *data;
    if (db_read_whole(path, &data, len, err)) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        return err_set(err, GSW_EINPUT, "%s", m);
    }
    *text = (char *)data;
    return GSW_OK;
}

static int te_self_play(cli_args_t *o, const char *path, tune_games_t *g, int target, err_t *err)
{
    te_run_t r;
    memset(&r, 0, sizeof r);
    r.nodes = g->nodes;
    r.seed = g->seed;
    r.random = g->random;
    r.target = target;
    r.done = g->done;
    r.done_cap = g->done_cap;
    r.tty = isatty(2);
    if (g->games >= target) return GSW_OK;
    int rc = game_open("chess", &r.base, err);
    if (!rc) rc = match_openings_builtin(r.base, &r.book, &r.nbook, err);
    if (rc) { game_close(r.base); return rc; }
    r.f = fopen(path, "ab");
    if (!r.f) {
        rc = err_set(err, GSW_EINPUT, "cannot write %s (%s)", path, strerror(errno));
        free(r.book);
        game_close(r.base);
        return rc;
    }
    int threads = opts_threads(o) < 1 ? 1 : opts_threads(o);
    if (threads > target - g->games) threads = target - g->games;
    te_worker_t *w = calloc((size_t)threads, sizeof *w);
    pthread_t *th = calloc((size_t)threads, sizeof *th);
    if (!w || !th) rc = err_set(err, GSW_EFAIL, "out of memory");
    size_t mb = 4;
    while (mb < 64 && (uint64_t)mb * 65536 < r.nodes * 4) mb *= 2;
    for (int i = 0; !rc && i < threads; i++) {
        w[i].r = &r;
        w[i].cap = TE_MAX_PLIES + MATCH_OPENING_PLIES + TE_RANDOM_MAX + 2;
        w[i].line = malloc((size_t)w[i].cap * GSW_MAX_POS);
        w[i].hist = malloc((size_t)w[i].cap * sizeof *w[i].hist);
        w[i].ptrs = malloc((size_t)w[i].cap * sizeof *w[i].ptrs);
        if (!w[i].line || !w[i].hist || !w[i].ptrs) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
        for (int k = 0; k < w[i].cap; k++) w[i].ptrs[k] = TE_POS(&w[i], k);
        if (solver_init(&w[i].s, r.base, mb, NULL, err)) { rc = err->code; break; }
        w[i].up = 1;
    }
    FILE *say = args_flag(o, "json") ? stderr : stdout;
    if (!rc) {
        fprintf(say, "tune --eval: self-play, games %d to %d of %d, %llu nodes a move, %d random plies, seed %llu, %d thread%s, into %s\n",
                g->games + 1, target, target, (unsigned long long)r.nodes, r.random, (unsigned long long)r.seed, threads,
                threads > 1 ? "s" : "", path);
        fflush(say);
        pthread_mutex_init(&r.lock, NULL);
        r.t0 = gsw_now_ms();
        int started = 0;
        for (; started < threads; started++)
            if (pthread_create(&th[started], NULL, te_worker_main, &w[started])) break;
        if (!started) rc = err_set(err, GSW_EFAIL, "cannot start a thread");
        for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
        pthread_mutex_destroy(&r.lock);
        if (r.tty) fputc('\n', stderr);
        if (!rc && r.failed) rc = err_set(err, GSW_EFAIL, "%s", r.fail);
        if (!rc)
            fprintf(say, "tune --eval: %d game%s played (+%d =%d -%d for White), %d positions kept, %.1f s\n",
                    r.played, r.played == 1 ? "" : "s", r.results[2], r.results[1], r.results[0], r.positions, (gsw_now_ms() - r.t0) / 1000);
    }
    if (fclose(r.f) && !rc) rc = err_set(err, GSW_EFAIL, "cannot write %s (%s)", path, strerror(errno));
    for (int i = 0; w && i < threads; i++) {
        if (w[i].up) solver_free(&w[i].s);
        free(w[i].line);
        free(w[i].hist);
        free(w[i].ptrs);
        free(w[i].out);
    }
    free(w);
    free(th);
    free(r.book);
    game_close(r.base);
    return rc;
}

int tune_eval_run(cli_args_t *o)
{
    static const char *const ga_only[] = { "population", "generations", "max-moves", "resume", "relative", "mpi" };
    for (size_t i = 0; i < sizeof ga_only / sizeof *ga_only; i++)
        if (args_given(o, ga_only[i])) {
            fprintf(stderr, "gsw: tune --eval: --%s is for the piece values' genetic algorithm (gsw tune --help)\n", ga_only[i]);
            return GSW_EINPUT;
        }
    if (o->npos < 1) return opts_usage_error(o, 1, "tune needs a GAME (chess)");
    if (strcmp(o->pos[0], "chess") && strcmp(o->pos[0], "chess:standard")) {
        fprintf(stderr, "gsw: tune --eval: tunes chess's evaluation: give chess, not %s\n", o->pos[0]);
        return GSW_EINPUT;
    }
    const char *dir = args_str(o, "out");
    if (!dir) return opts_usage_error(o, 1, "tune needs --out DIR");
    if (args_given(o, "net") && (args_int(o, "net", 128) % 8 || args_int(o, "net", 128) < 8)) {   /* (before any game is played) */
        fprintf(stderr, "gsw: --net: from 8 to 256 hidden units, a multiple of 8\n");
        return GSW_EINPUT;
    }
    if (args_given(o, "rescore-nodes") && !args_str(o, "rescore")) {
        fprintf(stderr, "gsw: tune --eval: --rescore-nodes goes with --rescore \"CMD\"\n");
        return GSW_EINPUT;
    }
    ch_init();   /* (the evaluation's tables, also where no game is played) */
    err_t err;
    char path[1024], hpath[1024];
    if (snprintf(path, sizeof path, "%s/games.txt", dir) >= (int)sizeof path
        || snprintf(hpath, sizeof hpath, "%s/ch_eval_weights.h", dir) >= (int)sizeof hpath) {
        fprintf(stderr, "gsw: --out: path too long\n");
        return GSW_EINPUT;
    }
    if (mkdir(dir, 0755) && errno != EEXIST) {
        fprintf(stderr, "gsw: --out: cannot make %s (%s)\n", dir, strerror(errno));
        return GSW_EINPUT;
    }
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gsw: --out: %s is not a folder\n", dir);
        return GSW_EINPUT;
    }
    int target = args_int(o, "games", 20000), epochs = args_int(o, "epochs", 500);
    uint64_t nodes = args_u64(o, "nodes", 5000), seed = args_u64(o, "seed", 1);
    char *text;
    size_t len, good = 0;
    tune_games_t g;
    memset(&g, 0, sizeof g);
    int rc = tune_read_file(path, &text, &len, &err);
    if (!rc && text) {
        rc = tune_games_parse(text, len, &g, &good, &err);
        if (rc) { char m[sizeof err.msg]; snprintf(m, sizeof m, "%s", err.msg); err_set(&err, rc, "%s: %s", path, m); }
        else if (args_given(o, "nodes") && nodes != g.nodes)
            rc = err_set(&err, GSW_EINPUT, "%s plays %llu nodes a move, not %llu (another --out starts afresh)", path,
                         (unsigned long long)g.nodes, (unsigned long long)nodes);
        else if (args_given(o, "seed") && seed != g.seed)
            rc = err_set(&err, GSW_EINPUT, "%s has seed %llu, not %llu (another --out starts afresh)", path,
                         (unsigned long long)g.seed, (unsigned long long)seed);
        else if (args_given(o, "random-plies") && args_int(o, "random-plies", 0) != g.random)
            rc = err_set(&err, GSW_EINPUT, "%s plays %d random plies, not %d (another --out starts afresh)", path, g.random,
                         args_int(o, "random-plies", 0));
        else if (good < len) {   /* a game cut short: dropped, and the file made whole again */
            if (truncate(path, (off_t)good)) rc = err_set(&err, GSW_EFAIL, "cannot mend %s (%s)", path, strerror(errno));
            else fprintf(stderr, "gsw: %s: a last game cut short (%zu bytes) was dropped\n", path, len - good);
        }
    } else if (!rc) {   /* a new run */
        FILE *f = fopen(path, "wb");
        int random = args_int(o, "random-plies", TE_RANDOM_PLIES);
        if (!f || fprintf(f, "# gsw tune chess --eval: nodes %llu seed %llu random %d\n", (unsigned long long)nodes,
                          (unsigned long long)seed, random) < 0 || fclose(f))
            rc = err_set(&err, GSW_EINPUT, "cannot write %s (%s)", path, strerror(errno));
        g.nodes = nodes;
        g.seed = seed;
        g.random = args_int(o, "random-plies", TE_RANDOM_PLIES);
    }
    free(text);
    if (!rc && g.games < target) {
        rc = te_self_play(o, path, &g, target, &err);
        if (!rc && opts_stop) {
            fprintf(stderr, "gsw: interrupted: the finished games are kept in %s (the same command goes on)\n", path);
            tune_games_free(&g);
            return GSW_EFAIL;
        }
        if (!rc) {   /* read back whole */
            tune_games_free(&g);
            rc = tune_read_file(path, &text, &len, &err);
            if (!rc) rc = tune_games_parse(text ? text : "", text ? len : 0, &g, &good, &err);
            free(text);
        }
    }
    FILE *say = args_flag(o, "json") ? stderr : stdout;
    const char *rescore = args_str(o, "rescore");
    if (!rc && rescore) {
        char rpath[1040];
        snprintf(rpath, sizeof rpath, "%s/rescored.txt", dir);
        rc = tune_rescore(rescore, args_u64(o, "rescore-nodes", TUNE_RESCORE_NODES), rpath, &g, say, &err);
    }
    if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        tune_games_free(&g);
        return rc;
    }

    if (args_given(o, "net")) {   /* the network instead (protocol/tune_net.c) */
        rc = tune_net_run(o, &g, dir, say);
        tune_games_free(&g);
        return rc;
    }
    double t0 = gsw_now_ms();
    te_data_t d;
    rc = te_data_build(&g, &d, &err);
    int games = g.games;
    uint64_t nodes_run = g.nodes, seed_run = g.seed;
    int random_run = g.random;
    uint64_t rescored_nodes = g.rescored_nodes;
    char rescored_by[sizeof g.rescored_by];
    snprintf(rescored_by, sizeof rescored_by, "%s", g.rescored_by);
    tune_games_free(&g);
    if (rc) { fprintf(stderr, "gsw: %s\n", err.msg); return rc; }
    if (d.ntrain < 100) {
        fprintf(stderr, "gsw: tune --eval: %zu positions to train on: too few (more --games)\n", d.ntrain);
        te_data_free(&d);
        return GSW_EINPUT;
    }
    double (*w)[2] = malloc(CH_EW_N * sizeof *w);
    int16_t (*wi)[2] = malloc(CH_EW_N * sizeof *wi);
    if (!w || !wi) { free(w); free(wi); te_data_free(&d); fprintf(stderr, "gsw: out of memory\n"); return GSW_EFAIL; }
    for (int i = 0; i < CH_EW_N; i++) w[i][0] = ch_eval_weights[i][0], w[i][1] = ch_eval_weights[i][1];
    double k = te_fit_k(&d, (const double (*)[2])w);   /* (the targets are the results still) */
    /* another engine's scores are in its own units: their logistic's scale
       is fitted to the results as well, so that a target is the win
       probability the engine's score stands for */
    double ks = rescored_nodes ? te_fit_k(&d, NULL) : k;
    double lambda = args_int(o, "lambda", TE_LAMBDA) / 100.0;
    size_t scored = 0;
    for (size_t i = 0; i < d.n; i++)
        if (d.score[i] != TE_NO_SCORE) {
            d.target[i] = (float)(lambda * d.result[i] + (1 - lambda) * te_sigmoid(ks, d.score[i]));
            scored++;
        }
    if (rescored_nodes)
        fprintf(say, "tune --eval: the scores of %s at %llu nodes a position, their K %.3f (the evaluation's %.3f)\n",
                rescored_by, (unsigned long long)rescored_nodes, ks, k);
    double tr0 = te_loss(&d, (const double (*)[2])w, k, 0), va0 = te_loss(&d, (const double (*)[2])w, k, 1);
    fprintf(say, "tune --eval: %d game%s, %zu positions (%zu to train on, %zu held out), K %.3f, lambda %g; loss %.6f, "
            "held out %.6f\n", games, games == 1 ? "" : "s", d.ntrain + d.nvalid, d.ntrain, d.nvalid, k, lambda, tr0, va0);
    fflush(say);
    int stopped = 0;
    double rate = args_num(o, "rate", 1.0), l2 = args_num(o, "pull", TE_L2);
    te_adam(&d, w, k, epochs, rate, l2, isatty(2), &stopped);
    for (int i = 0; i < CH_EW_N; i++)
        for (int j = 0; j < 2; j++) wi[i][j] = (int16_t)lround(w[i][j]);
    for (int i = 0; i < CH_EW_N; i++) w[i][0] = wi[i][0], w[i][1] = wi[i][1];   /* the losses of what is written */
    double tr1 = te_loss(&d, (const double (*)[2])w, k, 0), va1 = te_loss(&d, (const double (*)[2])w, k, 1);
    char source[700], by[330] = "";
    if (rescored_nodes)
        snprintf(by, sizeof by, ",\n * scored again by %.256s at %llu nodes a position (K %.3f)", rescored_by,
                 (unsigned long long)rescored_nodes, ks);
    snprintf(source, sizeof source, "%d epochs of Adam (lambda %g, pull %g) over %zu positions of %d\n"
             " * self-play games (%llu nodes a move, %d random plies, seed %llu%s); loss %.6f -> %.6f,\n"
             " * held out %.6f -> %.6f (K %.3f)", stopped ? 0 : epochs, lambda, l2, d.ntrain, games,
             (unsigned long long)nodes_run, random_run, (unsigned long long)seed_run, by, tr0, tr1, va0, va1, k);
    if (stopped) fprintf(stderr, "gsw: interrupted: the weights so far are written\n");
    rc = te_write_header(hpath, (const int16_t (*)[2])wi, source, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    else {
        fprintf(say, "tune --eval: loss %.6f -> %.6f, held out %.6f -> %.6f, %.1f s; the weights in %s\n", tr0, tr1, va0, va1,
                (gsw_now_ms() - t0) / 1000, hpath);
        /* the largest moves, in middlegame + endgame centipawns */
        int order[8], nord = 0;
        for (int i = 0; i < CH_EW_N; i++) {
            int di = abs(wi[i][0] - ch_eval_weights[i][0]) + abs(wi[i][1] - ch_eval_weights[i][1]);
            if (!di) continue;
            int at = nord < 8 ? nord++ : 8;
            while (at > 0) {
                int j = order[at - 1];
                int dj = abs(wi[j][0] - ch_eval_weights[j][0]) + abs(wi[j][1] - ch_eval_weights[j][1]);
                if (dj >= di) break;
                if (at < 8) order[at] = j;
                at--;
            }
            if (at < 8) order[at] = i;
        }
        for (int q = 0; q < nord; q++) {
            char name[96];
            int i = order[q];
            ch_eval_weight_name(i, name, sizeof name);
            fprintf(say, "  %-44s %5d %5d -> %5d %5d\n", name, ch_eval_weights[i][0], ch_eval_weights[i][1],
                    wi[i][0], wi[i][1]);
        }
        fflush(say);
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", "chess");
            json_str(&j, "out", dir);
            json_int(&j, "games", games);
            json_int(&j, "nodes", (int64_t)nodes_run);
            json_int(&j, "positions", (int64_t)(d.ntrain + d.nvalid));
            json_int(&j, "train", (int64_t)d.ntrain);
            json_int(&j, "held_out", (int64_t)d.nvalid);
            json_num(&j, "k", k);
            tune_json_fine(&j, "lambda", lambda);
            json_int(&j, "scored", (int64_t)scored);
            if (rescored_nodes) {
                json_obj(&j, "rescored");
                json_str(&j, "by", rescored_by);
                json_int(&j, "nodes", (int64_t)rescored_nodes);
                json_num(&j, "k", ks);
                json_close(&j, '}');
            } else
                json_null(&j, "rescored");
            tune_json_fine(&j, "pull", l2);
            json_int(&j, "epochs", stopped ? 0 : epochs);
            json_bool(&j, "interrupted", stopped);
            json_obj(&j, "loss");
            tune_json_fine(&j, "train_before", tr0);
            tune_json_fine(&j, "train_after", tr1);
            tune_json_fine(&j, "held_out_before", va0);
            tune_json_fine(&j, "held_out_after", va1);
            json_close(&j, '}');
            json_str(&j, "weights", hpath);
            json_num(&j, "time_s", (gsw_now_ms() - t0) / 1000);
            json_end(&j);
        }
    }
    te_data_free(&d);
    free(w);
    free(wi);
    return rc ? rc : stopped ? GSW_EFAIL : GSW_OK;
}
