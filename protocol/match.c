/* gsw match chess --engine CMD: our engine (in process, through the cached
 * solver's door to the heuristic search) against a UCI engine run as a
 * child process. Games alternate colours in pairs from the same opening;
 * each ends by the rules (the game's terminal test and line_over: mate,
 * stalemate, dead positions, repetition, the 50-move rule) or a move cap; an opponent that
 * dies, hangs or plays an illegal move loses that game. N workers play N
 * games at once, each with its own engine process and its own table. The
 * games go to a PGN file as they finish; a line per game, then the score
 * and the Elo difference it suggests. Ctrl-C stops: the finished games
 * count. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/ab.h"
#include "db/bddfile.h"
#include "db/cache_path.h"
#include "games/chess/ch.h"
#include "solve/solver.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "protocol/match.h"
#include "protocol/uci.h"

#ifndef GSW_VERSION
#define GSW_VERSION "unknown"
#endif

#define MATCH_MAX_PLIES 300             /* a game this long is a draw */
#define MATCH_LINE (MATCH_MAX_PLIES + MATCH_OPENING_PLIES + 2)
#define MATCH_READY_MS 30000.0

typedef struct game_res {
    int played;
    int ours_white;
    int score;                 /* ours: 2 win, 1 draw, 0 loss */
    char result[8];            /* "1-0", "0-1", "1/2-1/2" */
    char reason[600];
    int plies;
    int opening;               /* the opening's line in its text */
    char opening_name[48];
    uint64_t key;              /* the game's start, colours and moves, hashed: a game played again has it */
} game_res_t;

typedef struct match {
    const cli_args_t *o;
    gv_t *v;                   /* our variant (its evaluation's values); the rules are chess's */
    size_t hash_mb;
    int level;                 /* ours held to a UCI_Elo level (1-9, as gsw uci's); 0: the full engine */
    const char *cmd;
    double movetime;           /* per move, ms (0: nodes) */
    uint64_t nodes;
    int games, concurrency;
    uint64_t seed;
    match_opening_t *book;
    int nbook;
    int *order;                /* the book shuffled by the seed */
    const char *pgn_path;
    char pgn_buf[1200];        /* the default: the data folder's matches/match-DATE-TIME.pgn */
    FILE *pgn;
    FILE *progress;            /* stdout, or stderr under --json */
    char ours[128], theirs[128];
    pthread_mutex_t lock;      /* everything below */
    int next, done, w, d, l;
    game_res_t *res;
    char fail[600];            /* a worker whose engine would not start again */
    int failed_workers;
} match_t;

typedef struct worker {
    match_t *m;
    match_engine_t eng;
    int eng_up;
    solver_t s;
    pthread_t th;
    /* the game being played: positions from its start, their hashes, moves */
    unsigned char *line;       /* MATCH_LINE positions of pos_size bytes */
    uint64_t hist[MATCH_LINE];
    move_t moves[MATCH_LINE];
    char cmdbuf[MATCH_LINE * 8 + 512];
} worker_t;

#define POS(w, i) ((void *)((w)->line + (size_t)(i) * GSW_MAX_POS))

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Is the game over at line[n-1] (n positions, plies moves played)? The
 * result and the reason. */
static int game_over(const match_t *m, worker_t *w, int n, char *result, char *reason, size_t rn)
{
    const gv_t *v = m->v;
    const game_ops_t *O = v->ops;
    const void *cur = POS(w, n - 1);
    val_t val;
    int side = O->pos_turn(v, cur);
    int over = 0;
    if (O->terminal(v, cur, &val)) {
        over = 1;
        snprintf(reason, rn, "the rules");
        if (O->terminal_why) O->terminal_why(v, cur, reason, rn);
    } else {
        const void *ptrs[MATCH_LINE];
        for (int i = 0; i < n; i++) ptrs[i] = POS(w, i);
        char why[128] = "";
        if (O->line_over && O->line_over(v, ptrs, n, &val, why, sizeof why)) {   /* repetition, 50-move rule */
            over = 1;
            snprintf(reason, rn, "%s", why[0] ? why : "the rules");
        } else if (n - 1 >= MATCH_MAX_PLIES) {
            over = 1;
            val = VAL_DRAW;
            snprintf(reason, rn, "adjudicated a draw at the %d-ply cap", MATCH_MAX_PLIES);
        }
    }
    if (!over) return 0;
    if (val == VAL_DRAW) snprintf(result, 8, "1/2-1/2");
    else if (val < 0) snprintf(result, 8, "%s", side == CH_WHITE ? "0-1" : "1-0");
    else snprintf(result, 8, "%s", side == CH_WHITE ? "1-0" : "0-1");
    return 1;
}

