/* gsw uci: the Universal Chess Interface on stdin and stdout. The main
 * thread reads commands; a search runs on a thread of its own (through
 * the cached solver's door to the heuristic engine, solver_think), so
 * `stop` and `isready` are answered while it thinks. Every line written
 * is flushed at once, under a lock (both threads write). Commands that
 * change the position or the engine wait for a running search to end
 * (an infinite one is stopped first); an unknown command is answered
 * "Unknown command: X" (as Stockfish does) and otherwise ignored, and
 * malformed ones are answered with `info string`. Options: Hash (the
 * default every front end uses), Threads (the heuristic search's, lazy
 * SMP), MultiPV, Move Overhead (milliseconds kept back from each move's
 * time for the GUI's round trip), UCI_LimitStrength with UCI_Elo (mapped
 * to the workbench's levels 1-9), the piece values, UCI_Chess960. `go mate N`
 * asks the mate prover (solver_mate: df-pn), which proves the shortest
 * mate or that none comes within N moves; the engine answers otherwise. */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ab.h"
#include "games/chess/ch.h"
#include "games/chess/ch_syzygy.h"
#include "solve/solver.h"
#include "cli/opts.h"
#include "protocol/uci.h"

#ifndef GSW_VERSION
#define GSW_VERSION "unknown"
#endif

#define UCI_HASH_MAX 65536
#define UCI_THREADS_MAX 256
#define UCI_MULTIPV_MAX 64
#define UCI_MATE_MAX 50         /* go mate N: the prover's reach (as solve --mate) */
/* UCI_Elo to the engine's levels 1-9 (the workbench's heuristic:L: depth
 * 2L, 200L ms a move), on Stockfish's UCI_Elo scale: levels 1-5 rated
 * directly, each held to its level (gsw match --ours-option) against
 * Stockfish at 100 ms a move, 40 games at a first guess and 40 more near
 * the first estimate, fitted by maximum likelihood (README): 1556 +- 76,
 * 1722 +- 79, 1872 +- 77, 2000 +- 77, 2114 +- 76. The full engine at 100 ms
 * a move rated 2232 +- 49 (200 games at UCI_Elo 2400). Levels 6-9 search
 * deeper than 100 ms reaches: 50 a level above level 5, extrapolated. */
static const int uci_level_elo[9] = { UCI_ELO_MIN, 1720, 1870, 2000, 2110, 2160, 2210, 2260, UCI_ELO_MAX };
#define UCI_OVERHEAD_MS 20      /* Move Overhead's default: what a move's round trip through a GUI costs */
#define UCI_OVERHEAD_MAX 5000

static const char *const value_names[5] = { "PawnValue", "KnightValue", "BishopValue", "RookValue", "QueenValue" };

typedef struct uci {
    gv_t *v;
    solver_t s;
    int have_solver;
    const char *egdb_dir;      /* gsw's tablebases: --dir, else $GSW_EGDB, else egdb/ beside the cache */
    size_t hash_mb;
    int values[5];             /* P N B R Q in centipawns */
    int defaults[5];
    int chess960;
    int threads;               /* Threads: the heuristic search's (lazy SMP) */
    int multipv;               /* MultiPV: the lines reported */
    int overhead_ms;           /* Move Overhead: kept back from every move's time */
    int limit;                 /* UCI_LimitStrength */
    int terms;                 /* UseNetwork false: the evaluation by terms */
    int elo;                   /* UCI_Elo */
    int reopen;                /* the values or the table's size changed */
    size_t hash_now;           /* what the solver and the variant were opened with */
    int values_now[5];
    GSW_POSBUF pos[GSW_MAX_POS];
    uint64_t *hist;            /* pos_hash of the game's positions before pos */
    int nhist, caphist;
    /* the search */
    pthread_t th;
    int running;               /* a thread was started and not yet joined */
    gsw_flag_t stop;
    int infinite;              /* hold bestmove until stop (go infinite / ponder) */
    pthread_mutex_t lock;      /* guards infinite/stop waits */
    pthread_cond_t cond;
    pthread_mutex_t out;       /* one line at a time on stdout */
    ab_options_t ao;
    double t0, soft_ms;        /* soft_ms: no new depth past this (0: none) */
    int mate;                  /* go mate M: the mate prover's reach in moves */
    double mate_ms;            /* ... and its time (0: until stop) */
    uint64_t mate_nodes;       /* ... and its nodes (0: no limit) */
    GSW_POSBUF root[GSW_MAX_POS];
} uci_t;

