/* The solving verbs: `solve` (one position, or a batch file checked whole
 * before solving) and `analyze` (every legal move). Every solve consults the
 * cache first and stores what it proves: exact values as exact, proven
 * bounds as bounds. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/game.h"
#include "db/cache.h"
#include "db/proofs.h"
#include "games/chess/ch.h"
#include "cli/batch.h"
#include "cli/proof_cmd.h"
#include "cli/puzzle_cmd.h"
#include "cli/solve_cmd.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "solve/analyst.h"
#include "solve/solver.h"
#include "solve/source.h"


#define GSW_STR2(x) #x
#define GSW_STR(x) GSW_STR2(x)

/* A long solve on a terminal: between the search's own reports (each a test
 * that moved a bound, which may be minutes apart) a line every few seconds
 * with the bounds proven so far, so that no solve stays blank. */
#define SOLVE_TICK_MS 3000

typedef struct solve_ticker {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int on, quit, have;
    int building;               /* a source's build is under way (its own lines show it): no "searching" */
    val_t lo, hi;               /* the last bounds reported (have) */
    double t0, last;            /* the solve's start; the last line said */
    double tick;                /* SOLVE_TICK_MS, or $GSW_SOLVE_TICK_MS (tests set it lower) */
    const char *note;           /* said once, with the first line (NULL: none) */
} solve_ticker_t;

static void *solve_ticker_run(void *arg)
{
    solve_ticker_t *t = arg;
    pthread_mutex_lock(&t->mu);
    while (!t->quit) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&t->cv, &t->mu, &ts);
        double now = gsw_now_ms();
        if (t->quit || opts_stop || t->building || now - t->last < t->tick) continue;
        t->last = now;
        if (t->note) fprintf(stderr, "%s\n", t->note);
        t->note = NULL;
        if (t->have) {
            char b[96];
            value_open_text(t->lo, t->hi, b, sizeof b);
            fprintf(stderr, "  %.1f s: %s; searching\n", (now - t->t0) / 1000, b);
        } else {
            fprintf(stderr, "  %.1f s: no bound proven yet; searching\n", (now - t->t0) / 1000);
        }
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

/* Start the ticker when stderr is a terminal, or when a note is to be
 * said with its first line (t->on: started). */
static void solve_ticker_start(solve_ticker_t *t, double t0, const char *note)
{
    memset(t, 0, sizeof *t);
    t->note = note;
    const char *tick = getenv("GSW_SOLVE_TICK_MS");
    t->tick = tick && *tick ? atof(tick) : SOLVE_TICK_MS;
    if (!isatty(2) && !note) return;
    t->t0 = t->last = t0;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->on = !pthread_create(&t->th, NULL, solve_ticker_run, t);
    if (!t->on) {
        pthread_cond_destroy(&t->cv);
        pthread_mutex_destroy(&t->mu);
    }
}

static void solve_ticker_stop(solve_ticker_t *t)
{
    if (!t->on) return;
    pthread_mutex_lock(&t->mu);
    t->quit = 1;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->th, NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    t->on = 0;
}

/* A source's notice (a tablebase built before the search: its progress
 * lines) said on stderr; the ticker waits its turn, since no search runs
 * meanwhile (ctx: the ticker). */
static void solve_note(void *ctx, const char *msg)
{
    solve_ticker_t *t = ctx;
    if (t->on) pthread_mutex_lock(&t->mu);
    fprintf(stderr, "gsw: %s\n", msg);
    t->last = gsw_now_ms();
    t->building = strncmp(msg, "building ", 9) == 0;   /* until the source says "built ..." */
    if (t->on) pthread_mutex_unlock(&t->mu);
}

/* Progress of a long solve on stderr: the bounds proven so far (ctx: the
 * ticker, or NULL). */
static void solver_progress(void *ctx, val_t lo, val_t hi, uint64_t nodes, double ms)
{
    solve_ticker_t *t = ctx;
    if (t && t->on) {
        pthread_mutex_lock(&t->mu);
        t->lo = lo;
        t->hi = hi;
        t->have = 1;
        t->building = 0;   /* (a build that failed says no "built": the search's report ends it) */
        if (ms >= 1000) t->last = gsw_now_ms();   /* said below: the ticker waits its turn */
        pthread_mutex_unlock(&t->mu);
    }
    if (ms < 1000) return;
    char b[96];
    value_open_text(lo, hi, b, sizeof b);
    fprintf(stderr, "  %.1f s: %s; %.0f M nodes, %.1f M nodes/s\n", ms / 1000, b, nodes / 1e6,
            ms > 0 ? nodes / ms / 1e3 : 0);
}

static int solver_close(solver_t *s, err_t *err);

