/* The endgame-database verbs: `gsw egdb build|probe|stats|verify` and
 * `gsw count GAME --pieces N` (positions per piece count, by index
 * arithmetic). The work is in solve/egdb*.c; this file parses, prints
 * progress on stderr and results on stdout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/ab.h"
#include "solve/egdb.h"
#include "solve/egdb_manifest.h"
#include "solve/solver.h"
#include "solve/source.h"
#include "cli/egdb_cmd.h"
#include "cli/opts.h"
#include "cli/json.h"
#include "dist/dist.h"

/* Progress on stderr: one line redrawn in place on a terminal (cleared
 * at the end); elsewhere (a log) a line per finished slice. */
static int egdb_damaged_said;   /* verify's damaged files said so far */

static void egdb_cli_progress(void *ctx, const char *line)
{
    (void)ctx;
    if (!strncmp(line, "damaged: ", 9)) {   /* verify's damaged file: a line of its own, kept */
        fprintf(stderr, "%sgsw: %s\n", isatty(2) ? "\r\033[K" : "", line + 9);
        egdb_damaged_said++;
        return;
    }
    if (isatty(2)) {   /* one line, cut to the terminal's width, rewritten in place */
        struct winsize ws;
        int w = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1 : 79;
        fprintf(stderr, "\r\033[K%.*s", w, line);
    }
    else if (strstr(line, ": done")) fprintf(stderr, "%s\n", line);
}

static int egdb_cli_open(cli_args_t *o, const char *spec, gv_t **v, egdb_set_t **set, err_t *err)
{
    char dir[1100];
    *set = NULL;
    if (game_open(spec, v, err)) return err->code;
    if (!(*v)->ops->retro) {
        int rc = err_set(err, GSW_EINPUT, "%s has no endgame databases", (*v)->game->name);
        game_close(*v);
        return rc;
    }
    if (opts_egdb_dir(o)) snprintf(dir, sizeof dir, "%s", opts_egdb_dir(o));
    else if (egdb_default_dir(args_str(o, "db"), dir, sizeof dir, err)) { game_close(*v); return err->code; }
    if (egdb_set_open(*v, dir, set, err)) { game_close(*v); return err->code; }
    return GSW_OK;
}

/* The metric --metric names (the game's default without it). */
static int egdb_cli_metric(cli_args_t *o, gv_t *v, retro_metric_t *m, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    *m = rg->mate_metric ? RETRO_DTW : RETRO_WLD;
    if (args_str(o, "metric") && retro_game_metric_parse(rg, args_str(o, "metric"), m))
        return err_set(err, GSW_EINPUT, "--metric: unknown metric \"%s\" (wld, dtc, %s)", args_str(o, "metric"),
                       retro_game_metric_name(rg, RETRO_DTW));
    return GSW_OK;
}

/* Games whose endings are built on demand (chess): build the slice and
 * what it needs when its file of metric m is missing, progress on stderr. */
static int egdb_cli_ensure(cli_args_t *o, gv_t *v, egdb_set_t *set, uint64_t slice, retro_metric_t m, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    if (!rg->mate_metric || egdb_slice_present(set, m, slice)) return GSW_OK;
    char name[64];
    rg->slice_name(v, slice, name, sizeof name);
    fprintf(stderr, "%s %s is not built yet: building it and what it needs in %s\n", name,
            retro_game_metric_name(rg, m), egdb_set_dir(set));
    egdb_build_options_t bo = { .for_slice = &slice, .metric = m, .threads = args_given(o, "threads") ? opts_threads(o) : 0,
                                .stop = &opts_stop, .progress = egdb_cli_progress };
    egdb_build_report_t rep;
    int rc = egdb_build(set, &bo, &rep, err);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (rc && opts_stop) return err_set(err, GSW_EFAIL, "stopped: %d slices finished are kept; run again to resume",
                                       rep.built + rep.reused);
    if (!rc) fprintf(stderr, "built %d slices, %llu positions, in %.1f s\n", rep.built,
                     (unsigned long long)rep.positions, rep.ms / 1000);
    return rc;
}

