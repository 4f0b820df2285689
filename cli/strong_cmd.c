/* Connect Four on BDDs from the command line: `gsw count connect4:WxH`
 * (positions per ply, exactly) and `gsw strong build|query|best` (the
 * strong solution: solve/strong.c; the BDDs: games/connect4/c4_bdd.c).
 * Progress goes to stderr, results to stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ab.h"
#include "games/connect4/c4.h"
#include "games/connect4/c4_bdd.h"
#include "solve/solver.h"
#include "solve/strong.h"
#include "solve/strong_prov.h"
#include "cli/strong_cmd.h"
#include "cli/opts.h"
#include "cli/json.h"

static void strong_progress(void *ctx, const char *line)
{
    (void)ctx;
    if (isatty(2)) fprintf(stderr, "\r\033[K%.*s", 150, line);
    else fprintf(stderr, "%s\n", line);
}

static void strong_progress_done(void)
{
    if (isatty(2)) fprintf(stderr, "\r\033[K");
}

/* --encoding and --order into a spec */
static int bdd_options(const cli_args_t *o, c4b_encoding_t *e, c4b_order_t *ord, err_t *err)
{
    *e = C4B_COMPRESSED;
    *ord = C4B_COLUMN;
    if (args_str(o, "encoding") && c4b_encoding_parse(args_str(o, "encoding"), e))
        return err_set(err, GSW_EINPUT, "--encoding: unknown encoding \"%s\" (compressed or cellwise)", args_str(o, "encoding"));
    if (args_str(o, "order") && c4b_order_parse(args_str(o, "order"), ord))
        return err_set(err, GSW_EINPUT, "--order: unknown order \"%s\" (column or row)", args_str(o, "order"));
    return GSW_OK;
}

static int open_connect4(const char *spec, gv_t **v, err_t *err)
{
    if (game_open(spec, v, err)) return err->code;
    if (!strong_supported(*v)) {
        int rc = err_set(err, GSW_EINPUT, "%s has no BDD solver (connect4 has)", (*v)->game->name);
        game_close(*v);
        return rc;
    }
    return GSW_OK;
}

/* --- gsw count connect4:WxH --- */

static int strong_dir(const cli_args_t *o, char *buf, size_t n, err_t *err)
{
    if (args_str(o, "dir")) {
        snprintf(buf, n, "%s", args_str(o, "dir"));
        return GSW_OK;
    }
    return strong_default_dir(args_str(o, "db"), buf, n, err);
}

typedef struct count_ctx {
    c4b_ply_t *rows;
    int n;
} count_ctx_t;

static void count_ply(void *ctx, const c4b_ply_t *p)
{
    count_ctx_t *c = ctx;
    c->rows[c->n++] = *p;
    char a[128];
    u256_text_grouped(&p->positions, a, sizeof a);
    if (isatty(2)) fprintf(stderr, "\r\033[Kply %d: %s positions, %ld nodes (%.1f s)", p->ply, a, p->nodes, p->ms / 1e3);
    else if (p->ms >= 1000)   /* a log: the plies that take a while */
        fprintf(stderr, "ply %d: %s positions, %ld nodes (%.1f s)\n", p->ply, a, p->nodes, p->ms / 1e3);
}

static void count_progress(void *ctx, const char *line)
{
    (void)ctx;
    const char *t = strrchr(line, '(');
    if (isatty(2)) fprintf(stderr, "\r\033[K%.*s", 150, line);
    else if (strncmp(line, "forward:", 8) || !t || atof(t + 1) >= 1.0)   /* a log: the plies that take a while */
        fprintf(stderr, "%s\n", line);
}

