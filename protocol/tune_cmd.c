/* gsw tune chess: piece values evolved by core/evolve.h's genetic algorithm,
 * each game gsw's engine against itself with the two individuals' values
 * (through the cached solver's heuristic door, a node budget a move, no
 * cache), from a built-in opening picked by the game's seed, ended by the
 * rules or adjudicated by material at a move cap. Writes a CSV per
 * generation and the SVG chart (db/tunelog.h) and the run's state
 * (resumable). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/evolve.h"
#include "db/dbfile.h"
#include "games/chess/ch.h"
#include "solve/solver.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "protocol/match.h"
#include "db/tunelog.h"
#include "protocol/tune.h"
#include "dist/dist.h"

#define TUNE_STATE "state.txt"
#define TUNE_MAX_MOVES 1000
#define TUNE_STATE_MAX (1 << 20)

typedef struct tune tune_t;

typedef struct tune_worker {
    tune_t *t;
    solver_t s[2];             /* White's search and Black's, each over its own table */
    int up;
    unsigned char *line;       /* the game's positions, GSW_MAX_POS bytes each */
    uint64_t *hist;            /* their hashes */
    const void **ptrs;
    int cap;
} tune_worker_t;

struct tune {
    gv_t *base;                /* chess:standard: the rules, the openings */
    match_opening_t *book;
    int nbook;
    uint64_t nodes;
    int max_plies;
    int relative;              /* --relative: the engine's pawn is 100 cp, the others in proportion */
    int threads;
    tune_worker_t *w;
    int tty;                   /* stderr is a terminal: the progress line redraws itself */
    int failed;                /* a game could not be set up: the first one's message in fail */
    char fail[512];
};

#define POS(w, i) ((void *)((w)->line + (size_t)(i) * GSW_MAX_POS))

/* How the run's games are played: rank 0 sends it to the worker ranks
 * (--mpi); rc nonzero when rank 0 could not set the run up. */
typedef struct tune_wire {
    int32_t rc, max_plies, relative;
    uint64_t nodes;
} tune_wire_t;

/* A raw value (800..17000 at the start) as the engine's centipawns. */
static int tune_cp(int raw)
{
    int cp = (raw + 5) / 10;
    return cp < 1 ? 1 : cp > 10000 ? 10000 : cp;
}


/* The engine's centipawns of allele i of x: raw / 10, or (--relative) the
 * value in proportion to a 100-centipawn pawn, so only the ratios evolve
 * (the positional terms keep their weight against the material). */
static int tune_value(const tune_t *t, const int *x, int i)
{
    if (!t->relative) return tune_cp(x[i]);
    int cp = (int)lround(100.0 * x[i] / x[0]);
    return cp < 1 ? 1 : cp > 10000 ? 10000 : cp;
}

/* Standard material, 1/3/3/5/9, of colour c. */
static int tune_material(const ch_pos_t *p, int c)
{
    static const int w[7] = { 0, 1, 3, 3, 5, 9, 0 };
    int m = 0;
    for (int t = CH_PAWN; t <= CH_QUEEN; t++) m += w[t] * __builtin_popcountll(p->type[t] & p->color[c]);
    return m;
}

