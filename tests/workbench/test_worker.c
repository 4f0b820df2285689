/* The TUI's worker (workbench/worker.h): it owns the analysis it computes
 * and sends small updates tagged with the job's number; the session's copy,
 * built from them alone, ends equal to the analysis the analyst makes on
 * the same position directly. An earlier job's updates carry its number
 * (the session drops them); a job on another game gets its own handle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "workbench/session.h"
#include "workbench/worker.h"

/* The session's side, as the TUI keeps it: the updates of one job applied
 * to its analysis, counted by kind. */
typedef struct pane {
    unsigned job;
    analysis_t *an;
    int ended, finished;
    int moves, heads, foreign;
} pane_t;

static void pane_update(void *ctx, const worker_update_t *u)
{
    pane_t *p = ctx;
    if (u->job != p->job) { p->foreign++; return; }
    if (u->kind == UPD_END) { p->ended = 1; p->finished = u->finished; return; }
    if (u->kind == UPD_MOVE) p->moves++;
    if (u->kind == UPD_HEAD) p->heads++;
    worker_apply(p->an, u);
}

static void pane_wait(worker_t *w, pane_t *p)
{
    for (int k = 0; k < 60000 && !p->ended; k++) {
        worker_take(w, pane_update, p);
        if (!p->ended) usleep(1000);
    }
    assert_true(p->ended);
}

/* An analysis job on session s's position; the game handed over when new. */
static unsigned submit(worker_t *w, session_t *s, gv_t *game, pane_t *p)
{
    static job_t job;
    memset(&job, 0, sizeof job);
    job.kind = JOB_ANALYZE;
    job.task = *session_task(s, s->ply);
    memcpy(job.pos.b, session_pos(s), s->v->ops->pos_size);
    p->an = session_analysis(s, s->ply);
    p->job = worker_submit(w, &job, game, p->an);
    return p->job;
}

/* The same position analysed by the analyst itself, every move proven. */
static analysis_t *direct(session_t *s)
{
    static gsw_flag_t no_stop;
    analyst_t a;
    err_t err;
    analysis_t *an = calloc(1, sizeof *an);
    assert_non_null(an);
    assert_int_equal(analyst_open(&a, s->v, 16, 1, NULL, NULL, &no_stop, &err), GSW_OK);
    const analyst_task_t *t = session_task(s, s->ply);
    analyst_list(s->v, session_pos(s), an);
    assert_int_equal(analyst_root(&a, t, session_pos(s), an, &err), 0);
    for (int i; (i = analyst_next(an)) >= 0;) assert_int_equal(analyst_prove(&a, t, session_pos(s), an, i, &err), 0);
    analyst_close(&a);
    return an;
}

static void test_updates_rebuild_the_analysis(void **state)
{
    (void)state;
    static session_t s;
    static worker_t w;
    err_t err;
    assert_int_equal(session_init(&s, "connect4:5x4", "33", &err), GSW_OK);
    assert_non_null(session_analysis_open(&s, s.ply));
    assert_int_equal(worker_start(&w, "", NULL, 16, 1, &err), GSW_OK);
    gv_t *game;
    assert_int_equal(game_dup(s.v, &game, &err), GSW_OK);
    pane_t p = { 0 };
    unsigned id = submit(&w, &s, game, &p);
    assert_true(id > 0);
    pane_wait(&w, &p);
    assert_true(p.finished);
    analysis_t *got = session_analysis(&s, s.ply), *want = direct(&s);
    assert_true(got->proven);
    assert_int_equal(got->n, want->n);
    for (int i = 0; i < want->n; i++) {   /* each move's value, from its updates alone */
        assert_int_equal(got->mv[i].move, want->mv[i].move);
        assert_int_equal(got->mv[i].state, MV_PROVEN);
        assert_int_equal(got->mv[i].lo, want->mv[i].lo);
        assert_int_equal(got->mv[i].hi, want->mv[i].hi);
    }
    assert_true(got->root_done);
    assert_int_equal(got->root_lo, want->root_lo);
    /* small updates: one move's value each, and a move is sent again only when it changed */
    assert_true(p.moves >= want->n);
    assert_true(p.moves <= 4 * want->n);
    assert_true(p.heads >= 1);
    assert_int_equal(p.foreign, 0);
    free(want);

    /* a second job, on a position played on: the first job's number is not its */
    err_t e2;
    assert_int_equal(session_play_text(&s, "2", &e2), GSW_OK);
    assert_non_null(session_analysis_open(&s, s.ply));
    pane_t q = { 0 };
    unsigned id2 = submit(&w, &s, NULL, &q);   /* (the same game: nothing handed over) */
    assert_true(id2 != id);
    pane_wait(&w, &q);
    assert_true(session_analysis(&s, s.ply)->proven);

    /* a job stopped at once still ends, with its number, not finished */
    session_undo(&s);
    session_play_text(&s, "1", &e2);
    assert_non_null(session_analysis_open(&s, s.ply));
    pane_t r = { 0 };
    submit(&w, &s, NULL, &r);
    worker_cancel(&w);
    pane_wait(&w, &r);

    /* a long job (the empty 7x6 board, no budget) cancelled as soon as it is
       given, before or after the worker starts it: it ends at once, unfinished */
    session_t big;
    assert_int_equal(session_init(&big, "connect4", "", &err), GSW_OK);
    assert_non_null(session_analysis_open(&big, 0));
    gv_t *bg;
    assert_int_equal(game_dup(big.v, &bg, &err), GSW_OK);
    pane_t c = { 0 };
    submit(&w, &big, bg, &c);
    worker_cancel(&w);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pane_wait(&w, &c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_false(c.finished);
    assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 5000);
    session_free(&big);

    /* another game: the worker gets its own handle on it */
    session_t s2;
    assert_int_equal(session_init(&s2, "connect4:4x4", "", &err), GSW_OK);
    assert_non_null(session_analysis_open(&s2, 0));
    assert_int_equal(game_dup(s2.v, &game, &err), GSW_OK);
    pane_t g = { 0 };
    submit(&w, &s2, game, &g);
    pane_wait(&w, &g);
    assert_true(session_analysis(&s2, 0)->proven);
    assert_int_equal(session_analysis(&s2, 0)->root_lo, VAL_DRAW);   /* 4x4 is a draw */
    worker_stop(&w);
    session_free(&s2);
    session_free(&s);
}