static int solver_open(cli_args_t *o, const char *spec, int cache_default_on, solver_t *s, err_t *err)
{
    gv_t *v;
    if (game_open(spec, &v, err)) return err->code;
    if (v->game->players != 2) {
        err_set(err, GSW_EINPUT, "%s is a one-player game: alpha-beta solving is for two players", v->game->name);
        game_close(v);
        return GSW_EINPUT;
    }
    cache_t *cache = NULL;
    int want_cache = !args_flag(o, "no-cache") && (cache_default_on || args_str(o, "db"));
    if (want_cache && opts_cache_open(o, &cache, err)) { game_close(v); return err->code; }
    if (solver_init(s, v, opts_hash_mb(o), cache, err)) {
        if (cache) { err_t e2; cache_close(cache, &e2); }
        game_close(v);
        return err->code;
    }
    if (solver_open_egdb(s, opts_egdb_dir(o), cache ? cache_filename(cache) : args_str(o, "db"), err)) {
        solver_free(s);
        if (cache) { err_t e2; cache_close(cache, &e2); }
        game_close(v);
        return err->code;
    }
    if (args_flag(o, "no-line")) solver_ignore_line(s);   /* asked for: the position's value alone */
    /* a batch's positions are short: threads cost more than they give (default 1) */
    int batch = args_has(o, "batch") && args_str(o, "batch");
    s->ab.threads = batch ? args_int(o, "threads", 1) : opts_threads(o);
    /* solve's choices; analyze proves every move's value by alpha-beta */
    int wdl = args_has(o, "wdl") && args_flag(o, "wdl");
    const char *algo = args_has(o, "algo") ? args_str(o, "algo") : NULL;
    const char *goal = args_has(o, "goal") ? args_str(o, "goal") : NULL;
    s->ab.wdl_only = wdl;
    s->ab.node_limit = args_u64(o, "nodes", 0);
    s->ab.time_limit_ms = args_num(o, "time", 0);
    s->ab.stop = &opts_stop;
    s->ab.progress = solver_progress;
    s->wdl = wdl;
    if (algo && !strcmp(algo, "dfpn")) s->dfpn = s->wdl = 1;
    if (algo && !strcmp(algo, "manager")) s->manager = s->wdl = 1;
    if (goal) {
        if (strcmp(goal, "win") && strcmp(goal, "draw")) {
            err_set(err, GSW_EINPUT, "--goal: expected win or draw, not \"%s\"", goal);
            solver_close(s, &(err_t){ 0 });
            return GSW_EINPUT;
        }
        if (!s->dfpn && !s->manager) {
            err_set(err, GSW_EINPUT, "--goal needs --algo dfpn or manager (alpha-beta proves the whole value)");
            solver_close(s, &(err_t){ 0 });
            return GSW_EINPUT;
        }
        s->goal = !strcmp(goal, "win") ? DFPN_GOAL_WIN : DFPN_GOAL_DRAW;
    }
    return GSW_OK;
}

static int solver_close(solver_t *s, err_t *err)
{
    int rc = GSW_OK;
    if (s->cache) rc = cache_close(s->cache, err);
    solver_free(s);
    game_close(s->v);
    return rc;
}

/* Close at the end of a verb whose status is rc. Once an answer is printed
 * a cache that fails to store it is a warning, not a failure: the answer
 * stands (the cache is only a cache). */
static int solver_finish(solver_t *s, int answered, int rc)
{
    err_t e2;
    if (!solver_close(s, &e2)) return rc;
    if (rc || !strcmp(e2.msg, s->warned)) return rc;   /* the failure was said already: once is enough */
    if (answered) fprintf(stderr, "gsw: warning: %s (the answer stands; it was not stored)\n", e2.msg);
    else if (!rc) { fprintf(stderr, "gsw: %s\n", e2.msg); rc = e2.code; }
    return rc;
}

/* The JSON bound of a reported value: an unknown value's is "unknown". */
static const char *json_bound(gvalue_t g)
{
    return g.outcome == OUTCOME_UNKNOWN ? "unknown" : bound_name(g.bound);
}

/* What is proven, end to end, when it is not a settled value, or when the
 * search stopped (partial) before the distance was: a stopped solve's "win"
 * with no plies then says how far the distance got. */
static void json_proven(json_t *j, val_t lo, val_t hi, gvalue_t g, int partial)
{
    if (lo == hi || (!partial && g.outcome != OUTCOME_UNKNOWN && g.bound == BOUND_EXACT)) return;
    char l[24], h[24];
    value_bound_text(lo, l, sizeof l);
    value_bound_text(hi, h, sizeof h);
    json_obj(j, "proven");
    json_str(j, "at_least", l);
    json_str(j, "at_most", h);
    json_close(j, '}');
}

/* The heuristic engine's line when a budget ran out before the proof (h
 * NULL or depth 0: none). */
typedef struct heur_line {
    int depth;
    int32_t score;
    int proven;
    char pv[64][32];
    int pvlen;
} heur_line_t;

/* ---- the wall-clock budget (--time) ----
 * A solve with --time T ends within T of the process's start (of the
 * verb's, where the shell runs it): start-up, opening the cache and the
 * databases, the proof, the heuristic line after a proof that ran out and
 * closing all fit in it. The proof leaves the heuristic line a fifth of the
 * budget where the game has one. Without --time: no deadline (0). */
#define SOLVE_HEUR_SHARE 5

static double solve_deadline(const cli_args_t *o)
{
    if (args_num(o, "time", 0) <= 0) return 0;
    return (o->t_start > 0 ? o->t_start : gsw_now_ms()) + args_num(o, "time", 0);
}

/* What is left of the budget until `deadline` less `reserve`: at least a
 * millisecond (a limit of 0 would be none). */
static double solve_left_ms(double deadline, double reserve)
{
    double left = deadline - reserve - gsw_now_ms();
    return left >= 1 ? left : 1;
}

/* A budget spent without a proof: the heuristic engine's best line, with
 * what is left of the time budget (deadline; 0: none), else a node budget
 * of its own as large as the spent one, else a second. */
static void solve_heuristic(solver_t *s, cli_args_t *o, double deadline, const void *pos, heur_line_t *h)
{
    memset(h, 0, sizeof *h);
    if (!s->v->ops->evaluate || opts_stop) return;   /* (interrupted: no more searching) */
    ab_options_t ho = { .threads = 1, .node_limit = args_u64(o, "nodes", 0), .stop = &opts_stop };
    if (deadline > 0) ho.time_limit_ms = solve_left_ms(deadline, 0);
    if (!ho.node_limit && ho.time_limit_ms <= 0) ho.time_limit_ms = 1000;
    ab_result_t r;
    err_t err;
    if (solver_think(s, pos, &ho, &r, &err) || r.depth < 1) return;
    const game_ops_t *O = s->v->ops;
    GSW_POSBUF at[GSW_MAX_POS];
    memcpy(at, pos, O->pos_size);
    h->depth = r.depth;
    h->score = r.score;
    h->proven = r.proven;
    for (int i = 0; i < r.pvlen && i < 64; i++) {   /* named where each move is played */
        O->move_format(s->v, at, r.pv[i], h->pv[i], sizeof h->pv[i]);
        O->play(s->v, at, r.pv[i]);
        h->pvlen++;
    }
}

