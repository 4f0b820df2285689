/* The self-test every plugin gets for free: for each registered game and
 * each of its test variants (gsw_games and game_t.test_variants: a game
 * added to the registry is covered with no line here; each variant is
 * named as it runs), random playouts check play/undo against copies,
 * position text round trips, move text round trips, canonical keys equal
 * across symmetric positions, and hash consistency; and on each game's
 * board the arrow keys (core/board_nav.h) reach every square a move starts,
 * passes or ends on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/board_nav.h"
#include "core/game.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static int keys_equal(const gv_t *v, const void *a, const void *b)
{
    uint8_t ka[GSW_MAX_KEY], kb[GSW_MAX_KEY];
    size_t la = v->ops->pos_key(v, a, ka, NULL), lb = v->ops->pos_key(v, b, kb, NULL);
    return la == lb && !memcmp(ka, kb, la);
}

/* One random game: every step checks the invariants. */
static void playout(const gv_t *v)
{
    const game_ops_t *O = v->ops;
    GSW_POSBUF pos[GSW_MAX_POS], copy[GSW_MAX_POS], back[GSW_MAX_POS], sympos[GSW_MAX_POS];
    move_t mv[GSW_MAX_MOVES], hist[1024];
    int nsym = game_nsym(v), sym = nsym > 1 ? 1 + (int)(rng() % (unsigned)(nsym - 1)) : 0;
    O->pos_start(v, pos);
    O->pos_start(v, sympos);
    int ply = 0;
    for (;;) {
        /* position text round trip */
        char text[4096];
        err_t err;
        O->pos_format(v, pos, text, sizeof text);
        assert_int_equal(game_pos_parse(v, text, back, &err), GSW_OK);
        assert_true(keys_equal(v, pos, back));
        assert_true(O->pos_hash(v, pos) == O->pos_hash(v, back));
        assert_int_equal(O->pos_ply(v, pos), ply);
        assert_int_equal(O->pos_turn(v, pos), O->pos_turn(v, back));
        if (O->pos_from_key) {   /* the key decodes to the position in the key's orientation */
            uint8_t key[GSW_MAX_KEY], key2[GSW_MAX_KEY];
            GSW_POSBUF dec[GSW_MAX_POS];
            size_t kl = O->pos_key(v, pos, key, NULL);
            assert_int_equal(O->pos_from_key(v, key, kl, dec), 1);
            assert_int_equal(O->pos_key(v, dec, key2, NULL), kl);
            assert_memory_equal(key, key2, kl);
            /* the ply where the key can carry it (the text form does): a
             * checkers position does not know how it was reached */
            if (O->pos_ply(v, back) == ply) assert_int_equal(O->pos_ply(v, dec), ply);
            assert_int_equal(O->pos_turn(v, dec), O->pos_turn(v, pos));
            val_t t1, t2;
            assert_int_equal(O->terminal(v, dec, &t1), O->terminal(v, pos, &t2));
            key[rng() % kl] ^= (uint8_t)(1u << (rng() % 8));   /* a flipped bit: refused, or a whole position */
            if (O->pos_from_key(v, key, kl, dec)) {
                assert_int_equal(O->pos_key(v, dec, key2, NULL), kl);
                assert_memory_equal(key, key2, kl);
            }
        }
        /* the symmetric twin has the same canonical key */
        if (sym) assert_true(keys_equal(v, pos, sympos));
        if (O->tt_key) {   /* a function of the position alone */
            int s1 = 1, s2 = 1;
            assert_true(O->tt_key(v, pos, &s1) == O->tt_key(v, back, &s2));
            assert_int_equal(s1, s2);
        }
        /* a game whose positions can repeat may never end (kings shuffling) */
        if (O->repetition && ply >= 1000) break;
        int n = O->moves(v, pos, mv);
        val_t tv;
        int term = O->terminal(v, pos, &tv);
        /* no move ends the game; a game may also end with moves left by
         * a rule of the position (chess: a dead position), then drawn */
        if (n == 0) assert_true(term);
        if (term && n) assert_int_equal(tv, VAL_DRAW);
        if (term) break;
        assert_true(n <= GSW_MAX_MOVES);
        move_t m = mv[rng() % (unsigned)n];
        /* move text round trip */
        char mt[64];
        move_t m2;
        O->move_format(v, pos, m, mt, sizeof mt);
        assert_int_equal(O->move_parse(v, pos, mt, &m2, &err), GSW_OK);
        assert_true(m == m2);
        /* the board view: every move starts on a piece and ends on a board cell */
        static board_view_t view;
        int from = -2, to = -2;
        if (O->view) {
            assert_non_null(O->move_cells);
            O->view(v, pos, &view);
            assert_true(view.rows > 0 && view.cols > 0 && view.rows <= GSW_VIEW_MAX_SIDE
                        && view.cols <= GSW_VIEW_MAX_SIDE && view.rows * view.cols <= GSW_VIEW_MAX_CELLS);
            O->move_cells(v, pos, m, &from, &to);
            assert_true(from >= -1 && from < view.rows * view.cols);
            assert_true(to >= 0 && to < view.rows * view.cols);
            if (from >= 0) assert_int_equal(view.cell[from].kind, VIEW_PIECE);
            assert_int_not_equal(view.cell[to].kind, VIEW_OFF);
        }
        memcpy(copy, pos, O->pos_size);
        O->play(v, pos, m);
        if (O->view) {   /* ... where a piece now stands */
            O->view(v, pos, &view);
            assert_int_equal(view.cell[to].kind, VIEW_PIECE);
            if (view.cell[to].owner < 2) assert_int_equal(view.cell[to].owner, O->pos_turn(v, copy));
        }
        if (O->undo) {   /* undo restores the copy exactly */
            memcpy(back, pos, O->pos_size);
            O->undo(v, back, m);
            assert_memory_equal(back, copy, O->pos_size);
            assert_true(O->pos_hash(v, back) == O->pos_hash(v, copy));
        }
        if (sym) O->play(v, sympos, O->move_sym(v, m, sym, 0));
        assert_true(ply < 1024);
        hist[ply++] = m;
    }
    /* replaying the history reaches the same position */
    O->pos_start(v, back);
    for (int i = 0; i < ply; i++) O->play(v, back, hist[i]);
    assert_memory_equal(back, pos, O->pos_size);
}