/* One game (evo_game_fn): +1 White won, 0 a draw, -1 Black won. */
static int tune_play(void *ctx, int worker, const evo_ind_t *white, const evo_ind_t *black, uint64_t seed)
{
    tune_t *t = ctx;
    tune_worker_t *w = &t->w[worker];
    const gv_t *v = t->base;
    const game_ops_t *O = v->ops;
    gv_t *side[2] = { NULL, NULL };
    const evo_ind_t *ind[2] = { white, black };
    err_t err;
    for (int c = 0; c < 2; c++) {
        char spec[96];
        const int *x = ind[c]->v;
        snprintf(spec, sizeof spec, "chess:values=%d,%d,%d,%d,%d", tune_value(t, x, 0), tune_value(t, x, 1),
                 tune_value(t, x, 2), tune_value(t, x, 3), tune_value(t, x, 4));
        if (game_open(spec, &side[c], &err)) {
            if (!__atomic_exchange_n(&t->failed, 1, __ATOMIC_ACQ_REL)) snprintf(t->fail, sizeof t->fail, "%s", err.msg);
            if (c) game_close(side[0]);
            return EVO_STOPPED;
        }
    }
    const match_opening_t *op = &t->book[seed % (uint64_t)t->nbook];
    memcpy(POS(w, 0), op->start, O->pos_size);
    int n = 1, result = 0;
    for (int i = 0; i < op->n; i++) {
        w->hist[n - 1] = O->pos_hash(v, POS(w, n - 1));
        memcpy(POS(w, n), POS(w, n - 1), O->pos_size);
        O->play(v, POS(w, n), op->moves[i]);
        n++;
    }
    for (int c = 0; c < 2; c++) {   /* each game starts cold: results do not depend on who played before */
        w->s[c].v = side[c];
        solver_clear(&w->s[c]);
    }
    for (;;) {
        const void *cur = POS(w, n - 1);
        int turn = O->pos_turn(v, cur);
        val_t val;
        char why[128];
        if (O->terminal(v, cur, &val) || (O->line_over && O->line_over(v, w->ptrs, n, &val, why, sizeof why))) {
            result = val == VAL_DRAW ? 0 : (val > 0) == (turn == CH_WHITE) ? 1 : -1;
            break;
        }
        if (n - 1 >= t->max_plies || n >= w->cap) {   /* adjudicated by material */
            int d = tune_material(cur, CH_WHITE) - tune_material(cur, CH_BLACK);
            result = d > 0 ? 1 : d < 0 ? -1 : 0;
            break;
        }
        solver_t *s = &w->s[turn];
        ab_options_t ao;
        memset(&ao, 0, sizeof ao);
        ao.threads = 1;
        ao.stop = &opts_stop;
        ao.node_limit = t->nodes;
        s->ab.history = w->hist;
        s->ab.history_len = n - 1;
        ab_result_t r;
        memset(&r, 0, sizeof r);
        r.best = MOVE_NONE;
        if (solver_think(s, cur, &ao, &r, &err)) r.best = MOVE_NONE;
        if (opts_stop) { result = EVO_STOPPED; break; }
        move_t list[GSW_MAX_MOVES];
        int nm = O->moves(v, cur, list), ok = 0;
        for (int i = 0; i < nm; i++) ok |= list[i] == r.best;
        w->hist[n - 1] = O->pos_hash(v, cur);
        memcpy(POS(w, n), cur, O->pos_size);
        O->play(v, POS(w, n), ok ? r.best : list[0]);
        n++;
    }
    for (int c = 0; c < 2; c++) {
        w->s[c].v = t->base;
        game_close(side[c]);
    }
    return result;
}

static void tune_progress(void *ctx, int gen, int done)
{
    tune_t *t = ctx;
    if (t->tty) fprintf(stderr, "\rtune: generation %d: %d games ", gen, done);
    else if (done % 10 == 0) fprintf(stderr, "tune: generation %d: %d games\n", gen, done);
    fflush(stderr);
}

/* ---- the verb ---- */

static int make_dir(const char *dir, err_t *err)
{
    char p[1024];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return err_set(err, GSW_EINPUT, "--out: path too long");
    for (char *c = p + 1;; c++) {
        if (*c && *c != '/') continue;
        char was = *c;
        *c = 0;
        if (mkdir(p, 0755) && errno != EEXIST) return err_set(err, GSW_EFAIL, "--out: cannot make %s (%s)", p, strerror(errno));
        if (!was) break;
        *c = was;
    }
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) return err_set(err, GSW_EINPUT, "--out: %s is not a folder", dir);
    return GSW_OK;
}