static void print_answer(const solver_t *s, cli_args_t *o, const char *ptext, const void *pos, const answer_t *a,
                         const heur_line_t *h)
{
    const game_ops_t *O = s->v->ops;
    char best[64] = "", spec[96];
    if (a->r.best != MOVE_NONE) O->move_format(s->v, pos, a->r.best, best, sizeof best);
    game_spec(s->v, spec, sizeof spec);
    gvalue_t g = value_report(s->v, pos, a->r.lo, a->r.hi);
    int score = 0, has_score = value_score(s->v, pos, a->r.lo, a->r.hi, s->wdl, &score);
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_str(&j, "value", outcome_name(g.outcome));
        if (g.plies >= 0) json_int(&j, "plies", g.plies); else json_null(&j, "plies");
        if (has_score) json_int(&j, "score", score); else json_null(&j, "score");
        if (*best) json_str(&j, "best", best); else json_null(&j, "best");
        json_str(&j, "bound", json_bound(g));
        json_int(&j, "nodes", (int64_t)a->r.nodes);
        json_num(&j, "time_ms", a->r.time_ms);
        json_str(&j, "source", a->source ? a->source : "search");
        if (a->note[0]) json_str(&j, "note", a->note);
        json_str(&j, "algo", s->manager ? "manager" : s->dfpn ? "dfpn" : "ab");
        json_str(&j, "rules", solver_line_note(s, a, (char[160]){ 0 }, 160) ? "position" : "game");
        json_bool(&j, "complete", !a->r.aborted);
        json_proven(&j, a->r.lo, a->r.hi, g, a->r.aborted);
        if (h && h->depth > 0) {   /* the budget ran out: the heuristic engine's line */
            json_obj(&j, "heuristic");
            if (h->proven) {
                char pt[64];
                value_text(h->score, h->score, pt, sizeof pt);
                json_str(&j, "proven", pt);
            }
            json_int(&j, "score", h->score);
            json_int(&j, "depth", h->depth);
            json_arr(&j, "pv");
            for (int i = 0; i < h->pvlen; i++) json_str(&j, NULL, h->pv[i]);
            json_close(&j, ']');
            json_close(&j, '}');
        }
        json_end(&j);
        return;
    }
    char vt[128], nt[32];
    value_text(a->r.lo, a->r.hi, vt, sizeof vt);
    char note[160];
    printf("%s \"%s\": %s", spec, ptext, vt);
    if (a->note[0]) printf(" (%s)", a->note);
    if (has_score) printf(" (score %+d)", score);
    if (*best) printf(", best move %s", best);
    if (solver_line_note(s, a, note, sizeof note)) printf(" [%s]", note);
    printf("\n");
    if (h && h->depth > 0) {
        printf("heuristic: score %+d at depth %d:", (int)h->score, h->depth);
        for (int i = 0; i < h->pvlen; i++) printf(" %s", h->pv[i]);
        printf("\n");
    }
    fflush(stdout);
    fprintf(stderr, "%s nodes, %.3f ms%s%s%s\n", opts_thousands(a->r.nodes, nt, sizeof nt), a->r.time_ms,
            a->phrase ? " (from " : "", a->phrase ? a->phrase : "", a->phrase ? ")" : "");
}

/* ---- batch ---- */

