/* The one-player verbs: `solve` for puzzles (the core's single-agent search,
 * --min-moves through the game's level sweep, --player heuristic:NAME),
 * `count` (reachable positions per level, solutions) and `bench --players`
 * (the heuristic players side by side). Solutions print as moves (chains
 * of jumps by one piece count as one move) and as boards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ab.h"
#include "core/puzzle.h"
#include "solve/analyst.h"
#include "cli/egdb_cmd.h"
#include "cli/puzzle_cmd.h"
#include "cli/strong_cmd.h"
#include "cli/opts.h"
#include "cli/json.h"

/* "solitaire:english" + --board FILE -> "solitaire:english,board=FILE" */
static int puzzle_open(cli_args_t *o, const char *spec, gv_t **v, err_t *err)
{
    char buf[2048];
    if (args_str(o, "board")) {
        const char *colon = strchr(spec, ':');
        if (colon && colon[1]) snprintf(buf, sizeof buf, "%s,board=%s", spec, args_str(o, "board"));
        else snprintf(buf, sizeof buf, "%.*s:board=%s", colon ? (int)(colon - spec) : (int)strlen(spec), spec, args_str(o, "board"));
        spec = buf;
    }
    if (game_open(spec, v, err)) return err->code;
    if ((*v)->game->players != 1 || !(*v)->ops->puzzle_goal) {
        err_set(err, GSW_EINPUT, "%s is not a one-player puzzle", (*v)->game->name);
        game_close(*v);
        return GSW_EINPUT;
    }
    return GSW_OK;
}

/* Group the jumps into moves (chains by one piece); starts[i] = first jump of move i. */
static int puzzle_chains(const gv_t *v, const move_t *mv, int n, int *starts)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!i || !v->ops->move_continues || !v->ops->move_continues(v, mv[i - 1], mv[i])) starts[k++] = i;
    starts[k] = n;
    return k;
}

/* The boards after each move, several side by side. */
static void puzzle_boards(const gv_t *v, const void *pos, const move_t *mv, int n, const int *starts, int nm)
{
    const game_ops_t *O = v->ops;
    if (!O->view) return;
    static board_view_t bv[8];
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, pos, O->pos_size);
    char title[8][64];
    int per = 6, shown = 0;
    for (int m = -1; m < nm;) {
        int k = 0;
        for (; k < per && m < nm; k++, m++) {
            if (m >= 0) {
                char mt[256];
                O->chain_format ? O->chain_format(v, cur, mv + starts[m], starts[m + 1] - starts[m], mt, sizeof mt)
                                : O->move_format(v, cur, mv[starts[m]], mt, sizeof mt);
                for (int j = starts[m]; j < starts[m + 1]; j++) O->play(v, cur, mv[j]);
                snprintf(title[k], sizeof title[k], "%d. %.40s", (m + 1) % 1000, mt);
            } else {
                snprintf(title[k], sizeof title[k], "start");
            }
            O->view(v, cur, &bv[k]);
        }
        int w = bv[0].cols * 2 + 2;
        if (w < 14) w = 14;
        for (int i = 0; i < k; i++) printf("%-*s", w, title[i]);
        printf("\n");
        for (int r = 0; r < bv[0].rows; r++) {
            for (int i = 0; i < k; i++) {
                char line[160];
                int len = 0;
                for (int c = 0; c < bv[i].cols && len < 150; c++) {
                    const view_cell_t *cell = &bv[i].cell[r * bv[i].cols + c];
                    line[len++] = cell->kind == VIEW_OFF ? ' ' : cell->kind == VIEW_EMPTY ? '.' : 'o';
                    line[len++] = ' ';
                }
                line[len] = 0;
                printf("%-*s", w, line);
            }
            printf("\n");
        }
        printf("\n");
        shown += k;
    }
    (void)n;
    (void)shown;
}