int cli_count_bdd(cli_args_t *o)
{
    err_t err;
    gv_t *v;
    if (o->npos > 1) return opts_usage_error(o, 1, NULL);
    if (args_flag(o, "solutions")) {
        fprintf(stderr, "gsw: count --solutions is for puzzles; %s counts positions\n", o->pos[0]);
        return GSW_EINPUT;
    }
    c4b_encoding_t e;
    c4b_order_t ord;
    if (bdd_options(o, &e, &ord, &err) || open_connect4(o->pos[0], &v, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        return err.code;
    }
    const c4v_t *d = v->data;
    /* kept on disk, ply by ply, beside the strong solutions: unless asked
     * for an encoding or order other than the one there */
    char dir[1024];
    int rc = strong_dir(o, dir, sizeof dir, &err), keep = 0;
    strong_report_t *rep = calloc(1, sizeof *rep);
    count_ctx_t c = { calloc((size_t)d->cells + 1, sizeof *c.rows), 0 };
    if (!rc && (!rep || !c.rows)) rc = err_set(&err, GSW_EFAIL, "out of memory");
    if (!rc) {
        strong_manifest_t *m = &rep->m;
        char bdir[1100];
        strong_board_dir(v, dir, bdir, sizeof bdir);
        int had = strong_manifest_load(bdir, m, &err);   /* a damaged one: its error */
        if (had < 0) rc = err.code;
        keep = !had || (had > 0 && m->enc == e && m->order == ord);
        if (had > 0 && !keep && !args_flag(o, "json"))
            fprintf(stderr, "gsw: %s holds sets of another encoding or order: counting in memory alone\n", bdir);
    }
    double t0 = gsw_now_ms();
    long peak = 0, table = 0;
    if (!rc && keep) {
        strong_build_options_t bo = { .dir = dir, .enc = e, .order = ord, .memory_gb = args_num(o, "memory", 0),
                                      .forward_only = 1, .stop = &opts_stop, .progress = count_progress,
                                      .argc = o->argc, .argv = o->argv };
        rc = strong_build(v, &bo, rep, &err);
        peak = rep->peak_nodes;
        table = rep->table_nodes;
        const strong_manifest_t *m = &rep->m;
        for (int k = 0; !rc && k <= d->cells; k++) {
            const struct strong_ply *p = &m->ply[k];
            c.rows[c.n++] = (c4b_ply_t){ k, p->positions, p->terminal, p->fnodes, p->fms };
        }
    } else if (!rc) {
        c4b_spec_t spec = { d->w, d->h, e, ord, 0, 0 };
        c4b_t *b = NULL;
        rc = c4b_open(&b, &spec, args_num(o, "memory", 0) > 0 ? args_num(o, "memory", 0) : 1, &err);
        if (!rc) rc = c4b_forward(b, 0, count_ply, &c, &opts_stop, &err);
        peak = b ? c4b_peak_nodes(b) : 0;
        table = b ? c4b_table_nodes(b) : 0;
        c4b_close(b);
    }
    double ms = gsw_now_ms() - t0;
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (rc && opts_stop) {
        if (keep)
            fprintf(stderr, "gsw: stopped; the plies counted are kept in %s: run it again to go on\n", dir);
        else
            fprintf(stderr, "gsw: stopped at ply %d of %d (nothing is kept: counting starts over)\n", c.n, d->cells);
    } else if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
    } else {
        char gspec[96], num[128], t[128];
        game_spec(v, gspec, sizeof gspec);
        u256_t total = u256_of(0), ended = u256_of(0);
        for (int i = 0; i < c.n; i++) {
            u256_add(&total, &c.rows[i].positions);
            u256_add(&ended, &c.rows[i].terminal);
        }
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", gspec);
            json_str(&j, "encoding", c4b_encoding_name(e));
            json_str(&j, "order", c4b_order_name(ord));
            u256_text(&total, num, sizeof num);
            json_digits(&j, "total", num);
            u256_text(&ended, num, sizeof num);
            json_digits(&j, "terminal", num);
            json_arr(&j, "per_ply");
            for (int i = 0; i < c.n; i++) {
                json_obj(&j, NULL);
                json_int(&j, "ply", c.rows[i].ply);
                u256_text(&c.rows[i].positions, num, sizeof num);
                json_digits(&j, "positions", num);
                u256_text(&c.rows[i].terminal, num, sizeof num);
                json_digits(&j, "terminal", num);
                json_int(&j, "nodes", c.rows[i].nodes);
                json_num(&j, "time_ms", c.rows[i].ms);
                json_close(&j, '}');
            }
            json_close(&j, ']');
            if (keep) {
                char bdir[1100];
                strong_board_dir(v, dir, bdir, sizeof bdir);
                json_str(&j, "dir", bdir);
                if (rep->forward_from >= 0) json_int(&j, "resumed_after", rep->forward_from);
                else json_null(&j, "resumed_after");
            } else {
                json_null(&j, "dir");
                json_null(&j, "resumed_after");
            }
            json_int(&j, "peak_nodes", peak);
            json_int(&j, "table_nodes", table);
            json_num(&j, "time_ms", ms);
            json_end(&j);
        } else {
            printf("%s: positions reachable by legal play, per ply (BDDs, %s encoding, %s order)\n", gspec,
                   c4b_encoding_name(e), c4b_order_name(ord));
            printf("%5s %26s %22s %12s %10s\n", "ply", "positions", "ended by a four", "BDD nodes", "seconds");
            for (int i = 0; i < c.n; i++) {
                u256_text_grouped(&c.rows[i].positions, num, sizeof num);
                u256_text_grouped(&c.rows[i].terminal, t, sizeof t);
                printf("%5d %26s %22s %12ld %10.2f\n", c.rows[i].ply, num, t, c.rows[i].nodes, c.rows[i].ms / 1e3);
            }
            u256_text_grouped(&total, num, sizeof num);
            u256_text_grouped(&ended, t, sizeof t);
            printf("%5s %26s %22s\n", "total", num, t);
            if (keep && rep->forward_from == d->cells) {
                printf("counted before: the sets of every ply are in %s\n", dir);
            } else {
                if (keep && rep->forward_from >= 0)
                    printf("went on after ply %d (the sets of every ply are in %s)\n", rep->forward_from, dir);
                printf("peak %ld live BDD nodes (node table %ld), %.2f s\n", peak, table, ms / 1e3);
            }
        }
    }
    free(c.rows);
    free(rep);
    game_close(v);
    return rc;
}