static int cli_batch(cli_args_t *o)
{
    err_t err;
    solver_t s;
    if (solver_open(o, o->pos[0], 0, &s, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    s.ab.no_best = 1;   /* batch lines report the score, not a move */
    s.ab.progress = NULL;
    batch_line_t *lines = NULL;
    int n = 0;
    int rc = batch_read(s.v, args_str(o, "batch"), &lines, &n, &err);
    if (rc) { fprintf(stderr, "gsw: %s\n", err.msg); solver_close(&s, &err); return rc; }
    GSW_POSBUF pos[GSW_MAX_POS];
    int mismatches = 0, done = 0, unsolved = 0, seen = 0;
    double total_us = 0;
    uint64_t total_nodes = 0;
    json_t j;   /* --json: one document, the lines in an array and the summary */
    if (args_flag(o, "json")) {
        char spec[96];
        game_spec(s.v, spec, sizeof spec);
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_arr(&j, "lines");
    }
    for (int i = 0; i < n && !opts_stop; i++) {
        const char *moves = strcmp(lines[i].moves, "startpos") ? lines[i].moves : "";
        game_pos_parse(s.v, moves, pos, &err);
        if (args_flag(o, "clear-hash")) solver_clear(&s);
        answer_t a;
        if (solver_run(&s, pos, &a, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); rc = err.code; break; }
        if (a.r.aborted && opts_stop) break;   /* Ctrl-C: the batch stops */
        /* a position whose budget (--nodes, --time: each line's own) ran
           out is said so, and the batch goes on */
        const int spent = a.r.aborted;
        int score = 0, has = !spent && value_score(s.v, pos, a.r.lo, a.r.hi, s.wdl, &score);
        double us = a.r.time_ms * 1000.0;
        /* a win/draw/loss answer (--wdl, df-pn: no distance) is held to
           the expected score's sign, an exact one to the score */
        gvalue_t gv = value_report(s.v, pos, a.r.lo, a.r.hi);
        int exp = lines[i].expected, sign = (score > 0) - (score < 0), esign = (exp > 0) - (exp < 0);
        int bad = !spent && lines[i].has_expected && (!has || (gv.plies < 0 ? sign != esign : score != exp));
        mismatches += bad;
        seen++;
        if (spent) unsolved++;
        else {
            done++;
            total_us += us;
            total_nodes += a.r.nodes;
        }
        if (args_flag(o, "json")) {
            json_obj(&j, NULL);
            json_str(&j, "position", lines[i].moves);
            if (has) json_int(&j, "score", score); else json_null(&j, "score");
            json_str(&j, "value", outcome_name(gv.outcome));
            if (gv.plies >= 0) json_int(&j, "plies", gv.plies); else json_null(&j, "plies");
            json_int(&j, "nodes", (int64_t)a.r.nodes);
            json_num(&j, "time_us", us);
            if (lines[i].has_expected) json_int(&j, "expected", lines[i].expected);
            json_bool(&j, "complete", !spent);
            if (spent) json_null(&j, "ok"); else json_bool(&j, "ok", !bad);
            json_close(&j, '}');
        } else if (spent) {
            printf("%s ? %llu %.0f NOT SOLVED (budget spent)\n", lines[i].moves, (unsigned long long)a.r.nodes, us);
        } else {
            printf("%s %d %llu %.0f%s\n", lines[i].moves, score, (unsigned long long)a.r.nodes, us,
                   bad ? " MISMATCH" : "");
        }
    }
    int interrupted = seen < n;
    if (args_flag(o, "json")) {
        json_close(&j, ']');
        json_obj(&j, "summary");
        json_int(&j, "positions", done);
        json_int(&j, "lines", n);
        json_int(&j, "unsolved", unsolved);
        json_int(&j, "mismatches", mismatches);
        json_num(&j, "mean_time_us", done ? total_us / done : 0);
        json_num(&j, "mean_nodes", done ? (double)total_nodes / done : 0);
        json_bool(&j, "complete", !interrupted && !unsolved);
        json_close(&j, '}');
        json_end(&j);
    } else {
        printf("positions %d, mismatches %d, mean time %.1f us, mean nodes %.1f", done, mismatches,
               done ? total_us / done : 0, done ? (double)total_nodes / done : 0);
        if (unsolved) printf(", not solved within the budget %d", unsolved);
        printf("\n");
    }
    fflush(stdout);
    for (int i = 0; i < n; i++) free(lines[i].moves);
    free(lines);
    rc = solver_finish(&s, 1, rc);
    char a[32], b[32];
    if (!rc && interrupted) {
        fprintf(stderr, "gsw: interrupted after %s of %s positions\n", opts_thousands((uint64_t)seen, a, sizeof a),
                opts_thousands((uint64_t)n, b, sizeof b));
        rc = GSW_EFAIL;
    }
    if (!rc && unsolved) {
        fprintf(stderr, "gsw: %s of %s positions not solved within the budget (%s)\n",
                opts_thousands((uint64_t)unsolved, a, sizeof a), opts_thousands((uint64_t)seen, b, sizeof b),
                args_given(o, "nodes") ? "--nodes" : "--time");
        rc = GSW_EFAIL;
    }
    if (!rc && mismatches) { fprintf(stderr, "gsw: %s mismatches\n", opts_thousands((uint64_t)mismatches, a, sizeof a)); rc = GSW_EFAIL; }
    return rc;
}


/* Is the game named by spec a one-player puzzle? (then cli/puzzle_cmd.c solves it) */
static int solve_is_puzzle(const char *spec)
{
    char name[64];
    size_t n = strcspn(spec, ":");
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), spec);
    const game_t *g = game_find(name);
    return g && g->players == 1;
}

/* ---- solve --mate: the shortest forced mate ---- */

/* Store a mate's proof tree as gsw proof stores df-pn's (the key's
 * orientation): a mate for the side to move proves its win; being mated
 * disproves its "at least a draw". Returns 1 when stored. */
static int mate_store(cache_t *cache, const gv_t *v, const void *pos, const char *ptext, const proof_tree_t *t,
                      int mated, err_t *err)
{
    const game_ops_t *O = v->ops;
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = O->pos_key(v, pos, key, &sym);
    proof_tree_t canon = *t;
    canon.goal = mated ? DFPN_GOAL_DRAW : DFPN_GOAL_WIN;
    canon.result = mated ? DFPN_DISPROVEN : DFPN_PROVEN;
    canon.node = malloc((size_t)t->n * sizeof *t->node);
    if (!canon.node) return err_set(err, GSW_EFAIL, "out of memory");
    memcpy(canon.node, t->node, (size_t)t->n * sizeof *t->node);
    if (sym) for (int i = 1; i < t->n; i++) canon.node[i].move = O->move_sym(v, t->node[i].move, sym, 0);
    int rc = proofs_put(cache, v->game->name, v->name, key, klen, ptext, &canon, err);
    free(canon.node);
    return rc ? -1 : cache_storing(cache);
}

/* gsw solve chess FEN --mate [--max-moves N]: df-pn proves "mate within N
 * moves" for N = 1, 2, .. (2N - 1 plies; the first proven N is the least,
 * N - 1 having been disproven), then, if the side to move has none, whether
 * it is itself mated within N (2N plies, every move of its own answered).
 * The proof tree goes into the cache; the line is its principal line. */