static void say(uci_t *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(uci_t *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&u->out);
}

/* The solver's warnings (a damaged tablebase file, or one its folder's
 * MANIFEST does not vouch for) go to the GUI as info strings. */
static void uci_warn(void *ctx, const char *msg)
{
    say(ctx, "info string %s", msg);
}

/* A solver for v with a table of mb, reading gsw's own tablebases. They
 * are never built here: a search runs on the clock, and a build takes
 * seconds to minutes (gsw egdb build does it). */
static int uci_solver(uci_t *u, gv_t *v, size_t mb, err_t *err)
{
    int rc = solver_init(&u->s, v, mb, NULL, err);
    if (rc) return rc;
    u->s.warn = uci_warn;
    u->s.warn_ctx = u;
    u->s.no_build = 2;   /* (a root whose ending is not built is said once) */
    if ((rc = solver_open_egdb(&u->s, u->egdb_dir, NULL, err))) solver_free(&u->s);
    return rc;
}

int uci_variant_spec(const int values[5], const int defaults[5], int terms, char *spec, size_t n)
{
    int plain = !memcmp(values, defaults, 5 * sizeof *values) && !terms;
    if (plain) snprintf(spec, n, "chess");
    else snprintf(spec, n, "chess:values=%d,%d,%d,%d,%d", values[0], values[1], values[2], values[3], values[4]);
    return plain;
}

/* Open the variant for u->values (the plain variant when they are the
 * defaults) and a solver with a table of u->hash_mb, in place of the
 * previous ones (freed first: a big table is never held twice). On a
 * failure the previous settings come back. */
static int uci_open(uci_t *u, err_t *err)
{
    char spec[128];
    uci_variant_spec(u->values, u->defaults, u->limit || u->terms, spec, sizeof spec);
    gv_t *v;
    int rc = game_open(spec, &v, err);
    if (!rc) {
        if (u->have_solver) solver_free(&u->s);
        u->have_solver = 0;
        rc = uci_solver(u, v, u->hash_mb, err);
        if (!rc) {   /* the position stays: same game, same layout */
            if (u->v) game_close(u->v);
            u->v = v;
            u->have_solver = 1;
            u->hash_now = u->hash_mb;
            memcpy(u->values_now, u->values, sizeof u->values);
        } else game_close(v);
    }
    u->reopen = 0;
    if (rc && u->v && !u->have_solver) {   /* back to the previous table */
        err_t e2;
        if (uci_solver(u, u->v, u->hash_now, &e2)) return rc;
        u->have_solver = 1;
    }
    if (rc) {
        u->hash_mb = u->hash_now;
        memcpy(u->values, u->values_now, sizeof u->values);
    }
    return rc;
}

/* Apply what setoption changed (before a search, or when asked isready). */
static void uci_apply(uci_t *u)
{
    if (!u->reopen) return;
    err_t err;
    if (uci_open(u, &err)) say(u, "info string %s; keeping the previous settings", err.msg);
}

/* ---- the search thread ---- */

static void fmt_score(int32_t sc, char *buf, size_t n)
{
    if (val_is_proven_decisive(sc)) {
        int plies = val_plies(sc);
        int moves = (plies + 1) / 2;
        snprintf(buf, n, "mate %d", sc > 0 ? moves : -moves);
    } else snprintf(buf, n, "cp %d", (int)sc);
}

/* The line's moves in UCI after pos, into buf. */
static void fmt_pv(const uci_t *u, const move_t *pv, int n, char *buf, size_t len)
{
    const game_ops_t *O = u->v->ops;
    GSW_POSBUF p[GSW_MAX_POS];
    memcpy(p, u->root, O->pos_size);
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k + 12 < len; i++) {
        if (!ch_legal((const ch_pos_t *)p, pv[i])) break;
        char m[16];
        ch_format_uci((const ch_pos_t *)p, pv[i], m, sizeof m);
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", m);
        O->play(u->v, p, pv[i]);
    }
}

