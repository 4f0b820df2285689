/* The analysis pane's latency: for each position, the time from handing
 * the TUI's worker an analysis job to its first move value (a heuristic
 * score or a proof) and to its last (the job ends: every move settled or
 * the budget spent). No cache; the positions' analyses as the workbench
 * would ask for them. Usage: bench_pane_time [CAP_MS] (default 20000: a
 * job still running then is stopped and reported as such). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workbench/session.h"
#include "workbench/worker.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *const cases[][2] = {
    { "connect4:5x4", "" },
    { "connect4", "4453" },
    { "connect4:6x5", "334" },
    { "solitaire:triangle", "" },
    { "solitaire:english", "" },
    { "solitaire:french", "" },
    { "checkers", "B:W20,27,28:B12,21,K22" },
    { "checkers", "W:W27,K18:BK3" },
    { "checkers", "W:WK18:BK3" },
    { "chess", "7k/8/5K2/8/8/8/8/Q7 w - - 0 1" },
    { "chess", "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16" },
    { "chess", "8/8/8/7k/5K2/8/3P4/8 w - - 0 60" },
};

static int any_value(const analysis_t *an)
{
    for (int i = 0; i < an->n; i++)
        if (an->mv[i].state != MV_UNKNOWN) return 1;
    return an->n == 0;
}

/* The session's side of the worker: its updates applied to the analysis
 * shown, as the TUI does. */
typedef struct pane {
    unsigned job;
    analysis_t *an;
    int ended;
} pane_t;

static void pane_update(void *ctx, const worker_update_t *u)
{
    pane_t *p = ctx;
    if (u->job != p->job) return;
    if (u->kind == UPD_END) p->ended = 1;
    else worker_apply(p->an, u);
}

int main(int argc, char **argv)
{
    double cap = argc > 1 ? atof(argv[1]) : 20000;
    err_t err;
    static worker_t w;
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    if (worker_start(&w, "", NULL, 128, nc > 0 ? (int)nc : 1, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    printf("%-20s %-58s %10s %10s %s\n", "game", "position", "first ms", "last ms", "moves proven");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        static session_t s;
        if (session_init(&s, cases[c][0], cases[c][1], &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
        analysis_t *an = session_analysis_open(&s, 0);
        static job_t job;
        memset(&job, 0, sizeof job);
        job.kind = JOB_ANALYZE;
        job.task = *session_task(&s, 0);
        memcpy(job.pos.b, s.pos[0].b, s.v->ops->pos_size);
        gv_t *game;
        if (game_dup(s.v, &game, &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
        double t0 = now_ms(), first = -1, last = -1;
        int stopped = 0, proven = 0, n = an->n;
        pane_t pane = { .an = an };
        pane.job = worker_submit(&w, &job, game, an);
        for (;;) {
            usleep(500);
            double t = now_ms() - t0;
            worker_take(&w, pane_update, &pane);
            if (first < 0 && any_value(an)) first = t;
            if (pane.ended) { last = t; break; }
            if (t > cap && !stopped) { worker_cancel(&w); stopped = 1; }
        }
        for (int i = 0; i < an->n; i++) proven += an->mv[i].state == MV_PROVEN;
        printf("%-20s %-58s %10.1f %10.1f %d/%d%s\n", cases[c][0], cases[c][1][0] ? cases[c][1] : "(start)", first,
               last, proven, n, stopped ? " (stopped at the cap)" : "");
        fflush(stdout);
        session_free(&s);
    }
    worker_stop(&w);
    return 0;
}