static int egdb_cli_build(cli_args_t *o, gv_t *v, egdb_set_t *set, err_t *err)
{
    uint64_t slice;
    int has_slice = o->npos >= 3;
    if (has_slice && (args_int(o, "pieces", 0) || args_str(o, "for")))
        return err_set(err, GSW_EINPUT, "egdb build: give a SLICE, --pieces N or --for POSITION, one of them");
    if (has_slice && v->ops->retro->slice_parse(v, o->pos[2], &slice, err)) return err->code;
    if (!args_int(o, "pieces", 0) && !args_str(o, "for") && !has_slice)
        return err_set(err, GSW_EINPUT, "egdb build needs a SLICE, --pieces N or --for POSITION");
    if (args_int(o, "max-per-side", 0) && !args_int(o, "pieces", 0))
        return err_set(err, GSW_EINPUT, "egdb build: --max-per-side goes with --pieces N");
    if (args_given(o, "divide-above") && !args_flag(o, "mpi"))
        return err_set(err, GSW_EINPUT, "egdb build: --divide-above goes with --mpi (units are divided between ranks)");
    retro_metric_t m;
    if (egdb_cli_metric(o, v, &m, err)) return err->code;
    GSW_POSBUF pos[GSW_MAX_POS];
    if (args_str(o, "for") && game_pos_parse(v, args_str(o, "for"), pos, err)) return err->code;
    egdb_build_options_t bo = { .pieces = args_int(o, "pieces", 0), .for_pos = args_str(o, "for") ? pos : NULL,
                                .for_slice = has_slice ? &slice : NULL, .metric = m,
                                .threads = args_given(o, "threads") ? opts_threads(o) : 0, .stop = &opts_stop, .plan_only = args_flag(o, "plan"),
                                .max_per_side = args_int(o, "max-per-side", 0), .memory = (uint64_t)(args_num(o, "memory", 0) * 1e9),
                                .divide = args_given(o, "divide-above") ? args_u64(o, "divide-above", 0) + 1 : 0,
                                .progress = args_flag(o, "json") ? NULL : egdb_cli_progress,
                                .argc = o->argc, .argv = o->argv };
    if (args_flag(o, "json")) bo.progress = egdb_cli_progress;   /* progress stays on stderr */
    egdb_build_report_t rep;
    int rc;
    if (o->dist) {   /* every rank sees the folder, then the units go round */
        rc = dist_check_dir(o->dist, egdb_set_dir(set), err);
        if (!rc) rc = dist_egdb_build(o->dist, set, &bo, &rep, err);
        if (dist_rank(o->dist) != 0) {   /* a worker: rank 0 reports */
            if (rc && err->msg[0]) dist_say("%s", err->msg);
            if (rc) err->msg[0] = 0;
            return rc;
        }
    } else
        rc = egdb_build(set, &bo, &rep, err);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    if (rc && opts_stop) err_set(err, GSW_EFAIL, "stopped: %d slices finished are kept; run again to resume",
                                rep.built + rep.reused);
    if (rc) return rc;
    char n1[32], n2[32], n3[32], n4[32];
    if (rep.farm_workers && !args_flag(o, "plan")) {   /* where the workers' time went */
        double all = rep.farm_busy_ms + rep.farm_comm_ms + rep.farm_wait_ms + rep.farm_tail_ms;
        if (all <= 0) all = 1;
        fprintf(stderr, "%d worker ranks: building %.1f%% of their time, messages and hand-over %.1f%%, waiting on "
                "other units %.1f%%, idle at the end %.1f%%; %d units divided between them\n", rep.farm_workers,
                100 * rep.farm_busy_ms / all, 100 * rep.farm_comm_ms / all, 100 * rep.farm_wait_ms / all,
                100 * rep.farm_tail_ms / all, rep.divided);
    }
    if (args_flag(o, "plan") && args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_str(&j, "dir", egdb_set_dir(set));
        json_str(&j, "metric", retro_game_metric_name(v->ops->retro, m));
        json_int(&j, "slices", rep.slices);
        json_int(&j, "finished_slices", rep.reused);
        json_int(&j, "positions", (int64_t)rep.planned);
        json_int(&j, "finished_positions", (int64_t)rep.finished);
        json_int(&j, "largest_unit", (int64_t)rep.largest);
        json_int(&j, "critical_path_positions", (int64_t)rep.critical);
        json_int(&j, "memory_bytes", (int64_t)rep.memory);
        json_int(&j, "disk_bytes", (int64_t)rep.disk);
        json_arr(&j, "units");
        for (int u = 0; u < rep.nunits; u++) {
            const egdb_unit_plan_t *x = &rep.units[u];
            json_obj(&j, NULL);
            json_str(&j, "slice", x->first);
            json_int(&j, "slices", x->slices);
            json_int(&j, "positions", (int64_t)x->positions);
            json_bool(&j, "finished", x->finished);
            json_int(&j, "memory_bytes", (int64_t)x->memory);
            json_int(&j, "disk_bytes", (int64_t)x->disk);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_end(&j);
        free(rep.units);
        return GSW_OK;
    }
    if (args_flag(o, "plan")) {
        printf("%s %s: %d slices in %d units, %s positions (%d slices, %s positions built and checked); the largest "
               "unit solved at once holds %s positions, the longest chain of units left (each waiting on the next) "
               "%s; building what is left needs about %.1f GB of memory at most and %.1f GB of disk, in %s\n",
               v->game->name, retro_game_metric_name(v->ops->retro, m), rep.slices, rep.nunits,
               opts_thousands(rep.planned, n1, sizeof n1), rep.reused, opts_thousands(rep.finished, n2, sizeof n2),
               opts_thousands(rep.largest, n3, sizeof n3), opts_thousands(rep.critical, n4, sizeof n4),
               (double)rep.memory / 1e9, (double)rep.disk / 1e9, egdb_set_dir(set));
        free(rep.units);
        return GSW_OK;
    }
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_str(&j, "dir", egdb_set_dir(set));
        json_str(&j, "metric", retro_game_metric_name(v->ops->retro, m));
        json_int(&j, "slices", rep.slices);
        json_int(&j, "built", rep.built);
        json_int(&j, "reused", rep.reused);
        json_int(&j, "positions", (int64_t)rep.positions);
        json_num(&j, "time_ms", rep.ms);
        json_num(&j, "solve_ms", rep.solve_ms);
        json_num(&j, "write_ms", rep.write_ms);
        /* where the time went: the engine's phases, and per thread the
           nodes it did, the time it worked and the time it waited */
        const retro_stats_t *e = &rep.engine;
        json_obj(&j, "engine");
        json_num(&j, "init_ms", e->init_ms);
        json_num(&j, "propagate_ms", e->propagate_ms);
        json_num(&j, "check_ms", e->check_ms);
        json_int(&j, "most_levels", e->levels);
        json_int(&j, "moves_inside", (int64_t)e->edges);
        json_int(&j, "most_kept_bytes", (int64_t)e->kept_bytes);
        json_arr(&j, "threads");
        for (int t = 0; t < e->threads; t++) {
            json_obj(&j, NULL);
            json_int(&j, "nodes", (int64_t)e->items[t]);
            json_num(&j, "busy_ms", e->busy_ms[t]);
            json_num(&j, "wait_ms", e->wait_ms[t]);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_close(&j, '}');
        /* under mpirun: the worker ranks and their time (ms, summed): building, the rest of each
           unit's round trip, idle while units left waited on others, idle after the last went out */
        json_obj(&j, "farm");
        json_int(&j, "workers", rep.farm_workers);
        json_int(&j, "divided_units", rep.divided);
        json_num(&j, "busy_ms", rep.farm_busy_ms);
        json_num(&j, "comm_ms", rep.farm_comm_ms);
        json_num(&j, "wait_ms", rep.farm_wait_ms);
        json_num(&j, "tail_ms", rep.farm_tail_ms);
        json_close(&j, '}');
        json_end(&j);
    } else
        printf("%s %s: %d slices (%d built, %d found finished and checked), %s positions built in %.1f s, in %s\n",
               v->game->name, retro_game_metric_name(v->ops->retro, m), rep.slices, rep.built, rep.reused,
               opts_thousands(rep.positions, n1, sizeof n1), rep.ms / 1000, egdb_set_dir(set));
    return GSW_OK;
}

#define EGDB_LINE_MAX 2048   /* probe --line: the most plies shown */

/* probe's prober as an oracle for the door's best move; a damaged file
 * stops the answer (err), where a search's oracle goes on without it. */
typedef struct probe_oracle {
    egdb_prober_t *pr;
    err_t *err;
    int failed;
} probe_oracle_t;

static int probe_oracle_probe(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi)
{
    (void)v;
    probe_oracle_t *p = ctx;
    int g = p->failed ? 0 : egdb_probe(p->pr, pos, lo, hi, NULL, p->err);
    if (g < 0) p->failed = 1;
    return g > 0;
}

static int probe_oracle_conversion(void *ctx, const void *pos, int *plies)
{
    probe_oracle_t *p = ctx;
    int g = p->failed ? 0 : egdb_conversion(p->pr, pos, plies, p->err);
    if (g < 0) p->failed = 1;
    return g > 0;
}

static int egdb_cli_probe(cli_args_t *o, gv_t *v, egdb_set_t *set, err_t *err)
{
    if (o->npos < 3) return err_set(err, GSW_EINPUT, "egdb probe needs a POSITION");
    GSW_POSBUF pos[GSW_MAX_POS];
    if (game_pos_parse(v, o->pos[2], pos, err)) return err->code;
    const retro_game_t *rg = v->ops->retro;
    uint64_t ps, pi;
    int pf;
    val_t lo, hi;
    /* a finished game (no pieces, no move) is valued by the rules, in any
       database's terms: no file need hold it */
    int over = v->ops->terminal(v, pos, &lo);
    /* the game's value: under its move-count rule, from the position's clock
       (--no-line: the position's alone, as the files hold it) */
    int left = args_flag(o, "no-line") ? -1 : game_count_left(v, pos);
    if (!over && rg->mate_metric && rg->locate(v, pos, &ps, &pi, &pf)
        && (egdb_cli_ensure(o, v, set, ps, RETRO_DTW, err)
            || (left >= 0 && v->ops->pos_reversible(v, pos, NULL) > 0 && egdb_cli_ensure(o, v, set, ps, RETRO_DTC, err))))
        return err->code;
    egdb_prober_t pr;
    if (egdb_prober_init(&pr, set, 16, err)) return err->code;
    retro_metric_t m = over ? RETRO_DTW : RETRO_WLD;
    double t0 = gsw_now_ms();
    int got = 1;
    if (over) hi = lo;
    else got = egdb_probe(&pr, pos, &lo, &hi, &m, err);
    move_t best = MOVE_NONE;
    int rc = got < 0 ? err->code : GSW_OK;
    if (!got) {
        uint64_t slice, index;
        int fl;
        char name[64] = "";
        if (v->ops->retro->locate(v, pos, &slice, &index, &fl)) v->ops->retro->slice_name(v, slice, name, sizeof name);
        rc = *name ? err_set(err, GSW_EFAIL, "no database holds this position (slice %s): gsw egdb build %s --for '%s'",
                             name, v->game->name, o->pos[2])
             : rg->mate_metric
                 ? err_set(err, GSW_EFAIL, "no tablebase covers this position (at most %d pieces, no castling rights)",
                                           rg->max_pieces)
                 : err_set(err, GSW_EFAIL, "the position has more pieces than the databases cover");
    }
    /* the best move, as the solver door chooses it, from these files */
    const game_ops_t *O = v->ops;
    int conv = -1;   /* without distances: plies to the next conversion */
    if (!rc && lo != hi && egdb_conversion(&pr, pos, &conv, err) < 0) rc = err->code;
    char (*line)[16] = NULL;   /* --line: the moves */
    int nline = 0, line_cut = 0;
    val_t raw_lo = lo, raw_hi = hi;   /* the position's value alone */
    int open_rule = 0;                /* ... which the move-count rule may change: nothing here tells */
    if (!rc) {
        probe_oracle_t po = { &pr, err, 0 };
        gsw_oracle_t raw = { probe_oracle_probe, probe_oracle_conversion, &po };
        gsw_count_oracle_t co;
        const int on = left >= 0;
        const gsw_oracle_t *or = on ? game_count_oracle(&co, &raw, &on) : &raw;   /* (below: &raw when open) */
        if (on && !over) {   /* the rule over the files' value, as the door applies it */
            game_count_bounds(v, pos, left, &raw, &lo, &hi);
            if (lo < hi && lo <= VAL_DRAW && hi >= VAL_DRAW) {   /* the rule may draw it first: no distances tell */
                lo = raw_lo;
                hi = raw_hi;
                open_rule = 1;
            }
        }
        if (open_rule) or = &raw;
        best = left == 0 && !over ? MOVE_NONE : source_oracle_best(v, or, pos);   /* (the clock ended the game) */
        /* --line: best moves to the end of a won or lost game, as the
           databases play it (no move-count rule, no repetition) */
        if (args_flag(o, "line") && best != MOVE_NONE && (lo > VAL_DRAW || hi < VAL_DRAW) && !po.failed) {
            if (!(line = malloc(EGDB_LINE_MAX * sizeof *line))) rc = err_set(err, GSW_EFAIL, "out of memory");
            GSW_POSBUF cur[GSW_MAX_POS];
            memcpy(cur, pos, O->pos_size);
            for (move_t mv = best; line && mv != MOVE_NONE && !po.failed;) {
                if (nline == EGDB_LINE_MAX) { line_cut = 1; break; }
                O->move_format(v, cur, mv, line[nline++], sizeof *line);
                O->play(v, cur, mv);
                val_t tv;
                mv = O->terminal(v, cur, &tv) ? MOVE_NONE : source_oracle_best(v, or, cur);
            }
        }
        if (po.failed) rc = err->code;
    }
    double ms = gsw_now_ms() - t0;
    egdb_prober_free(&pr);
    if (rc) {
        free(line);
        return rc;
    }
    gvalue_t g = value_report(v, pos, lo, hi);
    char bt[64] = "", vt[64], rt[160] = "";
    if (best != MOVE_NONE) O->move_format(v, pos, best, bt, sizeof bt);
    value_text(lo, hi, vt, sizeof vt);
    const int ruled = lo != raw_lo || hi != raw_hi;   /* the move-count rule changed the files' value */
    if (open_rule) {
        char name[64] = "?";
        if (rg->locate(v, pos, &ps, &pi, &pf)) rg->slice_name(v, ps, name, sizeof name);
        snprintf(rt, sizeof rt, "whether the %s draws it first (%d plies left) needs the distances to conversion: "
                 "gsw egdb build %s %s --metric dtc", O->count_rule, left, v->game->name, name);
    } else if (ruled) {
        char raw[64];
        if (rg->mate_metric && raw_lo == raw_hi && raw_lo != VAL_DRAW)
            snprintf(raw, sizeof raw, "%s %d (%d plies)", val_is_win(raw_lo) ? "mate in" : "mated in",
                     val_is_win(raw_lo) ? (val_plies(raw_lo) + 1) / 2 : val_plies(raw_lo) / 2, val_plies(raw_lo));
        else value_text(raw_lo, raw_hi, raw, sizeof raw);
        if (lo == hi) snprintf(rt, sizeof rt, "draw by the %s: %d plies left, no %s and no conversion in time (without the rule: %s)",
                               O->count_rule, left, rg->mate_metric ? "mate" : "win", raw);
        else snprintf(rt, sizeof rt, "%s under the %s: a conversion comes within the %d plies left (without the rule: %s)",
                      lo > VAL_DRAW ? "win" : "loss", O->count_rule, left, raw);
    }
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        char spec[96];
        game_spec(v, spec, sizeof spec);
        json_str(&j, "game", spec);
        json_str(&j, "position", o->pos[2]);
        json_str(&j, "value", outcome_name(g.outcome));
        if (g.plies >= 0 && lo == hi) json_int(&j, "plies", g.plies); else json_null(&j, "plies");
        if (*bt) json_str(&j, "best", bt); else json_null(&j, "best");
        json_str(&j, "metric", retro_game_metric_name(v->ops->retro, m));
        if (m == RETRO_DTC && conv >= 0) json_int(&j, "conversion_plies", conv);
        else if (m == RETRO_DTC) json_null(&j, "conversion_plies");
        if (ruled) {   /* the files' value, which the move-count rule changed */
            gvalue_t rg0 = value_report(v, pos, raw_lo, raw_hi);
            json_obj(&j, "without_line");
            json_str(&j, "value", outcome_name(rg0.outcome));
            if (rg0.plies >= 0 && raw_lo == raw_hi) json_int(&j, "plies", rg0.plies); else json_null(&j, "plies");
            json_close(&j, '}');
        }
        json_bool(&j, "line_applied", left >= 0 && !open_rule);
        if (open_rule) json_str(&j, "line_open", rt);
        if (rg->mate_metric && m == RETRO_DTW) {   /* in moves: > 0 the side to move mates, < 0 it is mated */
            if (lo == VAL_DRAW || lo != hi) json_null(&j, "mate");
            else json_int(&j, "mate", val_is_win(lo) ? (val_plies(lo) + 1) / 2 : -(val_plies(lo) / 2));
        }
        json_str(&j, "source", over ? "rules" : "egdb");
        if (args_flag(o, "line")) {
            json_arr(&j, "line");
            for (int i = 0; i < nline; i++) json_str(&j, NULL, line[i]);
            json_close(&j, ']');
        }
        json_num(&j, "time_ms", ms);
        json_end(&j);
    } else if (ruled) {
        printf("%s%s%s (%s)\n", rt, *bt ? "; best " : "", bt, rg->mate_metric ? "distance-to-mate tablebase and its distances to conversion"
               : "databases and their distances to conversion");
    } else if (rg->mate_metric && m == RETRO_DTW) {
        char mt[96];
        if (lo == VAL_DRAW) snprintf(mt, sizeof mt, "draw");
        else if (val_is_win(lo)) snprintf(mt, sizeof mt, "the side to move mates in %d (%d plies)", (val_plies(lo) + 1) / 2,
                                          val_plies(lo));
        else if (val_plies(lo) == 0) snprintf(mt, sizeof mt, "checkmated");
        else snprintf(mt, sizeof mt, "the side to move is mated in %d (%d plies)", val_plies(lo) / 2, val_plies(lo));
        printf("%s%s%s (distance-to-mate tablebase%s)\n", mt, *bt ? "; best " : "", bt,
               args_flag(o, "no-line") && O->count_rule ? "; the position's value alone: no 50-move rule, no repetition" : "");
    } else if (m == RETRO_DTC && conv >= 0)
        printf("%s%s%s (distance-to-conversion database: a capture or a man's move keeping it in %d plies)\n", vt,
               *bt ? "; best " : "", bt, conv);
    else printf("%s%s%s (%s)\n", vt, *bt ? "; best " : "", bt,
                over ? "the game is over" : m == RETRO_DTW ? "distance-to-win database"
                     : m == RETRO_DTC ? "distance-to-conversion database"
                                      : "win/draw/loss database: build --metric dtw for distances");
    if (open_rule && !args_flag(o, "json")) printf("(%s)\n", rt);
    if (args_flag(o, "line") && !args_flag(o, "json")) {
        if (!nline) printf("no line: %s\n", lo == hi && lo == VAL_DRAW ? "a draw" : best == MOVE_NONE ? "no move known" : "not decided");
        else {
            printf("line, %d plies%s:", nline, line_cut ? " (cut there)" : "");
            for (int i = 0; i < nline; i++) printf(" %s", line[i]);
            printf("\n");
        }
    }
    free(line);
    return GSW_OK;
}