static void uci_on_iter(void *ctx, const ab_result_t *r)
{
    uci_t *u = ctx;
    double ms = gsw_now_ms() - u->t0;
    char sc[32], pv[2048];
    fmt_score(r->score, sc, sizeof sc);
    fmt_pv(u, r->pv, r->pvlen, pv, sizeof pv);
    uint64_t nps = ms > 0 ? (uint64_t)((double)r->nodes * 1000.0 / ms) : 0;
    char k[24] = "";
    if (u->multipv > 1) snprintf(k, sizeof k, " multipv %d", r->multipv > 0 ? r->multipv : 1);
    say(u, "info depth %d%s score %s nodes %llu nps %llu time %.0f%s%s", r->depth, k, sc,
        (unsigned long long)r->nodes, (unsigned long long)nps, ms, pv[0] ? " pv " : "", pv);
    if (r->multipv > 1) return;   /* the others of a depth's lines */
    if (u->soft_ms > 0 && ms > u->soft_ms) u->stop = 1;   /* the next depth would not finish in time */
}

/* go mate N: the mate prover (solver_mate, df-pn), which proves the
 * shortest mate for either side or that neither comes within N moves.
 * 1 with *best (and *ponder, or MOVE_NONE) when it found a mate; 0 when
 * it found none (proven, or out of time: said), the heuristic search then
 * answering. */
static int uci_mate(uci_t *u, move_t *best, move_t *ponder)
{
    err_t err;
    dfpn_table_t tab;
    *best = *ponder = MOVE_NONE;
    if (dfpn_table_init(&tab, u->hash_mb, &err)) {
        say(u, "info string go mate: %s", err.msg);
        return 0;
    }
    proof_tree_t t;
    memset(&t, 0, sizeof t);
    dfpn_result_t r;
    memset(&r, 0, sizeof r);
    dfpn_options_t o = { .table = &tab, .stop = &u->stop, .time_limit_ms = u->mate_ms, .node_limit = u->mate_nodes,
                         .count = u->s.ab.count };   /* a mate the 50-move rule pre-empts is none */
    int mate = 0, found = 0;
    int rc = solver_mate(u->v, u->root, u->mate, &o, &t, &mate, &r, &err);
    dfpn_table_free(&tab);
    double ms = gsw_now_ms() - u->t0;
    if (!rc && mate) {
        move_t line[128];
        int n = proof_tree_line(&t, line, 128);
        char pv[2048];
        fmt_pv(u, line, n, pv, sizeof pv);
        uint64_t nps = ms > 0 ? (uint64_t)((double)r.nodes * 1000.0 / ms) : 0;
        say(u, "info depth %d score mate %d nodes %llu nps %llu time %.0f%s%s", mate > 0 ? 2 * mate - 1 : -2 * mate,
            mate, (unsigned long long)r.nodes, (unsigned long long)nps, ms, pv[0] ? " pv " : "", pv);
        if (n > 0) {
            *best = line[0];
            *ponder = n > 1 ? line[1] : MOVE_NONE;
            found = 1;
        }
    } else if (!rc) {
        say(u, "info string no mate within %d moves for either side (proven in %llu nodes); the engine's move",
            u->mate, (unsigned long long)r.nodes);
    } else {
        say(u, "info string go mate %d: %s; the engine's move", u->mate, err.msg);
    }
    proof_tree_free(&t);
    return found;
}

/* The root answered through the door with a move (the Syzygy tablebases:
 * the move that keeps the result under the 50-move rule, by DTZ): 1 with
 * r's move and the line said; 0 when nothing answers it with a move. The
 * game's line is left out of the question, as Syzygy's root probe leaves
 * it. */
static int uci_known(uci_t *u, ab_result_t *r)
{
    answer_t a;
    err_t err;
    int hl = u->s.ab.history_len;
    u->s.ab.history_len = 0;
    int got = solver_cached(&u->s, u->root, &a, &err);
    u->s.ab.history_len = hl;
    if (got != 1 || a.r.best == MOVE_NONE) return 0;
    r->best = r->pv[0] = a.r.best;
    r->pvlen = 1;
    char sc[32], pv[16], v[48];
    if (a.r.lo == a.r.hi) fmt_score(a.r.lo, sc, sizeof sc);   /* (a mate's distance, or a draw) */
    else snprintf(sc, sizeof sc, "cp %d", a.r.lo > VAL_DRAW ? 20000 : -20000);   /* a result without its distance */
    ch_format_uci((const ch_pos_t *)u->root, a.r.best, pv, sizeof pv);
    value_text(a.r.lo, a.r.hi, v, sizeof v);
    int tb = a.source && (!strcmp(a.source, "syzygy") || !strcmp(a.source, "egdb"));
    say(u, "info depth 1 score %s nodes 0 time %.0f%s pv %s", sc, gsw_now_ms() - u->t0, tb ? " tbhits 1" : "", pv);
    say(u, "info string %s (%s)", v, a.note[0] ? a.note : a.phrase);
    return 1;
}

