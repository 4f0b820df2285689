/* Verb dispatch and option parsing for the command line, plus the small
 * verbs (games, perft, cache, help). Solving verbs are in solve_cmd.c. */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "db/cache.h"
#include "cli/json.h"
#include "workbench/lesson.h"

volatile int cli_stop;

#ifndef GSW_VERSION
#define GSW_VERSION "unknown"
#endif

int cli_solve(cli_opts_t *o);
int cli_analyze(cli_opts_t *o);
int cli_count(cli_opts_t *o);
int cli_bench(cli_opts_t *o);
static int cli_games(cli_opts_t *o);
static int cli_perft(cli_opts_t *o);
static int cli_cache(cli_opts_t *o);
static int cli_help(cli_opts_t *o);
static int cli_version(cli_opts_t *o);
static int cli_lessons(cli_opts_t *o);
int cli_shell(cli_opts_t *o);
int cli_play(cli_opts_t *o);
int cli_lesson(cli_opts_t *o);
int cli_proof(cli_opts_t *o);
int cli_egdb(cli_opts_t *o);
int cli_count_pieces(cli_opts_t *o);
int cli_uci(cli_opts_t *o);
int cli_match(cli_opts_t *o);
int cli_tune(cli_opts_t *o);
int cli_strong(cli_opts_t *o);
int cli_book(cli_opts_t *o);

/* Where --json does not apply. */
static const char *json_na_play(const cli_opts_t *o)
{
    (void)o;
    return "it opens the workbench, which draws on the terminal";
}

static const char *json_na_shell(const cli_opts_t *o)
{
    (void)o;
    return "it runs the workbench's commands, which print text";
}

static const char *json_na_lesson(const cli_opts_t *o)
{
    return o->npos ? "a lesson opens in the workbench (gsw lesson --json lists the lessons)" : NULL;
}

static const char *json_na_proof(const cli_opts_t *o)
{
    if (o->npos && !strcmp(o->pos[0], "export") && o->format && !strcmp(o->format, "dot"))
        return "--format dot writes Graphviz (--format json writes the tree as JSON)";
    return NULL;
}

static const char *json_na_uci(const cli_opts_t *o)
{
    (void)o;
    return "it speaks the UCI protocol on stdin and stdout";
}