/* (Re)start this worker's engine; 0, or -1 with m->fail set. */
static int worker_engine(worker_t *w)
{
    if (w->eng_up) return 0;
    match_t *m = w->m;
    err_t err;
    const char *const *eopts;
    int neopts = args_list(m->o, "option", &eopts);
    if (engine_start(&w->eng, m->cmd, eopts, neopts, &opts_stop, &err)) {
        if (!opts_stop) {
            pthread_mutex_lock(&m->lock);
            snprintf(m->fail, sizeof m->fail, "%s", err.msg);
            m->failed_workers++;
            pthread_mutex_unlock(&m->lock);
        }
        return -1;
    }
    w->eng_up = 1;
    return 0;
}

/* The engine's side forfeits (why: what it did, after its name): it loses,
 * and when kill_it is restarted for the next game. */
static void forfeit(worker_t *w, game_res_t *g, int side, int kill_it, const char *why)
{
    snprintf(g->result, sizeof g->result, "%s", side == CH_WHITE ? "0-1" : "1-0");
    snprintf(g->reason, sizeof g->reason, "%s %s", w->m->theirs, why);
    if (kill_it) {
        engine_close(&w->eng);
        w->eng_up = 0;
    }
}

/* The engine's move at line[n-1]: 0 with *mv, 1 when the game ended by a
 * forfeit (g filled), -1 when interrupted. */
static int engine_move(worker_t *w, int start_is_std, int n, move_t *mv, game_res_t *g)
{
    match_t *m = w->m;
    const game_ops_t *O = m->v->ops;
    int side = O->pos_turn(m->v, POS(w, n - 1));
    size_t k = 0, cap = sizeof w->cmdbuf;
    if (start_is_std) k += (size_t)snprintf(w->cmdbuf + k, cap - k, "position startpos");
    else {
        char fen[256];
        O->pos_format(m->v, POS(w, 0), fen, sizeof fen);
        k += (size_t)snprintf(w->cmdbuf + k, cap - k, "position fen %s", fen);
    }
    if (n > 1) k += (size_t)snprintf(w->cmdbuf + k, cap - k, " moves");
    for (int i = 0; i + 1 < n && k + 16 < cap; i++) {
        char u[16];
        ch_format_uci(POS(w, i), w->moves[i], u, sizeof u);
        k += (size_t)snprintf(w->cmdbuf + k, cap - k, " %s", u);
    }
    char line[4096], why[400];
    if (engine_send(&w->eng, "%s", w->cmdbuf) ||
        (m->movetime > 0 ? engine_send(&w->eng, "go movetime %.0f", m->movetime)
                         : engine_send(&w->eng, "go nodes %llu", (unsigned long long)m->nodes))) {
        snprintf(why, sizeof why, "crashed (%s)", w->eng.why);
        forfeit(w, g, side, 1, why);
        return 1;
    }
    double timeout = m->movetime > 0 ? m->movetime * 3 + 5000 : 60000;
    int rc = engine_expect(&w->eng, "bestmove", timeout, &opts_stop, line, sizeof line);
    if (rc == -3) return -1;
    if (rc == -1) {
        snprintf(why, sizeof why, "sent no bestmove within %.1f s (hung?)", timeout / 1000);
        forfeit(w, g, side, 1, why);
        return 1;
    }
    if (rc == -2) {
        snprintf(why, sizeof why, "crashed (%s)", w->eng.why);
        forfeit(w, g, side, 1, why);
        return 1;
    }
    char word[64] = "", text[64] = "";
    sscanf(line, "%63s %63s", word, text);
    err_t err;
    if (!text[0] || O->move_parse(m->v, POS(w, n - 1), text, mv, &err)) {
        snprintf(why, sizeof why, "played an illegal move (\"%s\")", text);
        forfeit(w, g, side, 0, why);
        return 1;
    }
    return 0;
}

/* Our move at line[n-1]: 0, or -1 when interrupted. */
static int our_move(worker_t *w, int n, move_t *mv)
{
    match_t *m = w->m;
    const game_ops_t *O = m->v->ops;
    const void *cur = POS(w, n - 1);
    ab_options_t ao;
    memset(&ao, 0, sizeof ao);
    ao.threads = 1;
    ao.stop = &opts_stop;
    if (m->movetime > 0) ao.time_limit_ms = m->movetime;
    else ao.node_limit = m->nodes;
    if (m->level) uci_level_limits(m->level, &ao);   /* within the match's time or nodes */
    w->s.ab.history = w->hist;
    w->s.ab.history_len = n - 1;
    ab_result_t r;
    err_t err;
    memset(&r, 0, sizeof r);
    r.best = MOVE_NONE;
    if (solver_think(&w->s, cur, &ao, &r, &err)) r.best = MOVE_NONE;
    if (opts_stop) return -1;
    move_t list[GSW_MAX_MOVES];
    int nm = O->moves(m->v, cur, list), ok = 0;
    for (int i = 0; i < nm; i++) ok |= list[i] == r.best;
    *mv = ok ? r.best : list[0];   /* (the game is not over: there is a move) */
    return 0;
}