/* The stored run of dir into e: GSW_EINPUT naming the file and what is wrong. */
static int read_state(const char *dir, evo_t *e, err_t *err)
{
    char path[1024];
    if (tunelog_path(path, sizeof path, dir, TUNE_STATE)) return err_set(err, GSW_EINPUT, "--out: path too long");
    FILE *f = fopen(path, "rb");
    if (!f) return err_set(err, GSW_EINPUT, "--resume: cannot read %s (%s): no run to continue", path, strerror(errno));
    char *buf = malloc(TUNE_STATE_MAX);
    size_t len = buf ? fread(buf, 1, TUNE_STATE_MAX, f) : 0;
    fclose(f);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory");
    err_t e2;
    int rc = len >= TUNE_STATE_MAX ? err_set(err, GSW_EINPUT, "%s: too big for a tune state", path)
           : evo_state_parse(buf, len, e, 0, &e2) ? err_set(err, GSW_EINPUT, "%s: %s", path, e2.msg) : GSW_OK;
    free(buf);
    if (rc) return rc;
    const char *g = evo_meta_get(e, "game"), *nodes = evo_meta_get(e, "nodes"), *mm = evo_meta_get(e, "max_moves");
    char *end;
    if (!g || strcmp(g, "chess") || e->cfg.alleles != TUNE_PIECES)
        return err_set(err, GSW_EINPUT, "%s: not a chess tune run", path);
    if (!nodes || strtoull(nodes, &end, 10) < 1 || *end || !mm || atoi(mm) < 1 || atoi(mm) > TUNE_MAX_MOVES)
        return err_set(err, GSW_EINPUT, "%s: its nodes or max_moves setting is missing or bad", path);
    const char *sc = evo_meta_get(e, "scale");
    if (sc && strcmp(sc, "relative")) return err_set(err, GSW_EINPUT, "%s: its scale setting \"%.40s\" is unknown", path, sc);
    return GSW_OK;
}

static int write_state(const char *dir, const evo_t *e, err_t *err)
{
    char path[1024];
    if (tunelog_path(path, sizeof path, dir, TUNE_STATE)) return err_set(err, GSW_EINPUT, "--out: path too long");
    size_t need = evo_state_format(e, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf) return err_set(err, GSW_EFAIL, "out of memory");
    evo_state_format(e, buf, need + 1);
    int rc = db_write_atomic(path, buf, need, err);
    free(buf);
    return rc;
}

static void elite_line(const tune_gen_t *g, char *buf, size_t n)
{
    snprintf(buf, n, "elite %.0f/%.0f/%.0f/%.0f/%.0f (raw %d %d %d %d %d), median N %.0f B %.0f R %.0f Q %.0f",
             g->elite[0], g->elite[1], g->elite[2], g->elite[3], g->elite[4], g->elite_raw[0], g->elite_raw[1],
             g->elite_raw[2], g->elite_raw[3], g->elite_raw[4], g->median[1], g->median[2], g->median[3], g->median[4]);
}