static void puzzle_json_moves(json_t *j, const gv_t *v, const void *pos, const move_t *mv, int n, const int *starts,
                              int nm)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, pos, O->pos_size);
    json_arr(j, "solution");
    for (int m = 0; m < nm; m++) {
        char mt[256];
        O->chain_format ? O->chain_format(v, cur, mv + starts[m], starts[m + 1] - starts[m], mt, sizeof mt)
                        : O->move_format(v, cur, mv[starts[m]], mt, sizeof mt);
        for (int k = starts[m]; k < starts[m + 1]; k++) O->play(v, cur, mv[k]);
        json_str(j, NULL, mt);
    }
    json_close(j, ']');
    memcpy(cur, pos, O->pos_size);
    json_arr(j, "jump_list");
    for (int k = 0; k < n; k++) {
        char mt[64];
        O->move_format(v, cur, mv[k], mt, sizeof mt);
        O->play(v, cur, mv[k]);
        json_str(j, NULL, mt);
    }
    json_close(j, ']');
    char text[4096];
    O->pos_format(v, cur, text, sizeof text);
    json_str(j, "final", text);
}

static void puzzle_text_moves(const gv_t *v, const void *pos, const move_t *mv, int n, const int *starts, int nm)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, pos, O->pos_size);
    for (int m = 0; m < nm; m++) {
        char mt[256];
        O->chain_format ? O->chain_format(v, cur, mv + starts[m], starts[m + 1] - starts[m], mt, sizeof mt)
                        : O->move_format(v, cur, mv[starts[m]], mt, sizeof mt);
        for (int k = starts[m]; k < starts[m + 1]; k++) O->play(v, cur, mv[k]);
        printf("%s%s", m ? " " : "", mt);
    }
    printf("\n\n");
    puzzle_boards(v, pos, mv, n, starts, nm);
}

static int puzzle_pegs(const gv_t *v, const void *pos)
{
    board_view_t *bv = malloc(sizeof *bv);
    int n = 0;
    if (!bv || !v->ops->view) { free(bv); return -1; }
    v->ops->view(v, pos, bv);
    for (int i = 0; i < bv->rows * bv->cols; i++) n += bv->cell[i].kind == VIEW_PIECE;
    free(bv);
    return n;
}

/* --player heuristic:NAME: play the position out and show the result. */
static int puzzle_player(cli_args_t *o, const gv_t *v, const char *ptext, const void *pos, err_t *err)
{
    const char *name = args_str(o, "player");
    if (strncmp(name, "heuristic:", 10) || !v->ops->puzzle_play)
        return err_set(err, GSW_EINPUT, "unknown player \"%s\" (heuristic:NAME; see gsw help solve)", name);
    static move_t mv[PUZZLE_MAX_MOVES];
    static int starts[PUZZLE_MAX_MOVES + 1];
    int n = 0;
    double t0 = gsw_now_ms();
    if (v->ops->puzzle_play(v, pos, name + 10, mv, PUZZLE_MAX_MOVES, &n, err)) return err->code;
    double ms = gsw_now_ms() - t0;
    GSW_POSBUF cur[GSW_MAX_POS];
    memcpy(cur, pos, v->ops->pos_size);
    for (int i = 0; i < n; i++) v->ops->play(v, cur, mv[i]);
    int nm = puzzle_chains(v, mv, n, starts);
    int goal = v->ops->puzzle_goal(v, cur), left = puzzle_pegs(v, cur);
    char spec[96];
    game_spec(v, spec, sizeof spec);
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_str(&j, "player", name);
        json_bool(&j, "goal", goal);
        json_int(&j, "pegs_left", left);
        json_int(&j, "moves", nm);
        json_int(&j, "jumps", n);
        puzzle_json_moves(&j, v, pos, mv, n, starts, nm);
        json_num(&j, "time_ms", ms);
        json_end(&j);
    } else {
        printf("%s %s: %d pegs left%s, %d jumps (%d moves), %.1f ms\n", spec, name, left, goal ? " (goal met)" : "", n,
               nm, ms);
        puzzle_text_moves(v, pos, mv, n, starts, nm);
    }
    return GSW_OK;
}