/* Play game gi into *g; 0 done, -1 interrupted. */
static int play_game(worker_t *w, int gi, game_res_t *g)
{
    match_t *m = w->m;
    const gv_t *v = m->v;
    const game_ops_t *O = v->ops;
    const match_opening_t *op = &m->book[m->order[(gi / 2) % m->nbook]];
    memset(g, 0, sizeof *g);
    g->ours_white = gi % 2 == 0;
    g->opening = op->line;
    snprintf(g->opening_name, sizeof g->opening_name, "%s", op->name);
    memcpy(POS(w, 0), op->start, O->pos_size);
    GSW_POSBUF std[GSW_MAX_POS];
    O->pos_start(v, std);
    char f1[256], f2[256];
    O->pos_format(v, std, f1, sizeof f1);
    O->pos_format(v, op->start, f2, sizeof f2);
    int start_is_std = !strcmp(f1, f2);
    int n = 1;
    for (int i = 0; i < op->n; i++) {
        w->moves[n - 1] = op->moves[i];
        w->hist[n - 1] = O->pos_hash(v, POS(w, n - 1));
        memcpy(POS(w, n), POS(w, n - 1), O->pos_size);
        O->play(v, POS(w, n), op->moves[i]);
        n++;
    }
    solver_clear(&w->s);
    char why[400];
    int rc = engine_newgame(&w->eng, MATCH_READY_MS, &opts_stop);
    if (rc == -3) return -1;
    if (rc) {
        snprintf(why, sizeof why, "did not answer isready (%s)", w->eng.why);
        forfeit(w, g, g->ours_white ? CH_BLACK : CH_WHITE, 1, why);
        n = 1 + op->n;
        goto done;
    }
    for (;;) {
        if (game_over(m, w, n, g->result, g->reason, sizeof g->reason)) break;
        if (n >= MATCH_LINE) {   /* (the cap ends games first) */
            snprintf(g->result, sizeof g->result, "1/2-1/2");
            snprintf(g->reason, sizeof g->reason, "too long");
            break;
        }
        const void *cur = POS(w, n - 1);
        int side = O->pos_turn(v, cur);
        int ours = (side == CH_WHITE) == (g->ours_white != 0);
        move_t mv;
        if (ours) {
            if (our_move(w, n, &mv)) return -1;
        } else {
            int r = engine_move(w, start_is_std, n, &mv, g);
            if (r < 0) return -1;
            if (r > 0) break;
        }
        w->moves[n - 1] = mv;
        w->hist[n - 1] = O->pos_hash(v, cur);
        memcpy(POS(w, n), cur, O->pos_size);
        O->play(v, POS(w, n), mv);
        n++;
    }
done:
    g->plies = n - 1;
    g->played = 1;
    uint64_t start[2] = { O->pos_hash(v, POS(w, 0)), (uint64_t)g->ours_white };
    g->key = bddf_fnv(w->moves, (size_t)g->plies * sizeof w->moves[0], bddf_fnv(start, sizeof start, BDDF_FNV_INIT));
    if (!strcmp(g->result, "1/2-1/2")) g->score = 1;
    else g->score = !strcmp(g->result, "1-0") == (g->ours_white != 0) ? 2 : 0;
    return 0;
}

/* A PGN tag value: quotes and backslashes escaped. */
static void tag(FILE *f, const char *name, const char *val)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = val; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', f);
        fputc((unsigned char)*p < ' ' ? ' ' : *p, f);
    }
    fputs("\"]\n", f);
}

/* The game's record with our tags (the seven-tag roster, then the
 * record's own others, FEN and SetUp among them). Under m->lock. */
