/* The checker's own Connect Four rules (check/c4.c) against gsw's: over
 * random games on boards of every engine (7x6, one word, two words), the
 * position text gsw writes, the legal moves, the end of the game and its
 * value agree at every ply, and the text reads back to the same position.
 * (gsw-check --perft against gsw perft is test_check.sh's.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/cert.h"
#include "check/rules.h"
#include "core/game.h"

static void one_board(const char *spec, int w, int h, int games)
{
    gv_t *v;
    err_t err;
    rules_t r;
    assert_int_equal(game_open(spec, &v, &err), GSW_OK);
    assert_int_equal(c4_open(w, h, &r, &err), GSW_OK);
    unsigned seed = 12345;
    for (int g = 0; g < games; g++) {
        GSW_POSBUF a[GSW_MAX_POS], b[GSW_MAX_POS], c[GSW_MAX_POS];
        v->ops->pos_start(v, a);
        assert_int_equal(r.parse(&r, "", b, &err), GSW_OK);
        for (;;) {
            char ta[1024], tb[1024];
            v->ops->pos_format(v, a, ta, sizeof ta);
            r.format(&r, b, tb, sizeof tb);
            assert_string_equal(ta, tb);
            assert_int_equal(r.parse(&r, tb, c, &err), GSW_OK);
            r.format(&r, c, tb, sizeof tb);
            assert_string_equal(ta, tb);
            move_t ma[GSW_MAX_MOVES], mb[GSW_MAX_MOVES];
            int na = v->ops->moves(v, a, ma), nb = r.moves(&r, b, mb);
            val_t va;
            int32_t vb;
            int oa = v->ops->terminal(v, a, &va), ob = r.over(&r, b, &vb);
            assert_int_equal(oa, ob);
            if (oa) {
                assert_int_equal(na, 0);
                assert_int_equal(vb, va == 0 ? 0 : -CV_WIN);
                break;
            }
            assert_int_equal(na, nb);
            for (int i = 0; i < na; i++) {
                int found = 0;
                for (int k = 0; k < nb; k++) found |= ma[i] == mb[k];
                assert_true(found);
            }
            seed = seed * 1103515245u + 12345u;
            move_t m = ma[(seed >> 16) % (unsigned)na];
            v->ops->play(v, a, m);
            r.play(&r, b, m);
        }
    }
    game_close(v);
}

static void test_boards(void **state)
{
    (void)state;
    one_board("connect4:7x6", 7, 6, 200);
    one_board("connect4:4x4", 4, 4, 300);
    one_board("connect4:5x4", 5, 4, 300);
    one_board("connect4:10x5", 10, 5, 50);
    one_board("connect4:12x8", 12, 8, 20);
    one_board("connect4:3x3", 3, 3, 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_boards) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
