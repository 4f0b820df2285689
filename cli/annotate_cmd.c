/* gsw annotate (see annotate_cmd.h). */
#include "cli/annotate_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/json.h"
#include "core/ab.h"
#include "games/record_file.h"
#include "solve/annotate.h"

#define ANNOTATE_MAX_PLY 2048
#define ANNOTATE_MS 1000.0   /* a position's solving time when --time is not given */

/* The game read: its variant, start, moves, the record's text (NULL for a
 * file of moves). */
typedef struct annot_game {
    gv_t *v;
    GSW_POSBUF start[GSW_MAX_POS];
    move_t moves[ANNOTATE_MAX_PLY];
    int n;
    char *text;
} annot_game_t;

static int annotate_read_game(const cli_args_t *o, annot_game_t *g, err_t *err)
{
    gv_t *cur;
    const char *path = o->pos[1];
    int which = args_int(o, "game", 0);
    if (game_open(o->pos[0], &cur, err)) return err->code;
    if (access(path, R_OK)) {
        const int e = errno;
        char what[32] = "a file of its moves";
        if (cur->ops->record_read && cur->ops->record_ext) snprintf(what, sizeof what, "a .%s record", cur->ops->record_ext);
        game_close(cur);
        return err_set(err, GSW_EINPUT, "cannot read %s: %s (annotate reads the game from a file: %s)", path,
                       strerror(e), what);
    }
    if (!cur->ops->record_read) {   /* no record format: a file of moves */
        if (which > 1) {
            game_close(cur);
            return err_set(err, GSW_EINPUT, "%s holds 1 game: there is no game %d", path, which);
        }
        g->v = cur;
        return record_read_moves_file(cur, path, g->start, g->moves, ANNOTATE_MAX_PLY, &g->n, err);
    }
    int rc = record_read_game_text(cur, path, which, &g->v, g->start, g->moves, ANNOTATE_MAX_PLY, &g->n, NULL,
                                   &g->text, err);
    if (!rc && g->v->game != cur->game) {
        rc = err_set(err, GSW_EINPUT, "%s is a %s record (.%s), not a %s one", path, g->v->game->name,
                     g->v->ops->record_ext, cur->game->name);
        game_close(g->v);
        g->v = NULL;
        free(g->text);
        g->text = NULL;
    }
    game_close(cur);
    return rc;
}

/* The record's [Result "..."] tag into buf ("*" without one). */
static void annotate_result(const char *text, char *buf, size_t n)
{
    snprintf(buf, n, "*");
    const char *p = text ? strstr(text, "[Result \"") : NULL;
    if (!p) return;
    p += 9;
    size_t k = strcspn(p, "\"\n");
    if (k && k < n) snprintf(buf, n, "%.*s", (int)k, p);
}

/* Is t a move number ("12." or "12...")? */
static int annotate_is_number(const char *t)
{
    size_t d = strspn(t, "0123456789");
    return d > 0 && t[d] == '.' && strspn(t + d, ".") == strlen(t + d);
}

/* A line of a record being written: words wrapped at 79 columns. */
typedef struct annot_line {
    FILE *f;
    int col;
} annot_line_t;

static void annotate_word(annot_line_t *l, const char *w)
{
    int k = (int)strlen(w);
    if (l->col && l->col + 1 + k > 79) { fputc('\n', l->f); l->col = 0; }
    fprintf(l->f, "%s%s", l->col ? " " : "", w);
    l->col += (l->col ? 1 : 0) + k;
}

/* The comment of ply p: its value for the mover, and what was best where
 * it was thrown away. */
static void annotate_comment(const gv_t *v, const annot_ply_t *p, const char *label, char *buf, size_t n)
{
    char got[64], best[64];
    annotate_value_text(v, &p->after, got, sizeof got);
    if (p->mark[0] == '?' && p->best != MOVE_NONE) {
        annotate_value_text(v, &p->best_value, best, sizeof best);
        snprintf(buf, n, "%s; best %s %s: %s", got, label, p->best_text, best);
    } else if (p->mark[0] == '!') {
        snprintf(buf, n, "%s; the only move that keeps the %s", got, annotate_class_name(p->before.cls));
    } else {
        snprintf(buf, n, "%s", got);
    }
}