/* --- gsw strong build|query|best --- */


static int strong_build_cmd(cli_args_t *o, gv_t *v, int split_only, err_t *err)
{
    char dir[1024];
    c4b_encoding_t e;
    c4b_order_t ord;
    if (bdd_options(o, &e, &ord, err) || strong_dir(o, dir, sizeof dir, err)) return err->code;
    int parts = args_int(o, "parts", 1), split = 0;
    while (1 << split < parts) split++;
    const c4v_t *d = v->data;
    c4b_spec_t spec = { d->w, d->h, e, ord, 0, 0 };
    if (1 << split != parts) return err_set(err, GSW_EINPUT, "--parts wants a power of two (1, 2, 4 ... 64), not %d", parts);
    if (split_only && !split) return err_set(err, GSW_EINPUT, "strong split wants --parts N (2, 4 ... 64)");
    err_t why;
    if (c4b_split_check(&spec, split, &why)) return err_set(err, GSW_EINPUT, "--parts: %s", why.msg);
    strong_build_options_t bo = { .dir = dir, .enc = e, .order = ord, .memory_gb = args_num(o, "memory", 0),
                                  .from_ply = args_int(o, "from-ply", 0), .split = split, .split_only = split_only,
                                  .stop = &opts_stop,
                                  .progress = strong_progress, .argc = o->argc, .argv = o->argv };
    strong_report_t *rep = calloc(1, sizeof *rep);
    if (!rep) return err_set(err, GSW_EFAIL, "out of memory");
    double t0 = gsw_now_ms();
    int rc = strong_build(v, &bo, rep, err);
    double ms = gsw_now_ms() - t0;
    strong_progress_done();
    if (rc && opts_stop && split_only) {
        int lo = -1, hi = -1;   /* (split from the last ply down) */
        for (int k = 0; k <= d->w * d->h; k++)
            if (rep->m.ply[k].split) hi = k, lo = lo < 0 ? k : lo;
        if (lo < 0) rc = err_set(err, GSW_EFAIL, "stopped before the first ply was split: run it again to go on");
        else rc = err_set(err, GSW_EFAIL, "stopped; plies %d to %d are in parts: run it again to go on", lo, hi);
    } else if (rc && opts_stop) {
        rc = err_set(err, GSW_EFAIL, "stopped; the plies %s are kept: run it again to go on",
                     rep->forward_done ? "solved" : "made");
    } else if (!rc) {
        const strong_manifest_t *m = &rep->m;
        char gspec[96], bdir[1100];
        game_spec(v, gspec, sizeof gspec);
        strong_board_dir(v, dir, bdir, sizeof bdir);
        int plies = m->w * m->h + 1;
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", gspec);
            json_str(&j, "dir", bdir);
            json_str(&j, "encoding", c4b_encoding_name(m->enc));
            json_str(&j, "order", c4b_order_name(m->order));
            char num[96];
            int lowest = strong_lowest_solved(m);
            json_int(&j, "from_ply", lowest);
            json_arr(&j, "plies");
            for (int k = lowest; k < plies; k++) {
                const struct strong_ply *p = &m->ply[k];
                json_obj(&j, NULL);
                json_int(&j, "ply", k);
                static const char *const key[3] = { "won", "drawn", "lost" };
                for (int x = 0; x < 3; x++) {
                    u256_text(&p->count[x], num, sizeof num);
                    json_digits(&j, key[x], num);
                }
                u256_text(&p->positions, num, sizeof num);
                json_digits(&j, "total", num);
                u256_text(&p->terminal, num, sizeof num);
                json_digits(&j, "terminal", num);
                json_obj(&j, "nodes");
                for (int x = 0; x < 3; x++) json_int(&j, key[x], p->nodes[x]);
                json_close(&j, '}');
                json_int(&j, "parts", 1 << p->split);
                json_close(&j, '}');
            }
            json_close(&j, ']');
            if (!split_only) {   /* (a split builds nothing: no passes, no node table) */
                if (rep->resumed_from >= 0) json_int(&j, "resumed_from", rep->resumed_from);
                else json_null(&j, "resumed_from");
                json_int(&j, "peak_nodes", rep->peak_nodes);
                json_int(&j, "table_nodes", rep->table_nodes);
                json_num(&j, "forward_ms", rep->forward_ms);
                json_num(&j, "backward_ms", rep->backward_ms);
            }
            json_num(&j, "time_ms", ms);
            json_end(&j);
        } else {
            printf("%s: the strong solution in %s (%s encoding, %s order)\n", gspec, bdir, c4b_encoding_name(m->enc),
                   c4b_order_name(m->order));
            int lowest = strong_lowest_solved(m);
            if (lowest > 0) printf("plies %d to %d (--from-ply %d)\n", lowest, plies - 1, lowest);
            printf("value for the side to move; nodes: BDD nodes of the won / drawn / lost sets (of their parts, "
                   "summed, for a ply kept in parts)\n");
            printf("%4s %18s %18s %18s %18s %16s  %s\n", "ply", "won", "drawn", "lost", "total", "terminal", "nodes");
            for (int k = lowest; k < plies; k++) {
                const struct strong_ply *p = &m->ply[k];
                char a[3][96], t[96], te[96];
                for (int x = 0; x < 3; x++) u256_text_grouped(&p->count[x], a[x], sizeof a[x]);
                u256_text_grouped(&p->positions, t, sizeof t);
                u256_text_grouped(&p->terminal, te, sizeof te);
                char in[32] = "";
                if (p->split) snprintf(in, sizeof in, "  (%d parts)", 1 << p->split);
                printf("%4d %18s %18s %18s %18s %16s  %ld / %ld / %ld%s\n", k, a[0], a[1], a[2], t, te, p->nodes[0],
                       p->nodes[1], p->nodes[2], in);
            }
            if (split_only) printf("split in %.2f s\n", ms / 1e3);
            else if (rep->resumed_from == lowest) printf("already %s: every file checked\n", lowest ? "solved to that ply" : "complete");
            else {
                if (rep->resumed_from >= 0) printf("resumed: plies %d to %d were solved before\n", rep->resumed_from, plies - 1);
                printf("forward %.2f s, backward %.2f s, peak %ld live BDD nodes (node table %ld)\n",
                       rep->forward_ms / 1e3, rep->backward_ms / 1e3, rep->peak_nodes, rep->table_nodes);
            }
        }
    }
    free(rep);
    return rc;
}

