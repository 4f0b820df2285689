/* Verb dispatch and option parsing for the command line, plus the small
 * verbs (games, perft, cache, help). Solving verbs are in solve_cmd.c. */
#include "ui/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "db/cache.h"
#include "ui/json.h"

volatile int cli_stop;

int cli_solve(cli_opts_t *o);
int cli_analyze(cli_opts_t *o);
int cli_count(cli_opts_t *o);
int cli_bench(cli_opts_t *o);
static int cli_games(cli_opts_t *o);
static int cli_perft(cli_opts_t *o);
static int cli_cache(cli_opts_t *o);
static int cli_help(cli_opts_t *o);
int cli_shell(cli_opts_t *o);
int cli_play(cli_opts_t *o);
int cli_lesson(cli_opts_t *o);
int cli_proof(cli_opts_t *o);

const cli_verb_t cli_verbs[] = {
    { "play", "gsw play [GAME[:VARIANT] [POSITION]] [--opponent perfect|imperfect:P|giveback:N|heuristic:L|human] "
      "[--side first|second|both|none] [--ascii] [--mono]",
      "open the workbench (TUI) on a game; gsw alone opens its game picker", cli_play },
    { "shell", "gsw shell [GAME[:VARIANT] [POSITION]] [--opponent ...] [--side ...]",
      "the workbench's commands in a readline shell (reads a script from a pipe)", cli_shell },
    { "lesson", "gsw lesson [NAME]", "list the lessons, or open one in the workbench", cli_lesson },
    { "games", "gsw games [--json]", "list the games and their variants", cli_games },
    { "solve", "gsw solve GAME[:VARIANT] [POSITION] [--algo ab|dfpn|manager] [--goal win|draw] [--wdl] [--threads N] [--hash MB] [--batch FILE] [--clear-hash]\n"
               "       gsw solve solitaire[:BOARD[,start=HOLES][,goal=HOLE|any][,left=K]] [POSITION] [--board FILE]\n"
               "                 [--min-moves] [--player heuristic:NAME]\n"
               "  solitaire boards: english (default), french, wiegleb, triangle, or --board FILE (text art: o peg,\n"
               "  . hole, space none; triangular when rows are staggered). Holes: column letter + row from the top\n"
               "  left (English centre d4); triangular boards number them 1.. row by row. start= lists the vacant\n"
               "  holes (a+b); goal= a hole or any (default: the centre, else any); left=K: at most K pegs.\n"
               "  POSITION: rows of o and . joined by / (holes only), or vacant holes (c4+d4). Moves: d2-d4;\n"
               "  chains d2-d4-f4. Players: table, lookahead, alternatives, double, classes",
      "prove the value of a position (win/draw/loss, distance, best move); solve a puzzle", cli_solve },
    { "analyze", "gsw analyze GAME[:VARIANT] [POSITION] [--threads N] [--hash MB]",
      "the proven value of every legal move", cli_analyze },
    { "proof", "gsw proof run|show|export GAME[:VARIANT] [POSITION] [--goal win|draw] [--workers N] [--resume] "
      "[--depth D] [--format dot|json]",
      "prove a position with the proof-tree manager (run; resumable), or print / export its df-pn proof tree",
      cli_proof },
    { "count", "gsw count GAME[:VARIANT] [POSITION] --positions|--solutions [--board FILE]",
      "count a puzzle's reachable positions per level, or its solutions", cli_count },
    { "bench", "gsw bench GAME[:VARIANT] [POSITION] --players [--board FILE]",
      "run a puzzle's heuristic players side by side: pieces left and time", cli_bench },
    { "perft", "gsw perft GAME[:VARIANT] [POSITION] DEPTH", "count the move sequences of DEPTH plies", cli_perft },
    { "cache", "gsw cache stats|check|verify [GAME[:VARIANT]] [--sample N] [--fix] [--db PATH]",
      "statistics, an integrity check, or the stored values proved again (verify; --fix deletes wrong rows)", cli_cache },
    { "help", "gsw help [VERB]", "this list, or one verb's usage", cli_help },
    { NULL, NULL, NULL, NULL },
};

static const char *cli_common_opts =
    "options: --json (one JSON document on stdout), --db PATH (cache file; also $GSW_DB),\n"
    "         --no-cache, --hash MB (transposition table), --threads N, --time MS, --nodes N\n";