static void write_pgn(match_t *m, worker_t *w, int gi, const game_res_t *g)
{
    const gv_t *v = m->v;
    if (!m->pgn || !v->ops->record_write) return;
    size_t need = v->ops->record_write(v, POS(w, 0), w->moves, g->plies, g->result, NULL, 0);
    char *rec = malloc(need + 1);
    if (!rec) return;
    v->ops->record_write(v, POS(w, 0), w->moves, g->plies, g->result, rec, need + 1);
    char date[16], round[16];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(round, sizeof round, "%d", gi + 1);
    tag(m->pgn, "Event", "gsw match");
    tag(m->pgn, "Site", "?");
    tag(m->pgn, "Date", date);
    tag(m->pgn, "Round", round);
    tag(m->pgn, "White", g->ours_white ? m->ours : m->theirs);
    tag(m->pgn, "Black", g->ours_white ? m->theirs : m->ours);
    tag(m->pgn, "Result", g->result);
    static const char *const mine[] = { "Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination", "Opening" };
    const char *p = rec;
    while (*p == '[') {   /* the record's tags: keep those we did not write */
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        int ours = 0;
        for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) {
            size_t k = strlen(mine[i]);
            ours |= len > k + 1 && !strncmp(p + 1, mine[i], k) && p[1 + k] == ' ';
        }
        if (!ours) fprintf(m->pgn, "%.*s\n", (int)len, p);
        p += len + (eol ? 1 : 0);
    }
    tag(m->pgn, "Termination", g->reason);
    if (g->opening_name[0]) tag(m->pgn, "Opening", g->opening_name);
    while (*p == '\n' || *p == '\r') p++;
    fprintf(m->pgn, "\n%s", p);
    size_t pl = strlen(p);
    if (!pl || p[pl - 1] != '\n') fputc('\n', m->pgn);
    fputc('\n', m->pgn);
    fflush(m->pgn);
    free(rec);
}

static void *worker_run(void *arg)
{
    worker_t *w = arg;
    match_t *m = w->m;
    game_res_t g;
    while (!opts_stop) {
        if (worker_engine(w)) break;
        pthread_mutex_lock(&m->lock);
        int gi = m->next < m->games ? m->next++ : -1;
        pthread_mutex_unlock(&m->lock);
        if (gi < 0) break;
        if (play_game(w, gi, &g)) break;   /* interrupted: the game does not count */
        pthread_mutex_lock(&m->lock);
        m->res[gi] = g;
        m->done++;
        if (g.score == 2) m->w++;
        else if (g.score == 1) m->d++;
        else m->l++;
        write_pgn(m, w, gi, &g);
        char opn[64];
        if (g.opening_name[0]) snprintf(opn, sizeof opn, "%s", g.opening_name);
        else snprintf(opn, sizeof opn, "opening line %d", g.opening);
        fprintf(m->progress, "game %d/%d: %s - %s %s (%s, %d plies; %s); %s %d-%d-%d\n", gi + 1, m->games,
                g.ours_white ? m->ours : m->theirs, g.ours_white ? m->theirs : m->ours, g.result, g.reason, g.plies,
                opn, m->ours, m->w, m->d, m->l);
        fflush(m->progress);
        pthread_mutex_unlock(&m->lock);
    }
    engine_close(&w->eng);   /* (each worker its own: together, not one after another) */
    w->eng_up = 0;
    return NULL;
}

/* "NAME=VALUE" options for our side into the variant's values, the
 * table's size and the level (UCI_LimitStrength with UCI_Elo, as gsw uci
 * takes them: *level 0 unless both are given and the first is true). */
static int ours_options(const cli_args_t *o, int values[5], size_t *hash_mb, int *changed, int *level, int *terms,
                        err_t *err)
{
    static const char *const names[5] = { "PawnValue", "KnightValue", "BishopValue", "RookValue", "QueenValue" };
    *changed = 0;
    *level = 0;
    *terms = 0;
    int limit = 0, elo = 0;
    const char *const *ours;
    int n = args_list(o, "ours-option", &ours);
    for (int i = 0; i < n; i++) {
        const char *a = ours[i], *eq = strchr(a, '=');
        if (!eq) return err_set(err, GSW_EINPUT, "--ours-option %s: expected NAME=VALUE", a);
        size_t k = (size_t)(eq - a);
        char *end;
        long val = strtol(eq + 1, &end, 10);
        int bad = !eq[1] || *end;
        if (k == 17 && !strncasecmp(a, "UCI_LimitStrength", 17)) {
            if (strcasecmp(eq + 1, "true") && strcasecmp(eq + 1, "false"))
                return err_set(err, GSW_EINPUT, "--ours-option %s: expected true or false", a);
            limit = !strcasecmp(eq + 1, "true");
            continue;
        }
        if (k == 10 && !strncasecmp(a, "UseNetwork", 10)) {   /* false: the evaluation by terms */
            if (strcasecmp(eq + 1, "true") && strcasecmp(eq + 1, "false"))
                return err_set(err, GSW_EINPUT, "--ours-option %s: expected true or false", a);
            *terms = !strcasecmp(eq + 1, "false");
            continue;
        }
        if (k == 7 && !strncasecmp(a, "UCI_Elo", 7)) {
            if (bad || val < UCI_ELO_MIN || val > UCI_ELO_MAX)
                return err_set(err, GSW_EINPUT, "--ours-option %s: expected a whole number from %d to %d", a,
                               UCI_ELO_MIN, UCI_ELO_MAX);
            elo = (int)val;
            continue;
        }
        if (k == 4 && !strncasecmp(a, "Hash", 4)) {
            if (bad || val < 1 || val > (1 << 20))
                return err_set(err, GSW_EINPUT, "--ours-option %s: expected a whole number of MB from 1 to 1048576", a);
            *hash_mb = (size_t)val;
            continue;
        }
        int found = 0;
        for (int j = 0; j < 5 && !found; j++)
            if (strlen(names[j]) == k && !strncasecmp(a, names[j], k)) {
                if (bad || val < 0 || val > 10000)
                    return err_set(err, GSW_EINPUT, "--ours-option %s: expected a whole number from 0 to 10000", a);
                values[j] = (int)val;
                *changed = 1;
                found = 1;
            }
        if (!found)
            return err_set(err, GSW_EINPUT, "--ours-option %.*s: no such option (Hash, PawnValue, KnightValue, "
                           "BishopValue, RookValue, QueenValue, UseNetwork, UCI_LimitStrength, UCI_Elo)", (int)k, a);
    }
    if (limit) *level = uci_level(elo ? elo : UCI_ELO_MAX);
    if (*level) *terms = 1;   /* (the levels were rated with the terms, as gsw uci plays them) */
    return GSW_OK;
}