/* Settings from the options (a new run) or the state (--resume: options given must agree). */
static int tune_setup(cli_args_t *o, evo_t *e, int *target, err_t *err)
{
    char num[32];
    if (args_flag(o, "resume")) {
        if (read_state(args_str(o, "out"), e, err)) return err->code;
        unsigned long long nodes = strtoull(evo_meta_get(e, "nodes"), NULL, 10);
        int mm = atoi(evo_meta_get(e, "max_moves"));
        if (args_int(o, "population", 0) && args_int(o, "population", 0) != e->cfg.n)
            return err_set(err, GSW_EINPUT, "--resume: the run in %s has population %d, not %d", args_str(o, "out"), e->cfg.n, args_int(o, "population", 0));
        if (args_given(o, "seed") && args_u64(o, "seed", 0) != e->seed)
            return err_set(err, GSW_EINPUT, "--resume: the run in %s has seed %llu, not %llu", args_str(o, "out"),
                           (unsigned long long)e->seed, (unsigned long long)args_u64(o, "seed", 0));
        if (args_u64(o, "nodes", 0) && args_u64(o, "nodes", 0) != nodes)
            return err_set(err, GSW_EINPUT, "--resume: the run in %s plays %llu nodes a move, not %llu", args_str(o, "out"), nodes,
                           (unsigned long long)args_u64(o, "nodes", 0));
        if (args_int(o, "max-moves", 0) && args_int(o, "max-moves", 0) != mm)
            return err_set(err, GSW_EINPUT, "--resume: the run in %s caps games at %d moves, not %d", args_str(o, "out"), mm, args_int(o, "max-moves", 0));
        const char *sc = evo_meta_get(e, "scale");
        if (args_flag(o, "relative") && !(sc && !strcmp(sc, "relative")))
            return err_set(err, GSW_EINPUT, "--resume: the run in %s uses raw values, not --relative", args_str(o, "out"));
        const char *g = evo_meta_get(e, "generations");
        *target = args_int(o, "generations", 0) ? args_int(o, "generations", 0) : g ? atoi(g) : 10;
    } else {
        char path[1024];
        struct stat st;
        if (tunelog_path(path, sizeof path, args_str(o, "out"), TUNE_STATE)) return err_set(err, GSW_EINPUT, "--out: path too long");
        if (!stat(path, &st))
            return err_set(err, GSW_EINPUT, "%s holds a tune run already: --resume continues it (or another --out)", args_str(o, "out"));
        if (make_dir(args_str(o, "out"), err)) return err->code;
        evo_config_t c;
        evo_config_default(&c, args_int(o, "population", 0) ? args_int(o, "population", 0) : 12, TUNE_PIECES);
        evo_start(e, &c, args_given(o, "seed") ? args_u64(o, "seed", 0) : (uint64_t)time(NULL));
        snprintf(num, sizeof num, "%llu", (unsigned long long)(args_u64(o, "nodes", 0) ? args_u64(o, "nodes", 0) : 5000));
        if (evo_meta_set(e, "game", "chess", err) || evo_meta_set(e, "nodes", num, err)) return err->code;
        snprintf(num, sizeof num, "%d", args_int(o, "max-moves", 0) ? args_int(o, "max-moves", 0) : 100);
        if (evo_meta_set(e, "max_moves", num, err)) return err->code;
        if (args_flag(o, "relative") && evo_meta_set(e, "scale", "relative", err)) return err->code;
        *target = args_int(o, "generations", 0) ? args_int(o, "generations", 0) : 10;
    }
    snprintf(num, sizeof num, "%d", *target);
    return evo_meta_set(e, "generations", num, err);
}

static void tune_json(const cli_args_t *o, const evo_t *e, const tune_t *t, int target, int start_gen, int interrupted,
                      double secs, int games, int draws)
{
    tune_gen_t *h = NULL;
    int n = 0;
    err_t err;
    tune_history(args_str(o, "out"), &h, &n, &err);
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "game", "chess");
    json_str(&j, "out", args_str(o, "out"));
    json_int(&j, "seed", (int64_t)e->seed);
    json_int(&j, "population", e->cfg.n);
    json_int(&j, "generations", e->generation);
    json_int(&j, "target_generations", target);
    json_int(&j, "resumed_from", start_gen);
    json_int(&j, "nodes", (int64_t)t->nodes);
    json_int(&j, "max_moves", t->max_plies / 2);
    json_str(&j, "scale", t->relative ? "relative" : "raw");
    json_int(&j, "threads", t->threads);
    json_int(&j, "games", games);
    json_int(&j, "draws", draws);
    json_num(&j, "time_s", secs);
    json_bool(&j, "interrupted", interrupted);
    json_str(&j, "svg", TUNE_SVG);
    json_arr(&j, "history");
    for (int i = 0; i < n; i++) {
        json_obj(&j, NULL);
        json_int(&j, "generation", h[i].gen);
        json_int(&j, "games", h[i].games);
        json_int(&j, "draws", h[i].draws);
        json_arr(&j, "elite");
        for (int a = 0; a < TUNE_PIECES; a++) json_num(&j, NULL, h[i].elite[a]);
        json_close(&j, ']');
        json_arr(&j, "elite_raw");
        for (int a = 0; a < TUNE_PIECES; a++) json_int(&j, NULL, h[i].elite_raw[a]);
        json_close(&j, ']');
        json_arr(&j, "median");
        for (int a = 0; a < TUNE_PIECES; a++) json_num(&j, NULL, h[i].median[a]);
        json_close(&j, ']');
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_end(&j);
    free(h);
}