volatile int cli_term;

/* SIGINT stops the work at hand; SIGTERM and SIGHUP stop it and end the
 * program once what was proven is stored (the shell reads no more lines).
 * A second signal leaves at once. */
static void cli_sigint(int sig)
{
    if (cli_stop && (sig == SIGINT || cli_term)) _exit(128 + sig);
    if (sig != SIGINT) cli_term = 1;
    cli_stop = 1;
}

static int cli_parse_num(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || errno || d < lo || d > hi) {
        fprintf(stderr, "gsw: %s: bad value \"%s\" (expected a number %g-%g)\n", opt, s, lo, hi);
        return GSW_EINPUT;
    }
    *out = d;
    return GSW_OK;
}

static int cli_parse(int argc, char **argv, int first, cli_opts_t *o)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        double d;
#define NEEDARG() do { if (i + 1 >= argc) { fprintf(stderr, "gsw: %s needs a value\n", a); return GSW_EINPUT; } } while (0)
        if (!strcmp(a, "--json")) o->json = 1;
        else if (!strcmp(a, "--no-cache")) o->no_cache = 1;
        else if (!strcmp(a, "--wdl")) o->wdl = 1;
        else if (!strcmp(a, "--clear-hash")) o->clear_hash = 1;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
        else if (!strcmp(a, "--min-moves")) o->min_moves = 1;
        else if (!strcmp(a, "--solutions")) o->solutions = 1;
        else if (!strcmp(a, "--positions")) o->positions = 1;
        else if (!strcmp(a, "--players")) o->players = 1;
        else if (!strcmp(a, "--board")) { NEEDARG(); o->board = argv[++i]; }
        else if (!strcmp(a, "--player")) { NEEDARG(); o->player = argv[++i]; }
        else if (!strcmp(a, "--db")) { NEEDARG(); o->db = argv[++i]; }
        else if (!strcmp(a, "--batch")) { NEEDARG(); o->batch = argv[++i]; }
        else if (!strcmp(a, "--opponent")) { NEEDARG(); o->opponent = argv[++i]; }
        else if (!strcmp(a, "--goal")) { NEEDARG(); o->goal = argv[++i]; }
        else if (!strcmp(a, "--resume")) o->resume = 1;
        else if (!strcmp(a, "--fix")) o->fix = 1;
        else if (!strcmp(a, "--sample")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e15, &d)) return GSW_EINPUT;
            o->sample = (int64_t)d;
        }
        else if (!strcmp(a, "--workers")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 64, &d)) return GSW_EINPUT;
            o->workers = (int)d;
        }
        else if (!strcmp(a, "--format")) { NEEDARG(); o->format = argv[++i]; }
        else if (!strcmp(a, "--algo")) {
            NEEDARG();
            o->algo = argv[++i];
            if (strcmp(o->algo, "ab") && strcmp(o->algo, "dfpn") && strcmp(o->algo, "manager")) {
                fprintf(stderr, "gsw: --algo: unknown algorithm \"%s\" (ab, dfpn, manager)\n", o->algo);
                return GSW_EINPUT;
            }
        }
        else if (!strcmp(a, "--side")) { NEEDARG(); o->side = argv[++i]; }
        else if (!strcmp(a, "--ascii")) o->ascii = 1;
        else if (!strcmp(a, "--mono")) o->mono = 1;
        else if (!strcmp(a, "--hash")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1 << 20, &d)) return GSW_EINPUT;
            o->hash_mb = (size_t)d;
        } else if (!strcmp(a, "--threads")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 256, &d)) return GSW_EINPUT;
            o->threads = (int)d;
            o->threads_set = 1;
        } else if (!strcmp(a, "--time")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e12, &d)) return GSW_EINPUT;
            o->time_ms = d;
        } else if (!strcmp(a, "--nodes")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e18, &d)) return GSW_EINPUT;
            o->nodes = (uint64_t)d;
        } else if (!strcmp(a, "--depth")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1000, &d)) return GSW_EINPUT;
            o->depth = (int)d;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "gsw: unknown option %s (see gsw help)\n", a);
            return GSW_EINPUT;
        } else {
            if (o->npos >= 8) { fprintf(stderr, "gsw: too many arguments\n"); return GSW_EINPUT; }
            o->pos[o->npos++] = a;
        }
