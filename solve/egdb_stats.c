/* Statistics of a directory of endgame databases, one row per material
 * slice (sub-slices summed), read from the distance-to-win files where they
 * exist, else from the win/draw/loss files. See egdb.h for the convention
 * the longest win and loss follow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/egdb.h"

int egdb_material_parse(const gv_t *v, const char *text, int *counts, err_t *err)
{
    const retro_game_t *rg = v->ops->retro;
    int names = 0, n = 0;
    while (rg->material_names[names]) names++;
    const char *p = text;
    for (;;) {
        if (*p < '0' || *p > '9' || n == names) break;
        char *end;
        long x = strtol(p, &end, 10);
        if (end - p > 2 || x > 32) break;
        counts[n++] = (int)x;
        if (!*end && n == names) return n;
        if (*end != ',') break;
        p = end + 1;
    }
    char list[200] = "";
    for (int i = 0; i < names; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", rg->material_names[i]);
    err_set(err, GSW_EINPUT, "bad material \"%.60s\" (expected %d counts separated by commas: %s)", text, names, list);
    return -1;
}

/* 1 if the side to move at (slice, index) must capture (a move leads to
 * fewer pieces). */
static int stats_capture(const gv_t *v, uint64_t slice, uint64_t index)
{
    const retro_game_t *rg = v->ops->retro;
    retro_move_t mv[RETRO_MAX_MOVES];
    val_t term;
    int n = rg->children(v, slice, index, mv, &term), p = rg->slice_pieces(v, slice);
    for (int i = 0; i < n; i++)
        if (rg->slice_pieces(v, mv[i].slice) < p) return 1;
    return 0;
}

int egdb_table_parse(const char *name, egdb_table_t *t)
{
    if (!strcmp(name, "material")) *t = EGDB_TABLE_MATERIAL;
    else if (!strcmp(name, "first")) *t = EGDB_TABLE_FIRST;
    else return -1;
    return 0;
}

const char *egdb_table_name(egdb_table_t t) { return t == EGDB_TABLE_FIRST ? "first" : "material"; }

/* The longer of a and b (a on a tie). */
static egdb_extreme_t extreme_max(egdb_extreme_t a, egdb_extreme_t b) { return b.plies > a.plies ? b : a; }

static int row_find(egdb_stat_t *rows, int n, const int *c, int nc)
{
    for (int r = 0; r < n; r++)
        if (rows[r].ncounts == nc && !memcmp(rows[r].counts, c, sizeof(int) * (size_t)nc)) return r;
    return -1;
}

static int stats_cmp(const void *a, const void *b)
{
    const egdb_stat_t *x = a, *y = b;
    int px = 0, py = 0;
    for (int i = 0; i < x->ncounts; i++) px += x->counts[i], py += y->counts[i];
    if (px != py) return px - py;
    for (int i = 0; i < x->ncounts; i++)
        if (x->counts[i] != y->counts[i]) return y->counts[i] - x->counts[i];
    return 0;
}

/* The material with the two sides' halves of the counts swapped. */
static void stats_mirror(const int *c, int nc, int *out)
{
    int h = nc / 2;
    for (int i = 0; i < h; i++) { out[i] = c[h + i]; out[h + i] = c[i]; }
}