static int cli_solve_mate(cli_args_t *o)
{
    if (args_str(o, "batch")) { fprintf(stderr, "gsw: --mate solves one position (not --batch)\n"); return GSW_EINPUT; }
    if (o->npos < 1) return opts_usage_error(o, 2, "solve needs a GAME");
    if (o->npos > 2) return opts_usage_error(o, 2, NULL);
    if (args_str(o, "algo") && strcmp(args_str(o, "algo"), "dfpn")) {
        fprintf(stderr, "gsw: --mate proves with df-pn (--algo %s does not apply)\n", args_str(o, "algo"));
        return GSW_EINPUT;
    }
    if (args_int(o, "max-moves", 0) > 50) { fprintf(stderr, "gsw: --max-moves: at most 50 with --mate\n"); return GSW_EINPUT; }
    if (args_str(o, "goal") || args_flag(o, "wdl")) { fprintf(stderr, "gsw: --mate proves a mate (--goal and --wdl do not apply)\n"); return GSW_EINPUT; }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (strcmp(v->game->name, "chess")) {
        fprintf(stderr, "gsw: --mate is for chess (a forced checkmate), not %s\n", v->game->name);
        game_close(v);
        return GSW_EINPUT;
    }
    const game_ops_t *O = v->ops;
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, ptext, pos, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return err.code; }
    cache_t *cache = NULL;
    if (!args_flag(o, "no-cache") && opts_cache_open(o, &cache, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return err.code; }
    int max = args_int(o, "max-moves", 0) ? args_int(o, "max-moves", 0) : 5;
    char spec[96];
    game_spec(v, spec, sizeof spec);
    val_t tv;
    int over = O->terminal(v, pos, &tv), rc = GSW_OK, plies = -1, mated = 0, stored = 0, mate = 0;
    proof_tree_t t;
    memset(&t, 0, sizeof t);
    dfpn_result_t r;
    memset(&r, 0, sizeof r);
    dfpn_table_t tab;
    if (!over && dfpn_table_init(&tab, opts_hash_mb(o), &err)) rc = err.code;
    else if (!over) {
        double deadline = solve_deadline(o);
        dfpn_options_t dopt = { .table = &tab, .node_limit = args_u64(o, "nodes", 0), .stop = &opts_stop,
                                .time_limit_ms = deadline > 0 ? solve_left_ms(deadline, 0) : 0,
                                .count = !args_flag(o, "no-line") };   /* a mate the 50-move rule pre-empts is none */
        rc = solver_mate(v, pos, max, &dopt, &t, &mate, &r, &err);
        mated = mate < 0;
        plies = mate > 0 ? 2 * mate - 1 : mate < 0 ? -2 * mate : -1;
        dfpn_table_free(&tab);
        if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    }
    /* the answer: mate in N moves, positive when the side to move mates */
    int has_mate = plies > 0;
    if (over && tv < 0) has_mate = 1;   /* checkmated already: mate 0 */
    move_t line[128];
    int len = plies > 0 ? proof_tree_line(&t, line, 128) : 0;
    if (!rc && plies > 0 && cache) {
        int st = mate_store(cache, v, pos, ptext, &t, mated, &err);
        if (st < 0) fprintf(stderr, "gsw: warning: %s (the answer stands; its proof tree was not stored)\n", err.msg);
        stored = st > 0;
    }
    /* the line in both notations, each move named where it is played */
    char uci[128][8], san[128][16];
    GSW_POSBUF at[GSW_MAX_POS];
    memcpy(at, pos, O->pos_size);
    for (int i = 0; i < len; i++) {
        ch_format_uci((const ch_pos_t *)at, line[i], uci[i], sizeof uci[i]);
        O->move_format(v, at, line[i], san[i], sizeof san[i]);
        O->play(v, at, line[i]);
    }
    if (!rc || args_flag(o, "json")) {
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            json_str(&j, "value", rc ? "unknown" : plies > 0 ? (mated ? "loss" : "win") : over ? (tv < 0 ? "loss" : "draw") : "unknown");
            if (!rc && plies > 0) json_int(&j, "plies", plies);
            else if (over) json_int(&j, "plies", 0);
            else json_null(&j, "plies");
            json_null(&j, "score");
            if (len > 0) json_str(&j, "best", san[0]); else json_null(&j, "best");
            json_str(&j, "bound", !rc && (plies > 0 || over) ? "exact" : "unknown");
            json_int(&j, "nodes", (int64_t)r.nodes);
            json_num(&j, "time_ms", r.time_ms);
            json_str(&j, "source", "search");
            json_str(&j, "algo", "dfpn");
            json_bool(&j, "complete", !rc);
            if (!rc && has_mate) json_int(&j, "mate", mate); else json_null(&j, "mate");
            json_int(&j, "max_moves", max);
            json_arr(&j, "line");
            for (int i = 0; i < len; i++) json_str(&j, NULL, uci[i]);
            json_close(&j, ']');
            if (plies > 0) json_int(&j, "tree_size", t.n);
            json_bool(&j, "stored", stored);
            json_end(&j);
        } else if (over) {
            char why[64] = "";
            if (O->terminal_why) O->terminal_why(v, pos, why, sizeof why);
            printf("%s \"%s\": the game is over (%s)\n", spec, ptext, why);
        } else if (plies > 0) {
            printf("%s \"%s\": %s %d:", spec, ptext, mated ? "the side to move is mated in" : "mate in", mated ? -mate : mate);
            for (int i = 0; i < len; i++) printf(" %s", san[i]);
            printf("\n");
            if (mate > 1) printf("(no mate in %d: disproven)\n", mate - 1);
            if (mate < -1) printf("(not mated in %d: disproven)\n", -mate - 1);
            printf("proof tree: %d nodes, depth %d%s\n", t.n, t.depth, stored ? " (stored: gsw proof show)" : "");
        } else {
            printf("%s \"%s\": no mate in %d or fewer (for either side)\n", spec, ptext, max);
        }
        fflush(stdout);
        char nt[32];
        if (!over) fprintf(stderr, "%s nodes, %.1f ms, %d proofs\n", opts_thousands(r.nodes, nt, sizeof nt), r.time_ms, r.runs);
        if (args_str(o, "certificate")) {   /* the mate proven, certified (or the game's end) */
            if (!over && plies < 0) {
                fprintf(stderr, "gsw: --certificate: no mate was proven, so there is nothing to certify\n");
                rc = GSW_EFAIL;
            } else {
                val_t b[2];
                if (over) O->terminal(v, pos, &b[0]), b[1] = b[0];
                else b[0] = b[1] = mated ? val_loss(plies) : val_win(plies);
                rc = proof_cert_write(o, v, pos, ptext, b, args_str(o, "certificate"), stderr);
            }
        }
    }
    proof_tree_free(&t);
    if (cache) {
        err_t e2;
        if (cache_close(cache, &e2) && !rc) fprintf(stderr, "gsw: warning: %s (the answer stands; it was not stored)\n", e2.msg);
    }
    game_close(v);
    return rc;
}