static void *uci_search(void *arg)
{
    uci_t *u = arg;
    const game_ops_t *O = u->v->ops;
    ab_result_t r;
    err_t err;
    memset(&r, 0, sizeof r);
    r.best = MOVE_NONE;
    u->s.ab.history = u->hist;
    u->s.ab.history_len = u->nhist;
    move_t mbest = MOVE_NONE, mponder = MOVE_NONE;
    val_t tv;
    if (u->mate > 0 && !O->terminal(u->v, u->root, &tv) && uci_mate(u, &mbest, &mponder)) {
        r.best = mbest;
        r.pv[0] = mbest;
        r.pv[1] = mponder;
        r.pvlen = mponder != MOVE_NONE ? 2 : 1;
    } else {
        if (u->mate > 0 && u->mate_ms > 0) {   /* what the prover left of the move's time */
            double left = u->ao.time_limit_ms - (gsw_now_ms() - u->t0);
            u->ao.time_limit_ms = left > 1 ? left : 1;
        }
        if (!uci_known(u, &r) && solver_think(&u->s, u->root, &u->ao, &r, &err)) say(u, "info string %s", err.msg);
    }
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(u->v, u->root, mv);
    move_t best = r.best;
    int legal = 0;
    for (int i = 0; i < n; i++) legal |= mv[i] == best;
    if (!legal) best = n ? mv[0] : MOVE_NONE;   /* stopped before a move was found */
    pthread_mutex_lock(&u->lock);   /* go infinite: the answer waits for stop */
    while (u->infinite && !u->stop) pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
    if (best == MOVE_NONE) {
        say(u, "bestmove 0000");
        return NULL;
    }
    char b[16], p[16] = "";
    ch_format_uci((const ch_pos_t *)u->root, best, b, sizeof b);
    if (r.pvlen >= 2 && r.pv[0] == best) {
        GSW_POSBUF c[GSW_MAX_POS];
        memcpy(c, u->root, O->pos_size);
        O->play(u->v, c, best);
        if (ch_legal((const ch_pos_t *)c, r.pv[1])) ch_format_uci((const ch_pos_t *)c, r.pv[1], p, sizeof p);
    }
    if (p[0]) say(u, "bestmove %s ponder %s", b, p);
    else say(u, "bestmove %s", b);
    return NULL;
}

/* Stop a running search (stop_it) or wait for it, and join its thread. */
static void uci_join(uci_t *u, int stop_it)
{
    if (!u->running) return;
    pthread_mutex_lock(&u->lock);
    if (stop_it || u->infinite) u->stop = 1;
    pthread_cond_broadcast(&u->cond);
    pthread_mutex_unlock(&u->lock);
    pthread_join(u->th, NULL);
    u->running = 0;
}

/* ---- commands ---- */

static int is_word(const char *t, const char *w) { return t && !strcmp(t, w); }

/* A whole number token into *out; 0 when it is not one. */
static int num(const char *t, double lo, double hi, double *out)
{
    if (!t) return 0;
    char *end;
    double d = strtod(t, &end);
    if (end == t || *end || !(d >= lo && d <= hi)) return 0;
    *out = d;
    return 1;
}

int uci_level(int elo)
{
    int l = 1;
    while (l < 9 && uci_level_elo[l] <= elo) l++;
    return l;
}

void uci_level_limits(int level, ab_options_t *ao)
{
    if (!ao->depth_limit || ao->depth_limit > 2 * level) ao->depth_limit = 2 * level;
    if (!(ao->time_limit_ms > 0) || ao->time_limit_ms > 200.0 * level) ao->time_limit_ms = 200.0 * level;
}