static const char *const value_word[3] = { "win", "draw", "loss" };

/* Open the stored solution of v for query / best (a one-line error if
 * there is none). */
static int strong_open_cli(cli_args_t *o, gv_t *v, strong_t **st, err_t *err)
{
    char dir[1024];
    if (strong_dir(o, dir, sizeof dir, err)) return err->code;
    int rc = strong_open(st, v, dir, err);
    if (rc < 0) return err->code;
    if (rc > 0) (*st)->guard = 1;   /* results: the folder's MANIFEST vouches for the sets */
    if (rc == 0) {
        char gspec[96], bdir[1100];
        game_spec(v, gspec, sizeof gspec);
        strong_board_dir(v, dir, bdir, sizeof bdir);
        return err_set(err, GSW_EFAIL, "no strong solution of %s in %s (gsw strong build %s%s%s makes it)", gspec, bdir,
                       gspec, args_str(o, "dir") ? " --dir " : "", args_str(o, "dir") ? args_str(o, "dir") : "");
    }
    return GSW_OK;
}

static int strong_query_cmd(cli_args_t *o, gv_t *v, const char *ptext, err_t *err)
{
    GSW_POSBUF pos[GSW_MAX_POS], child[GSW_MAX_POS];
    if (game_pos_parse(v, ptext, pos, err)) return err->code;
    strong_t *st;
    if (strong_open_cli(o, v, &st, err)) return err->code;
    const game_ops_t *O = v->ops;
    move_t mv[GSW_MAX_MOVES];
    int n = 0, cv[GSW_MAX_MOVES];
    val_t tv;
    int over = O->terminal(v, pos, &tv);
    /* a position with moves is worth its best move: only the next ply's
     * sets are read (the position's own ply, the larger, is not; so a
     * position a ply above the lowest held is answered too); an ended
     * one, or one of a ply further up (its error), from its own */
    const int own = over || !O->pos_ply || O->pos_ply(v, pos) < st->lowest - 1;
    int val = own ? strong_value(st, pos, err) : C4B_LOST;
    if (val >= 0 && !over) n = O->moves(v, pos, mv);
    for (int i = 0; i < n && val >= 0; i++) {
        memcpy(child, pos, O->pos_size);
        O->play(v, child, mv[i]);
        int c = strong_value(st, child, err);
        if (c < 0) val = -1;
        cv[i] = c == C4B_WON ? C4B_LOST : c == C4B_LOST ? C4B_WON : C4B_DRAWN;   /* for the mover */
        if (!own && c >= 0 && cv[i] < val) val = cv[i];   /* (won < drawn < lost) */
    }
    strong_close(st);
    if (val < 0) return err->code;
    for (int i = 1; i < n; i++)   /* best first (won, drawn, lost), the game's order within each */
        for (int j = i; j > 0 && cv[j] < cv[j - 1]; j--) {
            int t = cv[j];
            move_t m = mv[j];
            cv[j] = cv[j - 1], mv[j] = mv[j - 1];
            cv[j - 1] = t, mv[j - 1] = m;
        }
    char gspec[96], mtext[32];
    game_spec(v, gspec, sizeof gspec);
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", gspec);
        json_str(&j, "position", ptext);
        json_str(&j, "value", value_word[val]);
        json_str(&j, "source", "strong");
        json_arr(&j, "moves");
        for (int i = 0; i < n; i++) {
            O->move_format(v, pos, mv[i], mtext, sizeof mtext);
            json_obj(&j, NULL);
            json_str(&j, "move", mtext);
            json_str(&j, "value", value_word[cv[i]]);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_end(&j);
    } else {
        printf("%s %s: %s for the side to move%s\n", gspec, *ptext ? ptext : "(start)", value_word[val],
               over ? (val == C4B_LOST ? " (the last move made four)" : " (the board is full)") : "");
        for (int i = 0; i < n; i++) {
            O->move_format(v, pos, mv[i], mtext, sizeof mtext);
            printf("  %-4s %s\n", mtext, value_word[cv[i]]);
        }
    }
    return GSW_OK;
}