static int puzzle_min_moves(cli_args_t *o, const gv_t *v, const char *ptext, const void *pos, err_t *err)
{
    if (!v->ops->puzzle_sweep) return err_set(err, GSW_EINPUT, "%s has no fewest-moves search", v->game->name);
    puzzle_sweep_t *sw = calloc(1, sizeof *sw);
    if (!sw) return err_set(err, GSW_EFAIL, "out of memory");
    static int starts[PUZZLE_MAX_MOVES + 1];
    sw->what = SWEEP_MIN_MOVES;
    sw->stop = &opts_stop;
    double t0 = gsw_now_ms();
    int rc = v->ops->puzzle_sweep(v, pos, sw, err);
    double ms = gsw_now_ms() - t0;
    if (!rc && sw->aborted) rc = err_set(err, GSW_EFAIL, "interrupted");
    if (rc) { free(sw); return rc; }
    char spec[96], reason[160] = "";
    game_spec(v, spec, sizeof spec);
    int solvable = sw->min_moves >= 0;
    if (!solvable && !puzzle_hopeless(v, pos, reason, sizeof reason))
        snprintf(reason, sizeof reason, "exhaustive search: no sequence of moves reaches the goal");
    int nm = solvable ? puzzle_chains(v, sw->path, sw->npath, starts) : 0;
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_str(&j, "position", ptext);
        json_bool(&j, "solvable", solvable);
        if (solvable) {
            json_int(&j, "moves", sw->min_moves);
            json_bool(&j, "minimal", 1);
            json_int(&j, "jumps", sw->npath);
            puzzle_json_moves(&j, v, pos, sw->path, sw->npath, starts, nm);
        } else {
            json_null(&j, "moves");
            json_str(&j, "reason", reason);
        }
        json_num(&j, "time_ms", ms);
        json_end(&j);
    } else if (solvable) {
        printf("%s: solvable; fewest moves %d (proved), %d jumps; %.1f ms\n", spec, sw->min_moves, sw->npath, ms);
        puzzle_text_moves(v, pos, sw->path, sw->npath, starts, nm);
    } else {
        printf("%s: no solution (%s); %.1f ms\n", spec, reason, ms);
    }
    free(sw);
    return GSW_OK;
}

