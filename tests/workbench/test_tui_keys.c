/* The game screen's keys as the game decides them (workbench/tui_keys.h),
 * without a terminal: a letter a move begins with types the move even
 * where it is also a command key (p2 on a board of 16 lettered columns
 * used to open the proof browser), the game's kind of move picks the
 * welcome's words, a plugin written before move_kind, move_chars and
 * nsym_of still works by the defaults, and the variants a game offers come
 * from one list (game_variants). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"
#include "workbench/tui_keys.h"

/* ---- a test-only game as a plugin written against the old interface:
 * stones placed on a 16x16 board, columns a-p, rows 1-16 (p2: column 16,
 * row 2), no move_kind, move_chars or nsym_of ---- */

#define SIDE 16
typedef struct { uint8_t occ[SIDE * SIDE / 8]; int ply; } mnk_pos_t;

static int occupied(const mnk_pos_t *p, int i) { return p->occ[i / 8] >> (i % 8) & 1; }
static void mnk_start(const gv_t *v, void *pos) { (void)v; memset(pos, 0, sizeof(mnk_pos_t)); }
static int mnk_moves(const gv_t *v, const void *pos, move_t *out)
{
    (void)v;
    int n = 0;
    for (int i = 0; i < SIDE * SIDE; i++)
        if (!occupied(pos, i)) out[n++] = (move_t)i;
    return n > GSW_MAX_MOVES ? GSW_MAX_MOVES : n;
}
static void mnk_play(const gv_t *v, void *pos, move_t m)
{
    (void)v;
    mnk_pos_t *p = pos;
    p->occ[m / 8] |= (uint8_t)(1u << (m % 8));
    p->ply++;
}
static void mnk_format(const gv_t *v, const void *pos, move_t m, char *buf, size_t n)
{
    (void)v; (void)pos;
    snprintf(buf, n, "%c%u", 'a' + (int)(m % SIDE), m / SIDE + 1);
}
static int mnk_parse(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err)
{
    (void)v;
    int c = text[0] - 'a', r = 0;
    char tail = 0;
    if (c < 0 || c >= SIDE || sscanf(text + 1, "%d%c", &r, &tail) != 1 || r < 1 || r > SIDE)
        return err_set(err, GSW_EINPUT, "bad move \"%s\"", text);
    int i = (r - 1) * SIDE + c;
    if (occupied(pos, i)) return err_set(err, GSW_EINPUT, "%s is taken", text);
    *m = (move_t)i;
    return GSW_OK;
}
static int mnk_turn(const gv_t *v, const void *pos) { (void)v; return ((const mnk_pos_t *)pos)->ply & 1; }
static void mnk_view(const gv_t *v, const void *pos, board_view_t *out)
{
    (void)v;
    memset(out, 0, sizeof *out);
    out->rows = out->cols = SIDE;
    for (int c = 0; c < SIDE; c++) snprintf(out->col_label[c], sizeof out->col_label[c], "%c", 'a' + c);
    for (int r = 0; r < SIDE; r++) {
        snprintf(out->row_label[r], sizeof out->row_label[r], "%d", SIDE - r);
        for (int c = 0; c < SIDE; c++) {
            int i = (SIDE - 1 - r) * SIDE + c;
            out->cell[r * SIDE + c].kind = occupied(pos, i) ? VIEW_PIECE : VIEW_EMPTY;
        }
    }
}
static void mnk_cells(const gv_t *v, const void *pos, move_t m, int *from, int *to)
{
    (void)v; (void)pos;
    *from = -1;
    *to = (SIDE - 1 - (int)(m / SIDE)) * SIDE + (int)(m % SIDE);
}

static const game_ops_t mnk_ops = {
    .pos_size = sizeof(mnk_pos_t),
    .pos_start = mnk_start,
    .pos_turn = mnk_turn,
    .moves = mnk_moves,
    .play = mnk_play,
    .move_parse = mnk_parse,
    .move_format = mnk_format,
    .nsym = 8,
    .view = mnk_view,
    .move_cells = mnk_cells,
};
static const game_t mnk_game = { .name = "mnk", .title = "Stones", .players = 2, .default_variant = "16" };

static gv_t mnk_variant(const game_ops_t *ops)
{
    gv_t v = { .game = &mnk_game, .ops = ops, .name = "16", .data = NULL };
    return v;
}

static gv_t *open_ok(const char *spec)
{
    gv_t *v = NULL;
    err_t err;
    int rc = game_open(spec, &v, &err);
    if (rc) fail_msg("%s: %s", spec, err.msg);
    return v;
}

/* p on a board of 16 lettered columns begins p2 (it used to open the proof
 * browser): a command key a move begins with waits for the move's next
 * key, and 2 makes it the move; q, which no move begins with, stays a
 * command; a full column's letter is its command again. */