static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The games that differ: a game whose start, colours and moves repeat
 * another's (engines at a fixed node count play the same game again from
 * the same opening) tells nothing new, so the Elo and its margin count
 * each once. *w, *d, *l: their scores; returns how many there are. */
static int match_distinct(const match_t *m, int *w, int *d, int *l)
{
    *w = *d = *l = 0;
    uint64_t *k = malloc((size_t)(m->games ? m->games : 1) * 2 * sizeof *k);
    int n = 0;
    for (int i = 0; i < m->games; i++)
        if (m->res[i].played) {
            if (k) {
                k[2 * n] = m->res[i].key;
                k[2 * n + 1] = (uint64_t)m->res[i].score;
            }
            n++;
        }
    if (!k) {   /* (short of memory: every game counts) */
        *w = m->w, *d = m->d, *l = m->l;
        return n;
    }
    qsort(k, (size_t)n, 2 * sizeof *k, key_cmp);
    int u = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && k[2 * i] == k[2 * i - 2]) continue;
        u++;
        if (k[2 * i + 1] == 2) (*w)++;
        else if (k[2 * i + 1] == 1) (*d)++;
        else (*l)++;
    }
    free(k);
    return u;
}

/* The score line; distinct, dw, dd, dl: match_distinct's. */
static void score_line(const match_t *m, int distinct, int dw, int dd, int dl, char *buf, size_t n)
{
    int total = m->w + m->d + m->l;
    double elo, margin;
    int inf = match_elo(dw, dd, dl, &elo, &margin);
    double pct = total ? 100.0 * (m->w + 0.5 * m->d) / total : 0;
    char e[96];
    if (!total) {   /* no score to give */
        snprintf(buf, n, "%s vs %s: no game finished", m->ours, m->theirs);
        return;
    }
    if (inf) {   /* every game won (lost): a bound, as if half a game had gone the other way */
        double sb = (total - 0.5) / total;
        double b = fabs(-400.0 * log10(1.0 / sb - 1.0));   /* (one game: half a game each way, 0) */
        snprintf(e, sizeof e, "%s%.0f (every game %s)", elo > 0 ? "> +" : "< -", b < 0.5 ? 0.0 : b,
                 elo > 0 ? "won" : "lost");
    } else if (isinf(margin)) snprintf(e, sizeof e, "%+.0f (too few games for a margin)", elo);
    else snprintf(e, sizeof e, "%+.0f ± %.0f (95%%)", elo, margin);
    int w = snprintf(buf, n, "%s vs %s: %d-%d-%d (W-D-L), score %.1f%%, Elo difference %s", m->ours, m->theirs,
                     m->w, m->d, m->l, pct, e);
    if (distinct < total && w > 0 && (size_t)w < n)
        snprintf(buf + w, n - (size_t)w, "; only %d of the %d games differ (%d-%d-%d): the Elo counts each once "
                 "(more openings, or --movetime, for more)", distinct, total, dw, dd, dl);
}