#undef NEEDARG
    }
    return GSW_OK;
}

const cli_verb_t *cli_find(const char *name)
{
    for (int i = 0; cli_verbs[i].name; i++)
        if (!strcmp(cli_verbs[i].name, name)) return &cli_verbs[i];
    return NULL;
}

static void cli_usage(FILE *f)
{
    fprintf(f, "gsw — a game-solving workbench\n\nusage: gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]\n\n");
    for (int i = 0; cli_verbs[i].name; i++) fprintf(f, "  %-8s %s\n", cli_verbs[i].name, cli_verbs[i].summary);
    fprintf(f, "\n%s\nPOSITION \"\" or startpos is the start. Exit status: 0 ok, 2 bad input, 1 other failure.\n",
            cli_common_opts);
}

static int cli_help(cli_opts_t *o)
{
    if (o->npos >= 1) {
        const cli_verb_t *v = cli_find(o->pos[0]);
        if (!v) { fprintf(stderr, "gsw: unknown verb \"%s\"\n", o->pos[0]); return GSW_EINPUT; }
        printf("%s\n  %s\n\n%s", v->usage, v->summary, cli_common_opts);
        return GSW_OK;
    }
    cli_usage(stdout);
    return GSW_OK;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        if (!isatty(0) || !isatty(1)) {
            fprintf(stderr, "gsw: not a terminal: the workbench needs one. For scripts use `gsw shell` "
                            "(reads commands from a pipe) or the CLI verbs (gsw help)\n");
            return GSW_EINPUT;
        }
        argv[1] = (char *)"play";   /* gsw alone: the workbench, at its game picker */
        argc = 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { cli_usage(stdout); return GSW_OK; }
    const cli_verb_t *v = cli_find(argv[1]);
    if (!v) {
        fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", argv[1]);
        return GSW_EINPUT;
    }
    cli_opts_t o;
    memset(&o, 0, sizeof o);
    o.hash_mb = 128;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = nc > 0 ? (int)nc : 1;
    if (cli_parse(argc, argv, 2, &o)) return GSW_EINPUT;
    if (o.help) {
        printf("%s\n  %s\n\n%s", v->usage, v->summary, cli_common_opts);
        return GSW_OK;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cli_sigint;   /* no SA_RESTART: a read waiting for input returns */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    return v->run(&o);
}

/* ---- games ---- */

static int cli_games(cli_opts_t *o)
{
    if (o->json) {
        json_t j;
        json_begin(&j, stdout);
        json_arr(&j, "games");
        for (int i = 0; gsw_games[i]; i++) {
            const game_t *g = gsw_games[i];
            json_obj(&j, NULL);
            json_str(&j, "name", g->name);
            json_str(&j, "title", g->title);
            json_int(&j, "players", g->players);
            json_str(&j, "default_variant", g->default_variant);
            json_str(&j, "variants", g->variants_help);
            json_str(&j, "summary", g->summary);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_end(&j);
        return GSW_OK;
    }
    for (int i = 0; gsw_games[i]; i++) {
        const game_t *g = gsw_games[i];
        printf("%-10s %s (%d player%s) — %s\n           variants: %s; default %s\n", g->name, g->title,
               g->players, g->players > 1 ? "s" : "", g->summary, g->variants_help, g->default_variant);
    }
    return GSW_OK;
}

/* ---- perft ---- */

static uint64_t cli_perft_rec(const gv_t *v, const void *pos, int depth)
{
    if (depth == 0) return 1;
    move_t mv[GSW_MAX_MOVES];
    int n = v->ops->moves(v, pos, mv);
    if (depth == 1) return (uint64_t)n;
    GSW_POSBUF child[GSW_MAX_POS];
    uint64_t total = 0;
    for (int i = 0; i < n && !cli_stop; i++) {
        memcpy(child, pos, v->ops->pos_size);
        v->ops->play(v, child, mv[i]);
        total += cli_perft_rec(v, child, depth - 1);
    }
    return total;
}

static int cli_perft(cli_opts_t *o)
{
    if (o->npos < 2 || o->npos > 3) {
        fprintf(stderr, "gsw: usage: %s\n", cli_find("perft")->usage);
        return GSW_EINPUT;
    }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 3 ? o->pos[1] : "";
    const char *dtext = o->pos[o->npos - 1];
    double d;
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = cli_parse_num("depth", dtext, 0, 64, &d);
    if (!rc && game_pos_parse(v, ptext, pos, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        rc = err.code;
    }
    if (!rc) {
        double t0 = gsw_now_ms();
        uint64_t n = cli_perft_rec(v, pos, (int)d);
        double ms = gsw_now_ms() - t0;
        if (cli_stop) { fprintf(stderr, "gsw: interrupted\n"); rc = GSW_EFAIL; }
        else if (o->json) {
            json_t j;
            json_begin(&j, stdout);
            char spec[96];
            game_spec(v, spec, sizeof spec);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            json_int(&j, "depth", (int)d);
            json_int(&j, "nodes", (int64_t)n);
            json_num(&j, "time_ms", ms);
            json_end(&j);
        } else {
            printf("%llu\n", (unsigned long long)n);
            fprintf(stderr, "perft %d: %llu in %.1f ms\n", (int)d, (unsigned long long)n, ms);
        }
    }
    game_close(v);
    return rc;
}

/* ---- cache ---- */

int cli_cache_open(cli_opts_t *o, cache_t **c, err_t *err)
{
    char path[1024];
    if (o->db) snprintf(path, sizeof path, "%s", o->db);
    else if (cache_default_path(path, sizeof path, err)) return err->code;
    return cache_open(path, c, err);
}

int cli_cache_verify(cli_opts_t *o);

static int cli_cache(cli_opts_t *o)
{
    if (o->npos >= 1 && o->npos <= 2 && !strcmp(o->pos[0], "verify")) return cli_cache_verify(o);
    if (o->npos != 1 || (strcmp(o->pos[0], "stats") && strcmp(o->pos[0], "check"))) {
        fprintf(stderr, "gsw: usage: %s\n", cli_find("cache")->usage);
        return GSW_EINPUT;
    }
    err_t err;
    cache_t *c;
    if (cli_cache_open(o, &c, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    int rc = GSW_OK;
    if (!strcmp(o->pos[0], "stats")) {
        static cache_stats_t st;
        rc = cache_stats(c, &st, &err);
        if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
        else if (o->json) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "path", st.path);
            json_int(&j, "schema_version", st.schema_version);
            json_int(&j, "file_bytes", st.file_bytes);
            json_int(&j, "rows", st.rows);
            json_int(&j, "exact_rows", st.exact_rows);
            json_int(&j, "hits", st.hits);
            json_int(&j, "misses", st.misses);
            json_int(&j, "puts", st.puts);
            json_arr(&j, "groups");
            for (int i = 0; i < st.ngroups; i++) {
                json_obj(&j, NULL);
                json_str(&j, "game", st.groups[i].game);
                json_str(&j, "variant", st.groups[i].variant);
                json_int(&j, "rows", st.groups[i].rows);
                json_close(&j, '}');
            }
            json_close(&j, ']');
            json_end(&j);
        } else {
            printf("cache %s (schema %d, %lld bytes)\n", st.path, st.schema_version, (long long)st.file_bytes);
            printf("positions %lld (exact %lld); hits %lld, misses %lld, stores %lld\n", (long long)st.rows,
                   (long long)st.exact_rows, (long long)st.hits, (long long)st.misses, (long long)st.puts);
            for (int i = 0; i < st.ngroups; i++)
                printf("  %s:%s %lld\n", st.groups[i].game, st.groups[i].variant, (long long)st.groups[i].rows);
        }
    } else {
        int ok = 0;
        char report[4096];
        rc = cache_check(c, &ok, report, sizeof report, &err);
        if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
        else {
            if (o->json) {
                json_t j;
                json_begin(&j, stdout);
                json_bool(&j, "ok", ok);
                json_str(&j, "report", report);
                json_end(&j);
            } else printf("%s\n", ok ? "ok" : report);
            if (!ok) rc = GSW_EFAIL;
        }
    }
    err_t e2;
    if (cache_close(c, &e2) && !rc) { fprintf(stderr, "gsw: %s\n", e2.msg); rc = GSW_EFAIL; }
    return rc;
}
