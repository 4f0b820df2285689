/* gsw bench: a fixed, short set of positions per engine, each engine's
 * node count and speed (Connect Four's alpha-beta and df-pn through the
 * solver's door, checkers' and chess's heuristic search, the retrograde
 * engine on a small chess ending, a BDD count). With one thread the counts are the same from run to run, so a
 * commit that changes a search can quote them. `gsw bench GAME --players`
 * stays the puzzles' players side by side (puzzle_cmd.c). */
#include "cli/bench_cmd.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/game.h"
#include "core/retro.h"
#include "games/connect4/c4.h"
#include "games/connect4/c4_bdd.h"
#include "solve/egdb.h"
#include "solve/solver.h"
#include "cli/json.h"
#include "cli/opts.h"
#include "cli/puzzle_cmd.h"

typedef enum { BENCH_EXACT, BENCH_DFPN, BENCH_THINK, BENCH_RETRO, BENCH_BDD } bench_kind_t;

typedef struct bench_engine {
    const char *name;            /* the JSON's name: "chess-search" */
    const char *game;            /* the game it runs on (a spec game_open takes) */
    bench_kind_t kind;
    int depth;                   /* BENCH_THINK: each position's depth */
    const char *what;            /* in words, for the table */
    const char *const *pos;      /* its positions (NULL-terminated); BENCH_BDD: none */
} bench_engine_t;

typedef struct bench_row {
    int runs;                    /* positions searched, endings built, plies counted */
    uint64_t nodes;
    double ms;
} bench_row_t;

/* Connect Four 7x6, as move sequences (columns 1-7), from Pascal Pons's
 * six test sets: for alpha-beta's exact values the first three positions
 * of Test_L3_R1, Test_L2_R1, Test_L2_R2, Test_L1_R1 and Test_L1_R2 (end,
 * middle and beginning of a game); for df-pn's win/draw/loss the 4th to
 * 12th of Test_L1_R1, Test_L1_R2 and Test_L2_R2. */
static const char *const c4_ab_pos[] = {
    "2252576253462244111563365343671351441", "7422341735647741166133573473242566",
    "23163416124767223154467471272416755633", "5554224333234511764415115", "52753311433677442422121",
    "1233722555341451114725221333", "274552224131661", "5455174361263362", "2531276566711153",
    "32164625", "6146", "243335424257", "32751571231557", "335662333565", "2416615552", NULL
};
static const char *const c4_dfpn_pos[] = {
    "5512243243536",
    "22144426444",
    "265756512",
    "65444437612",
    "17516442226766",
    "7343363417254",
    "74746315233",
    "5654767662",
    "74642572132",
    "157564142155",
    "1616621455211",
    "2541266355551",
    "5371555645",
    "23156612526",
    "13134411534775",
    "23766176641753",
    "54676552255627",
    "274121776146",
    "37313333717124171162542",
    "6614446666373154",
    "24617524315172127",
    "6242432155656447531617622",
    "4642332434166445",
    "165713352355467777",
    "7441746225252552",
    "7225753363613131156611",
    "246767232112661771721576",
    NULL
};
/* Checkers: the start, two openings a few moves in (each with a capture
 * pending), Payne's Fourth Position and a 7-piece ending with kings. */
static const char *const ck_pos[] = {
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W16,17,20,23,25,26,28,30,31,32:B1,2,3,4,6,7,10,12,18",
    "B:W17,22,24,26,28,29,30,31,32:B1,2,3,4,5,8,10,15,19",
    "B:WK31,K32,30:BK20,K22,K23,21",
    "B:WK9,12,K21:B1,K4,8,10", NULL
};
/* Chess: the start, the perft suite's positions 2 to 6 (chessprogramming
 * wiki), and Fine's No. 70 (a pawn ending the table decides). */
static const char *const ch_pos[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1", NULL
};
/* The retrograde engine: king and pawn against king, with the endings its
 * promotions reach (KQK, KRK, KBK, KNK, KK), distance to mate. */