int egdb_stats(egdb_set_t *set, const int *only, int nonly, egdb_table_t table, egdb_stat_t **out, int *nout,
               gsw_flag_t *stop, err_t *err)
{
    const gv_t *v = egdb_set_variant(set);
    const retro_game_t *rg = v->ops->retro;
    *out = NULL;
    *nout = 0;
    int nd = egdb_list(set, RETRO_DTW, NULL, 0), nw = egdb_list(set, RETRO_WLD, NULL, 0);
    uint64_t *ids = malloc(((size_t)nd + (size_t)nw + 1) * sizeof *ids);
    egdb_stat_t *rows = calloc((size_t)nd + (size_t)nw + 1, sizeof *rows);
    uint8_t *codes = malloc(EGDB_BLOCK);
    if (!ids || !rows || !codes) {
        free(ids);
        free(rows);
        free(codes);
        return err_set(err, GSW_EFAIL, "out of memory");
    }
    egdb_list(set, RETRO_DTW, ids, nd);
    egdb_list(set, RETRO_WLD, ids + nd, nw);
    int mirror[RETRO_MAX_COUNTS];
    if (nonly > 0) stats_mirror(only, nonly, mirror);
    int nrows = 0, rc = GSW_OK;
    for (int i = 0; i < nd + nw && !rc; i++) {
        if (stop && *stop) { rc = err_set(err, GSW_EFAIL, "stopped"); break; }
        retro_metric_t m = i < nd ? RETRO_DTW : RETRO_WLD;
        if (m == RETRO_WLD) {   /* a slice with a distance file is counted from it */
            int dup = 0;
            for (int k = 0; k < nd && !dup; k++) dup = ids[k] == ids[i];
            if (dup) continue;
        }
        int c[RETRO_MAX_COUNTS] = { 0 };
        int nc = rg->slice_material(v, ids[i], c);
        /* a named material needs its mirror too: its defender's losses */
        if (nonly > 0 && (nc != nonly || (memcmp(c, only, sizeof(int) * (size_t)nc) &&
                                          memcmp(c, mirror, sizeof(int) * (size_t)nc))))
            continue;
        int r = row_find(rows, nrows, c, nc);
        if (r < 0) {
            r = nrows++;
            memcpy(rows[r].counts, c, sizeof c);
            rows[r].ncounts = nc;
            rows[r].slice = ids[i];
            rows[r].distances = 1;
            rows[r].longest_win_plies = rows[r].longest_loss_plies = -1;
            rows[r].btm_win.plies = rows[r].btm_loss.plies = rows[r].win.plies = rows[r].loss.plies = -1;
        }
        egdb_stat_t *row = &rows[r];
        if (m == RETRO_WLD) row->distances = 0;
        egdb_file_t *f;
        if ((rc = egdb_slice_file(set, m, ids[i], &f, err))) break;
        uint64_t n = egdb_file_info(f)->n;
        for (uint64_t b = 0; b * EGDB_BLOCK < n && !rc; b++) {
            if ((rc = egdb_read_block(f, b, codes, err))) break;
            uint64_t len = n - b * EGDB_BLOCK < EGDB_BLOCK ? n - b * EGDB_BLOCK : EGDB_BLOCK;
            for (uint64_t k = 0; k < len; k++) {
                retro_val_t rv;
                uint64_t idx = b * EGDB_BLOCK + k;
                if (egdb_code_decode(m, codes[k], &rv)) {
                    uint16_t x;
                    if (!egdb_exception(f, idx, &x)) {
                        rc = err_set(err, GSW_EFAIL, "%s: position %llu has no exception entry", egdb_file_path(f),
                                     (unsigned long long)idx);
                        break;
                    }
                    rv = x;
                }
                /* the positions the index stands for: none when it holds no
                   legal position (stored as a draw), its images' count when
                   the game folds symmetry */
                uint64_t w = 1;
                if (rg->weight) w = rg->weight(v, ids[i], idx);
                else if (rv == RETRO_UNKNOWN && rg->legal && !rg->legal(v, ids[i], idx)) w = 0;
                row->positions += w;
                if (rv == RETRO_UNKNOWN) {
                    row->draws += w;
                    continue;
                }
                int d = retro_dist(rv), win = retro_is_win(rv);
                if (win) row->wins += w;
                else row->losses += w;
                if (m != RETRO_DTW) continue;
                if (win && d > row->longest_win_plies) {
                    row->longest_win_plies = d;
                    row->longest_slice = ids[i];
                    row->longest_index = idx;
                } else if (!win && d > row->longest_loss_plies) {
                    row->longest_loss_plies = d;
                    row->longest_loss_slice = ids[i];
                    row->longest_loss_index = idx;
                }
                egdb_extreme_t *best = win ? &row->btm_win : &row->btm_loss;
                if (d <= best->plies || stats_capture(v, ids[i], idx)) continue;
                *best = (egdb_extreme_t){ d, ids[i], idx, 0 };
            }
        }
    }
    /* White to move in a material is Black to move in its mirror (the two
       sides' counts swapped): the table's columns come from both rows */
    for (int r = 0; r < nrows && !rc; r++) {
        int mc[RETRO_MAX_COUNTS];
        stats_mirror(rows[r].counts, rows[r].ncounts, mc);
        int q = row_find(rows, nrows, mc, rows[r].ncounts);
        if (table == EGDB_TABLE_FIRST) rows[r].win = rows[r].btm_win;
        if (q < 0 || !rows[q].distances || !rows[r].distances) continue;
        egdb_extreme_t wtm_win = rows[q].btm_win, wtm_loss = rows[q].btm_loss;
        wtm_win.mirrored = wtm_loss.mirrored = 1;
        if (table == EGDB_TABLE_FIRST) rows[r].loss = wtm_loss;
        else {
            rows[r].win = extreme_max(rows[r].btm_win, wtm_win);
            rows[r].loss = extreme_max(rows[r].btm_loss, wtm_loss);
        }
    }
    free(ids);
    free(codes);
    if (rc) { free(rows); return rc; }
    if (nonly > 0) {   /* only the material asked for */
        int k = 0;
        for (int r = 0; r < nrows; r++)
            if (!memcmp(rows[r].counts, only, sizeof(int) * (size_t)nonly)) rows[k++] = rows[r];
        nrows = k;
    }
    qsort(rows, (size_t)nrows, sizeof *rows, stats_cmp);
    *out = rows;
    *nout = nrows;
    return GSW_OK;
}