static void cmd_uci(uci_t *u)
{
    say(u, "id name gsw %s", GSW_VERSION);
    say(u, "id author the gsw authors");
    say(u, "option name Hash type spin default %d min 1 max %d", GSW_HASH_MB_DEFAULT, UCI_HASH_MAX);
    say(u, "option name Clear Hash type button");
    say(u, "option name Threads type spin default 1 min 1 max %d", UCI_THREADS_MAX);
    say(u, "option name MultiPV type spin default 1 min 1 max %d", UCI_MULTIPV_MAX);
    say(u, "option name Move Overhead type spin default %d min 0 max %d", UCI_OVERHEAD_MS, UCI_OVERHEAD_MAX);
    say(u, "option name UseNetwork type check default true");
    say(u, "option name UCI_LimitStrength type check default false");
    say(u, "option name UCI_Elo type spin default %d min %d max %d", UCI_ELO_MAX, UCI_ELO_MIN, UCI_ELO_MAX);
    for (int i = 0; i < 5; i++)
        say(u, "option name %s type spin default %d min 1 max 10000", value_names[i], u->defaults[i]);
    say(u, "option name UCI_Chess960 type check default false");
    say(u, "option name SyzygyPath type string default %s", *ch_syzygy_paths() ? ch_syzygy_paths() : "<empty>");
    say(u, "option name SyzygyProbeLimit type spin default 7 min 0 max 7");
    say(u, "uciok");
}

static void cmd_setoption(uci_t *u, char **tok, int nt)
{
    char name[128] = "", value[128] = "";
    int i = 1, in = 0;
    for (; i < nt; i++) {
        if (is_word(tok[i], "name")) { in = 1; continue; }
        if (is_word(tok[i], "value")) { in = 2; continue; }
        char *dst = in == 1 ? name : in == 2 ? value : NULL;
        size_t sz = in == 1 ? sizeof name : sizeof value;
        if (!dst) continue;
        size_t k = strlen(dst);
        snprintf(dst + k, sz - k, "%s%s", k ? " " : "", tok[i]);
    }
    uci_join(u, 0);
    double d;
    if (!strcasecmp(name, "Hash")) {
        if (!num(value, 1, UCI_HASH_MAX, &d) || d != (double)(int)d) {
            say(u, "info string Hash: expected a whole number from 1 to %d", UCI_HASH_MAX);
            return;
        }
        if ((size_t)d != u->hash_mb) { u->hash_mb = (size_t)d; u->reopen = 1; }
        return;
    }
    if (!strcasecmp(name, "Clear Hash")) {
        if (u->have_solver) solver_clear(&u->s);
        return;
    }
    if (!strcasecmp(name, "Threads") || !strcasecmp(name, "MultiPV")) {
        int th = !strcasecmp(name, "Threads"), max = th ? UCI_THREADS_MAX : UCI_MULTIPV_MAX;
        if (!num(value, 1, max, &d) || d != (double)(int)d) {
            say(u, "info string %s: expected a whole number from 1 to %d", th ? "Threads" : "MultiPV", max);
            return;
        }
        *(th ? &u->threads : &u->multipv) = (int)d;
        return;
    }
    if (!strcasecmp(name, "Move Overhead")) {
        if (!num(value, 0, UCI_OVERHEAD_MAX, &d) || d != (double)(int)d) {
            say(u, "info string Move Overhead: expected a whole number of milliseconds from 0 to %d", UCI_OVERHEAD_MAX);
            return;
        }
        u->overhead_ms = (int)d;
        return;
    }
    if (!strcasecmp(name, "UseNetwork")) {   /* the evaluation network, or the evaluation by terms */
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            say(u, "info string UseNetwork: expected true or false");
            return;
        }
        const int terms = !strcasecmp(value, "false");
        if (terms != u->terms) u->reopen = 1;
        u->terms = terms;
        return;
    }
    if (!strcasecmp(name, "UCI_LimitStrength") || !strcasecmp(name, "UCI_Elo")) {
        if (!strcasecmp(name, "UCI_Elo")) {
            if (!num(value, UCI_ELO_MIN, UCI_ELO_MAX, &d) || d != (double)(int)d) {
                say(u, "info string UCI_Elo: expected a whole number from %d to %d", UCI_ELO_MIN, UCI_ELO_MAX);
                return;
            }
            u->elo = (int)d;
        } else if (!strcasecmp(value, "true") || !strcasecmp(value, "false")) {
            const int limit = !strcasecmp(value, "true");
            if (limit != u->limit) u->reopen = 1;   /* (the levels play with the evaluation by terms) */
            u->limit = limit;
        } else {
            say(u, "info string UCI_LimitStrength: expected true or false");
            return;
        }
        if (u->limit) {
            int l = uci_level(u->elo);
            say(u, "info string UCI_Elo %d: level %d, rated about %d (depth %d, %d ms a move at most)", u->elo, l,
                uci_level_elo[l - 1], 2 * l, 200 * l);
        }
        return;
    }
    if (!strcasecmp(name, "SyzygyPath")) {   /* the tables for every search after this */
        err_t err;
        const char *dirs = strcmp(value, "<empty>") ? value : "";
        if (ch_syzygy_open(dirs, NULL, &err)) {   /* (UCI's cache is the default one) */
            say(u, "info string SyzygyPath: %s", err.msg);
            return;
        }
        if (*dirs) say(u, "info string SyzygyPath: tables of up to %d pieces", ch_syzygy_largest());
        u->reopen = 1;   /* the solver's sources, opened again */
        return;
    }
    if (!strcasecmp(name, "SyzygyProbeLimit")) {
        if (!num(value, 0, 7, &d) || d != (double)(int)d) {
            say(u, "info string SyzygyProbeLimit: expected a whole number from 0 to 7");
            return;
        }
        ch_syzygy_limit((int)d);
        return;
    }
    if (!strcasecmp(name, "UCI_Chess960")) {
        u->chess960 = !strcasecmp(value, "true");
        return;
    }
    for (int k = 0; k < 5; k++)
        if (!strcasecmp(name, value_names[k])) {
            if (!num(value, 1, 10000, &d) || d != (double)(int)d) {
                say(u, "info string %s: expected a whole number from 1 to 10000", value_names[k]);
                return;
            }
            if ((int)d != u->values[k]) { u->values[k] = (int)d; u->reopen = 1; }
            return;
        }
    say(u, "info string no such option: %s", name);
}