static int tune_run(cli_args_t *o)
{
    if (args_flag(o, "eval")) return tune_eval_run(o);
    static const char *const eval_only[] = { "games", "epochs", "rate", "pull", "random-plies", "lambda", "rescore", "net",
                                             "rescore-nodes" };
    for (size_t i = 0; i < sizeof eval_only / sizeof *eval_only; i++)
        if (args_given(o, eval_only[i])) {
            fprintf(stderr, "gsw: tune: --%s is for --eval (gsw tune --help)\n", eval_only[i]);
            return GSW_EINPUT;
        }
    if (o->npos < 1) return opts_usage_error(o, 1, "tune needs a GAME (chess)");
    if (!args_str(o, "out")) return opts_usage_error(o, 1, "tune needs --out DIR");
    if (args_int(o, "max-moves", 0) > TUNE_MAX_MOVES) {
        fprintf(stderr, "gsw: --max-moves: at most %d\n", TUNE_MAX_MOVES);
        return GSW_EINPUT;
    }
    err_t err;
    tune_t t;
    memset(&t, 0, sizeof t);
    if (game_open(o->pos[0], &t.base, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (strcmp(t.base->game->name, "chess") || strcmp(t.base->name, "standard")) {
        fprintf(stderr, "gsw: tune: evolves chess's piece values: give chess, not %s\n", o->pos[0]);
        game_close(t.base);
        return GSW_EINPUT;
    }
    evo_t *e = calloc(1, sizeof *e);
    int ranks = o->dist ? dist_size(o->dist) : 1, worker = o->dist && dist_rank(o->dist) != 0;
    int target = 0, rc = e ? GSW_OK : err_set(&err, GSW_EFAIL, "out of memory");
    if (!rc && !worker) rc = tune_setup(o, e, &target, &err);   /* (rank 0 alone has the run's folder) */
    if (!rc) rc = match_openings_builtin(t.base, &t.book, &t.nbook, &err);
    tune_wire_t wire = { .rc = rc };
    if (!rc && !worker) {
        wire.nodes = strtoull(evo_meta_get(e, "nodes"), NULL, 10);
        wire.max_plies = 2 * atoi(evo_meta_get(e, "max_moves"));
        wire.relative = evo_meta_get(e, "scale") && !strcmp(evo_meta_get(e, "scale"), "relative");
    }
    if (ranks > 1) {   /* rank 0 tells the workers how games are played, or that it failed */
        err_t be;
        if (dist_bcast(o->dist, &wire, sizeof wire, &be) && !rc) rc = err_set(&err, GSW_EFAIL, "%s", be.msg);
        if (worker && !rc && wire.rc) rc = wire.rc, err.msg[0] = 0;   /* (rank 0 says why; every rank exits as it does) */
    }
    if (rc) {
        if (err.msg[0] && worker) dist_say("%s", err.msg);
        else if (err.msg[0]) fprintf(stderr, "gsw: %s\n", err.msg);
        free(e);
        free(t.book);
        game_close(t.base);
        return rc;
    }
    t.nodes = wire.nodes;
    t.max_plies = wire.max_plies;
    t.relative = wire.relative;
    t.threads = worker ? 1 : opts_threads(o) < 1 ? 1 : opts_threads(o) > e->cfg.n - 1 ? e->cfg.n - 1 : opts_threads(o);
    if (ranks > 1 && !worker) t.threads = 1;   /* rank 0 plays no game: its workers do */
    t.tty = isatty(2);
    t.w = calloc((size_t)t.threads, sizeof *t.w);
    if (!t.w) rc = err_set(&err, GSW_EFAIL, "out of memory");
    size_t mb = 4;
    while (mb < 64 && (uint64_t)mb * 65536 < t.nodes * 4) mb *= 2;
    for (int i = 0; !rc && i < t.threads; i++) {   /* each its own tables */
        tune_worker_t *w = &t.w[i];
        w->t = &t;
        w->cap = t.max_plies + MATCH_OPENING_PLIES + 2;
        w->line = malloc((size_t)w->cap * GSW_MAX_POS);
        w->hist = malloc((size_t)w->cap * sizeof *w->hist);
        w->ptrs = malloc((size_t)w->cap * sizeof *w->ptrs);
        if (!w->line || !w->hist || !w->ptrs) { rc = err_set(&err, GSW_EFAIL, "out of memory"); break; }
        for (int k = 0; k < w->cap; k++) w->ptrs[k] = POS(w, k);   /* (line_over's view of the game) */
        if (solver_init(&w->s[0], t.base, mb, NULL, &err)) rc = err.code;
        else if (solver_init(&w->s[1], t.base, mb, NULL, &err)) { solver_free(&w->s[0]); rc = err.code; }
        else w->up = 1;
    }
    int *order = NULL;
    if (worker) {   /* games from rank 0 until it is done */
        if (!rc) rc = dist_evo_serve(o->dist, tune_play, &t, &err);
        if (rc && err.msg[0]) dist_say("%s", err.msg);
        goto out;
    }
    if (rc && ranks > 1) dist_stop_workers(o->dist);
    FILE *say = args_flag(o, "json") ? stderr : stdout;
    int start_gen = e->generation, games = 0, draws = 0, interrupted = 0;
    double t0 = gsw_now_ms();
    if (!rc) {
        int players = ranks > 1 ? ranks - 1 : t.threads;
        fprintf(say, "tune chess: population %d, generation %d of %d, %llu nodes a move, %d moves at most, %s, %d %s%s, "
                "seed %llu, %s %s\n", e->cfg.n, e->generation + 1 > target ? target : e->generation + 1, target,
                (unsigned long long)t.nodes, t.max_plies / 2, t.relative ? "values relative to a 100 cp pawn" : "raw values",
                players, ranks > 1 ? "worker rank" : "thread", players > 1 ? "s" : "",
                (unsigned long long)e->seed, args_flag(o, "resume") ? "resumed in" : "into", args_str(o, "out"));
        fflush(say);
        if (!args_flag(o, "resume") && write_state(args_str(o, "out"), e, &err)) rc = err.code;   /* generation 0: --resume works from the start */
    }
    evo_hooks_t hk = { .play = tune_play, .ctx = &t, .threads = t.threads, .stop = &opts_stop, .progress = tune_progress };
    dist_evo_t de = { .d = o->dist, .stop = &opts_stop };
    if (ranks > 1) hk.farm = dist_evo_farm, hk.farm_ctx = &de;
    order = malloc((size_t)e->cfg.n * sizeof *order);
    if (!order && !rc) rc = err_set(&err, GSW_EFAIL, "out of memory");
    while (!rc && e->generation < target) {
        int gen = e->generation + 1, gg, gd;
        double g0 = gsw_now_ms();
        if (evo_rank(e->pop, e->cfg.n, e->seed, gen, &hk, order, &gg, &gd, &err)) {
            if (t.tty) fputc('\n', stderr);
            if (t.failed) rc = err_set(&err, GSW_EFAIL, "%s", t.fail);
            else if (opts_stop) interrupted = 1;
            else rc = err.code;
            break;
        }
        if (t.tty) fputc('\n', stderr);
        games += gg;
        draws += gd;
        if (tunelog_write_gen(args_str(o, "out"), gen, e->pop, order, e->cfg.n, gg, gd, &err)) { rc = err.code; break; }
        evo_breed(e, order);
        if (write_state(args_str(o, "out"), e, &err)) { rc = err.code; break; }
        tune_gen_t *h;
        int n;
        if (tune_history(args_str(o, "out"), &h, &n, &err) || tunelog_write_svg(args_str(o, "out"), h, n, &err)) { rc = err.code; break; }
        char el[256];
        elite_line(&h[n - 1], el, sizeof el);
        fprintf(say, "generation %d/%d: %d games, %d draws, %.1f s; %s\n", gen, target, gg, gd,
                (gsw_now_ms() - g0) / 1000, el);
        fflush(say);
        free(h);
    }
    double secs = (gsw_now_ms() - t0) / 1000;
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    else if (interrupted) {
        if (e->generation)
            fprintf(stderr, "gsw: interrupted in generation %d: the %d finished generation%s kept in %s "
                    "(gsw tune chess --out %s --resume goes on)\n", e->generation + 1, e->generation,
                    e->generation == 1 ? " is" : "s are", args_str(o, "out"), args_str(o, "out"));
        else
            fprintf(stderr, "gsw: interrupted in generation 1: no generation finished (gsw tune chess --out %s "
                    "--resume starts it again)\n", args_str(o, "out"));
        rc = GSW_EFAIL;
    } else if (e->generation == start_gen) {
        fprintf(say, "%s: %d generations finished already (--generations G goes further)\n", args_str(o, "out"), e->generation);
    } else {
        fprintf(say, "tune: %d generation%s in %.1f s (%d games, %d draws); %s/gen-%04d.csv, %s/%s\n",
                e->generation - start_gen, e->generation - start_gen > 1 ? "s" : "", secs, games, draws, args_str(o, "out"),
                e->generation, args_str(o, "out"), TUNE_SVG);
    }
    if (args_flag(o, "json") && (!rc || interrupted)) tune_json(o, e, &t, target, start_gen, interrupted, secs, games, draws);
    if (ranks > 1) dist_stop_workers(o->dist);
out:
    for (int i = 0; i < t.threads && t.w; i++) {
        if (t.w[i].up) {
            solver_free(&t.w[i].s[0]);
            solver_free(&t.w[i].s[1]);
        }
        free(t.w[i].line);
        free(t.w[i].hist);
        free(t.w[i].ptrs);
    }
    free(t.w);
    free(order);
    free(t.book);
    free(e);
    game_close(t.base);
    return rc;
}

static const cli_opt_t tune_own[] = {
    OPT_THREADS,
    OPT_NODES,
    { "out", OPT_STR, "DIR", "the run's folder", 0, 0, NULL },
    { "population", OPT_INT, "N", "individuals a generation", 2, 1000, NULL },
    { "generations", OPT_INT, "G", "finished generations to reach", 1, 1000000, NULL },
    { "max-moves", OPT_INT, "M", "a game's cap in moves (default 100)", 1, 1000000, NULL },
    { "seed", OPT_U64, "S", "the run's seed (default: the clock)", 0, 1e18, NULL },
    { "resume", OPT_FLAG, NULL, "go on from the stored state", 0, 0, NULL },
    { "relative", OPT_FLAG, NULL, "values as ratios to a 100 cp pawn", 0, 0, NULL },
    { "eval", OPT_FLAG, NULL, "tune the whole evaluation from self-play positions", 0, 0, NULL },
    { "games", OPT_INT, "N", "--eval: self-play games to have (default 20000)", 1, 10000000, NULL },
    { "epochs", OPT_INT, "E", "--eval: steps of the fit (default 500; with --net, passes over the positions, default 20)", 0, 1000000, NULL },
    { "rate", OPT_NUM, "STEP", "--eval: the fit's step in centipawns (default 1; with --net, Adam's step, default 0.001)", 1e-6, 1000, NULL },
    { "random-plies", OPT_INT, "R", "--eval: random moves after the book opening (default 4)", 0, 40, NULL },
    { "lambda", OPT_INT, "PCT", "--eval: the game result's share of the target in percent, the search's score the rest (default 0)", 0, 100, NULL },
    { "pull", OPT_NUM, "X", "--eval: the pull to the starting weights (default 1e-5)", 0, 1000, NULL },
    { "rescore", OPT_STR, "\"CMD [ARGS]\"", "--eval: score every kept position again by this UCI engine, and fit to its scores", 0, 0, NULL },
    { "net", OPT_INT, "H", "--eval: train the evaluation network of H hidden units instead (ch_nn_weights.h)", 1, 256, NULL },
    { "rescore-nodes", OPT_U64, "N", "--eval: the engine's nodes a position (default 5000)", 1, 1e12, NULL },
    OPT_END,
};
static const cli_opt_t *const tune_opts[] = { opts_json, opts_mpi, tune_own, NULL };

const cli_verb_t verb_tune = {
    "tune", "gsw tune chess --out DIR [--population N] [--generations G] [--nodes N] [--max-moves M] [--seed S] "
              "[--threads N] [--resume] [--relative] [--mpi]\n"
              "  evolves the engine's piece values (pawn, knight, bishop, rook, queen; drawn from 800..17000, used\n"
              "  as tenths of centipawns) by a genetic algorithm whose fitness is a quick-tournament: a random pivot\n"
              "  plays the rest of its group as Black, who beat it rank above it, and both parts recurse (about\n"
              "  N log N games a generation). Games: gsw against itself, N nodes a move (default 5000), from a\n"
              "  built-in opening picked by the game's seed, adjudicated by material (1/3/3/5/9) after M moves\n"
              "  (default 100). Defaults: population 12, 10 generations, all cores. DIR gets gen-NNNN.csv per\n"
              "  generation (values normalised to pawn = 1000), values.svg (elite and median by generation) and\n"
              "  state.txt; Ctrl-C keeps the finished generations and --resume goes on to G. The same --seed gives\n"
              "  the same run on any number of threads, or of ranks: under mpirun -np N with --mpi, ranks 1..N-1\n"
              "  play the games and rank 0 writes DIR. The workbench's `tune DIR` command draws the chart.\n"
              "  --relative: the engine's pawn is always 100 cp and the other pieces in proportion, so only the\n"
              "  ratios evolve (raw values also move material against the evaluation's positional terms).\n"
              "gsw tune chess --eval --out DIR [--games N] [--nodes N] [--random-plies R] [--epochs E] [--rate STEP]\n"
              "              [--lambda PCT] [--pull X] [--seed S] [--threads N] [--rescore \"CMD\" [--rescore-nodes N]] [--net H]\n"
              "  tunes every weight of the evaluation (piece-square tables, pawns, mobility, king safety; the piece\n"
              "  values stay) from self-play: gsw plays itself N nodes a move (default 5000) from a built-in opening\n"
              "  and R random moves (default 4), until DIR/games.txt holds N games (default 20000, about 25 min on\n"
              "  2 cores; Ctrl-C keeps the finished ones, the same command goes on). Each quiet position is kept\n"
              "  with its search's score and its game's result; the evaluation is fitted by a logistic to a target\n"
              "  of PCT% the result and the rest the score's (default 0: the search's score alone), a game in ten\n"
              "  held out, for E steps of Adam (default 500, a step of STEP cp, default 1), each weight pulled to\n"
              "  its start by X ((w - w0) / 100)^2 (default 1e-5).\n"
              "  --rescore CMD: every kept position is scored again by the UCI engine CMD at N nodes (default\n"
              "  5000) into DIR/rescored.txt (Ctrl-C keeps what is scored), and the fit aims at its scores, read as\n"
              "  win probabilities by a logistic whose scale is fitted to the results.\n"
              "  DIR/ch_eval_weights.h gets the weights; copied over games/chess/ch_eval_weights.h and built,\n"
              "  they are the engine's. Seed default 1.\n"
              "  --net H: instead, the evaluation network of H hidden units (8..256, a multiple of 8) is trained on\n"
              "  the same scored positions (the engine's of --rescore where given) for E passes (default 20) of Adam\n"
              "  (step STEP, default 0.001) on --threads; DIR/ch_nn_weights.h gets it, for games/chess/, and the\n"
              "  held-out loss is printed beside the evaluation by terms'.",
      "evolve chess piece values by a genetic algorithm (quick-tournament fitness)", tune_run, 1, NULL, .opts = tune_opts, .mpi_sub = ""
};