int cli_puzzle_solve(cli_args_t *o)
{
    err_t err;
    err_clear(&err);
    gv_t *v;
    if (args_str(o, "batch")) {
        fprintf(stderr, "gsw: --batch solves two-player positions; a puzzle is solved one position at a time\n");
        return GSW_EINPUT;
    }
    if (o->npos < 1 || o->npos > 2) return opts_usage_error(o, 2, "solve needs a GAME");
    if (puzzle_open(o, o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = game_pos_parse(v, ptext, pos, &err);
    if (!rc && args_str(o, "player")) rc = puzzle_player(o, v, ptext, pos, &err);
    else if (!rc && args_flag(o, "min-moves")) rc = puzzle_min_moves(o, v, ptext, pos, &err);
    else if (!rc) {
        static puzzle_result_t r;
        static int starts[PUZZLE_MAX_MOVES + 1];
        puzzle_options_t po = { .stop = &opts_stop, .node_limit = args_u64(o, "nodes", 0), .time_limit_ms = args_num(o, "time", 0),
                                .table_mb = args_given(o, "hash") ? opts_hash_mb(o) : 0 };
        rc = puzzle_solve(v, pos, &po, &r, &err);
        if (!rc) {
            char spec[96];
            game_spec(v, spec, sizeof spec);
            int nm = r.solvable == 1 ? puzzle_chains(v, r.moves, r.nmoves, starts) : 0;
            if (args_flag(o, "json")) {
                json_t j;
                json_begin(&j, stdout);
                json_str(&j, "game", spec);
                json_str(&j, "position", ptext);
                if (r.solvable < 0) json_null(&j, "solvable");
                else json_bool(&j, "solvable", r.solvable);
                if (r.solvable == 1) {
                    json_int(&j, "moves", nm);
                    json_bool(&j, "minimal", 0);
                    json_int(&j, "jumps", r.nmoves);
                    puzzle_json_moves(&j, v, pos, r.moves, r.nmoves, starts, nm);
                } else {
                    json_null(&j, "moves");
                    if (r.solvable == 0) json_str(&j, "reason", r.reason);
                }
                json_int(&j, "nodes", (int64_t)r.nodes);
                json_num(&j, "time_ms", r.time_ms);
                json_end(&j);
            } else if (r.solvable == 1) {
                char nt[32];
                printf("%s: solvable; %d jumps in %d moves; %s nodes, %.1f ms\n", spec, r.nmoves, nm,
                       opts_thousands(r.nodes, nt, sizeof nt), r.time_ms);
                puzzle_text_moves(v, pos, r.moves, r.nmoves, starts, nm);
            } else if (r.solvable == 0) {
                char nt[32];
                printf("%s: no solution: %s (%s nodes, %.1f ms)\n", spec, r.reason, opts_thousands(r.nodes, nt, sizeof nt),
                       r.time_ms);
            }
            if (r.solvable < 0) {
                char nt[32];
                fflush(stdout);
                fprintf(stderr, "gsw: %s before the search was complete (%s nodes)\n",
                        opts_stop ? "interrupted" : "budget spent", opts_thousands(r.nodes, nt, sizeof nt));
                rc = GSW_EFAIL;
            }
        }
    }
    if (rc && err.msg[0]) fprintf(stderr, "gsw: %s\n", err.msg);
    game_close(v);
    return rc;
}


static int cli_count(cli_args_t *o)
{
    err_t err;
    gv_t *v;
    if (args_int(o, "pieces", 0)) return cli_count_pieces(o);   /* a two-player game's positions by pieces */
    if (o->npos < 1 || o->npos > 2) return opts_usage_error(o, 2, "count needs a GAME");
    if (!strncmp(o->pos[0], "connect4", 8) && (!o->pos[0][8] || o->pos[0][8] == ':'))
        return cli_count_bdd(o);   /* every position of the board, on BDDs */
    if (!args_flag(o, "solutions") && !args_flag(o, "positions")) return opts_usage_error(o, 2, "count needs --positions or --solutions");
    if (puzzle_open(o, o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = game_pos_parse(v, ptext, pos, &err);
    if (!rc && !v->ops->puzzle_sweep) rc = err_set(&err, GSW_EINPUT, "%s cannot count positions", v->game->name);
    puzzle_sweep_t *sw = rc ? NULL : calloc(1, sizeof *sw);
    if (!rc && !sw) rc = err_set(&err, GSW_EFAIL, "out of memory");
    double ms = 0;
    if (!rc) {
        sw->what = (args_flag(o, "solutions") ? SWEEP_SOLUTIONS : 0) | (args_flag(o, "positions") ? SWEEP_POSITIONS : 0);
        sw->stop = &opts_stop;
        double t0 = gsw_now_ms();
        rc = v->ops->puzzle_sweep(v, pos, sw, &err);
        ms = gsw_now_ms() - t0;
        if (!rc && sw->aborted) rc = err_set(&err, GSW_EFAIL, "interrupted");
    }
    if (!rc) {
        char spec[96], sol[48];
        game_spec(v, spec, sizeof spec);
        puzzle_u128_text(sw->solutions, sol, sizeof sol);
        uint64_t total = 0, folded = 0;
        for (int l = 0; l < sw->levels; l++) { total += sw->positions[l]; folded += sw->folded[l]; }
        int pegs0 = puzzle_pegs(v, pos);
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            if (args_flag(o, "solutions")) {
                if (sw->solutions <= (unsigned __int128)INT64_MAX) json_int(&j, "solutions", (int64_t)sw->solutions);
                else json_str(&j, "solutions", sol);
            }
            if (args_flag(o, "positions")) {
                json_int(&j, "symmetries", sw->nsym);
                json_int(&j, "positions", (int64_t)total);
                json_int(&j, "positions_folded", (int64_t)folded);
                json_arr(&j, "levels");
                for (int l = 0; l < sw->levels; l++) {
                    json_obj(&j, NULL);
                    json_int(&j, "jumps", l);
                    json_int(&j, "pegs", pegs0 - l);
                    json_int(&j, "positions", (int64_t)sw->positions[l]);
                    json_int(&j, "folded", (int64_t)sw->folded[l]);
                    json_close(&j, '}');
                }
                json_close(&j, ']');
            }
            json_num(&j, "time_ms", ms);
            json_end(&j);
        } else {
            if (args_flag(o, "positions")) {
                printf("%-6s %16s %16s\n", "pegs", "positions", "folded");
                for (int l = 0; l < sw->levels; l++)
                    printf("%-6d %16llu %16llu\n", pegs0 - l, (unsigned long long)sw->positions[l],
                           (unsigned long long)sw->folded[l]);
                printf("%-6s %16llu %16llu  (%d symmetries folded)\n", "total", (unsigned long long)total,
                       (unsigned long long)folded, sw->nsym);
            }
            if (args_flag(o, "solutions")) printf("solutions %s\n", sol);
            fflush(stdout);
            fprintf(stderr, "%.1f ms\n", ms);
        }
    }
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    free(sw);
    game_close(v);
    return rc;
}

int cli_bench_players(cli_args_t *o)
{
    err_t err;
    gv_t *v;
    if (o->npos < 1 || o->npos > 2) return opts_usage_error(o, 2, "bench needs a GAME");
    if (!args_flag(o, "players")) return opts_usage_error(o, 2, "bench needs --players");
    if (puzzle_open(o, o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS], cur[GSW_MAX_POS];
    int rc = game_pos_parse(v, ptext, pos, &err);
    if (!rc && !v->ops->puzzle_players) rc = err_set(&err, GSW_EINPUT, "%s has no heuristic players", v->game->name);
    static move_t mv[PUZZLE_MAX_MOVES];
    json_t j = { 0 };
    char spec[96];
    game_spec(v, spec, sizeof spec);
    if (!rc && args_flag(o, "json")) {
        json_begin(&j, stdout);
        json_str(&j, "game", spec);
        json_arr(&j, "players");
    } else if (!rc) {
        printf("%s\n%-24s %9s %6s %12s\n", spec, "player", "pegs left", "goal", "time ms");
    }
    for (int i = 0; !rc && v->ops->puzzle_players[i] && !opts_stop; i++) {
        int n = 0;
        double t0 = gsw_now_ms();
        rc = v->ops->puzzle_play(v, pos, v->ops->puzzle_players[i], mv, PUZZLE_MAX_MOVES, &n, &err);
        double ms = gsw_now_ms() - t0;
        if (rc) break;
        memcpy(cur, pos, v->ops->pos_size);
        for (int k = 0; k < n; k++) v->ops->play(v, cur, mv[k]);
        char name[64];
        snprintf(name, sizeof name, "heuristic:%s", v->ops->puzzle_players[i]);
        int left = puzzle_pegs(v, cur), goal = v->ops->puzzle_goal(v, cur);
        if (args_flag(o, "json")) {
            json_obj(&j, NULL);
            json_str(&j, "player", name);
            json_int(&j, "pegs_left", left);
            json_bool(&j, "goal", goal);
            json_num(&j, "time_ms", ms);
            json_close(&j, '}');
        } else {
            printf("%-24s %9d %6s %12.1f\n", name, left, goal ? "yes" : "no", ms);
            fflush(stdout);
        }
    }
    int stopped = !rc && opts_stop;
    if (args_flag(o, "json") && rc && j.f) json_discard(&j);
    else if (!rc && args_flag(o, "json")) {
        json_close(&j, ']');
        json_bool(&j, "complete", !stopped);
        json_end(&j);
    }
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    else if (stopped) { fprintf(stderr, "gsw: interrupted\n"); rc = GSW_EFAIL; }
    game_close(v);
    return rc;
}

/* gsw analyze on a puzzle: as the workbench's analysis, every move
 * "solvable" (the goal can still be reached after it) or a "dead end",
 * through the analyst (the position itself first: a solution, or why there
 * is none, settles moves at once). */
int cli_puzzle_analyze(cli_args_t *o)
{
    err_t err;
    err_clear(&err);
    gv_t *v;
    if (puzzle_open(o, o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const char *ptext = o->npos == 2 ? o->pos[1] : "";
    GSW_POSBUF pos[GSW_MAX_POS];
    int rc = game_pos_parse(v, ptext, pos, &err);
    analysis_t *an = rc ? NULL : calloc(1, sizeof *an);
    if (!rc && !an) rc = err_set(&err, GSW_EFAIL, "out of memory");
    analyst_t a;
    memset(&a, 0, sizeof a);
    if (!rc) rc = analyst_open(&a, v, 1, 1, NULL, opts_egdb_dir(o), &opts_stop, &err);
    int st = 0;
    double t0 = gsw_now_ms();
    if (!rc) {
        analyst_task_t task = { 0 };   /* (no budget: --time stops it through opts_stop) */
        analyst_list(v, pos, an);
        st = analyst_root(&a, &task, pos, an, &err);   /* -1 error, 1 stopped */
        for (int i = 0; i < an->n && st == 0; i++)
            if (an->mv[i].state != MV_PROVEN || an->mv[i].lo != an->mv[i].hi) st = analyst_prove(&a, &task, pos, an, i, &err);
        if (st < 0) rc = err.code ? err.code : GSW_EFAIL;
    }
    if (!rc) {
        double ms = gsw_now_ms() - t0;
        char spec[96], nt[32];
        game_spec(v, spec, sizeof spec);
        int over = an->n == 0, goal = over && v->ops->puzzle_goal(v, pos);
        int solvable = over ? goal : an->root_done ? an->root_lo > VAL_DRAW : -1;
        int order[GSW_MAX_MOVES];   /* best first, as every list (solvable moves, the shortest first) */
        move_values_order(an->mv, an->n, order);
        if (args_flag(o, "json")) {
            json_t j;
            json_begin(&j, stdout);
            json_str(&j, "game", spec);
            json_str(&j, "position", ptext);
            if (solvable < 0) json_null(&j, "solvable"); else json_bool(&j, "solvable", solvable);
            if (solvable == 0 && !over && an->reason[0]) json_str(&j, "reason", an->reason);
            if (over) json_bool(&j, "over", 1);
            json_arr(&j, "moves");
            for (int r = 0; r < an->n; r++) {
                const move_value_t *m = &an->mv[order[r]];
                int known = m->state == MV_PROVEN && m->lo == m->hi;
                json_obj(&j, NULL);
                json_str(&j, "move", m->text);
                json_int(&j, "rank", r + 1);
                json_str(&j, "value", !known ? "unknown" : m->lo > VAL_DRAW ? "solvable" : "dead end");
                if (known) json_bool(&j, "solvable", m->lo > VAL_DRAW); else json_null(&j, "solvable");
                json_close(&j, '}');
            }
            json_close(&j, ']');
            json_int(&j, "nodes", (int64_t)an->nodes);
            json_num(&j, "time_ms", ms);
            json_bool(&j, "complete", st == 0);
            json_end(&j);
        } else {
            if (over) printf("%s \"%s\": the game is over (%s)\n", spec, ptext, goal ? "the goal is met" : "the goal is missed");
            else if (solvable == 1) printf("%s \"%s\": solvable\n", spec, ptext);
            else if (solvable == 0) printf("%s \"%s\": no solution: %s\n", spec, ptext, an->reason);
            for (int r = 0; r < an->n; r++) {
                const move_value_t *m = &an->mv[order[r]];
                int known = m->state == MV_PROVEN && m->lo == m->hi;
                printf("%-8s %s\n", m->text, !known ? "unknown" : m->lo > VAL_DRAW ? "solvable" : "dead end");
            }
            fflush(stdout);
            fprintf(stderr, "%s nodes, %.1f ms\n", opts_thousands(an->nodes, nt, sizeof nt), ms);
        }
        if (st > 0) { fprintf(stderr, "gsw: interrupted before every move was settled\n"); rc = GSW_EFAIL; }
    } else {
        fprintf(stderr, "gsw: %s\n", err.msg);
    }
    if (a.ready) analyst_close(&a);
    free(an);
    game_close(v);
    return rc;
}

static const cli_opt_t count_own[] = {
    OPT_DB,
    PUZZLE_OPT_BOARD,
    { "positions", OPT_FLAG, NULL, "a puzzle's reachable positions per level", 0, 0, NULL },
    { "solutions", OPT_FLAG, NULL, "a puzzle's solutions (jump sequences)", 0, 0, NULL },
    { "pieces", OPT_INT, "N", "a game's positions of exactly N pieces", 1, 32, NULL },
    OPT_END,
};
static const cli_opt_t *const count_opts[] = { opts_json, strong_bdd_opts, count_own, NULL };

const cli_verb_t verb_count = {
    "count", "gsw count GAME[:VARIANT] [POSITION] --positions|--solutions [--board FILE]\n"
               "       gsw count GAME --pieces N   (positions of exactly N pieces, as endgame databases index them)\n"
               "       gsw count connect4[:WxH] [--encoding compressed|cellwise] [--order column|row] [--memory GB]\n"
               "         every position reachable by legal play, per ply, on BDDs (exact; ended ones counted, not\n"
               "         expanded; mirror images apart): positions, BDD nodes, peak nodes, time. --memory: the node\n"
               "         table's limit (default 1 GB).",
      "count a puzzle's reachable positions per level, or its solutions; a game's positions by pieces or by ply",
      cli_count, 2, NULL, .opts = count_opts
};