/* position startpos|fen FEN [moves M...]: a bad FEN keeps the previous
 * position; moves are played up to the first bad one. */
static void cmd_position(uci_t *u, char **tok, int nt)
{
    uci_join(u, 0);
    const game_ops_t *O = u->v->ops;
    GSW_POSBUF p[GSW_MAX_POS];
    int i = 1;
    err_t err;
    if (is_word(tok[i], "startpos")) {
        O->pos_start(u->v, p);
        i++;
    } else if (is_word(tok[i], "fen")) {
        char fen[512] = "";
        size_t k = 0;
        for (i++; i < nt && !is_word(tok[i], "moves"); i++)
            k += (size_t)snprintf(fen + k, k < sizeof fen ? sizeof fen - k : 0, "%s%s", k ? " " : "", tok[i]);
        if (k >= sizeof fen) { say(u, "info string position: FEN too long"); return; }
        if (!k || game_pos_parse(u->v, fen, p, &err)) {
            say(u, "info string position: bad FEN: %s", k ? err.msg : "none given");
            return;
        }
    } else {
        say(u, "info string position: expected startpos or fen");
        return;
    }
    if (u->chess960) ((ch_pos_t *)p)->chess960 = 1;
    u->nhist = 0;
    if (i < nt && !is_word(tok[i], "moves")) say(u, "info string position: ignoring \"%s\" (moves expected)", tok[i]);
    for (; i < nt && !is_word(tok[i], "moves"); i++) {}
    for (i++; i < nt; i++) {
        move_t m;
        if (O->move_parse(u->v, p, tok[i], &m, &err)) {
            say(u, "info string position: move %s: %s (the position stops before it)", tok[i], err.msg);
            break;
        }
        if (u->nhist >= u->caphist) {
            int cap = u->caphist ? u->caphist * 2 : 256;
            uint64_t *h = realloc(u->hist, (size_t)cap * sizeof *h);
            if (!h) { say(u, "info string out of memory"); break; }
            u->hist = h;
            u->caphist = cap;
        }
        u->hist[u->nhist++] = O->pos_hash(u->v, p);
        O->play(u->v, p, m);
    }
    memcpy(u->pos, p, O->pos_size);
}