/* The labels of the game's plies: the record's move numbers ("23.",
 * "23...") where the game writes records, else the plies ("7."). */
static void annotate_labels(const annot_game_t *g, char (*label)[16])
{
    const game_ops_t *O = g->v->ops;
    for (int i = 0; i < g->n; i++) snprintf(label[i], sizeof label[i], "%d.", i + 1);
    if (!O->record_write) return;
    char result[32];
    annotate_result(g->text, result, sizeof result);
    size_t need = O->record_write(g->v, g->start, g->moves, g->n, result, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf) return;
    O->record_write(g->v, g->start, g->moves, g->n, result, buf, need + 1);
    char *body = strstr(buf, "\n\n");
    body = body ? body + 2 : buf;
    char last[16] = "1.";
    int i = 0, pending = 0;
    for (char *p = body; *p && i < g->n;) {
        p += strspn(p, " \t\r\n");
        size_t k = strcspn(p, " \t\r\n");
        if (!k) break;
        char tok[96];
        snprintf(tok, sizeof tok, "%.*s", (int)(k < sizeof tok ? k : sizeof tok - 1), p);
        p += k;
        if (annotate_is_number(tok)) { snprintf(last, sizeof last, "%.12s", tok); pending = 1; continue; }
        if (pending) snprintf(label[i], sizeof label[i], "%.15s", last);
        else snprintf(label[i], sizeof label[i], "%.*s...", (int)strspn(last, "0123456789") % 12, last);
        pending = 0;
        i++;
    }
    free(buf);
}

/* The record written back with the annotations of plies 0..done-1. */
static void annotate_write(FILE *f, const annot_game_t *g, const annot_ply_t *p, int done, const char (*label)[16],
                           const char *summary)
{
    const gv_t *v = g->v;
    char spec[96], comment[256], word[128];
    game_spec(v, spec, sizeof spec);
    annot_line_t l = { f, 0 };
    if (g->text) {   /* the record's tags, then its moves numbered as the game writes them */
        const char *t = g->text;
        while (*t) {
            t += strspn(t, " \t\r\n");
            if (*t != '[') break;
            size_t k = strcspn(t, "\n");
            fprintf(f, "%.*s\n", (int)k, t);
            t += k;
        }
        fprintf(f, "\n");
    } else {
        fprintf(f, "# %s, annotated by gsw\n", spec);
    }
    GSW_POSBUF pos[GSW_MAX_POS];
    memcpy(pos, g->start, v->ops->pos_size);
    for (int i = 0; i < g->n; i++) {
        int shown = i < done;
        /* a number before each move of the first player, the first move,
           and a move after a comment (PGN's "23...") */
        size_t ll = strlen(label[i]);
        if (!g->text || i == 0 || ll < 2 || label[i][ll - 2] != '.' || i - 1 < done) annotate_word(&l, label[i]);
        v->ops->move_format(v, pos, g->moves[i], word, sizeof word);
        if (shown) snprintf(word + strlen(word), sizeof word - strlen(word), "%s", p[i].mark);
        annotate_word(&l, word);
        v->ops->play(v, pos, g->moves[i]);
        if (shown) {
            char c[300];
            annotate_comment(v, &p[i], label[i], comment, sizeof comment);
            snprintf(c, sizeof c, "{%s}", comment);
            char *save = NULL;   /* a comment's words wrap too */
            for (char *w = strtok_r(c, " ", &save); w; w = strtok_r(NULL, " ", &save)) annotate_word(&l, w);
        }
        if (!g->text) { fputc('\n', f); l.col = 0; }
    }
    if (g->text) {   /* the summary as the last comment, then the result */
        char result[32];
        annotate_result(g->text, result, sizeof result);
        if (l.col) fputc('\n', f);
        l.col = 0;
        char c[2100];
        snprintf(c, sizeof c, "{%s}", summary);
        char *save = NULL;
        for (char *w = strtok_r(c, " ", &save); w; w = strtok_r(NULL, " ", &save)) annotate_word(&l, w);
        fprintf(f, "\n%s\n", result);
    } else {
        fprintf(f, "# %s\n", summary);
    }
}