const cli_verb_t cli_verbs[] = {
    { "play", "gsw play [GAME[:VARIANT] [POSITION]] [--opponent perfect|imperfect:P|giveback:N|heuristic:L|human] "
      "[--side first|second|both|none] [--ascii] [--mono] [--file RECORD]",
      "open the workbench (TUI) on a game; gsw alone opens its game picker", cli_play, 2, json_na_play },
    { "shell", "gsw shell [GAME[:VARIANT] [POSITION]] [FILE] [--opponent ...] [--side ...]",
      "the workbench's commands in a readline shell (runs a script FILE, or one from a pipe)", cli_shell, 3, json_na_shell },
    { "lesson", "gsw lesson [NAME]", "list the lessons, or open one in the workbench", cli_lessons, 1, json_na_lesson },
    { "games", "gsw games [--json]", "list the games and their variants", cli_games, 0, NULL },
    { "solve", "gsw solve GAME[:VARIANT] [POSITION] [--algo ab|dfpn|manager] [--goal win|draw] [--wdl] [--threads N] [--hash MB] [--batch FILE] [--clear-hash]\n"
               "       gsw solve chess FEN --mate [--max-moves N]   (the shortest forced mate, proven; default N 5)\n"
               "       gsw solve solitaire[:BOARD[,start=HOLES][,goal=HOLE|any][,left=K]] [POSITION] [--board FILE]\n"
               "                 [--min-moves] [--player heuristic:NAME]\n"
               "  solitaire boards: english (default), french, wiegleb, triangle, or --board FILE (text art: o peg,\n"
               "  . hole, space none; triangular when rows are staggered). Holes: column letter + row from the top\n"
               "  left (English centre d4); triangular boards number them 1.. row by row. start= lists the vacant\n"
               "  holes (a+b); goal= a hole or any (default: the centre, else any); left=K: at most K pegs.\n"
               "  POSITION: rows of o and . joined by / (holes only), or vacant holes (c4+d4). Moves: d2-d4;\n"
               "  chains d2-d4-f4. Players: table, lookahead, alternatives, double, classes",
      "prove the value of a position (win/draw/loss, distance, best move); solve a puzzle", cli_solve, 2, NULL },
    { "analyze", "gsw analyze GAME[:VARIANT] [POSITION] [--threads N] [--hash MB]",
      "the proven value of every legal move (a puzzle: each move solvable or a dead end)", cli_analyze, 2, NULL },
    { "proof", "gsw proof run|show|export GAME[:VARIANT] [POSITION] [--goal win|draw] [--workers N] [--resume] "
      "[--depth D] [--format dot|json]",
      "prove a position with the proof-tree manager (run; resumable), or print / export its df-pn proof tree",
      cli_proof, 3, json_na_proof },
    { "count", "gsw count GAME[:VARIANT] [POSITION] --positions|--solutions [--board FILE]\n"
               "       gsw count GAME --pieces N   (positions of exactly N pieces, as endgame databases index them)\n"
               "       gsw count connect4[:WxH] [--encoding compressed|cellwise] [--order column|row] [--memory GB]\n"
               "         every position reachable by legal play, per ply, on BDDs (exact; ended ones counted, not\n"
               "         expanded; mirror images apart): positions, BDD nodes, peak nodes, time. --memory: the node\n"
               "         table's limit (default 1 GB).",
      "count a puzzle's reachable positions per level, or its solutions; a game's positions by pieces or by ply",
      cli_count, 2, NULL },
    { "strong", "gsw strong build|query|best connect4[:WxH] [MOVES] [--dir DIR] [--json]\n"
                "  build: every ply's won, drawn and lost sets (for the side to move), from the last ply back, on\n"
                "         BDDs (--encoding, --order, --memory as for count); one file per ply and value, a manifest\n"
                "         with checksums; Ctrl-C and run again to go on. Prints the per-ply table.\n"
                "  query MOVES: the position's value and every move's, from the stored sets.\n"
                "  best MOVES: the move with the fastest win or slowest loss, by alpha-beta pruned by the sets.\n"
                "  DIR defaults to strong/ in gsw's data directory (beside the cache; --db moves it too).",
      "Connect Four's strong solution on BDDs: build it, query a position, find the quickest win", cli_strong, 3, NULL },
    { "egdb", "gsw egdb build|probe|stats|verify GAME [POSITION|SLICE] [--pieces N] [--metric wld|dtc|dtw|dtm] [--for POSITION] [--plan] [--dir DIR]\n"
              "  build [SLICE]: every slice of 1..N pieces (--pieces), those POSITION can reach (--for), or SLICE and\n"
              "         what it can reach, in the metric (wld: win/draw/loss, 2 bits; dtc: distance to conversion;\n"
              "         dtw: distance to win, with its wld; chess: dtm, distance to mate, the default);\n"
              "         finished slices are checked and kept: Ctrl-C and run again to resume. --threads N (default all).\n"
              "         --plan: how many slices and positions the target needs, and how many are built, and stop.\n"
              "  probe POSITION: the value and best move from the databases.\n"
              "  stats [BK,BC,WK,WC]: per material slice, side to move Black: positions, wins, draws, losses,\n"
              "         the longest win and loss (plies, from dtw files) with examples.\n"
              "  chess: an ending is named by its material, stronger side first (KRK, KQKR; KKR is KRK); stats ENDING\n"
              "         gives its legal positions (either side to move), wins, draws, losses and longest mate;\n"
              "         probe and stats build what is missing first. Up to 4 pieces; no castling, no en passant.\n"
              "  verify [SLICE]: every file's checksums and every position's consistency with its moves.\n"
              "  DIR defaults to egdb/ in gsw's data directory (beside the cache; --db moves it too).",
      "endgame databases: build, probe, statistics, verification", cli_egdb, 3, NULL },
    { "bench", "gsw bench GAME[:VARIANT] [POSITION] --players [--board FILE]",
      "run a puzzle's heuristic players side by side: pieces left and time", cli_bench, 2, NULL },
    { "perft", "gsw perft GAME[:VARIANT] [POSITION] DEPTH [--divide]",
      "count the move sequences of DEPTH plies (--divide: the count under each first move)", cli_perft, 3, NULL },
    { "cache", "gsw cache stats|check|verify [GAME[:VARIANT]] [--sample N] [--fix] [--db PATH]",
      "statistics, an integrity check, or the stored values proved again (verify; --fix deletes wrong rows)", cli_cache,
      2, NULL },
    { "uci", "gsw uci",
      "speak UCI (chess) on stdin and stdout: gsw as an engine for chess GUIs and matches", cli_uci, 0,
      json_na_uci },
    { "match", "gsw match chess --engine \"CMD [ARGS]\" [--option NAME=VALUE]... [--ours-option NAME=VALUE]... "
               "[--games N] [--movetime MS | --nodes N] [--seed S] [--openings FILE] [--pgn FILE] [--concurrency N]\n"
               "  our engine (in process) against a UCI engine (\"gsw uci\", \"/usr/games/stockfish\"); colours\n"
               "  alternate, each pair of games from one opening: a built-in book shuffled by --seed, or --openings\n"
               "  FILE (one a line: a FEN, or moves from the start). --option sets the opponent's UCI options\n"
               "  (UCI_LimitStrength=true, UCI_Elo=1500); --ours-option ours (Hash, PawnValue, KnightValue,\n"
               "  BishopValue, RookValue, QueenValue). Defaults: 2 games, 100 ms a move, match.pgn, 1 at once.\n"
               "  A game ends by the rules or is a draw at 300 plies; an opponent that crashes, hangs or plays an\n"
               "  illegal move loses it. Prints a line per game, then W-D-L, the score and the Elo difference.",
      "play our chess engine against a UCI engine: score and Elo estimate, games in PGN", cli_match, 1, NULL },
    { "tune", "gsw tune chess --out DIR [--population N] [--generations G] [--nodes N] [--max-moves M] [--seed S] "
              "[--threads N] [--resume] [--relative]\n"
              "  evolves the engine's piece values (pawn, knight, bishop, rook, queen; drawn from 800..17000, used\n"
              "  as tenths of centipawns) by a genetic algorithm whose fitness is a quick-tournament: a random pivot\n"
              "  plays the rest of its group as Black, who beat it rank above it, and both parts recurse (about\n"
              "  N log N games a generation). Games: gsw against itself, N nodes a move (default 5000), from a\n"
              "  built-in opening picked by the game's seed, adjudicated by material (1/3/3/5/9) after M moves\n"
              "  (default 100). Defaults: population 12, 10 generations, all cores. DIR gets gen-NNNN.csv per\n"
              "  generation (values normalised to pawn = 1000), values.svg (elite and median by generation) and\n"
              "  state.txt; Ctrl-C keeps the finished generations and --resume goes on to G. The same --seed gives\n"
              "  the same run on any number of threads. The workbench's `tune DIR` command draws the chart.\n"
              "  --relative: the engine's pawn is always 100 cp and the other pieces in proportion, so only the\n"
              "  ratios evolve (raw values also move material against the evaluation's positional terms).",
      "evolve chess piece values by a genetic algorithm (quick-tournament fitness)", cli_tune, 1, NULL },
    { "book", "gsw book build|stats|export|check connect4[:WxH] [FILE] [--ply N] [--threads N] [--hash MB] [--db PATH]\n"
              "  build: solve every position up to ply N exactly (mirror images once; a finished game is no book\n"
              "  position) into the cache: ply N by search on --threads workers (default: all cores), the plies\n"
              "  above from their children's values. Ctrl-C keeps what is solved; building again resumes, and\n"
              "  a deeper --ply extends the book. stats: book positions per ply, won/drawn/lost for the first\n"
              "  player. export: write the cache's book to FILE (a compact, checksummed book file). check: read\n"
              "  a book file (default: the one gsw ships, data/books/connect4-7x6.book; GSW_BOOKS=DIR moves it)\n"
              "  and say what it holds. Solves, analyses and the workbench answer book positions at once (the\n"
              "  shipped book first, read-only, then the cache's), and a search from a shallower position stops\n"
              "  at the book's positions.",
      "opening books: build (every position to ply N, solved), statistics, export, check", cli_book, 3, NULL },
    { "help", "gsw help [VERB]", "this list, or one verb's usage", cli_help, 1, NULL },
    { "version", "gsw version (or gsw --version)", "gsw's version", cli_version, 0, NULL },
    { NULL, NULL, NULL, NULL, 0, NULL },
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

const char *cli_thousands(uint64_t n, char *buf, size_t len)
{
    char digits[24], out[32];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), k = 0;
    for (int i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    snprintf(buf, len, "%s", out);
    return buf;
}

/* The first line of a verb's usage. */
static int usage_line(const cli_verb_t *v)
{
    return (int)strcspn(v->usage, "\n");
}

int cli_usage_error(const cli_opts_t *o, int max, const char *what)
{
    const cli_verb_t *v = cli_find(o->verb ? o->verb : "help");
    char why[300];
    if (o->npos > max) snprintf(why, sizeof why, "unexpected argument '%s'", o->pos[max]);
    else snprintf(why, sizeof why, "%s", what ? what : "missing arguments");
    int more = strchr(v->usage, '\n') != NULL;
    fprintf(stderr, "gsw: %s; usage: %.*s%s%s%s\n", why, usage_line(v), v->usage, more ? " (more: gsw help " : "",
            more ? v->name : "", more ? ")" : "");
    return GSW_EINPUT;
}

/* A number option: lo..hi, a whole number where whole. Bounds print as whole
 * numbers with separators. */
static int cli_parse_num(const char *opt, const char *s, double lo, double hi, int whole, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || *end || errno || !(d >= lo && d <= hi) || (whole && d != (double)(uint64_t)d)) {
        char l[32], h[32];
        cli_thousands((uint64_t)lo, l, sizeof l);
        cli_thousands((uint64_t)hi, h, sizeof h);
        fprintf(stderr, "gsw: %s: bad value \"%s\" (expected a %s from %s to %s)\n", opt, s,
                whole ? "whole number" : "number", l, h);
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
        else if (!strcmp(a, "--divide")) o->divide = 1;
        else if (!strcmp(a, "--file")) { NEEDARG(); o->file = argv[++i]; }
        else if (!strcmp(a, "--metric")) { NEEDARG(); o->metric = argv[++i]; }
        else if (!strcmp(a, "--dir")) { NEEDARG(); o->dir = argv[++i]; }
        else if (!strcmp(a, "--for")) { NEEDARG(); o->for_pos = argv[++i]; }
        else if (!strcmp(a, "--plan")) o->plan = 1;
        else if (!strcmp(a, "--engine")) { NEEDARG(); o->engine = argv[++i]; }
        else if (!strcmp(a, "--openings")) { NEEDARG(); o->openings = argv[++i]; }
        else if (!strcmp(a, "--pgn")) { NEEDARG(); o->pgn = argv[++i]; }
        else if (!strcmp(a, "--option") || !strcmp(a, "--ours-option")) {
            NEEDARG();
            int ours = a[2] == 'o' && a[3] == 'u';
            const char *val = argv[++i];
            if (!strchr(val, '=') || val[0] == '=') {
                fprintf(stderr, "gsw: %s %s: expected NAME=VALUE\n", a, val);
                return GSW_EINPUT;
            }
            int *cnt = ours ? &o->n_ours_opt : &o->n_engine_opt;
            int max = ours ? (int)(sizeof o->ours_opt / sizeof o->ours_opt[0])
                           : (int)(sizeof o->engine_opt / sizeof o->engine_opt[0]);
            if (*cnt >= max) { fprintf(stderr, "gsw: %s: at most %d\n", a, max); return GSW_EINPUT; }
            (ours ? o->ours_opt : o->engine_opt)[(*cnt)++] = val;
        }
        else if (!strcmp(a, "--games")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1000000, 1, &d)) return GSW_EINPUT;
            o->games = (int)d;
        }
        else if (!strcmp(a, "--movetime")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 3600000, 0, &d)) return GSW_EINPUT;
            o->movetime = d;
        }
        else if (!strcmp(a, "--seed")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 0, 1e18, 1, &d)) return GSW_EINPUT;
            o->seed = (uint64_t)d;
            o->seed_set = 1;
        }
        else if (!strcmp(a, "--concurrency")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 256, 1, &d)) return GSW_EINPUT;
            o->concurrency = (int)d;
        }
        else if (!strcmp(a, "--population") || !strcmp(a, "--generations") || !strcmp(a, "--max-moves")) {
            NEEDARG();   /* gsw tune */
            int *to = a[2] == 'p' ? &o->population : a[2] == 'g' ? &o->generations : &o->max_moves;
            if (cli_parse_num(a, argv[++i], a[2] == 'p' ? 2 : 1, a[2] == 'p' ? 1000 : 1000000, 1, &d)) return GSW_EINPUT;
            *to = (int)d;
        }
        else if (!strcmp(a, "--out")) { NEEDARG(); o->out = argv[++i]; }
        else if (!strcmp(a, "--ply")) {
            NEEDARG();   /* gsw book build */
            if (cli_parse_num(a, argv[++i], 0, 1000, 1, &d)) return GSW_EINPUT;
            o->ply = (int)d;
            o->ply_set = 1;
        }
        else if (!strcmp(a, "--pieces")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 32, 1, &d)) return GSW_EINPUT;
            o->pieces = (int)d;
        }
        else if (!strcmp(a, "--board")) { NEEDARG(); o->board = argv[++i]; }
        else if (!strcmp(a, "--player")) { NEEDARG(); o->player = argv[++i]; }
        else if (!strcmp(a, "--db")) { NEEDARG(); o->db = argv[++i]; }
        else if (!strcmp(a, "--batch")) { NEEDARG(); o->batch = argv[++i]; }
        else if (!strcmp(a, "--opponent")) { NEEDARG(); o->opponent = argv[++i]; }
        else if (!strcmp(a, "--goal")) { NEEDARG(); o->goal = argv[++i]; }
        else if (!strcmp(a, "--resume")) o->resume = 1;
        else if (!strcmp(a, "--relative")) o->relative = 1;
        else if (!strcmp(a, "--encoding")) { NEEDARG(); o->encoding = argv[++i]; }
        else if (!strcmp(a, "--order")) { NEEDARG(); o->order = argv[++i]; }
        else if (!strcmp(a, "--memory")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 0.001, 4096, 0, &d)) return GSW_EINPUT;
            o->memory_gb = d;
        }
        else if (!strcmp(a, "--mate")) o->mate = 1;
        else if (!strcmp(a, "--fix")) o->fix = 1;
        else if (!strcmp(a, "--sample")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e15, 1, &d)) return GSW_EINPUT;
            o->sample = (int64_t)d;
        }
        else if (!strcmp(a, "--workers")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 64, 1, &d)) return GSW_EINPUT;
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
            if (cli_parse_num(a, argv[++i], 1, 1 << 20, 1, &d)) return GSW_EINPUT;
            o->hash_mb = (size_t)d;
        } else if (!strcmp(a, "--threads")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 256, 1, &d)) return GSW_EINPUT;
            o->threads = (int)d;
            o->threads_set = 1;
        } else if (!strcmp(a, "--time")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e12, 0, &d)) return GSW_EINPUT;
            o->time_ms = d;
        } else if (!strcmp(a, "--nodes")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1e18, 1, &d)) return GSW_EINPUT;
            o->nodes = (uint64_t)d;
        } else if (!strcmp(a, "--depth")) {
            NEEDARG();
            if (cli_parse_num(a, argv[++i], 1, 1000, 1, &d)) return GSW_EINPUT;
            o->depth = (int)d;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "gsw: unknown option %s (see gsw help)\n", a);
            return GSW_EINPUT;
        } else {
            if (o->npos >= (int)(sizeof o->pos / sizeof o->pos[0])) {
                fprintf(stderr, "gsw: unexpected argument '%s'\n", a);
                return GSW_EINPUT;
            }
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
    fprintf(f, "gsw %s — a game-solving workbench\n\nusage: gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]\n\n",
            GSW_VERSION);
    for (int i = 0; cli_verbs[i].name; i++) fprintf(f, "  %-8s %s\n", cli_verbs[i].name, cli_verbs[i].summary);
    fprintf(f, "\n%s\nPOSITION \"\" or startpos is the start. Exit status: 0 ok, 2 bad input, 1 other failure.\n",
            cli_common_opts);
}