static int match_run(cli_args_t *o)
{
    if (o->npos < 1) return opts_usage_error(o, 1, "match needs a GAME (chess)");
    if (!args_str(o, "engine")) return opts_usage_error(o, 1, "match needs --engine \"CMD [ARGS]\"");
    if (args_num(o, "movetime", 0) > 0 && args_u64(o, "nodes", 0) > 0) {
        fprintf(stderr, "gsw: match: give --movetime or --nodes, not both\n");
        return GSW_EINPUT;
    }
    err_t err;
    gv_t *base;
    if (game_open(o->pos[0], &base, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    if (strcmp(base->game->name, "chess")) {
        fprintf(stderr, "gsw: match: plays chess only (UCI engines), not %s\n", base->game->name);
        game_close(base);
        return GSW_EINPUT;
    }
    match_t *m = calloc(1, sizeof *m);
    if (!m) { fprintf(stderr, "gsw: out of memory\n"); game_close(base); return GSW_EFAIL; }
    m->o = o;
    m->hash_mb = opts_hash_mb(o);
    int values[5], defaults[5], changed, terms;
    const ch_variant_t *cv = base->data;
    for (int i = 0; i < 5; i++) defaults[i] = values[i] = cv->params.value[CH_PAWN + i];
    if (ours_options(o, values, &m->hash_mb, &changed, &m->level, &terms, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        game_close(base);
        free(m);
        return err.code;
    }
    snprintf(m->ours, sizeof m->ours, "gsw %s", GSW_VERSION);
    char spec[128];
    if (!uci_variant_spec(values, defaults, terms, spec, sizeof spec)) {   /* as gsw uci opens it */
        game_close(base);
        if (game_open(spec, &base, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); free(m); return err.code; }
        if (changed)
            snprintf(m->ours, sizeof m->ours, "gsw %s (values=%d,%d,%d,%d,%d)", GSW_VERSION, values[0], values[1],
                     values[2], values[3], values[4]);
        else if (!m->level) snprintf(m->ours, sizeof m->ours, "gsw %s (terms)", GSW_VERSION);
    }
    if (m->level) {
        size_t at = strlen(m->ours);
        snprintf(m->ours + at, sizeof m->ours - at, " (level %d)", m->level);
    }
    m->v = base;
    m->cmd = args_str(o, "engine");
    m->movetime = args_num(o, "movetime", 0) > 0 ? args_num(o, "movetime", 0) : args_u64(o, "nodes", 0) ? 0 : 100;
    m->nodes = args_u64(o, "nodes", 0);
    m->games = args_int(o, "games", 0) > 0 ? args_int(o, "games", 0) : 2;
    m->concurrency = args_int(o, "concurrency", 0) > 0 ? args_int(o, "concurrency", 0) : 1;
    if (m->concurrency > m->games) m->concurrency = m->games;
    m->seed = args_given(o, "seed") ? args_u64(o, "seed", 0) : (uint64_t)time(NULL);
    int rc = args_str(o, "openings") ? match_openings_file(m->v, args_str(o, "openings"), &m->book, &m->nbook, &err)
                         : match_openings_builtin(m->v, &m->book, &m->nbook, &err);
    if (rc) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(base); free(m); return rc; }
    m->order = malloc((size_t)m->nbook * sizeof *m->order);
    m->res = calloc((size_t)m->games, sizeof *m->res);
    worker_t *ws = calloc((size_t)m->concurrency, sizeof *ws);
    if (!m->order || !m->res || !ws) {
        fprintf(stderr, "gsw: out of memory\n");
        free(m->order); free(m->res); free(ws); free(m->book);
        game_close(base);
        free(m);
        return GSW_EFAIL;
    }
    uint64_t x = m->seed;
    for (int i = 0; i < m->nbook; i++) m->order[i] = i;
    for (int i = m->nbook - 1; i > 0; i--) {
        int j = (int)(splitmix(&x) % (uint64_t)(i + 1)), t = m->order[i];
        m->order[i] = m->order[j];
        m->order[j] = t;
    }
    m->progress = args_flag(o, "json") ? stderr : stdout;
    pthread_mutex_init(&m->lock, NULL);
    struct sigaction sa;   /* a dead engine's pipe is an answer, not a signal */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    /* the first engine: its name, and bad --engine / --option are input errors */
    for (int i = 0; i < m->concurrency; i++) {
        ws[i].m = m;
        ws[i].eng.to = ws[i].eng.from = -1;
    }
    const char *const *eopts;
    int neopts = args_list(o, "option", &eopts);
    rc = engine_start(&ws[0].eng, m->cmd, eopts, neopts, &opts_stop, &err);
    if (!rc) {
        ws[0].eng_up = 1;
        snprintf(m->theirs, sizeof m->theirs, "%s", ws[0].eng.name);
        if (!strcmp(m->theirs, m->ours)) snprintf(m->theirs, sizeof m->theirs, "%.100s (uci)", ws[0].eng.name);
        m->pgn_path = args_str(o, "pgn");
        if (!args_str(o, "pgn")) {   /* beside the cache, not in whatever folder gsw was started from */
            char dir[1024], stamp[32];
            time_t now = time(NULL);
            struct tm tmv;
            strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tmv));
            rc = cache_sibling_dir(args_str(o, "db"), "matches", dir, sizeof dir, &err);
            if (!rc) rc = cache_mkdir_p(dir, "matches folder", &err);
            if (!rc) snprintf(m->pgn_buf, sizeof m->pgn_buf, "%s/match-%s.pgn", dir, stamp);
            m->pgn_path = m->pgn_buf;
        }
        if (!rc) {
            m->pgn = fopen(m->pgn_path, "w");
            if (!m->pgn) rc = err_set(&err, GSW_EINPUT, "%s: cannot write %s: %s", args_str(o, "pgn") ? "--pgn" : "match",
                                      m->pgn_path, strerror(errno));
        }
    }
    int started = 0;
    for (int i = 0; !rc && i < m->concurrency; i++) {
        ws[i].line = malloc((size_t)MATCH_LINE * GSW_MAX_POS);
        if (!ws[i].line || solver_init(&ws[i].s, m->v, m->hash_mb, NULL, &err)) {
            if (!ws[i].line) err_set(&err, GSW_EFAIL, "out of memory");
            free(ws[i].line);
            ws[i].line = NULL;
            rc = err.code ? err.code : GSW_EFAIL;
            break;
        }
        started++;
        /* gsw's tablebases, as gsw uci reads them (never built on the clock) */
        ws[i].s.no_build = 1;
        if ((rc = solver_open_egdb(&ws[i].s, opts_egdb_dir(o), args_str(o, "db"), &err))) break;
    }
    if (!rc) {
        char per[64];
        if (m->movetime > 0) snprintf(per, sizeof per, "%.0f ms", m->movetime);
        else snprintf(per, sizeof per, "%llu nodes", (unsigned long long)m->nodes);
        fprintf(m->progress, "%s vs %s: %d games, %s a move, %d at once, seed %llu, %d openings%s%s\n", m->ours,
                m->theirs, m->games, per, m->concurrency, (unsigned long long)m->seed, m->nbook,
                args_str(o, "openings") ? " from " : " (built-in)", args_str(o, "openings") ? args_str(o, "openings") : "");
        fflush(m->progress);
    }
    int running = 0;
    for (int i = 0; !rc && i < m->concurrency; i++) {
        if (pthread_create(&ws[i].th, NULL, worker_run, &ws[i])) break;
        running++;
    }
    if (!rc && !running) { err_set(&err, GSW_EFAIL, "cannot start a thread"); rc = GSW_EFAIL; }
    for (int i = 0; i < running; i++) pthread_join(ws[i].th, NULL);
    for (int i = 0; i < m->concurrency; i++) {
        engine_close(&ws[i].eng);
        if (i < started) solver_free(&ws[i].s);
        free(ws[i].line);
    }
    if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
    } else {
        char line[512];
        int dw, dd, dl, distinct = match_distinct(m, &dw, &dd, &dl);
        score_line(m, distinct, dw, dd, dl, line, sizeof line);
        int interrupted = opts_stop != 0;
        if (interrupted) fprintf(stderr, "gsw: interrupted: %d of %d games played\n", m->done, m->games);
        else if (m->done < m->games)
            fprintf(stderr, "gsw: match: %d of %d games played: %s\n", m->done, m->games,
                    m->fail[0] ? m->fail : "the engine could not be restarted");
        if (interrupted || m->done < m->games) rc = GSW_EFAIL;
        if (args_flag(o, "json")) {
            double elo, margin;
            int inf = match_elo(dw, dd, dl, &elo, &margin);
            int total = m->w + m->d + m->l;
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", "chess");
            json_str(&j, "ours", m->ours);
            json_str(&j, "engine", m->theirs);
            json_str(&j, "command", m->cmd);
            json_int(&j, "games", m->games);
            json_int(&j, "played", m->done);
            json_int(&j, "wins", m->w);
            json_int(&j, "draws", m->d);
            json_int(&j, "losses", m->l);
            json_int(&j, "distinct", distinct);   /* the games that differ: the Elo counts each once */
            json_num(&j, "score", total ? (m->w + 0.5 * m->d) / total : NAN);
            json_num(&j, "score_pct", total ? 100.0 * (m->w + 0.5 * m->d) / total : NAN);
            json_num(&j, "elo", inf ? NAN : elo);
            json_num(&j, "elo_margin", inf ? NAN : margin);
            if (m->movetime > 0) json_num(&j, "movetime_ms", m->movetime);
            else json_int(&j, "nodes", (int64_t)m->nodes);
            json_int(&j, "seed", (int64_t)m->seed);
            json_int(&j, "concurrency", m->concurrency);
            json_str(&j, "pgn", m->pgn_path);
            json_bool(&j, "interrupted", interrupted);
            json_arr(&j, "results");
            for (int i = 0; i < m->games; i++) {
                const game_res_t *g = &m->res[i];
                if (!g->played) continue;
                json_obj(&j, NULL);
                json_int(&j, "game", i + 1);
                json_str(&j, "white", g->ours_white ? m->ours : m->theirs);
                json_str(&j, "black", g->ours_white ? m->theirs : m->ours);
                json_str(&j, "result", g->result);
                json_str(&j, "reason", g->reason);
                json_int(&j, "plies", g->plies);
                json_int(&j, "opening_line", g->opening);
                json_str(&j, "opening", g->opening_name);
                json_close(&j, '}');
            }
            json_close(&j, ']');
            json_end(&j);
            fprintf(stderr, "%s\n", line);
        } else {
            printf("%s\n", line);
            printf("games in %s\n", m->pgn_path);
        }
    }
    if (m->pgn && fclose(m->pgn) && !rc) {
        fprintf(stderr, "gsw: --pgn: cannot write %s\n", m->pgn_path);
        rc = GSW_EFAIL;
    }
    pthread_mutex_destroy(&m->lock);
    free(ws);
    free(m->order);
    free(m->res);
    free(m->book);
    free(m);
    game_close(base);
    return rc;
}