static void test_every_game(void **state)
{
    (void)state;
    int variants = 0;
    for (int g = 0; gsw_games[g]; g++) {
        const game_t *game = gsw_games[g];
        assert_non_null(game->test_variants);
        for (int i = 0; game->test_variants[i]; i++) {
            char spec[128];
            snprintf(spec, sizeof spec, "%s:%s", game->name, game->test_variants[i]);
            gv_t *v;
            err_t err;
            assert_int_equal(game_open(spec, &v, &err), GSW_OK);
            assert_true(v->ops->pos_size <= GSW_MAX_POS);
            printf("[ variant  ] %s\n", spec);   /* the games covered (test_add_game.sh reads them) */
            fflush(stdout);
            for (int k = 0; k < 300; k++) playout(v);
            game_close(v);
            variants++;
        }
    }
    assert_true(variants > 0);
}

/* The arrow keys alone, from the cell the cursor starts on, reach every
 * cell a legal move of pos starts on, lands on or ends on (a move's path
 * as the workbench enters it: move_path, else move_cells): a breadth-first
 * search over the four directions of board_nav_move, as the TUI's keys. */
static void arrows_reach_moves(const gv_t *v, const void *pos, const char *spec)
{
    const game_ops_t *O = v->ops;
    if (!O->view) return;
    static board_view_t view;
    O->view(v, pos, &view);
    int ncells = view.rows * view.cols;
    static char seen[GSW_VIEW_MAX_CELLS];
    static int queue[GSW_VIEW_MAX_CELLS];
    memset(seen, 0, sizeof seen);
    int head = 0, tail = 0, start = board_nav_first(&view);
    assert_true(start >= 0 && start < ncells);
    assert_int_not_equal(view.cell[start].kind, VIEW_OFF);
    seen[start] = 1;
    queue[tail++] = start;
    static const int dir[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
    while (head < tail) {
        int cell = queue[head++];
        for (int d = 0; d < 4; d++) {
            int r = cell / view.cols, c = cell % view.cols;
            int moved = board_nav_move(&view, &r, &c, dir[d][0], dir[d][1]);
            int to = r * view.cols + c;
            if (!moved) { assert_int_equal(to, cell); continue; }   /* the edge: it stays put */
            assert_true(to >= 0 && to < ncells);
            assert_int_not_equal(view.cell[to].kind, VIEW_OFF);
            if (!seen[to]) { seen[to] = 1; queue[tail++] = to; }
        }
    }
    move_t mv[GSW_MAX_MOVES];
    int n = O->moves(v, pos, mv);
    for (int i = 0; i < n; i++) {
        int cells[16], nc;
        if (O->move_path) {
            nc = O->move_path(v, pos, mv[i], cells, 16);
        } else {
            O->move_cells(v, pos, mv[i], &cells[0], &cells[1]);
            nc = 2;
        }
        for (int k = 0; k < nc; k++) {
            if (cells[k] < 0) continue;   /* a placement starts nowhere */
            assert_true(cells[k] < ncells);
            if (!seen[cells[k]]) {
                char mt[64];
                O->move_format(v, pos, mv[i], mt, sizeof mt);
                fail_msg("%s: the arrow keys never reach cell %d (row %d, column %d, square \"%s\") of the move %s",
                         spec, cells[k], cells[k] / view.cols, cells[k] % view.cols, view.cell[cells[k]].name, mt);
            }
        }
    }
}

/* Every game's default variant and test variants: the start position and
 * the positions of a few random games. */
static void test_arrows_reach_every_move(void **state)
{
    (void)state;
    int boards = 0;
    for (int g = 0; gsw_games[g]; g++) {
        const game_t *game = gsw_games[g];
        for (int i = -1; i < 0 || game->test_variants[i]; i++) {
            char spec[128];
            if (i < 0) snprintf(spec, sizeof spec, "%s", game->name);   /* the default variant */
            else snprintf(spec, sizeof spec, "%s:%s", game->name, game->test_variants[i]);
            gv_t *v;
            err_t err;
            assert_int_equal(game_open(spec, &v, &err), GSW_OK);
            if (!v->ops->view) { game_close(v); continue; }
            GSW_POSBUF pos[GSW_MAX_POS];
            move_t mv[GSW_MAX_MOVES];
            v->ops->pos_start(v, pos);
            arrows_reach_moves(v, pos, spec);
            boards++;
            for (int k = 0; k < 3; k++) {
                v->ops->pos_start(v, pos);
                for (int ply = 0; ply < 200; ply++) {
                    val_t tv;
                    int n = v->ops->moves(v, pos, mv);
                    if (n == 0 || v->ops->terminal(v, pos, &tv)) break;
                    v->ops->play(v, pos, mv[rng() % (unsigned)n]);
                    arrows_reach_moves(v, pos, spec);
                }
            }
            game_close(v);
        }
    }
    assert_true(boards > 0);
}

static void test_bad_specs(void **state)
{
    (void)state;
    gv_t *v;
    err_t err;
    assert_int_equal(game_open("nosuchgame", &v, &err), GSW_EINPUT);
    assert_non_null(strstr(err.msg, "nosuchgame"));
    for (int g = 0; gsw_games[g]; g++) {
        char spec[128];
        snprintf(spec, sizeof spec, "%s:no-such-variant", gsw_games[g]->name);
        assert_int_equal(game_open(spec, &v, &err), GSW_EINPUT);
        assert_non_null(strstr(err.msg, "no-such-variant"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game),
        cmocka_unit_test(test_arrows_reach_every_move),
        cmocka_unit_test(test_bad_specs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