static int strong_best_cmd(cli_args_t *o, gv_t *v, const char *ptext, err_t *err)
{
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, ptext, pos, err)) return err->code;
    val_t tv;
    if (v->ops->terminal(v, pos, &tv)) return err_set(err, GSW_EINPUT, "the game is over: no move to find");
    strong_t *st;
    if (strong_open_cli(o, v, &st, err)) return err->code;
    int val = strong_value(st, pos, err);
    if (val < 0) {
        strong_close(st);
        return err->code;
    }
    solver_t s;
    if (solver_init(&s, v, opts_hash_mb(o), NULL, err)) {
        strong_close(st);
        return err->code;
    }
    s.ab.oracle = &st->oracle;
    s.ab.threads = 1;
    s.ab.stop = &opts_stop;
    answer_t a;
    int rc = solver_run(&s, pos, &a, err);
    if (!rc && a.r.aborted) rc = err_set(err, GSW_EFAIL, "stopped before the distance was proven");
    if (!rc && st->damage[0]) rc = err_set(err, GSW_EFAIL, "%s", st->damage);
    if (!rc) {
        char gspec[96], btext[32], vtext[64];
        game_spec(v, gspec, sizeof gspec);
        v->ops->move_format(v, pos, a.r.best, btext, sizeof btext);
        gvalue_t gv = value_report(v, pos, a.r.lo, a.r.hi);
        value_bound_text(a.r.lo, vtext, sizeof vtext);
        int sv = a.r.lo > VAL_DRAW ? C4B_WON : a.r.lo < VAL_DRAW ? C4B_LOST : C4B_DRAWN;
        if (sv != val || a.r.lo != a.r.hi)
            rc = err_set(err, GSW_EFAIL, "the search (%s) disagrees with the stored sets (%s)", vtext, value_word[val]);
        else if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", gspec);
            json_str(&j, "position", ptext);
            json_str(&j, "value", value_word[val]);
            if (gv.plies >= 0) json_int(&j, "plies", gv.plies);
            else json_null(&j, "plies");
            json_str(&j, "best", btext);
            json_int(&j, "nodes", (int64_t)a.r.nodes);
            json_num(&j, "time_ms", a.r.time_ms);
            json_end(&j);
        } else {
            printf("%s %s: %s; best move %s (%llu nodes, %.1f ms)\n", gspec, *ptext ? ptext : "(start)", vtext, btext,
                   (unsigned long long)a.r.nodes, a.r.time_ms);
        }
    }
    solver_free(&s);
    strong_close(st);
    return rc;
}