static const cli_opt_t match_own[] = {
    OPT_DB,
    OPT_HASH,
    OPT_NODES,
    { "engine", OPT_STR, "\"CMD [ARGS]\"", "the UCI opponent", 0, 0, NULL },
    { "option", OPT_LIST, "NAME=VALUE", "the opponent's UCI option (repeatable)", 0, 32, NULL },
    { "ours-option", OPT_LIST, "NAME=VALUE", "ours: Hash, PawnValue .. QueenValue, UseNetwork, UCI_LimitStrength and UCI_Elo (repeatable)", 0, 16, NULL },
    { "games", OPT_INT, "N", "games to play", 1, 1000000, NULL },
    { "movetime", OPT_NUM, "MS", "each engine's time a move", 1, 3600000, NULL },
    { "seed", OPT_U64, "S", "the openings' seed (default: the clock)", 0, 1e18, NULL },
    { "openings", OPT_STR, "FILE", "openings: a FEN or a move list a line", 0, 0, NULL },
    { "pgn", OPT_STR, "FILE", "the games' PGN (default: matches/ in the data folder)", 0, 0, NULL },
    { "concurrency", OPT_INT, "N", "games at once", 1, 256, NULL },
    OPT_END,
};
static const cli_opt_t *const match_opts[] = { opts_json, match_own, opts_egdb, NULL };