static void cmd_go(uci_t *u, char **tok, int nt)
{
    uci_join(u, 0);
    uci_apply(u);
    const game_ops_t *O = u->v->ops;
    if (!u->have_solver) {   /* (no memory for any table) */
        say(u, "info string no transposition table: set a smaller Hash");
        say(u, "bestmove 0000");
        return;
    }
    double wtime = -1, btime = -1, winc = 0, binc = 0, mtg = 0, movetime = 0, depth = 0, nodes = 0, mate = 0, d;
    int infinite = 0, timed = 0;
    for (int i = 1; i < nt; i++) {
        const char *t = tok[i], *a = i + 1 < nt ? tok[i + 1] : NULL;
        double *dst = !strcmp(t, "wtime") ? &wtime : !strcmp(t, "btime") ? &btime : !strcmp(t, "winc") ? &winc
                    : !strcmp(t, "binc") ? &binc : !strcmp(t, "movestogo") ? &mtg : !strcmp(t, "movetime") ? &movetime
                    : !strcmp(t, "depth") ? &depth : !strcmp(t, "nodes") ? &nodes : !strcmp(t, "mate") ? &mate : NULL;
        if (dst) {
            if (!num(a, -1e12, 1e18, &d)) { say(u, "info string go: %s needs a number", t); continue; }
            *dst = d;
            i++;
            if (dst == &wtime || dst == &btime || dst == &movetime) timed = 1;
        } else if (!strcmp(t, "infinite") || !strcmp(t, "ponder")) infinite = 1;
        else if (!strcmp(t, "searchmoves")) {   /* not supported: the moves that follow are skipped */
            while (i + 1 < nt && strlen(tok[i + 1]) >= 4 && islower((unsigned char)tok[i + 1][0]) &&
                   isdigit((unsigned char)tok[i + 1][1]))
                i++;
        }
    }
    memset(&u->ao, 0, sizeof u->ao);
    u->ao.threads = 1;
    u->ao.stop = &u->stop;
    u->ao.on_iter = uci_on_iter;
    u->ao.on_iter_ctx = u;
    u->ao.threads = u->threads;
    u->ao.multipv = u->multipv;
    u->soft_ms = 0;
    if (mate > UCI_MATE_MAX) {
        say(u, "info string go mate: at most %d moves (the prover's reach)", UCI_MATE_MAX);
        mate = UCI_MATE_MAX;
    }
    u->mate = mate > 0 ? (int)mate : 0;
    u->mate_nodes = nodes > 0 ? (uint64_t)nodes : 0;
    if (depth > 0) u->ao.depth_limit = depth > 64 ? 64 : (int)depth;
    if (mate > 0 && (!u->ao.depth_limit || u->ao.depth_limit > 2 * (int)mate)) u->ao.depth_limit = 2 * (int)mate;
    if (nodes > 0) u->ao.node_limit = (uint64_t)nodes;
    int side = O->pos_turn(u->v, u->pos);
    double left = side ? btime : wtime, inc = side ? binc : winc;
    if (timed && movetime <= 0 && left < 0) left = (side ? wtime : btime) >= 0 ? (side ? wtime : btime) : 1000;
    const double ovh = u->overhead_ms;
    if (movetime > 0) u->ao.time_limit_ms = movetime > ovh * 2 ? movetime - ovh : movetime / 2;
    else if (timed && left >= 0) {
        /* the share of what is left that this move may take: soft (no
         * new depth past 60% of it), and a hard deadline three times it,
         * never more than half of what is left */
        double n = mtg > 0 ? (mtg < 50 ? mtg : 50) : 30;
        double target = left / n + (inc > 0 ? inc * 0.8 : 0);
        if (target > left * 0.5) target = left * 0.5;
        double hard = target * 3;
        if (hard > left * 0.5) hard = left * 0.5;
        hard -= ovh;
        if (hard < 1) hard = left > 4 ? left / 4 : 1;
        u->ao.time_limit_ms = hard;
        u->soft_ms = target * 0.6;
    }
    /* go mate with a time: the prover gets half of it, the engine what is left */
    u->mate_ms = u->ao.time_limit_ms > 0 ? u->ao.time_limit_ms / 2 : 0;
    if (u->limit) {   /* UCI_LimitStrength: the level's depth and time, within what go allows */
        uci_level_limits(uci_level(u->elo), &u->ao);
        u->soft_ms = 0;
    }
    if (!infinite && !timed && depth <= 0 && nodes <= 0 && mate <= 0) infinite = 1;   /* a bare go */
    u->infinite = infinite;
    u->stop = 0;
    memcpy(u->root, u->pos, O->pos_size);
    u->t0 = gsw_now_ms();
    if (pthread_create(&u->th, NULL, uci_search, u)) {
        say(u, "info string cannot start a search thread");
        say(u, "bestmove 0000");
        return;
    }
    u->running = 1;
}