static int cli_solve(cli_args_t *o)
{
    if (args_flag(o, "mate")) return cli_solve_mate(o);
    if (args_int(o, "max-moves", 0)) { fprintf(stderr, "gsw: --max-moves goes with --mate\n"); return GSW_EINPUT; }
    if (o->npos >= 1 && solve_is_puzzle(o->pos[0])) {
        if (args_str(o, "certificate")) {
            fprintf(stderr, "gsw: --certificate: certificates are for two-player games (a puzzle's solution is its line)\n");
            return GSW_EINPUT;
        }
        return cli_puzzle_solve(o);
    }
    if (o->npos < 1) return opts_usage_error(o, 2, "solve needs a GAME");
    if (args_str(o, "batch") && o->npos != 1) {
        fprintf(stderr, "gsw: unexpected argument '%s': --batch reads the positions from its file\n", o->pos[1]);
        return GSW_EINPUT;
    }
    if (o->npos > 2) return opts_usage_error(o, 2, NULL);
    if (args_str(o, "batch") && args_str(o, "certificate")) {
        fprintf(stderr, "gsw: --certificate is for one position (not --batch)\n");
        return GSW_EINPUT;
    }
    if (args_str(o, "batch")) return cli_batch(o);
    err_t err;
    solver_t s;
    if (solver_open(o, o->pos[0], 1, &s, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = game_pos_parse(s.v, ptext, pos, &err);
    answer_t a;
    int answered = 0;
    double deadline = solve_deadline(o);
    if (deadline > 0)   /* the proof: the budget from the start, less the heuristic line's share */
        s.ab.time_limit_ms = solve_left_ms(deadline, s.v->ops->evaluate ? args_num(o, "time", 0) / SOLVE_HEUR_SHARE : 0);
    solve_ticker_t tick;
    /* where proofs are out of reach from most positions (chess, checkers)
       and no budget is given, a solve still going after a while says so */
    char note[300] = "";
    if (s.v->game->play_opponent && !args_num(o, "time", 0) && !args_u64(o, "nodes", 0))
        snprintf(note, sizeof note, "gsw: %s: proofs are out of reach from most positions: this solve has no budget, so "
                 "it runs until it ends or Ctrl-C stops it (--time MS or --nodes N sets one); its progress:",
                 s.v->game->name);
    solve_ticker_start(&tick, o->t_start > 0 ? o->t_start : gsw_now_ms(), note[0] ? note : NULL);
    s.ab.progress_ctx = &tick;
    s.note = solve_note;
    s.warn_ctx = &tick;
    if (!rc) rc = solver_run(&s, pos, &a, &err);
    solve_ticker_stop(&tick);
    s.ab.progress_ctx = NULL;
    s.note = NULL;
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    else {
        heur_line_t h;
        if (a.r.aborted) solve_heuristic(&s, o, deadline, pos, &h);
        print_answer(&s, o, ptext, pos, &a, a.r.aborted ? &h : NULL);
        answered = 1;
        if (a.r.aborted) {
            fprintf(stderr, "gsw: %s before the proof was complete\n", opts_term ? "interrupted (terminated by a signal)"
                    : opts_stop ? "interrupted" : a.r.line_full ? "a line outgrew the search's " GSW_STR(AB_MAX_PLY) " plies" : "budget spent");
            rc = GSW_EFAIL;
        } else if (args_str(o, "certificate")) {   /* the value reported, certified */
            val_t b[2] = { a.r.lo, a.r.hi };
            rc = proof_cert_write(o, s.v, pos, ptext, b, args_str(o, "certificate"), stderr);
        }
    }
    return solver_finish(&s, answered, rc);
}


/* analyze's budget for each move where proofs are out of reach and no
 * budget is given */
#define ANALYZE_MOVE_MS 2000.0

/* One move as analyze found it: its value for the mover, and whether
 * the budget ran out first (its bounds are what was proven). */
typedef struct analyzed {
    move_value_t mv;
    int aborted;
} analyzed_t;

static int cli_analyze(cli_args_t *o)
{
    if (o->npos < 1 || o->npos > 2) return opts_usage_error(o, 2, "analyze needs a GAME");
    if (solve_is_puzzle(o->pos[0])) return cli_puzzle_analyze(o);
    err_t err;
    solver_t s;
    if (solver_open(o, o->pos[0], 1, &s, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const game_ops_t *O = s.v->ops;
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
    int rc = game_pos_parse(s.v, ptext, pos, &err);
    if (rc) { fprintf(stderr, "gsw: %s\n", err.msg); solver_close(&s, &err); return rc; }
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(s.v, pos, mv);
    /* a clock the move-count rule has run out ends the game too (a draw),
       as solve and the workbench say: no move to value */
    const int ruled = solver_counts(&s) && game_count_over(s.v, pos);
    if (ruled) n = 0;
    json_t j;
    char spec[96];
    game_spec(s.v, spec, sizeof spec);
    if (args_flag(o, "json")) {
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        if (ruled) json_str(&j, "over", O->count_rule);
        json_arr(&j, "moves");
    } else if (ruled) {
        printf("%s \"%s\": the game is over (%s: a draw)\n", spec, ptext, O->count_rule);
    } else if (n == 0) {
        printf("%s \"%s\": the game is over\n", spec, ptext);
    }
    uint64_t nodes = 0;
    double t0 = gsw_now_ms();
    int stopped = 0, failed = 0, open = 0;
    /* where proofs are out of reach from most positions (chess, checkers)
       and no budget is given, each move gets a default one, said */
    int per_move = !args_num(o, "time", 0) && !args_u64(o, "nodes", 0) && s.v->game->play_opponent && n > 0, told = 0;
    if (per_move) s.ab.time_limit_ms = ANALYZE_MOVE_MS;
    /* the position's value where the book has it: no move is worth more (a
       cache row is not taken for that: a stale one would spread) */
    answer_t root;
    val_t klo = -VAL_WIN + 1;
    int rknown = n > 0 ? solver_cached(&s, pos, &root, &err) : 0;
    if (rknown < 0) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        rc = err.code;
        failed = 1;
    } else if (rknown && answer_from(&root, "book") && val_down(root.r.hi) > klo) klo = val_down(root.r.hi);
    analyzed_t got[GSW_MAX_MOVES];   /* each move valued, in the game's order */
    int ngot = 0;
    uint8_t valued[GSW_MAX_MOVES] = { 0 };
    /* what is known first (the book, the cache, the databases), for every
       move, then a search for each move still open: a budget spent on one
       never hides another's stored value */
    for (int pass = 0; pass < 2 && !stopped && !failed; pass++)
    for (int i = 0; i < n && !stopped && !failed; i++) {
        if (valued[i]) continue;
        memcpy(child, pos, O->pos_size);
        O->play(s.v, child, mv[i]);
        answer_t a;
        /* the book or the cache first, without asking for the move's best reply */
        int known = solver_cached(&s, child, &a, &err);
        if (known == 0 && pass == 0) continue;
        valued[i] = 1;
        if (known < 0 || (!known && solver_run_within(&s, child, klo, VAL_WIN - 1, &a, &err))) {
            fprintf(stderr, "gsw: %s\n", err.msg);
            rc = err.code;
            failed = 1;
            break;
        }
        if (per_move && !told && a.r.nodes > 0) {   /* said once a move was searched (not for a database's answers) */
            fflush(stdout);
            fprintf(stderr, "gsw: %s: proofs are out of reach from most positions: each move gets %.0f s "
                    "(--time MS or --nodes N sets the budget of each)\n", s.v->game->name, ANALYZE_MOVE_MS / 1000);
            told = 1;
        }
        nodes += a.r.nodes;
        /* a spent budget: this move's bounds are shown; a wall-clock budget
           (--time) then ends the list, a node budget is each move's own */
        open += a.r.aborted;
        stopped = a.r.aborted && ((!per_move && args_num(o, "time", 0) > 0) || opts_stop);
        /* the mover's view: the child's value seen from the other side */
        analyzed_t *m = &got[ngot++];
        m->aborted = a.r.aborted;
        m->mv = (move_value_t){ .move = mv[i], .state = MV_PROVEN, .lo = val_up(a.r.hi), .hi = val_up(a.r.lo), .conv = -1 };
        O->move_format(s.v, pos, mv[i], m->mv.text, sizeof m->mv.text);
        /* a result the databases hold without its distance: the plies to
           its next conversion, where they know them */
        if (m->mv.lo != m->mv.hi && (m->mv.lo > VAL_DRAW || m->mv.hi < VAL_DRAW)) {
            m->mv.final = 1;
            if (s.ab.oracle) m->mv.conv = (int16_t)source_conversion_plies(s.v, s.ab.oracle, child);
        }
        if (m->mv.lo == VAL_DRAW && m->mv.hi == VAL_DRAW)   /* a draw by the move-count rule: what it is without it */
            m->mv.rule_draw = (uint8_t)solver_rule_draw(&s, child);
        if (m->mv.rule_draw && s.ab.oracle) m->mv.conv = (int16_t)source_conversion_plies(s.v, s.ab.oracle, child);
    }
    /* every list of moves best first, by the one order (move_value_cmp) */
    int order[GSW_MAX_MOVES];
    move_value_t vals[GSW_MAX_MOVES];
    for (int i = 0; i < ngot; i++) vals[i] = got[i].mv;
    move_values_order(vals, ngot, order);
    for (int r = 0; r < ngot && !failed; r++) {
        const analyzed_t *m = &got[order[r]];
        val_t lo = m->mv.lo, hi = m->mv.hi;
        gvalue_t g = value_report(s.v, pos, lo, hi);
        int score = 0, has = value_score(s.v, pos, lo, hi, s.wdl, &score), conv = m->mv.conv;
        if (args_flag(o, "json")) {
            json_obj(&j, NULL);
            json_str(&j, "move", m->mv.text);
            json_int(&j, "rank", r + 1);
            json_str(&j, "value", outcome_name(g.outcome));
            if (g.plies >= 0) json_int(&j, "plies", g.plies); else json_null(&j, "plies");
            if (conv >= 0) json_int(&j, "conversion_plies", conv);
            if (m->mv.rule_draw) json_str(&j, "without_rule", m->mv.rule_draw == 1 ? "win" : "loss");
            if (has) json_int(&j, "score", score); else json_null(&j, "score");
            json_str(&j, "bound", json_bound(g));
            json_proven(&j, lo, hi, g, m->aborted);
            json_close(&j, '}');
        } else {
            char vt[128];
            value_text(lo, hi, vt, sizeof vt);
            if (conv >= 0 && !m->mv.rule_draw) snprintf(vt + strlen(vt), sizeof vt - strlen(vt), ", converts in %d", conv);
            if (m->mv.rule_draw) {
                char w[64];
                rule_draw_words(s.v, m->mv.rule_draw, w, sizeof w);
                snprintf(vt + strlen(vt), sizeof vt - strlen(vt), " (%s)", w);
            }
            printf("%-4s %-22s", m->mv.text, vt);
            if (has) printf(" score %+d", score);
            printf("\n");
        }
    }
    double ms = gsw_now_ms() - t0;
    if (args_flag(o, "json") && failed) json_discard(&j);
    else if (args_flag(o, "json")) {
        json_close(&j, ']');
        json_str(&j, "rules", solver_line_note(&s, NULL, (char[160]){ 0 }, 160) ? "position" : "game");
        json_int(&j, "nodes", (int64_t)nodes);
        json_num(&j, "time_ms", ms);
        json_bool(&j, "complete", !stopped && !open);
        json_end(&j);
    } else if (!failed) {
        char nt[32], note[160];
        if (solver_line_note(&s, NULL, note, sizeof note)) printf("(%s)\n", note);
        fflush(stdout);
        fprintf(stderr, "%s nodes, %.1f ms\n", opts_thousands(nodes, nt, sizeof nt), ms);
    }
    if (stopped) {
        fprintf(stderr, "gsw: %s before every move was proved\n",
                opts_term ? "interrupted (terminated by a signal)" : opts_stop ? "interrupted" : "budget spent");
        rc = GSW_EFAIL;
    } else if (open) {   /* every move within its budget: some left open */
        if (per_move)
            fprintf(stderr, "gsw: %d of %d moves not proved within %.0f s each (their bounds are shown)\n", open, n,
                    ANALYZE_MOVE_MS / 1000);
        else
            fprintf(stderr, "gsw: %d of %d moves not proved within %llu nodes each (their bounds are shown)\n", open, n,
                    (unsigned long long)args_u64(o, "nodes", 0));
        rc = GSW_EFAIL;
    }
    return solver_finish(&s, !failed, rc);
}

/* --algo's value: one of the three. */
static int solve_algo_check(const char *val)
{
    if (!strcmp(val, "ab") || !strcmp(val, "dfpn") || !strcmp(val, "manager")) return 0;
    fprintf(stderr, "gsw: --algo: unknown algorithm \"%s\" (ab, dfpn, manager)\n", val);
    return GSW_EINPUT;
}

static const cli_opt_t solve_own[] = {
    { "algo", OPT_STR, "ab|dfpn|manager", "alpha-beta (the default), proof numbers, the proof-tree manager", 0, 0, solve_algo_check },
    { "goal", OPT_STR, "win|draw", "with dfpn or manager: prove only \"win?\" or \"at least a draw?\"", 0, 0, NULL },
    { "wdl", OPT_FLAG, NULL, "win/draw/loss only (faster)", 0, 0, NULL },
    OPT_NO_LINE,
    { "batch", OPT_STR, "FILE", "lines \"MOVES [EXPECTED]\" (- = stdin), each solved and checked", 0, 0, NULL },
    { "clear-hash", OPT_FLAG, NULL, "--batch: empty the table before each line", 0, 0, NULL },
    { "certificate", OPT_STR, "FILE", "a proven value: write its certificate (gsw-check FILE checks it)", 0, 0, NULL },
    { "mate", OPT_FLAG, NULL, "chess: the shortest forced mate, proven", 0, 0, NULL },
    { "max-moves", OPT_INT, "N", "--mate: the longest mate looked for (default 5)", 1, 1000000, NULL },
    PUZZLE_OPT_BOARD,
    { "min-moves", OPT_FLAG, NULL, "a puzzle: a shortest solution, proved", 0, 0, NULL },
    { "player", OPT_STR, "heuristic:NAME", "a puzzle: play one heuristic player", 0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const solve_opts[] = { opts_json, opts_cache, opts_search, opts_budget, opts_egdb, solve_own, NULL };

const cli_verb_t verb_solve = {
    "solve", "gsw solve GAME[:VARIANT] [POSITION] [--algo ab|dfpn|manager] [--goal win|draw] [--wdl] [--threads N] [--hash MB] [--batch FILE] [--clear-hash] [--dir DIR] [--no-line] [--certificate FILE]\n"
               "  the value under the game's move-count rule, from the FEN's clock; --no-line: the position's alone\n"
               "       gsw solve chess FEN --mate [--max-moves N]   (the shortest forced mate, proven; default N 5)\n"
               "       gsw solve solitaire[:BOARD[,start=HOLES][,goal=HOLE|any][,left=K]] [POSITION] [--board FILE]\n"
               "                 [--min-moves] [--player heuristic:NAME]\n"
               "  solitaire boards: english (default), french, wiegleb, triangle, or --board FILE (text art: o peg,\n"
               "  . hole, space none; triangular when rows are staggered). Holes: column letter + row from the top\n"
               "  left (English centre d4); triangular boards number them 1.. row by row. start= lists the vacant\n"
               "  holes (a+b); goal= a hole or any (default: the centre, else any); left=K: at most K pegs.\n"
               "  POSITION: rows of o and . joined by / (holes only), or vacant holes (c4+d4). Moves: d2-d4;\n"
               "  chains d2-d4-f4. Players: table, lookahead, alternatives, double, classes",
      "prove the value of a position (win/draw/loss, distance, best move); solve a puzzle", cli_solve, 2, NULL, .opts = solve_opts, .egdb = 1
};

static const cli_opt_t analyze_own[] = {
    OPT_NO_LINE,
    PUZZLE_OPT_BOARD,
    OPT_END,
};
static const cli_opt_t *const analyze_opts[] = { opts_json, opts_cache, opts_search, opts_budget, opts_egdb, analyze_own, NULL };

const cli_verb_t verb_analyze = {
    "analyze", "gsw analyze GAME[:VARIANT] [POSITION] [--threads N] [--hash MB] [--dir DIR] [--no-line]",
      "the proven value of every legal move (a puzzle: each move solvable or a dead end)", cli_analyze, 2, NULL, .opts = analyze_opts, .egdb = 1
};