/* A session puts a new number on every position it holds: results for a
 * position are known to be for it. */
static void test_position_numbers(void **state)
{
    (void)state;
    static session_t s;
    err_t err;
    assert_int_equal(session_init(&s, "connect4:5x4", "", &err), GSW_OK);
    unsigned start = s.pos_id[0], game = s.game_id;
    assert_int_equal(session_play_text(&s, "3", &err), GSW_OK);
    unsigned after3 = s.pos_id[1];
    assert_true(after3 != start);
    session_undo(&s);
    assert_int_equal(session_play_text(&s, "3", &err), GSW_OK);   /* the redo line's move: the same position */
    assert_int_equal(s.pos_id[1], after3);
    session_undo(&s);
    assert_int_equal(session_play_text(&s, "2", &err), GSW_OK);   /* another move: another position */
    assert_true(s.pos_id[1] != after3);
    assert_int_equal(session_new(&s, "connect4:5x4", "", &err), GSW_OK);
    assert_true(s.pos_id[0] != start);
    assert_true(s.game_id != game);
    session_free(&s);
}

/* lines N: a move searched again for longer (analyst_deepen, as the
 * worker does for the N best after the first pass) gets a deeper score and
 * line; a proven move is left as it is. */
static void test_deepen_lines(void **state)
{
    (void)state;
    static session_t s;
    static gsw_flag_t no_stop;
    analyst_t a;
    err_t err;
    assert_int_equal(session_init(&s, "chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", &err),
                     GSW_OK);
    analysis_t *an = session_analysis_open(&s, 0);
    assert_non_null(an);
    assert_int_equal(analyst_open(&a, s.v, 16, 1, NULL, NULL, &no_stop, &err), GSW_OK);
    const analyst_task_t *t = session_task(&s, 0);
    assert_int_equal(analyst_heuristic(&a, t, session_pos(&s), an, 20, &err), GSW_OK);   /* a ms or so a move */
    int order[GSW_MAX_MOVES], best = -1;
    move_values_order(an->mv, an->n, order);
    for (int r = 0; r < an->n && best < 0; r++)
        if (an->mv[order[r]].state == MV_HEURISTIC) best = order[r];
    assert_true(best >= 0);
    int shallow = an->mv[best].depth;
    assert_int_equal(analyst_deepen(&a, t, session_pos(&s), an, best, 400, &err), GSW_OK);
    assert_true(an->mv[best].depth > shallow);
    assert_true(an->mv[best].npv >= 2 && an->mv[best].pv[0] == an->mv[best].move);
    analyst_close(&a);
    session_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_updates_rebuild_the_analysis),
        cmocka_unit_test(test_position_numbers),
        cmocka_unit_test(test_deepen_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