/* ---- stats ---- */

/* The position at (slice, index) as text; mirrored: shown with the other
 * side to move, as the colour-reversed image it stands for. */
static void stats_fen(const gv_t *v, uint64_t slice, uint64_t index, int mirrored, char *buf, size_t n)
{
    const retro_game_t *rg = v->ops->retro;
    GSW_POSBUF pos[GSW_MAX_POS];
    rg->position(v, slice, index, pos);
    if (mirrored && rg->mirror) rg->mirror(v, pos);
    v->ops->pos_format(v, pos, buf, n);
}

/* Chess's statistics: one row per ending, either side to move. */
static int egdb_cli_stats_mate(cli_args_t *o, gv_t *v, egdb_set_t *set, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    int want[RETRO_MAX_COUNTS], nwant = 0;
    if (o->npos >= 3) {
        uint64_t slice;
        if (rg->slice_parse(v, o->pos[2], &slice, err)) return err->code;
        /* built as win/draw/loss only: those statistics, without distances */
        int wld_only = egdb_slice_present(set, RETRO_WLD, slice) && !egdb_slice_present(set, RETRO_DTW, slice);
        if (!wld_only && egdb_cli_ensure(o, v, set, slice, RETRO_DTW, err)) return err->code;
        nwant = rg->slice_material(v, slice, want);
    }
    egdb_stat_t *rows;
    int nrows;
    int rc = egdb_stats(set, want, nwant, EGDB_TABLE_MATERIAL, &rows, &nrows, &opts_stop, err);
    if (rc) return rc;
    if (nrows == 0) {
        free(rows);
        return err_set(err, GSW_EFAIL, "no %s tablebases in %s (gsw egdb build %s KRK)", v->game->name,
                       egdb_set_dir(set), v->game->name);
    }
    json_t j;
    if (args_flag(o, "json")) {
        json_begin(&j, stdout);
        if (nwant == 0) {
            json_str(&j, "game", v->game->name);
            json_arr(&j, "endings");
        }
    } else
        printf("%-8s %12s %12s %12s %12s  %-14s %-14s %s\n", "ending", "positions", "wins", "draws", "losses",
               "longest mate", "longest loss", "example (winner to move)");
    for (int r = 0; r < nrows; r++) {
        egdb_stat_t *row = &rows[r];
        char name[64], fen[256] = "", a[32], b[32], c2[32], d[32];
        rg->slice_name(v, row->slice, name, sizeof name);
        int plies = row->longest_win_plies, moves = plies >= 0 ? (plies + 1) / 2 : -1;
        /* the longest defence: the loser to move, mated in lplies / 2 moves */
        int lplies = row->longest_loss_plies, lmoves = lplies >= 0 ? lplies / 2 : -1;
        if (plies >= 0) stats_fen(v, row->longest_slice, row->longest_index, 0, fen, sizeof fen);
        if (args_flag(o, "json")) {
            if (nwant == 0) json_obj(&j, NULL);
            json_str(&j, "ending", name);
            json_int(&j, "positions", (int64_t)row->positions);
            json_int(&j, "wins", (int64_t)row->wins);
            json_int(&j, "draws", (int64_t)row->draws);
            json_int(&j, "losses", (int64_t)row->losses);
            if (moves >= 0) {
                json_int(&j, "longest_mate_moves", moves);
                json_int(&j, "longest_mate_plies", plies);
                json_str(&j, "example", fen);
            } else {
                json_null(&j, "longest_mate_moves");
                json_null(&j, "longest_mate_plies");
                json_null(&j, "example");
            }
            if (lmoves >= 0) {
                char lfen[256];
                stats_fen(v, row->longest_loss_slice, row->longest_loss_index, 0, lfen, sizeof lfen);
                json_int(&j, "longest_loss_moves", lmoves);
                json_int(&j, "longest_loss_plies", lplies);
                json_str(&j, "loss_example", lfen);
            } else {
                json_null(&j, "longest_loss_moves");
                json_null(&j, "longest_loss_plies");
                json_null(&j, "loss_example");
            }
            json_bool(&j, "distances", row->distances);
            if (nwant == 0) json_close(&j, '}');
            continue;
        }
        char lm[40], ll[40];
        if (moves >= 0) snprintf(lm, sizeof lm, "%d (%d plies)", moves, plies);
        else snprintf(lm, sizeof lm, row->distances ? "none" : "- (wld only)");
        if (lmoves >= 0) snprintf(ll, sizeof ll, "%d (%d plies)", lmoves, lplies);
        else snprintf(ll, sizeof ll, row->distances ? "none" : "-");
        printf("%-8s %12s %12s %12s %12s  %-14s %-14s %s\n", name, opts_thousands(row->positions, a, sizeof a),
               opts_thousands(row->wins, b, sizeof b), opts_thousands(row->draws, c2, sizeof c2),
               opts_thousands(row->losses, d, sizeof d), lm, ll, *fen ? fen : "-");
    }
    if (args_flag(o, "json")) {
        if (nwant == 0) json_close(&j, ']');
        json_end(&j);
    }
    free(rows);
    return GSW_OK;
}