const cli_verb_t verb_match = {
    "match", "gsw match chess --engine \"CMD [ARGS]\" [--option NAME=VALUE]... [--ours-option NAME=VALUE]... "
               "[--games N] [--movetime MS | --nodes N] [--seed S] [--openings FILE] [--pgn FILE] [--concurrency N]\n"
               "  our engine (in process) against a UCI engine (\"gsw uci\", \"/usr/games/stockfish\"); colours\n"
               "  alternate, each pair of games from one opening: a built-in book shuffled by --seed, or --openings\n"
               "  FILE (one a line: a FEN, or moves from the start). --option sets the opponent's UCI options\n"
               "  (UCI_LimitStrength=true, UCI_Elo=1500); --ours-option ours (Hash, PawnValue, KnightValue,\n"
               "  BishopValue, RookValue, QueenValue; UseNetwork=false plays with the evaluation by terms;\n"
               "  UCI_LimitStrength=true with UCI_Elo holds ours to gsw uci's level for that rating, on the terms).\n"
               "  Defaults: 2 games, 100 ms a move, 1 at once, the\n"
               "  games in the data folder (matches/match-DATE-TIME.pgn, beside the cache; --pgn FILE elsewhere).\n"
               "  A game ends by the rules or is a draw at 300 plies; an opponent that crashes, hangs or plays an\n"
               "  illegal move loses it. Prints a line per game, then W-D-L, the score and the Elo difference.",
      "play our chess engine against a UCI engine: score and Elo estimate, games in PGN", match_run, 1, NULL, .opts = match_opts,
      .egdb = 1
};