static void test_wide_board_letter_types_a_move(void **state)
{
    (void)state;
    gv_t v = mnk_variant(&mnk_ops);
    GSW_POSBUF pos[GSW_MAX_POS];
    move_t m;
    err_t err;
    mnk_start(&v, pos);
    assert_int_equal(tui_key_first(&v, pos, 'p'), TUI_KEY_EITHER);
    assert_int_equal(tui_key_continues(&v, pos, "p", '2', 1), 1);
    assert_int_equal(tui_move_parse(&v, pos, "p2", &m, &err), 1);
    assert_int_equal(m, 1 * SIDE + 15);
    assert_int_equal(tui_move_longer(&v, pos, "p2"), 0);   /* complete: played at once */
    assert_int_equal(tui_move_longer(&v, pos, "p1"), 1);   /* p10-p16 go on: it waits */
    assert_int_equal(tui_key_first(&v, pos, 'c'), TUI_KEY_MOVE);     /* no command: a move at once */
    assert_int_equal(tui_key_first(&v, pos, 'q'), TUI_KEY_COMMAND);  /* no move begins with q */
    assert_int_equal(tui_key_first(&v, pos, 'u'), TUI_KEY_COMMAND);
    assert_int_equal(tui_key_continues(&v, pos, "p", 'u', 1), 0);    /* pu is no move: p's command, then u's */
    for (int r = 0; r < SIDE; r++) mnk_play(&v, pos, (move_t)(r * SIDE + 15));   /* column p full */
    assert_int_equal(tui_key_first(&v, pos, 'p'), TUI_KEY_COMMAND);
}

/* Connect Four at 16 columns and at its widest (64): columns are numbers,
 * 1 waits for 10-16, p begins no move and stays the proof browser's key. */
static void test_connect4_wide(void **state)
{
    (void)state;
    static const char *const specs[] = { "connect4:16x6", "connect4:64x1" };
    for (int k = 0; k < 2; k++) {
        gv_t *v = open_ok(specs[k]);
        GSW_POSBUF pos[GSW_MAX_POS];
        move_t m;
        err_t err;
        v->ops->pos_start(v, pos);
        assert_int_equal(tui_key_first(v, pos, 'p'), TUI_KEY_COMMAND);
        assert_int_equal(tui_move_longer(v, pos, "1"), 1);
        assert_int_equal(tui_key_continues(v, pos, "1", '6', 0), 1);
        assert_int_equal(tui_move_parse(v, pos, "16", &m, &err), 1);
        assert_int_equal(m, 15);
        assert_int_equal(tui_move_parse(v, pos, k ? "64" : "16", &m, &err), 1);
        assert_int_equal(game_move_kind(v, pos), GAME_MOVE_DROP);
        game_close(v);
    }
}

/* Chess: e begins a move, h waits (a hint, or h3), q and n stay commands;
 * UCI's e2e4 goes on past e2 by the declared characters, and a command key
 * waiting is a move only if a legal move's text goes on so. */
static void test_chess_keys(void **state)
{
    (void)state;
    gv_t *v = open_ok("chess");
    GSW_POSBUF pos[GSW_MAX_POS];
    move_t m;
    err_t err;
    v->ops->pos_start(v, pos);
    assert_int_equal(tui_key_first(v, pos, 'e'), TUI_KEY_MOVE);
    assert_int_equal(tui_key_first(v, pos, 'N'), TUI_KEY_MOVE);
    assert_int_equal(tui_key_first(v, pos, 'h'), TUI_KEY_EITHER);
    assert_int_equal(tui_key_first(v, pos, 'q'), TUI_KEY_COMMAND);
    assert_int_equal(tui_key_first(v, pos, 'n'), TUI_KEY_COMMAND);
    assert_int_equal(tui_key_continues(v, pos, "e2", 'e', 0), 1);
    assert_int_equal(tui_move_parse(v, pos, "e2e4", &m, &err), 1);
    assert_int_equal(tui_key_continues(v, pos, "h", '3', 1), 1);
    assert_int_equal(tui_key_continues(v, pos, "b", 'q', 1), 0);
    /* a move typed by its squares (UCI) begins with a file no SAN move does:
       after 1. e4 Nc6 2. Nf3 e5 no move's text begins with f, but f1c4 does */
    assert_int_equal(v->ops->pos_parse(v, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", pos, &err),
                     GSW_OK);
    assert_int_equal(tui_key_first(v, pos, 'f'), TUI_KEY_EITHER);
    assert_int_equal(tui_key_continues(v, pos, "f", '1', 1), 1);
    assert_int_equal(tui_key_continues(v, pos, "f1", 'c', 1), 1);
    assert_int_equal(tui_move_parse(v, pos, "f1c4", &m, &err), 1);
    game_close(v);
}

/* The welcome says how this game's moves are made: a placement game is
 * told to pick a cell (not "a piece, then its target"), a declared kind
 * wins over the worked-out one, each plugin's kind has its words. */
static void test_welcome_by_move_kind(void **state)
{
    (void)state;
    gv_t v = mnk_variant(&mnk_ops);
    GSW_POSBUF pos[GSW_MAX_POS];
    char line[300];
    mnk_start(&v, pos);
    tui_move_how(&v, pos, line, sizeof line);
    assert_non_null(strstr(line, "an empty cell"));
    assert_null(strstr(line, "a piece"));
    assert_non_null(strstr(line, "type it (c1)"));   /* a1: a waits (a command key) */
    game_ops_t declared = mnk_ops;
    declared.move_kind = GAME_MOVE_FROM_TO;
    v = mnk_variant(&declared);
    tui_move_how(&v, pos, line, sizeof line);
    assert_non_null(strstr(line, "a piece, then its target"));
    static const struct { const char *spec, *words; int kind; } games[] = {
        { "connect4:7x6", "a column", GAME_MOVE_DROP },
        { "checkers", "each square it lands on", GAME_MOVE_CHAIN },
        { "chess", "a piece, then its target", GAME_MOVE_FROM_TO },
        { "solitaire", "a piece, then its target", GAME_MOVE_FROM_TO },
    };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        gv_t *g = open_ok(games[i].spec);
        g->ops->pos_start(g, pos);
        assert_int_equal(g->ops->move_kind, games[i].kind);   /* declared by the plugin */
        tui_move_how(g, pos, line, sizeof line);
        if (!strstr(line, games[i].words)) fail_msg("%s: \"%s\"", games[i].spec, line);
        game_close(g);
    }
}