/* --- gsw strong verify connect4:WxH --- */

typedef struct sv_said {
    json_t *j;
    int bad;
} sv_said_t;

static void strong_verify_say(void *ctx, const char *name, int status)
{
    sv_said_t *s = ctx;
    s->bad += status != MANIFEST_OK;
    if (!s->j) {
        printf("%s: %s\n", name, manifest_status_name(status));
        return;
    }
    json_obj(s->j, NULL);
    json_str(s->j, "file", name);
    json_str(s->j, "status", status == MANIFEST_OK ? "ok" : status == MANIFEST_DIFFERS ? "differs"
                             : status == MANIFEST_MISSING ? "missing" : "unlisted");
    json_close(s->j, '}');
}

static int strong_verify_cmd(cli_args_t *o, gv_t *v, err_t *err)
{
    char dir[1024], bdir[1100];
    if (strong_dir(o, dir, sizeof dir, err)) return err->code;
    strong_board_dir(v, dir, bdir, sizeof bdir);
    double t0 = gsw_now_ms();
    json_t j;
    sv_said_t s = { args_flag(o, "json") ? &j : NULL, 0 };
    if (s.j) {
        json_begin(&j, stdout);
        json_str(&j, "dir", bdir);
        json_arr(&j, "manifest");
    }
    int files = 0, bad = 0, recorded = 0;
    int rc = strong_prov_verify(bdir, args_flag(o, "record"), o->argc, o->argv, strong_verify_say, &s, &files, &bad,
                                &recorded, err);
    if (s.j) {
        json_close(&j, ']');
        json_int(&j, "files", files);
        json_int(&j, "recorded", recorded);
        json_int(&j, "manifest_failures", bad);
        json_bool(&j, "ok", !rc && !bad);
        json_num(&j, "time_ms", gsw_now_ms() - t0);
        json_end(&j);
    } else if (!rc) {
        if (recorded) printf("%d sets recorded in %s/%s\n", recorded, bdir, MANIFEST_NAME);
        printf("%d files checked against %s/%s (SHA-256), in %.1f s\n", files, bdir, MANIFEST_NAME,
               (gsw_now_ms() - t0) / 1000);
    }
    if (rc) return rc;
    if (bad)
        return err_set(err, GSW_EFAIL, "%d files do not match %s/%s (said above): build again (gsw strong build %s), "
                       "or adopt sets that pass their checksums: gsw strong verify %s --record%s%s", bad, bdir,
                       MANIFEST_NAME, o->pos[1], o->pos[1], args_str(o, "dir") ? " --dir " : "",
                       args_str(o, "dir") ? args_str(o, "dir") : "");
    return GSW_OK;
}