/* Split line into words in place; returns the count. */
static int split(char *line, char **tok, int max)
{
    int n = 0;
    for (char *p = line; *p && n < max;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        tok[n++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = 0;
    }
    return n;
}

static int uci_run(cli_args_t *o)
{
    if (o->npos > 0) return opts_usage_error(o, 0, NULL);
    uci_t *u = calloc(1, sizeof *u);
    if (!u) { fprintf(stderr, "gsw: out of memory\n"); return GSW_EFAIL; }
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cond, NULL);
    pthread_mutex_init(&u->out, NULL);
    u->hash_mb = GSW_HASH_MB_DEFAULT;
    u->threads = u->multipv = 1;
    u->overhead_ms = UCI_OVERHEAD_MS;
    u->elo = UCI_ELO_MAX;
    u->egdb_dir = opts_egdb_dir(o);
    err_t err;
    gv_t *v;
    if (game_open("chess", &v, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        free(u);
        return err.code;
    }
    const ch_variant_t *cv = v->data;
    for (int i = 0; i < 5; i++) u->defaults[i] = u->values[i] = cv->params.value[CH_PAWN + i];
    game_close(v);
    if (uci_open(u, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        free(u);
        return err.code;
    }
    u->v->ops->pos_start(u->v, u->pos);
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    char *line = NULL;
    size_t cap = 0;
    int rc = GSW_OK, quit = 0;
    for (;;) {
        ssize_t len = getline(&line, &cap, stdin);
        if (len < 0) break;   /* end of input (a finite search ends first), or a signal */
        char **tok = malloc(((size_t)len / 2 + 2) * sizeof *tok);
        if (!tok) { rc = GSW_EFAIL; break; }
        int nt = split(line, tok, (int)((size_t)len / 2 + 2));
        if (nt == 0) {}
        else if (is_word(tok[0], "uci")) cmd_uci(u);
        else if (is_word(tok[0], "isready")) {
            if (!u->running) uci_apply(u);
            say(u, "readyok");
        } else if (is_word(tok[0], "ucinewgame")) {
            uci_join(u, 0);
            uci_apply(u);
            if (u->have_solver) solver_clear(&u->s);
            u->v->ops->pos_start(u->v, u->pos);
            u->nhist = 0;
        } else if (is_word(tok[0], "setoption")) cmd_setoption(u, tok, nt);
        else if (is_word(tok[0], "position")) cmd_position(u, tok, nt);
        else if (is_word(tok[0], "go")) cmd_go(u, tok, nt);
        else if (is_word(tok[0], "stop") || is_word(tok[0], "ponderhit")) uci_join(u, 1);
        else if (is_word(tok[0], "quit")) quit = 1;
        else if (is_word(tok[0], "d")) {   /* (not UCI: the position, for people) */
            char fen[256];
            u->v->ops->pos_format(u->v, u->pos, fen, sizeof fen);
            say(u, "info string fen %s", fen);
        } else if (nt > 0 && !is_word(tok[0], "debug") && !is_word(tok[0], "register"))
            say(u, "Unknown command: %s", tok[0]);   /* (as Stockfish says it; the GUI goes on) */
        free(tok);
        if (quit || opts_stop) break;
    }
    free(line);
    uci_join(u, quit || opts_stop);
    if (u->have_solver) solver_free(&u->s);
    game_close(u->v);
    free(u->hist);
    pthread_mutex_destroy(&u->lock);
    pthread_cond_destroy(&u->cond);
    pthread_mutex_destroy(&u->out);
    free(u);
    return rc;
}

static const char *json_na_uci(const cli_args_t *o)
{
    (void)o;
    return "it speaks the UCI protocol on stdin and stdout";
}

static const cli_opt_t *const uci_opts[] = { opts_egdb, NULL };

const cli_verb_t verb_uci = {
    "uci", "gsw uci",
      "speak UCI (chess) on stdin and stdout: gsw as an engine for chess GUIs and matches", uci_run, 0,
      json_na_uci, .opts = uci_opts, .egdb = 1
};