static int three(const gv_t *v) { (void)v; return 3; }

/* A plugin without the new fields: typed by its legal moves' texts, its
 * kind worked out (a placement: move_cells gives no from), nsym from the
 * old field (0 read as 1); with them, they rule. */
static void test_old_plugin_defaults(void **state)
{
    (void)state;
    gv_t v = mnk_variant(&mnk_ops);
    GSW_POSBUF pos[GSW_MAX_POS];
    mnk_start(&v, pos);
    assert_int_equal(game_nsym(&v), 8);
    assert_int_equal(game_move_kind(&v, pos), GAME_MOVE_PLACE);
    assert_int_equal(tui_key_first(&v, pos, 'Z'), TUI_KEY_COMMAND);   /* no move's text begins with Z */
    assert_int_equal(tui_key_continues(&v, pos, "a", 'Z', 0), 0);
    assert_int_equal(tui_key_continues(&v, pos, "a", '1', 0), 1);
    game_ops_t zero = mnk_ops;
    zero.nsym = 0;
    v = mnk_variant(&zero);
    assert_int_equal(game_nsym(&v), 1);
    game_ops_t declared = mnk_ops;
    declared.nsym_of = three;
    declared.move_kind = GAME_MOVE_DROP;
    declared.move_chars = "abcdefghijklmnopZ0123456789";
    v = mnk_variant(&declared);
    assert_int_equal(game_nsym(&v), 3);
    assert_int_equal(game_move_kind(&v, pos), GAME_MOVE_DROP);
    assert_int_equal(tui_key_first(&v, pos, 'Z'), TUI_KEY_MOVE);
    assert_int_equal(tui_key_continues(&v, pos, "a", 'Z', 0), 1);
    assert_int_equal(tui_key_continues(&v, pos, "a", 'Z', 1), 0);   /* strict: the legal texts only */
    /* solitaire's symmetries differ by variant through nsym_of */
    gv_t *s1 = open_ok("solitaire:english"), *s2 = open_ok("solitaire:english,goal=c4");
    assert_ptr_not_equal(s1->ops->nsym_of, NULL);
    assert_int_equal(game_nsym(s1), 8);
    assert_int_equal(game_nsym(s2), 2);
    game_close(s1);
    game_close(s2);
}

/* The variants offered: the default first, then the menu (or the test
 * variants), each once, at most max. */
static void test_variants_offered(void **state)
{
    (void)state;
    const char *names[32];
    int n = game_variants(game_find("connect4"), names, 32);
    assert_int_equal(n, 10);
    assert_string_equal(names[0], "7x6");
    assert_string_equal(names[1], "6x5");
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++) assert_string_not_equal(names[i], names[k]);
    n = game_variants(game_find("solitaire"), names, 32);   /* no menu: the test variants */
    assert_string_equal(names[0], "english");
    assert_string_equal(names[1], "french");
    assert_int_equal(n, 7);
    assert_int_equal(game_variants(game_find("connect4"), names, 3), 3);
    assert_int_equal(game_variants(&mnk_game, names, 32), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_board_letter_types_a_move),
        cmocka_unit_test(test_connect4_wide),
        cmocka_unit_test(test_chess_keys),
        cmocka_unit_test(test_welcome_by_move_kind),
        cmocka_unit_test(test_old_plugin_defaults),
        cmocka_unit_test(test_variants_offered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