/* The players' names: the game's view of its sides, else "Player 1/2". */
static void annotate_names(const gv_t *v, const void *pos, char names[2][16])
{
    board_view_t view;
    memset(&view, 0, sizeof view);
    if (v->ops->view) v->ops->view(v, pos, &view);
    for (int i = 0; i < 2; i++)
        if (view.side[i][0]) snprintf(names[i], sizeof names[i], "%s", view.side[i]);
        else snprintf(names[i], sizeof names[i], "Player %d", i + 1);
}

static void annotate_json(const annot_game_t *g, const char *file, int which, const annot_ply_t *p, int done,
                          const char *summary, int complete)
{
    char spec[96], text[128];
    game_spec(g->v, spec, sizeof spec);
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "game", spec);
    json_str(&j, "file", file);
    json_int(&j, "game_number", which > 0 ? which : 1);
    json_arr(&j, "moves");
    for (int i = 0; i < done; i++) {
        json_obj(&j, NULL);
        json_int(&j, "ply", i + 1);
        json_str(&j, "move", p[i].text);
        json_str(&j, "before", annotate_class_name(p[i].before.cls));
        json_str(&j, "after", annotate_class_name(p[i].after.cls));
        annotate_value_text(g->v, &p[i].after, text, sizeof text);
        json_str(&j, "value", text);
        if (p[i].best != MOVE_NONE) json_str(&j, "best", p[i].best_text); else json_null(&j, "best");
        json_str(&j, "mark", p[i].mark);
        json_bool(&j, "proven", p[i].before.cls && p[i].after.cls);
        if (!p[i].after.cls && p[i].after.scored) json_int(&j, "score", p[i].after.score);
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_str(&j, "summary", summary);
    json_bool(&j, "complete", complete);
    json_end(&j);
}

/* Each position of the game valued, each ply annotated into p; returns
 * the plies done (all of them unless stopped or failed: *rc). */
