/* The checkers plugin: 8x8 English draughts (one variant, "english").
 * The rules and notation are in ck_rules.c, the evaluation in ck_eval.c;
 * this file binds them to the plugin interface (core/game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/checkers/ck.h"

static const ck_pos_t *ckp(const void *pos) { return (const ck_pos_t *)pos; }

static void ck_start(const gv_t *v, void *pos)
{
    (void)v;
    ck_pos_t *p = pos;
    memset(p, 0, sizeof *p);
    p->p[0] = 0x00000FFFu;   /* squares 1-12 */
    p->p[1] = 0xFFF00000u;   /* squares 21-32 */
}

static int ck_parse_hook(const gv_t *v, const char *text, void *pos, err_t *err)
{
    (void)v;
    return ck_parse_fen(text, pos, err);
}

static void ck_format_hook(const gv_t *v, const void *pos, char *buf, size_t n)
{
    (void)v;
    ck_format_fen(pos, buf, n);
}

static uint64_t ck_mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

static uint64_t ck_hash(const gv_t *v, const void *pos)
{
    (void)v;
    const ck_pos_t *p = pos;
    uint64_t a = (uint64_t)p->p[0] | (uint64_t)p->p[1] << 32;
    return ck_mix(a * 0x9e3779b97f4a7c15ull ^ ck_mix((uint64_t)p->k << 1 | p->side));
}

/* The key: both sides' pieces, the kings and the side to move (13 bytes);
 * no symmetry is folded. */
static size_t ck_key(const gv_t *v, const void *pos, uint8_t *key, int *sym)
{
    (void)v;
    const ck_pos_t *p = pos;
    uint32_t w[3] = { p->p[0], p->p[1], p->k };
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 4; b++) key[i * 4 + b] = (uint8_t)(w[i] >> (8 * b));
    key[12] = p->side;
    if (sym) *sym = 0;
    return 13;
}

static int ck_from_key(const gv_t *v, const uint8_t *key, size_t klen, void *pos)
{
    (void)v;
    if (klen != 13 || key[12] > 1) return 0;
    ck_pos_t *p = pos;
    memset(p, 0, sizeof *p);
    uint32_t w[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 4; b++) w[i] |= (uint32_t)key[i * 4 + b] << (8 * b);
    /* no square twice, kings only on pieces, no man on its crowning row,
     * at most 12 pieces a side */
    if ((w[0] & w[1]) || (w[2] & ~(w[0] | w[1]))) return 0;
    if ((w[0] & ~w[2] & 0xF0000000u) || (w[1] & ~w[2] & 0x0000000Fu)) return 0;
    if (__builtin_popcount(w[0]) > 12 || __builtin_popcount(w[1]) > 12) return 0;
    p->p[0] = w[0];
    p->p[1] = w[1];
    p->k = w[2];
    p->side = key[12];
    p->ply = p->side;
    return 1;
}

static int ck_ply(const gv_t *v, const void *pos) { (void)v; return ckp(pos)->ply; }
static int ck_turn(const gv_t *v, const void *pos) { (void)v; return ckp(pos)->side; }
static int ck_moves_hook(const gv_t *v, const void *pos, move_t *out) { (void)v; return ck_moves(pos, out); }
static int ck_count_hook(const gv_t *v, const void *pos) { (void)v; return ck_count(pos); }
static void ck_play_hook(const gv_t *v, void *pos, move_t m) { (void)v; ck_play(pos, m); }

static int ck_move_parse_hook(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    (void)v;
    return ck_parse_move(pos, text, m, err);
}

static void ck_move_format_hook(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)v;
    ck_format_move(pos, m, buf, n);
}

/* A side with no legal move (no piece, or every piece blocked) has lost. */
static int ck_terminal(const gv_t *v, const void *pos, val_t *value)
{
    (void)v;
    if (ck_count(pos)) return 0;
    *value = val_loss(0);
    return 1;
}

/* Same position by the repetition rule: pieces, kings, side to move. */
static int ck_same(const void *a, const void *b)
{
    const ck_pos_t *p = a, *q = b;
    return p->p[0] == q->p[0] && p->p[1] == q->p[1] && p->k == q->k && p->side == q->side;
}

/* The rules of play that look at the whole line: the same position (pieces,
 * kings, side to move) for the third time is a draw, and so are 80 plies
 * (40 moves each) with no capture and no man moved. Only the positions
 * since the last capture or man move can repeat the current one. */
static int ck_line_over(const gv_t *v, const void *const *line, int n, val_t *value, char *why, size_t wn)
{
    (void)v;
    if (n < 1) return 0;
    const ck_pos_t *cur = line[n - 1];
    if (cur->quiet >= 80) {
        *value = VAL_DRAW;
        snprintf(why, wn, "40-move rule");
        return 1;
    }
    return game_line_threefold(line, n, cur->quiet < 255 ? cur->quiet : n - 1, ck_same, value, why, wn);
}

/* The plies since a capture or a man's move, and those left before the
 * 40-move rule (80 of them) draws the game. */
static int ck_reversible(const gv_t *v, const void *pos, int *left)
{
    (void)v;
    const ck_pos_t *p = pos;
    if (left) *left = 80 - p->quiet;
    return p->quiet < 255 ? p->quiet : -1;
}

static int32_t ck_evaluate_hook(const gv_t *v, const void *pos)
{
    (void)v;
    return ck_evaluate(pos);
}

/* Quiet: the side to move has no capture (captures are compulsory, so an
 * unquiet position's moves are all captures). */