/* One verb's usage, as text or JSON. */
static void cli_verb_help(const cli_verb_t *v, int json)
{
    if (!json) {
        printf("%s\n  %s\n\n%s", v->usage, v->summary, cli_common_opts);
        return;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", v->name);
    json_str(&j, "usage", v->usage);
    json_str(&j, "summary", v->summary);
    json_str(&j, "options", cli_common_opts);
    json_bool(&j, "json", v->no_json == NULL);
    json_end(&j);
}

static int cli_help(cli_opts_t *o)
{
    if (o->npos >= 1) {
        const cli_verb_t *v = cli_find(o->pos[0]);
        if (!v) { fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", o->pos[0]); return GSW_EINPUT; }
        cli_verb_help(v, o->json);
        return GSW_OK;
    }
    if (!o->json) {
        cli_usage(stdout);
        return GSW_OK;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", "gsw");
    json_str(&j, "version", GSW_VERSION);
    json_str(&j, "usage", "gsw VERB [SUBVERB] [GAME[:VARIANT]] [POSITION] [ARGS] [OPTIONS]");
    json_arr(&j, "verbs");
    for (int i = 0; cli_verbs[i].name; i++) {
        json_obj(&j, NULL);
        json_str(&j, "name", cli_verbs[i].name);
        json_str(&j, "usage", cli_verbs[i].usage);
        json_str(&j, "summary", cli_verbs[i].summary);
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_str(&j, "options", cli_common_opts);
    json_obj(&j, "exit_status");
    json_str(&j, "0", "ok");
    json_str(&j, "1", "a failure: a corrupt cache, a budget spent, Ctrl-C, a batch mismatch");
    json_str(&j, "2", "an argument or input that cannot be parsed or is illegal");
    json_close(&j, '}');
    json_end(&j);
    return GSW_OK;
}

static int cli_version(cli_opts_t *o)
{
    if (!o->json) {
        printf("gsw %s\n", GSW_VERSION);
        return GSW_OK;
    }
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "name", "gsw");
    json_str(&j, "version", GSW_VERSION);
    json_end(&j);
    return GSW_OK;
}

/* gsw lesson: the list as JSON here; the rest is the workbench's. */
static int cli_lessons(cli_opts_t *o)
{
    if (!o->json || o->npos) return cli_lesson(o);
    static char names[64][64], titles[64][128];
    int n = lesson_list(names, titles, 64);
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "dir", lesson_dir());
    json_arr(&j, "lessons");
    for (int i = 0; i < n; i++) {
        json_obj(&j, NULL);
        json_str(&j, "name", names[i]);
        json_str(&j, "title", titles[i]);
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_end(&j);
    return GSW_OK;
}

/* The cache's notices (a lock waited for, a read-only file) on stderr. */
static void cli_notice(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "gsw: %s\n", msg);
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
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) name = "help";
    else if (!strcmp(name, "--version") || !strcmp(name, "-V")) name = "version";
    const cli_verb_t *v = cli_find(name);
    if (!v) {
        fprintf(stderr, "gsw: unknown verb \"%s\" (see gsw help)\n", argv[1]);
        return GSW_EINPUT;
    }
    cli_opts_t o;
    memset(&o, 0, sizeof o);
    o.verb = v->name;
    o.hash_mb = 128;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = nc > 0 ? (int)nc : 1;
    if (cli_parse(argc, argv, 2, &o)) return GSW_EINPUT;
    if (o.help) {
        cli_verb_help(v, o.json);
        return GSW_OK;
    }
    const char *na = o.json && v->no_json ? v->no_json(&o) : NULL;
    if (na) {
        fprintf(stderr, "gsw: --json does not apply to gsw %s: %s\n", v->name, na);
        return GSW_EINPUT;
    }
    if (o.npos > v->max_pos) return cli_usage_error(&o, v->max_pos, NULL);
    if (strcmp(v->name, "play") && strcmp(v->name, "lesson"))   /* (the workbench's screen is no place for them) */
        o.notices = 1;
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
    if (depth == 1 && v->ops->count_moves) return (uint64_t)v->ops->count_moves(v, pos);
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

/* Digits only. */
static int all_digits(const char *s)
{
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

static int cli_perft(cli_opts_t *o)
{
    if (o->npos < 1 || o->npos > 3) return cli_usage_error(o, 3, "missing GAME");
    if (o->npos == 1 || !all_digits(o->pos[o->npos - 1])) {   /* GAME [POSITION] and no DEPTH */
        if (o->npos == 3) {
            fprintf(stderr, "gsw: perft: DEPTH: bad value \"%s\" (expected a whole number from 0 to 64)\n", o->pos[2]);
            return GSW_EINPUT;
        }
        return cli_usage_error(o, 3, "perft needs a DEPTH");
    }
    err_t err;
    gv_t *v;
    if (game_open(o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 3 ? o->pos[1] : "";
    const char *dtext = o->pos[o->npos - 1];
    double d;
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = cli_parse_num("perft: DEPTH", dtext, 0, 64, 1, &d);
    if (!rc && game_pos_parse(v, ptext, pos, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        rc = err.code;
    }
    move_t root[GSW_MAX_MOVES];
    uint64_t sub[GSW_MAX_MOVES];
    int nroot = 0;
    if (!rc) {
        double t0 = gsw_now_ms();
        uint64_t n = 0;
        if (o->divide && d >= 1) {   /* each first move's count: the sum is the total */
            GSW_POSBUF child[GSW_MAX_POS];
            nroot = v->ops->moves(v, pos, root);
            for (int i = 0; i < nroot && !cli_stop; i++) {
                memcpy(child, pos, v->ops->pos_size);
                v->ops->play(v, child, root[i]);
                n += sub[i] = cli_perft_rec(v, child, (int)d - 1);
            }
        } else {
            n = cli_perft_rec(v, pos, (int)d);
        }
        double ms = gsw_now_ms() - t0;
        char mt[64];
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
            if (o->divide) {
                json_arr(&j, "divide");
                for (int i = 0; i < nroot; i++) {
                    v->ops->move_format(v, pos, root[i], mt, sizeof mt);
                    json_obj(&j, NULL);
                    json_str(&j, "move", mt);
                    json_int(&j, "nodes", (int64_t)sub[i]);
                    json_close(&j, '}');
                }
                json_close(&j, ']');
            }
            json_end(&j);
        } else {
            char nt[32];
            for (int i = 0; i < nroot; i++) {   /* --divide: "MOVE COUNT" lines, then the total */
                v->ops->move_format(v, pos, root[i], mt, sizeof mt);
                printf("%s %llu\n", mt, (unsigned long long)sub[i]);
            }
            printf("%llu\n", (unsigned long long)n);
            fprintf(stderr, "perft %d: %s in %.1f ms\n", (int)d, cli_thousands(n, nt, sizeof nt), ms);
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
    return cache_open_notice(path, o->notices ? cli_notice : NULL, NULL, c, err);
}

int cli_cache_verify(cli_opts_t *o);

static int cli_cache(cli_opts_t *o)
{
    if (o->npos >= 1 && o->npos <= 2 && !strcmp(o->pos[0], "verify")) return cli_cache_verify(o);
    if (o->npos < 1) return cli_usage_error(o, 2, "cache needs stats, check or verify");
    if (strcmp(o->pos[0], "stats") && strcmp(o->pos[0], "check")) {
        fprintf(stderr, "gsw: cache: unknown subverb '%s' (stats, check or verify)\n", o->pos[0]);
        return GSW_EINPUT;
    }
    if (o->npos > 1) return cli_usage_error(o, 1, NULL);
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
            json_bool(&j, "read_only", cache_readonly(c));
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
            char a[32], b[32], c3[32], d[32], e[32];
            printf("cache %s (schema %d, %s bytes%s)\n", st.path, st.schema_version,
                   cli_thousands((uint64_t)st.file_bytes, a, sizeof a), cache_readonly(c) ? ", read-only" : "");
            printf("positions %s (exact %s); hits %s, misses %s, stores %s\n", cli_thousands((uint64_t)st.rows, a, sizeof a),
                   cli_thousands((uint64_t)st.exact_rows, b, sizeof b), cli_thousands((uint64_t)st.hits, c3, sizeof c3),
                   cli_thousands((uint64_t)st.misses, d, sizeof d), cli_thousands((uint64_t)st.puts, e, sizeof e));
            for (int i = 0; i < st.ngroups; i++)
                printf("  %s:%s %s\n", st.groups[i].game, st.groups[i].variant,
                       cli_thousands((uint64_t)st.groups[i].rows, a, sizeof a));
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