static int egdb_cli_stats(cli_args_t *o, gv_t *v, egdb_set_t *set, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    if (rg->mate_metric) {
        if (args_str(o, "convention"))
            return err_set(err, GSW_EINPUT, "--convention: %s's statistics have one reading (the longest mate)",
                           v->game->name);
        return egdb_cli_stats_mate(o, v, set, err);
    }
    egdb_table_t table = EGDB_TABLE_MATERIAL;
    if (args_str(o, "convention") && egdb_table_parse(args_str(o, "convention"), &table))
        return err_set(err, GSW_EINPUT, "--convention: unknown reading \"%.40s\" (material, first)", args_str(o, "convention"));
    int want[RETRO_MAX_COUNTS], nwant = 0;
    if (o->npos >= 3 && (nwant = egdb_material_parse(v, o->pos[2], want, err)) < 0) return err->code;
    egdb_stat_t *rows;
    int nrows;
    int rc = egdb_stats(set, want, nwant, table, &rows, &nrows, &opts_stop, err);
    if (rc) return rc;
    if (nrows == 0) {
        free(rows);
        return err_set(err, GSW_EFAIL, "no %s databases%s in %s (gsw egdb build %s --pieces N)", v->game->name,
                       nwant > 0 ? " of that slice" : "", egdb_set_dir(set), v->game->name);
    }
    if (args_flag(o, "json"))   /* one object, as every verb's --json (README): the rows under "materials" */
        printf("{\"game\":\"%s\",\"convention\":\"%s\",\"materials\":[", v->game->name, egdb_table_name(table));
    else printf("%-14s %14s %14s %14s %14s %5s %5s  %s\n", "slice (B v W)", "positions", "wins", "draws", "losses",
                "win", "loss",
                table == EGDB_TABLE_FIRST ? "longest win (Black to move); longest loss (White to move)"
                                          : "longest win; longest loss (either side to move)");
    for (int r = 0; r < nrows; r++) {
        egdb_stat_t *row = &rows[r];
        char wfen[256] = "", lfen[256] = "";
        if (row->win.plies >= 0) stats_fen(v, row->win.slice, row->win.index, row->win.mirrored, wfen, sizeof wfen);
        if (row->loss.plies >= 0)
            stats_fen(v, row->loss.slice, row->loss.index, row->loss.mirrored, lfen, sizeof lfen);
        if (args_flag(o, "json")) {
            printf("%s\n {", r ? "," : "");
            for (int k = 0; k < row->ncounts; k++) printf("\"%s\":%d,", rg->material_names[k], row->counts[k]);
            printf("\"positions\":%llu,\"wins\":%llu,\"draws\":%llu,\"losses\":%llu,\"convention\":\"%s\","
                   "\"longest_win_plies\":%d,\"longest_loss_plies\":%d,\"black_to_move_longest_win_plies\":%d,"
                   "\"black_to_move_longest_loss_plies\":%d,\"example\":%s%s%s,\"loss_example\":%s%s%s,"
                   "\"distances\":%s}",
                   (unsigned long long)row->positions, (unsigned long long)row->wins, (unsigned long long)row->draws,
                   (unsigned long long)row->losses, egdb_table_name(table), row->win.plies, row->loss.plies,
                   row->btm_win.plies, row->btm_loss.plies, *wfen ? "\"" : "", *wfen ? wfen : "null",
                   *wfen ? "\"" : "", *lfen ? "\"" : "", *lfen ? lfen : "null", *lfen ? "\"" : "",
                   row->distances ? "true" : "false");
            continue;
        }
        char name[48] = "", a[32], b[32], c2[32], d[32], lw[16], ll[16];
        for (int k = 0; k < row->ncounts; k++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%d", k ? "," : "", row->counts[k]);
        if (row->win.plies >= 0) snprintf(lw, sizeof lw, "%d", row->win.plies); else snprintf(lw, sizeof lw, "-");
        if (row->loss.plies >= 0) snprintf(ll, sizeof ll, "%d", row->loss.plies); else snprintf(ll, sizeof ll, "-");
        printf("%-14s %14s %14s %14s %14s %5s %5s  %s; %s\n", name, opts_thousands(row->positions, a, sizeof a),
               opts_thousands(row->wins, b, sizeof b), opts_thousands(row->draws, c2, sizeof c2),
               opts_thousands(row->losses, d, sizeof d), lw, ll, *wfen ? wfen : "-", *lfen ? lfen : "-");
    }
    if (args_flag(o, "json")) printf("\n]}\n");
    free(rows);
    return GSW_OK;
}

/* verify's manifest lines: "wld/3p.egdb: ok" on stdout, or the JSON
 * array's entries; only one slice's files when one is named. */
typedef struct mf_said {
    json_t *j;
    const char *only;          /* "NAME.egdb", or NULL */
    int bad, files;
} mf_said_t;

static void egdb_cli_mf_say(void *ctx, const char *metric, const char *name, int status)
{
    mf_said_t *s = ctx;
    if (s->only && strcmp(name, s->only)) return;
    s->files++;
    s->bad += status != MANIFEST_OK;
    if (!s->j) {
        printf("%s/%s: %s\n", metric, name, manifest_status_name(status));
        return;
    }
    char file[300];
    snprintf(file, sizeof file, "%s/%s", metric, name);
    json_obj(s->j, NULL);
    json_str(s->j, "file", file);
    json_str(s->j, "status", status == MANIFEST_OK ? "ok" : status == MANIFEST_DIFFERS ? "differs"
                             : status == MANIFEST_MISSING ? "missing" : "unlisted");
    json_close(s->j, '}');
}

static int egdb_cli_verify(cli_args_t *o, gv_t *v, egdb_set_t *set, err_t *err)
{
    uint64_t one;
    if (o->npos >= 3 && v->ops->retro->slice_parse(v, o->pos[2], &one, err)) return err->code;
    if (o->npos >= 3 && args_flag(o, "record"))
        return err_set(err, GSW_EINPUT, "egdb verify --record adopts the whole folder: give no SLICE");
    int checked = 0;
    double t0 = gsw_now_ms();
    egdb_damaged_said = 0;
    int rc = egdb_verify(set, o->npos >= 3 ? &one : NULL, args_given(o, "threads") ? opts_threads(o) : 0, &opts_stop,
                         egdb_cli_progress, NULL, &checked, err);
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    char *said = strstr(err->msg, " (each said above)");
    if (rc && egdb_damaged_said == 1) err->msg[0] = 0;   /* (its line is the error) */
    else if (rc && said) *said = 0;                      /* "2 of 40 files damaged" under theirs */
    if (rc && args_flag(o, "record") && err->msg[0])
        snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (nothing recorded)");
    if (rc && (args_flag(o, "record") || opts_stop)) return rc;   /* (a damaged file: its manifest line too) */
    int consistent = !rc;
    err_t first = *err;
    /* the folders' MANIFEST: adopt the files (--record), then check every file */
    int recorded = 0;
    if (args_flag(o, "record") && egdb_manifest_record(set, o->argc, o->argv, &recorded, err)) return err->code;
    json_t j;
    char only[96];
    mf_said_t ms = { args_flag(o, "json") ? &j : NULL, NULL, 0, 0 };
    if (o->npos >= 3) {
        v->ops->retro->slice_name(v, one, only, sizeof only - 5);
        strcat(only, ".egdb");
        ms.only = only;
    }
    if (ms.j) {
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_arr(&j, "manifest");
    }
    int mfiles, mbad;
    rc = egdb_manifest_verify(set, egdb_cli_mf_say, &ms, &mfiles, &mbad, err);
    if (ms.j) json_close(&j, ']');
    if (rc) {
        if (ms.j) json_end(&j);
        return rc;
    }
    if (!checked && !ms.files) {
        if (ms.j) json_end(&j);
        return err_set(err, GSW_EFAIL, "no %s database files%s in %s", v->game->name, o->npos >= 3 ? " of that slice" : "",
                       egdb_set_dir(set));
    }
    if (ms.j) {
        json_int(&j, "files", checked);
        json_int(&j, "recorded", recorded);
        json_int(&j, "manifest_failures", ms.bad);
        json_bool(&j, "consistent", consistent);
        json_bool(&j, "ok", consistent && !ms.bad);
        json_num(&j, "time_ms", gsw_now_ms() - t0);
        json_end(&j);
    } else {
        if (recorded) printf("%d files recorded in their folders' MANIFEST\n", recorded);
        if (consistent)
            printf("%d files checked: checksums and every position's consistency with its moves, in %.1f s\n", checked,
                   (gsw_now_ms() - t0) / 1000);
    }
    if (!consistent) *err = first;
    else if (ms.bad)
        err_set(err, GSW_EFAIL, "%d of %d files do not match their folder's MANIFEST (said above): rebuild them, or, "
                "when their consistency check passes, adopt them: gsw egdb verify %s --dir %s --record", ms.bad,
                ms.files, v->game->name, egdb_set_dir(set));
    return !consistent ? first.code : ms.bad ? GSW_EFAIL : GSW_OK;
}

static int egdb_cli_own_options(cli_args_t *o, const char *sub);

static int cli_egdb(cli_args_t *o)
{
    if (o->npos < 2) return opts_usage_error(o, 3, "egdb needs build, probe, stats or verify and a GAME");
    const char *sub = o->pos[0];
    int maxpos = 3;
    if (strcmp(sub, "build") && strcmp(sub, "probe") && strcmp(sub, "stats") && strcmp(sub, "verify"))
        return opts_usage_error(o, 3, "egdb needs build, probe, stats or verify");
    if (o->npos > maxpos) return opts_usage_error(o, maxpos, NULL);
    if (egdb_cli_own_options(o, sub)) return GSW_EINPUT;
    err_t err;
    gv_t *v;
    egdb_set_t *set;
    if (egdb_cli_open(o, o->pos[1], &v, &set, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    int rc;
    if (!strcmp(sub, "probe") || !strcmp(sub, "stats")) egdb_set_guard(set, 1);   /* results: the MANIFEST vouches */
    if (!strcmp(sub, "build")) rc = egdb_cli_build(o, v, set, &err);
    else if (!strcmp(sub, "probe")) rc = egdb_cli_probe(o, v, set, &err);
    else if (!strcmp(sub, "stats")) rc = egdb_cli_stats(o, v, set, &err);
    else rc = egdb_cli_verify(o, v, set, &err);
    if (rc && err.msg[0]) fprintf(stderr, "%sgsw: %s\n", isatty(2) ? "\r\033[K" : "", err.msg);
    egdb_set_close(set);
    game_close(v);
    return rc;
}

int cli_count_pieces(cli_args_t *o)
{
    err_t err;
    gv_t *v;
    if (o->npos != 1) return opts_usage_error(o, 1, "count --pieces needs a GAME and no position");
    if (game_open(o->pos[0], &v, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    const retro_game_t *rg = v->ops->retro;
    int rc = GSW_OK;
    if (!rg) rc = err_set(&err, GSW_EINPUT, "%s has no endgame-database indexing to count by pieces", v->game->name);
    else if (args_int(o, "pieces", 0) < 1 || args_int(o, "pieces", 0) > rg->max_pieces)
        rc = err_set(&err, GSW_EINPUT, "--pieces %d: %s counts 1 to %d pieces", args_int(o, "pieces", 0), v->game->name, rg->max_pieces);
    uint64_t total = 0;
    int nslices = 0;
    if (!rc) {
        nslices = rg->slices(v, args_int(o, "pieces", 0), NULL, 0);
        uint64_t *ids = malloc(((size_t)nslices + 1) * sizeof *ids);
        if (!ids) rc = err_set(&err, GSW_EFAIL, "out of memory");
        else {
            rg->slices(v, args_int(o, "pieces", 0), ids, nslices);
            for (int i = 0; i < nslices; i++) total += rg->slice_size(v, ids[i]);
            free(ids);
        }
    }
    if (rc) { fprintf(stderr, "gsw: %s\n", err.msg); game_close(v); return rc; }
    char t[32];
    if (args_flag(o, "json")) {
        json_t j;
        json_begin(&j, stdout);
        json_str(&j, "game", v->game->name);
        json_int(&j, "pieces", args_int(o, "pieces", 0));
        json_int(&j, "total", (int64_t)total);
        json_int(&j, "slices", nslices);
        json_end(&j);
    } else if (rg->mate_metric)
        printf("%s index entries with %d pieces (either side to move, illegal placements included): %s in %d endings\n",
               v->game->name, args_int(o, "pieces", 0), opts_thousands(total, t, sizeof t), nslices);
    else printf("%s positions with %d pieces (placements, side to move not counted): %s in %d slices\n",
                v->game->name, args_int(o, "pieces", 0), opts_thousands(total, t, sizeof t), nslices);
    game_close(v);
    return GSW_OK;
}

static const cli_opt_t egdb_own[] = {
    OPT_DB,
    OPT_THREADS,
    OPT_NO_LINE,
    { "pieces", OPT_INT, "N", "build: every slice of 1..N pieces", 1, 32, NULL },
    { "metric", OPT_STR, "wld|dtc|dtw|dtm", "build: what the files hold", 0, 0, NULL },
    { "for", OPT_STR, "POSITION", "build: the slices POSITION can reach", 0, 0, NULL },
    { "plan", OPT_FLAG, NULL, "build: what the target needs and has, and stop", 0, 0, NULL },
    { "max-per-side", OPT_INT, "K", "build: with --pieces, materials of at most K pieces a side", 1, 32, NULL },
    { "memory", OPT_NUM, "GB", "build: the most one unit holds (default 12)", 0.001, 4096, NULL },
    { "divide-above", OPT_U64, "P", "build --mpi: divide units of more than P positions between the ranks", 0, 1e15, NULL },
    { "line", OPT_FLAG, NULL, "probe: the best moves to the end", 0, 0, NULL },
    { "convention", OPT_STR, "material|first", "stats: whose longest win and loss", 0, 0, NULL },
    { "record", OPT_FLAG, NULL, "verify: write the folders' MANIFEST for files that pass the check", 0, 0, NULL },
    OPT_END,
};
/* An option of another subverb (its help names whose: "build: ...") is
 * refused in a line, not ignored: `egdb stats --metric dtc` would else
 * print the distances to mate as though they were what was asked. */
static int egdb_cli_own_options(cli_args_t *o, const char *sub)
{
    static const char *const subs[] = { "build", "probe", "stats", "verify", NULL };
    for (const cli_opt_t *d = egdb_own; d->name; d++) {
        if (!args_given(o, d->name)) continue;
        size_t k = strcspn(d->help, ": ");
        for (int i = 0; subs[i]; i++)
            if (strlen(subs[i]) == k && !strncmp(d->help, subs[i], k) && strcmp(sub, subs[i])) {
                fprintf(stderr, "gsw: egdb %s: --%s is for egdb %s (gsw egdb --help)\n", sub, d->name, subs[i]);
                return 1;
            }
    }
    return 0;
}

static const cli_opt_t *const egdb_opts[] = { opts_json, opts_egdb, opts_mpi, egdb_own, NULL };

const cli_verb_t verb_egdb = {
    "egdb", "gsw egdb build|probe|stats|verify GAME [POSITION|SLICE] [--pieces N] [--metric wld|dtc|dtw|dtm] [--for POSITION] [--plan] [--line] [--no-line] [--dir DIR]\n"
              "         [--max-per-side K] [--memory GB] [--mpi [--divide-above P]] [--convention material|first]\n"
              "  build [SLICE]: every slice of 1..N pieces (--pieces), those POSITION can reach (--for), or SLICE and\n"
              "         what it can reach, in the metric (wld: win/draw/loss, 2 bits; dtc: distance to conversion;\n"
              "         dtw: distance to win, with its wld; chess: dtm, distance to mate, the default);\n"
              "         finished slices are checked and kept: Ctrl-C and run again to resume. --threads N (default all).\n"
              "         --plan: how many slices and positions the target needs, and how many are built, the memory\n"
              "         and disk each unit needs (--json lists the units), and stop. --max-per-side K: with --pieces,\n"
              "         only materials of at most K pieces a side (the published 7-piece set: --pieces 7 --max-per-side 4).\n"
              "         --memory GB: the most one unit's build holds (default 12): what the unit's arrays leave keeps\n"
              "         its moves, listed once, for the check that follows the solve.\n"
              "         --mpi: under mpirun -np N, rank 0 hands units to the other ranks (--dir on a folder all see);\n"
              "         a unit whose arrays (8-10 bytes a position) exceed --memory, or with --divide-above P one of\n"
              "         more than P positions, is divided between all of them, each holding its share of the positions.\n"
              "  probe POSITION: the value and best move from the databases, under the game's move-count rule\n"
              "         from the position's clock (--no-line: the files' own value); --line: the best moves to\n"
              "         the end of a won or lost game, as the databases play them.\n"
              "  stats [BK,BC,WK,WC]: per material slice, side to move Black: positions, wins, draws, losses,\n"
              "         the longest win and loss (plies, from dtw files) with examples, over positions where the side\n"
              "         to move has no capture. --convention material (the default): the material's longest win and\n"
              "         loss, either side to move; first: Black's longest win with Black to move, and White's longest\n"
              "         loss with White to move.\n"
              "  chess: an ending is named by its material, stronger side first (KRK, KQKR; KKR is KRK); stats ENDING\n"
              "         gives its legal positions (either side to move), wins, draws, losses and longest mate;\n"
              "         probe and stats build what is missing first. Up to 5 pieces, en passant too; no castling.\n"
              "  verify [SLICE]: every file's checksums and every position's consistency with its moves.\n"
              "  DIR defaults to $GSW_EGDB, else egdb/ in gsw's data directory (beside the cache; --db moves it too).",
      "endgame databases: build, probe, statistics, verification", cli_egdb, 3, NULL, .opts = egdb_opts, .mpi_sub = "build", .egdb = 1
};