static int cli_strong(cli_args_t *o)
{
    if (o->npos < 2) return opts_usage_error(o, 3, "strong needs build|query|best and a GAME");
    const char *sub = o->pos[0];
    int build = !strcmp(sub, "build"), query = !strcmp(sub, "query"), best = !strcmp(sub, "best");
    int verify = !strcmp(sub, "verify");
    int split = !strcmp(sub, "split");
    if (!build && !query && !best && !verify && !split) {
        fprintf(stderr, "gsw: strong: unknown action \"%s\" (build, split, query, best or verify)\n", sub);
        return GSW_EINPUT;
    }
    if ((build || verify || split) && o->npos > 2) return opts_usage_error(o, 2, NULL);
    if (args_flag(o, "record") && !verify) {
        fprintf(stderr, "gsw: strong: --record goes with verify\n");
        return GSW_EINPUT;
    }
    err_t err;
    gv_t *v;
    if (open_connect4(o->pos[1], &v, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        return err.code;
    }
    const char *ptext = o->npos > 2 ? o->pos[2] : "";
    int rc = build || split ? strong_build_cmd(o, v, split, &err) : verify ? strong_verify_cmd(o, v, &err)
             : query ? strong_query_cmd(o, v, ptext, &err) : strong_best_cmd(o, v, ptext, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    game_close(v);
    return rc;
}

const cli_opt_t strong_bdd_opts[] = {
    { "encoding", OPT_STR, "compressed|cellwise", "Connect Four on BDDs: the board's encoding", 0, 0, NULL },
    { "order", OPT_STR, "column|row", "... the variables' order", 0, 0, NULL },
    { "memory", OPT_NUM, "GB", "... the BDD node table's limit (default 1)", 0.001, 4096, NULL },
    { "dir", OPT_STR, "DIR", "the folder of strong solutions (default strong/ beside the cache)", 0, 0, NULL },
    OPT_END,
};

static const cli_opt_t strong_own[] = {
    OPT_DB,
    OPT_HASH,
    { "from-ply", OPT_INT, "P", "build: plies w*h down to P only (split: the plies from P up)", 0, 128, NULL },
    { "parts", OPT_INT, "N", "build: each ply's sets made and kept in N parts (2, 4 ... 64; by the first column's "
      "lowest cells) from the first; a ply that fills the table is made again in twice as many", 1, 64, NULL },
    { "record", OPT_FLAG, NULL, "verify: record in MANIFEST the sets that pass their checksums", 0, 0, NULL },
    OPT_TRUST,
    OPT_END,
};
static const cli_opt_t *const strong_opts[] = { opts_json, strong_bdd_opts, strong_own, NULL };

const cli_verb_t verb_strong = {
    "strong", "gsw strong build|split|query|best|verify connect4[:WxH] [MOVES] [--dir DIR] [--record] [--trust] [--json]\n"
                "  build: every ply's won, drawn and lost sets (for the side to move), from the last ply back, on\n"
                "         BDDs (--encoding, --order, --memory as for count); one file per ply and value, a manifest\n"
                "         with checksums; Ctrl-C and run again to go on. Prints the per-ply table. A ply that fills\n"
                "         the node table is made again in 2, 4 ... parts (cofactors on the first column's lowest\n"
                "         cells), each part's won, drawn and lost sets in files of their own; --parts N starts so.\n"
                "  split --parts N: the plies built whole or in fewer parts cut into N (no rebuild): a query reads a part.\n"
                "  query MOVES: the position's value and every move's, from the stored sets.\n"
                "  best MOVES: the move with the fastest win or slowest loss, by alpha-beta pruned by the sets.\n"
                "  verify: every set file against the folder's MANIFEST (SHA-256): ok, differs, missing or not in\n"
                "         it; exit 1 when any fails. --record first adopts the sets that pass their checksums.\n"
                "  query and best read only sets the MANIFEST lists with their size (--trust: any, with a warning).\n"
                "  DIR defaults to strong/ in gsw's data directory (beside the cache; --db moves it too).",
      "Connect Four's strong solution on BDDs: build it, query a position, find the quickest win", cli_strong, 3, NULL, .opts = strong_opts
};