static const char *const retro_pos[] = { "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", NULL };

static const bench_engine_t bench_engines[] = {
    { "connect4-ab", "connect4", BENCH_EXACT, 0, "Connect Four 7x6 alpha-beta, exact", c4_ab_pos },
    { "connect4-dfpn", "connect4", BENCH_DFPN, 0, "Connect Four 7x6 df-pn, win/draw/loss", c4_dfpn_pos },
    { "connect4-bdd", "connect4:5x4", BENCH_BDD, 0, "Connect Four 5x4 positions counted on BDDs", NULL },
    { "checkers-search", "checkers", BENCH_THINK, 14, "checkers heuristic search, depth 14", ck_pos },
    { "chess-search", "chess", BENCH_THINK, 10, "chess heuristic search, depth 10", ch_pos },
    { "chess-retrograde", "chess", BENCH_RETRO, 0, "chess retrograde: KPK and its promotions, DTM", retro_pos },
};
#define BENCH_N ((int)(sizeof bench_engines / sizeof bench_engines[0]))

/* A folder and what it holds removed (the retrograde build's scratch). */
static void bench_rmtree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            struct stat st;
            if (!lstat(sub, &st) && S_ISDIR(st.st_mode)) bench_rmtree(sub);
            else unlink(sub);
        }
        closedir(d);
    }
    rmdir(path);
}

/* Searches through the door: no cache, book, databases or tables, a table
 * emptied before each position, so each counts alone. */
static int bench_search(const bench_engine_t *e, gv_t *v, int threads, size_t hash_mb, bench_row_t *row, err_t *err)
{
    solver_t s;
    if (solver_init(&s, v, hash_mb, NULL, err)) return err->code;
    s.no_book = 1;
    s.ab.threads = threads;
    s.ab.stop = &opts_stop;
    if (e->kind == BENCH_DFPN) s.dfpn = s.wdl = 1;
    int rc = GSW_OK;
    for (int i = 0; !rc && e->pos[i] && !opts_stop; i++) {
        GSW_POSBUF pos[GSW_MAX_POS];
        if ((rc = game_pos_parse(v, e->pos[i], pos, err))) break;
        solver_clear(&s);
        double t0 = gsw_now_ms();
        if (e->kind == BENCH_THINK) {
            ab_options_t o = { .threads = threads, .depth_limit = e->depth, .stop = &opts_stop };
            ab_result_t r;
            rc = solver_think(&s, pos, &o, &r, err);
            row->nodes += r.nodes;
        } else {
            answer_t a;
            rc = solver_run(&s, pos, &a, err);
            row->nodes += a.r.nodes;
            if (!rc && a.r.aborted && !opts_stop) rc = err_set(err, GSW_EFAIL, "%s: position %d unsolved", e->name, i + 1);
        }
        row->ms += gsw_now_ms() - t0;
        if (!rc && !opts_stop) row->runs++;
    }
    solver_free(&s);
    return rc;
}

/* The retrograde engine: the ending built in a scratch folder, removed after. */
static int bench_retro(const bench_engine_t *e, gv_t *v, int threads, bench_row_t *row, err_t *err)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, e->pos[0], pos, err)) return err->code;
    const char *tmp = getenv("TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/gsw-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return err_set(err, GSW_EFAIL, "bench: cannot make a scratch folder in %s", tmp && *tmp ? tmp : "/tmp");
    egdb_set_t *set = NULL;
    int rc = egdb_set_open(v, dir, &set, err);
    if (!rc) {
        egdb_build_options_t bo = { .for_pos = pos, .metric = RETRO_DTW, .threads = threads, .stop = &opts_stop };
        egdb_build_report_t rep;
        memset(&rep, 0, sizeof rep);
        rc = egdb_build(set, &bo, &rep, err);
        row->ms = rep.ms;
        for (int t = 0; t < rep.engine.threads && t < RETRO_STATS_THREADS; t++) row->nodes += rep.engine.items[t];
        row->runs = !rc ? (int)rep.built : 0;
    }
    egdb_set_close(set);
    bench_rmtree(dir);
    return rc;
}