static int ck_quiet_hook(const gv_t *v, const void *pos)
{
    (void)v;
    return !ck_can_capture(pos);
}

static void ck_view(const gv_t *v, const void *pos, board_view_t *out)
{
    (void)v;
    const ck_pos_t *p = pos;
    memset(out, 0, sizeof *out);
    out->rows = out->cols = 8;
    snprintf(out->side[0], sizeof out->side[0], "Black");
    snprintf(out->side[1], sizeof out->side[1], "White");
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) out->cell[r * 8 + c].kind = VIEW_OFF;
    for (int sq = 0; sq < 32; sq++) {
        int r = sq / 4, c = r % 2 == 0 ? 2 * (sq % 4) + 1 : 2 * (sq % 4);
        view_cell_t *cell = &out->cell[r * 8 + c];
        cell->shade = 1;
        snprintf(cell->name, sizeof cell->name, "%d", sq + 1);
        int owner = p->p[0] >> sq & 1 ? 0 : p->p[1] >> sq & 1 ? 1 : -1;
        if (owner < 0) {
            cell->kind = VIEW_EMPTY;
            cell->ascii = '.';
            continue;
        }
        int king = p->k >> sq & 1;
        cell->kind = VIEW_PIECE;
        cell->owner = (uint8_t)owner;
        cell->ascii = owner == 0 ? (king ? 'B' : 'b') : (king ? 'W' : 'w');
        snprintf(cell->glyph, sizeof cell->glyph, "%s", owner == 0 ? (king ? "♚" : "●") : (king ? "♔" : "○"));
    }
}

static int ck_cell(int sq)
{
    int r = sq / 4;
    return r * 8 + (r % 2 == 0 ? 2 * (sq % 4) + 1 : 2 * (sq % 4));
}

static void ck_move_cells(const gv_t *v, const void *pos, move_t m, int *from, int *to)
{
    (void)v;
    (void)pos;
    *from = ck_cell(ck_mfrom(m));
    *to = ck_cell(ck_mto(m));
}

/* A move's cells: its start, then each square a jump lands on. */
static int ck_move_path(const gv_t *v, const void *pos, move_t m, int *cells, int max)
{
    (void)v;
    (void)pos;
    int sq = ck_mfrom(m), k = ck_mjumps(m), n = 0;
    if (n < max) cells[n++] = ck_cell(sq);
    if (k == 0 && n < max) cells[n++] = ck_cell(ck_mto(m));
    for (int i = 0; i < k && n < max; i++) {
        sq = ck_jp[sq][ck_mdir(m, i)];
        cells[n++] = ck_cell(sq);
    }
    return n;
}

/* Captures are compulsory: said whenever the side to move has one. */
static int ck_move_note(const gv_t *v, const void *pos, char *buf, size_t n)
{
    (void)v;
    if (!ck_can_capture(pos)) return 0;
    snprintf(buf, n, "a capture is compulsory");
    return 1;
}

static const game_ops_t ck_ops = {
    .pos_size = sizeof(ck_pos_t),
    .pos_start = ck_start,
    .pos_parse = ck_parse_hook,
    .pos_format = ck_format_hook,
    .pos_key = ck_key,
    .pos_from_key = ck_from_key,
    .pos_hash = ck_hash,
    .pos_ply = ck_ply,
    .pos_turn = ck_turn,
    .moves = ck_moves_hook,
    .count_moves = ck_count_hook,
    .play = ck_play_hook,
    .move_parse = ck_move_parse_hook,
    .move_format = ck_move_format_hook,
    .terminal = ck_terminal,
    .evaluate = ck_evaluate_hook,
    .repetition = game_repetition_draw,
    .line_over = ck_line_over,
    .pos_reversible = ck_reversible,
    .count_rule = "40-move rule",
    .pos_quiet = ck_quiet_hook,
    .nsym = 1,
    .view = ck_view,
    .move_cells = ck_move_cells,
    .move_path = ck_move_path,
    .move_note = ck_move_note,
    .move_kind = GAME_MOVE_CHAIN,          /* a step, or a chain of jumps: 11-15, 1x10x19 */
    .move_chars = "0123456789-x",          /* squares 1-32; - a step, x a jump */
    .record_read = ck_record_read,
    .record_write = ck_record_write,
    .record_ext = "pdn",
    .retro = &ck_retro,
};

static int ck_variant_open(const char *spec, gv_t **out, err_t *err)
{
    if (spec && *spec && strcmp(spec, "english") && strcmp(spec, "8x8"))
        return err_set(err, GSW_EINPUT, "unknown checkers variant \"%s\" (known: english)", spec);
    gv_t *v = calloc(1, sizeof *v);
    if (!v) return err_set(err, GSW_EFAIL, "out of memory");
    v->game = &checkers_game;
    v->ops = &ck_ops;
    snprintf(v->name, sizeof v->name, "english");
    *out = v;
    return GSW_OK;
}

static void ck_variant_close(gv_t *v)
{
    free(v);
}

static const char *const ck_variants[] = { "english", NULL };

const game_t checkers_game = {
    .name = "checkers",
    .title = "Checkers",
    .summary = "8x8 English draughts: men move forward, captures are compulsory, kings move both ways.",
    .players = 2,
    .default_variant = "english",
    .variants_help = "english (8x8 English/American draughts)",
    .test_variants = ck_variants,
    .menu_variants = ck_variants,
    .play_opponent = "heuristic:5",   /* a perfect opponent would think for ever from most positions */
    .eval_unit = "men",
    .variant_open = ck_variant_open,
    .variant_close = ck_variant_close,
};
