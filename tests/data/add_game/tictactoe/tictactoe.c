/* Tic-tac-toe on 3x3: X moves first, three in a row wins, a full board is
 * drawn. Positions are the nine cells row by row, "x", "o" or "." ("x...o....");
 * moves are the cells 1-9, row by row from the top left. Only the ops every
 * game must have: the solvers' hooks, the board view and records are
 * optional (core/game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/tictactoe/ttt.h"

typedef struct ttt_pos {
    uint8_t cell[9];   /* 0 empty, 1 X, 2 O */
    uint8_t ply;       /* stones on the board */
} ttt_pos_t;

static const int lines[8][3] = { { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 }, { 0, 3, 6 },
                                 { 1, 4, 7 }, { 2, 5, 8 }, { 0, 4, 8 }, { 2, 4, 6 } };

/* 1 if player who (1 X, 2 O) has three in a row */
static int ttt_has_line(const ttt_pos_t *p, int who)
{
    for (int i = 0; i < 8; i++)
        if (p->cell[lines[i][0]] == who && p->cell[lines[i][1]] == who && p->cell[lines[i][2]] == who) return 1;
    return 0;
}

/* 1 if the player who just moved has three in a row (only they can) */
static int ttt_won(const ttt_pos_t *p)
{
    return p->ply && ttt_has_line(p, 2 - (p->ply & 1));
}

static void ttt_start(const gv_t *v, void *pos)
{
    (void)v;
    memset(pos, 0, sizeof(ttt_pos_t));
}

static int ttt_parse(const gv_t *v, const char *text, void *pos, err_t *err)
{
    (void)v;
    ttt_pos_t *p = pos;
    int count[3] = { 0, 0, 0 };
    memset(p, 0, sizeof *p);
    if (strlen(text) != 9) return err_set(err, GSW_EINPUT, "a tic-tac-toe position is 9 cells of x, o and . (\"%s\")", text);
    for (int i = 0; i < 9; i++) {
        const char *c = strchr(".xo", text[i]);
        if (!c) return err_set(err, GSW_EINPUT, "cell %d of \"%s\" is not x, o or .", i + 1, text);
        p->cell[i] = (uint8_t)(c - ".xo");
        count[p->cell[i]]++;
    }
    if (count[1] != count[2] && count[1] != count[2] + 1)
        return err_set(err, GSW_EINPUT, "\"%s\": X moves first, so X has as many stones as O or one more", text);
    p->ply = (uint8_t)(count[1] + count[2]);
    if (ttt_has_line(p, 1 + (p->ply & 1)))
        return err_set(err, GSW_EINPUT, "\"%s\": the side to move has three in a row, yet the game went on", text);
    return GSW_OK;
}

static void ttt_format(const gv_t *v, const void *pos, char *buf, size_t n)
{
    (void)v;
    const ttt_pos_t *p = pos;
    char t[10];
    for (int i = 0; i < 9; i++) t[i] = ".xo"[p->cell[i]];
    t[9] = 0;
    snprintf(buf, n, "%s", t);
}

static size_t ttt_key(const gv_t *v, const void *pos, uint8_t *key, int *sym)
{
    (void)v;
    memcpy(key, ((const ttt_pos_t *)pos)->cell, 9);
    if (sym) *sym = 0;
    return 9;
}

static uint64_t ttt_hash(const gv_t *v, const void *pos)
{
    (void)v;
    const ttt_pos_t *p = pos;
    uint64_t h = 0;
    for (int i = 0; i < 9; i++) h = h * 3 + p->cell[i];
    return (h + 1) * 0x9E3779B97F4A7C15ull;
}

static int ttt_ply(const gv_t *v, const void *pos)
{
    (void)v;
    return ((const ttt_pos_t *)pos)->ply;
}

static int ttt_turn(const gv_t *v, const void *pos)
{
    (void)v;
    return ((const ttt_pos_t *)pos)->ply & 1;
}

static int ttt_moves(const gv_t *v, const void *pos, move_t *out)
{
    (void)v;
    const ttt_pos_t *p = pos;
    int n = 0;
    if (ttt_won(p)) return 0;
    for (int i = 0; i < 9; i++)
        if (!p->cell[i]) out[n++] = (move_t)i;
    return n;
}

static void ttt_play(const gv_t *v, void *pos, move_t m)
{
    (void)v;
    ttt_pos_t *p = pos;
    p->cell[m] = (uint8_t)(1 + (p->ply & 1));
    p->ply++;
}

static int ttt_move_parse(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    const ttt_pos_t *p = pos;
    move_t mv[9];
    int n = ttt_moves(v, pos, mv);
    if (strlen(text) != 1 || text[0] < '1' || text[0] > '9')
        return err_set(err, GSW_EINPUT, "bad move \"%s\": expected a cell 1-9", text);
    *m = (move_t)(text[0] - '1');
    if (!n || p->cell[*m]) return err_set(err, GSW_EINPUT, "illegal move \"%s\" in this position", text);
    return GSW_OK;
}

static void ttt_move_format(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)v;
    (void)pos;
    snprintf(buf, n, "%u", (unsigned)m + 1);
}

static int ttt_terminal(const gv_t *v, const void *pos, val_t *value)
{
    (void)v;
    const ttt_pos_t *p = pos;
    if (ttt_won(p)) { *value = val_loss(0); return 1; }   /* the player who just moved made a line */
    if (p->ply == 9) { *value = VAL_DRAW; return 1; }
    return 0;
}

static const game_ops_t ttt_ops = {
    .pos_size = sizeof(ttt_pos_t),
    .pos_start = ttt_start,
    .pos_parse = ttt_parse,
    .pos_format = ttt_format,
    .pos_key = ttt_key,
    .pos_hash = ttt_hash,
    .pos_ply = ttt_ply,
    .pos_turn = ttt_turn,
    .moves = ttt_moves,
    .play = ttt_play,
    .move_parse = ttt_move_parse,
    .move_format = ttt_move_format,
    .terminal = ttt_terminal,
    .nsym = 1,
};

static int ttt_variant_open(const char *spec, gv_t **out, err_t *err)
{
    if (spec && *spec && strcmp(spec, "3x3"))
        return err_set(err, GSW_EINPUT, "unknown tictactoe variant \"%s\" (known: 3x3)", spec);
    gv_t *v = calloc(1, sizeof *v);
    if (!v) return err_set(err, GSW_EFAIL, "out of memory");
    v->game = &tictactoe_game;
    v->ops = &ttt_ops;
    snprintf(v->name, sizeof v->name, "3x3");
    *out = v;
    return GSW_OK;
}

static void ttt_variant_close(gv_t *v)
{
    free(v);
}

static const char *const ttt_variants[] = { "3x3", NULL };

const game_t tictactoe_game = {
    .name = "tictactoe",
    .title = "Tic-tac-toe",
    .summary = "Three in a row on 3x3; X moves first.",
    .players = 2,
    .default_variant = "3x3",
    .variants_help = "3x3",
    .test_variants = ttt_variants,
    .variant_open = ttt_variant_open,
    .variant_close = ttt_variant_close,
};