/* Every position of a small board counted ply by ply; nodes: the BDD nodes
 * of every ply's set, summed. */
static void bench_bdd_ply(void *ctx, const c4b_ply_t *p)
{
    bench_row_t *row = ctx;
    row->nodes += (uint64_t)p->nodes;
    row->runs++;
}

static int bench_bdd(gv_t *v, bench_row_t *row, err_t *err)
{
    const c4v_t *d = v->data;
    c4b_spec_t spec = { d->w, d->h, C4B_COMPRESSED, C4B_COLUMN, 0, 0 };
    c4b_t *b = NULL;
    double t0 = gsw_now_ms();
    int rc = c4b_open(&b, &spec, 1, err);
    if (!rc) rc = c4b_forward(b, 0, bench_bdd_ply, row, &opts_stop, err);
    c4b_close(b);
    row->ms = gsw_now_ms() - t0;
    return rc;
}

static int bench_run(const bench_engine_t *e, int threads, size_t hash_mb, bench_row_t *row, err_t *err)
{
    gv_t *v;
    memset(row, 0, sizeof *row);
    if (game_open(e->game, &v, err)) return err->code;
    int rc;
    switch (e->kind) {
    case BENCH_RETRO: rc = bench_retro(e, v, threads, row, err); break;
    case BENCH_BDD: rc = bench_bdd(v, row, err); break;
    default: rc = bench_search(e, v, threads, hash_mb, row, err); break;
    }
    game_close(v);
    return rc;
}

/* Does e run on the game of that name? */
static int bench_on(const bench_engine_t *e, const char *game)
{
    size_t n = strcspn(e->game, ":");
    return strlen(game) == n && !strncmp(game, e->game, n);
}

static int bench_has(const char *game)
{
    for (int i = 0; i < BENCH_N; i++)
        if (bench_on(&bench_engines[i], game)) return 1;
    return 0;
}

/* The game a `gsw bench GAME` names: the engines run on it. */
static int bench_game_of(const char *spec, const char **game, err_t *err)
{
    gv_t *v;
    if (game_open(spec, &v, err)) return err->code;
    *game = v->game->name;
    int variant = strchr(spec, ':') != NULL;
    game_close(v);
    if (variant) return err_set(err, GSW_EINPUT, "bench: %s: the engines' positions are fixed; name the game alone (or add --players for a puzzle's players)", spec);
    return GSW_OK;
}