static int annotate_run(const cli_args_t *o, const annot_game_t *g, analyst_t *a, annot_ply_t *p,
                        const char (*label)[16], int *rc, err_t *err)
{
    const gv_t *v = g->v;
    const game_ops_t *O = v->ops;
    size_t stride = (O->pos_size + 15) & ~(size_t)15;
    unsigned char *buf = aligned_alloc(16, stride * (size_t)(g->n + 1));
    analysis_t **an = calloc((size_t)g->n + 1, sizeof *an);
    const void **line = calloc((size_t)g->n + 1, sizeof *line);
    analyst_task_t *task = calloc(1, sizeof *task);
    int done = 0;
    double ms = args_num(o, "time", ANNOTATE_MS), t0 = gsw_now_ms();
    if (!buf || !an || !line || !task) { *rc = err_set(err, GSW_EFAIL, "out of memory"); goto out; }
    memcpy(buf, g->start, O->pos_size);
    for (int i = 0; i <= g->n; i++) {
        line[i] = buf + stride * (size_t)i;
        if (i < g->n) { memcpy(buf + stride * (size_t)(i + 1), line[i], O->pos_size); O->play(v, buf + stride * (size_t)(i + 1), g->moves[i]); }
    }
    for (int i = 0; i <= g->n; i++) {
        if (!(an[i] = malloc(sizeof *an[i]))) { *rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
        analyst_list(v, line[i], an[i]);
        memset(task, 0, sizeof *task);
        if (!args_flag(o, "no-line")) annotate_line_fill(v, line, i, an[i], task);
        else task->alone = 1;
        int r = annotate_position(a, task, line[i], an[i], ms, err);
        if (r == 0 && i > 0) {
            annotate_link(v, an[i - 1], g->moves[i - 1], an[i]);
            memset(task, 0, sizeof *task);
            if (!args_flag(o, "no-line")) annotate_line_fill(v, line, i - 1, &(analysis_t){ 0 }, task);
            else task->alone = 1;
            r = annotate_only(a, task, line[i - 1], an[i - 1], g->moves[i - 1], ms, err);
        }
        if (r < 0) { *rc = err->code ? err->code : GSW_EFAIL; break; }
        if (r > 0) break;   /* stopped */
        if (i == 0) continue;
        annotate_read(v, line[i - 1], an[i - 1], g->moves[i - 1], &p[i - 1]);
        done = i;
        double el = gsw_now_ms() - t0;
        if (isatty(2) || el > 1000) {   /* a long run: one line a move on stderr */
            char val[96];
            annotate_value_text(v, &p[i - 1].after, val, sizeof val);
            fprintf(stderr, "  %d/%d %s %s%s: %s (%.1f s)\n", i, g->n, label[i - 1], p[i - 1].text, p[i - 1].mark,
                    val, el / 1000);
        }
        free(an[i - 1]);
        an[i - 1] = NULL;
    }
out:
    for (int i = 0; an && i <= g->n; i++) free(an[i]);
    free(an);
    free(line);
    free(task);
    free(buf);
    return done;
}

static int cli_annotate(cli_args_t *o)
{
    if (o->npos != 2) return opts_usage_error(o, 2, "annotate needs a GAME and a FILE");
    err_t err;
    err_clear(&err);
    annot_game_t *g = calloc(1, sizeof *g);
    if (!g) { fprintf(stderr, "gsw: out of memory\n"); return GSW_EFAIL; }
    int rc = annotate_read_game(o, g, &err);
    if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        if (g->v) game_close(g->v);
        free(g);
        return rc;
    }
    cache_t *cache = NULL;
    analyst_t a;
    memset(&a, 0, sizeof a);
    annot_ply_t *p = calloc((size_t)g->n + 1, sizeof *p);
    char (*label)[16] = calloc((size_t)g->n + 1, sizeof *label);
    if (!p || !label) rc = err_set(&err, GSW_EFAIL, "out of memory");
    if (!rc && !args_flag(o, "no-cache")) rc = opts_cache_open(o, &cache, &err);
    if (!rc) rc = analyst_open(&a, g->v, opts_hash_mb(o), opts_threads(o), cache, opts_egdb_dir(o), &opts_stop, &err);
    if (!rc && args_flag(o, "no-line")) solver_ignore_line(&a.solver);
    FILE *out = NULL;
    const char *outpath = args_str(o, "out");
    if (!rc && outpath && !(out = fopen(outpath, "w"))) rc = err_set(&err, GSW_EINPUT, "cannot write %s", outpath);
    if (rc) {
        fprintf(stderr, "gsw: %s\n", err.msg);
    } else {
        annotate_labels(g, label);
        int done = annotate_run(o, g, &a, p, (const char (*)[16])label, &rc, &err);
        if (rc) {
            fprintf(stderr, "gsw: %s\n", err.msg);
        } else {
            char names[2][16], summary[2048];
            const char *nm[2] = { names[0], names[1] };
            annotate_names(g->v, g->start, names);
            annotate_summary(g->v, p, done, (const char (*)[16])label, !g->v->ops->record_write, nm, summary,
                             sizeof summary);
            if (args_flag(o, "json")) annotate_json(g, o->pos[1], args_int(o, "game", 0), p, done, summary, done == g->n);
            else annotate_write(out ? out : stdout, g, p, done, (const char (*)[16])label, summary);
            if (done < g->n) {
                fflush(stdout);
                fprintf(stderr, "gsw: interrupted: %d of %d moves annotated\n", done, g->n);
                rc = GSW_EFAIL;
            }
        }
    }
    if (out && fclose(out) && !rc) { fprintf(stderr, "gsw: cannot write %s\n", outpath); rc = GSW_EFAIL; }
    if (a.ready) analyst_close(&a);
    if (cache) { err_t e2; cache_close(cache, &e2); }
    free(p);
    free(label);
    free(g->text);
    game_close(g->v);
    free(g);
    return rc;
}

static const cli_opt_t annotate_own[] = {
    { "time", OPT_NUM, "MS", "solving time for each position (default 1000); engine scores where unproven", 1, 1e12, NULL },
    { "game", OPT_INT, "N", "the record's game N (a file of several)", 1, 1e6, NULL },
    { "out", OPT_STR, "FILE", "write the annotated record to FILE (also -o FILE), not stdout", 0, 0, NULL },
    OPT_NO_LINE,
    OPT_END,
};
static const cli_opt_t *const annotate_opts[] = { opts_json, opts_cache, opts_search, opts_egdb, annotate_own, NULL };

const cli_verb_t verb_annotate = {
    "annotate", "gsw annotate GAME[:VARIANT] FILE [--game N] [--time MS] [--dir DIR] [--json] [-o FILE]",
      "a played game's every move valued: the record back with values, ? ?? ! and a summary", cli_annotate, 2, NULL,
      .opts = annotate_opts, .egdb = 1
};