static int cli_bench(cli_args_t *o)
{
    if (args_flag(o, "players")) return cli_bench_players(o);
    err_t err;
    const char *only = NULL;
    if (o->npos > 1) return opts_usage_error(o, 1, NULL);
    if (args_str(o, "board")) {
        fprintf(stderr, "gsw: bench: --board goes with --players\n");
        return GSW_EINPUT;
    }
    if (o->npos == 1 && bench_game_of(o->pos[0], &only, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (only && !bench_has(only)) {
        fprintf(stderr, "gsw: bench: %s has no engine in the bench%s\n", only,
                !strcmp(only, "solitaire") ? " (--players runs its heuristic players)" : "");
        return GSW_EINPUT;
    }
    int threads = args_int(o, "threads", 1);
    size_t hash_mb = (size_t)args_int(o, "hash", 16);
    int json = args_flag(o, "json");
    json_t j = { 0 };
    if (json) {
        json_begin(&j, stdout);
        json_int(&j, "threads", threads);
        json_int(&j, "hash_mb", (int64_t)hash_mb);
        json_arr(&j, "engines");
    } else {
        printf("gsw bench: %d thread%s, a %zu MB table\n", threads, threads == 1 ? "" : "s", hash_mb);
        printf("%-18s %5s %15s %10s %12s\n", "engine", "runs", "nodes", "ms", "nodes/s");
        fflush(stdout);
    }
    uint64_t total = 0;
    double total_ms = 0;
    int rc = GSW_OK, ran = 0;
    for (int i = 0; i < BENCH_N && !opts_stop; i++) {
        const bench_engine_t *e = &bench_engines[i];
        if (only && !bench_on(e, only)) continue;
        bench_row_t row;
        rc = bench_run(e, threads, hash_mb, &row, &err);
        if (opts_stop) { rc = GSW_OK; break; }   /* (a search stopped midway may say so as its error) */
        if (rc) break;
        ran++;
        total += row.nodes;
        total_ms += row.ms;
        double nps = row.ms > 0 ? row.nodes / (row.ms / 1e3) : 0;
        if (json) {
            json_obj(&j, NULL);
            json_str(&j, "name", e->name);
            json_str(&j, "game", e->game);
            json_str(&j, "what", e->what);
            json_int(&j, "runs", row.runs);
            json_int(&j, "nodes", (int64_t)row.nodes);
            json_num(&j, "ms", row.ms);
            json_num(&j, "nodes_per_s", nps);
            json_close(&j, '}');
        } else {
            char n[32];
            printf("%-18s %5d %15s %10.1f %12.0f\n", e->name, row.runs, opts_thousands(row.nodes, n, sizeof n),
                   row.ms, nps);
            fflush(stdout);
        }
    }
    int stopped = !rc && opts_stop;
    if (rc) {
        if (json) json_discard(&j);
        fprintf(stderr, "gsw: %s\n", err.msg);
        return rc;
    }
    if (json) {
        json_close(&j, ']');
        json_int(&j, "nodes", (int64_t)total);
        json_num(&j, "ms", total_ms);
        json_bool(&j, "complete", !stopped);
        json_end(&j);
    } else if (ran) {   /* the total, then what each engine ran (a legend: the rows fit 80 columns) */
        char n[32];
        printf("%-18s %5s %15s %10.1f %12.0f\n", "total", "", opts_thousands(total, n, sizeof n), total_ms,
               total_ms > 0 ? total / (total_ms / 1e3) : 0);
        printf("\n");
        for (int i = 0, k = 0; i < BENCH_N && k < ran; i++)
            if (!only || bench_on(&bench_engines[i], only)) printf("%-18s %s\n", bench_engines[i].name, bench_engines[i].what), k++;
    }
    if (stopped) {
        fprintf(stderr, "gsw: interrupted after %d engine%s\n", ran, ran == 1 ? "" : "s");
        return GSW_EFAIL;
    }
    return GSW_OK;
}

static const cli_opt_t bench_own[] = {
    { "threads", OPT_INT, "N", "search and build threads (default 1: the node counts are then the same every run)", 1, 256, NULL },
    { "hash", OPT_INT, "MB", "the searches' transposition table, default 16", 1, 1 << 20, NULL },
    { "players", OPT_FLAG, NULL, "a puzzle's heuristic players side by side instead", 0, 0, NULL },
    PUZZLE_OPT_BOARD,
    OPT_END,
};
static const cli_opt_t *const bench_opts[] = { opts_json, bench_own, NULL };

const cli_verb_t verb_bench = {
    "bench", "gsw bench [GAME] [--threads N] [--hash MB]\n"
             "       gsw bench GAME[:VARIANT] [POSITION] --players [--board FILE]\n"
             "         Without --players: each engine's fixed, short set of positions, its node count and speed\n"
             "         (every engine, or GAME's): Connect Four's alpha-beta and df-pn and a BDD count, checkers'\n"
             "         and chess's heuristic search, the retrograde engine (chess KPK). No cache, book or database\n"
             "         is asked. With one thread the node counts repeat exactly: quote them with a change to a\n"
             "         search. --players: a puzzle's heuristic players side by side.",
      "each engine's node count and speed on fixed positions; or a puzzle's players side by side", cli_bench, 2, NULL,
      .opts = bench_opts
};
