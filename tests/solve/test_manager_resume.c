/* A proof-tree manager run killed (SIGKILL) at random moments and resumed
 * until it finishes stores a tree that is right node by node: every move
 * legal where it stands, every node settled without assumptions agreeing
 * with a fresh alpha-beta solve of its position, and the same results as an
 * uninterrupted run. The position's canonical orientation is its mirror
 * image, where saves once stored moves as played and resumes misread them. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/ab.h"
#include "core/manager.h"
#include "db/cache.h"
#include "db/proofs.h"

static const char *SPEC = "connect4:6x5", *POS = "6";

/* Run gsw proof run; kill it after kill_ms (0: never). Returns the exit
 * status, or -1 when it was killed. */
static int run_gsw(const char *db, int resume, int kill_ms)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("GSW_SAVE_MS", "40", 1);
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        const char *bin = getenv("GSW_BIN");
        execl(bin, bin, "proof", "run", SPEC, POS, "--workers", "1", "--hash", "16", "--db", db,
              resume ? "--resume" : NULL, (char *)NULL);
        _exit(127);
    }
    int status;
    if (kill_ms) {
        struct timespec ts = { kill_ms / 1000, (long)(kill_ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status)) return -1;
    return WEXITSTATUS(status);
}

/* The stored tree for goal g (moves in the position's orientation); 0 if none. */
static int load(const char *db, const gv_t *v, const void *pos, dfpn_goal_t g, manager_t *m, char *state)
{
    cache_t *c;
    err_t err;
    assert_int_equal(cache_open(db, &c, &err), GSW_OK);
    uint8_t key[GSW_MAX_KEY];
    int sym = 0;
    size_t klen = v->ops->pos_key(v, pos, key, &sym);
    assert_int_equal(sym, 1);   /* the point of this test: a mirrored canonical orientation */
    int found = proofs_manager_get(c, v->game->name, v->name, key, klen, g, m, state, 32, &err);
    assert_true(found >= 0);
    if (found) {
        for (int i = 1; i < m->n; i++) m->node[i].move = v->ops->move_sym(v, m->node[i].move, sym, 1);
        assert_int_equal(manager_check(m, v, pos, &err), GSW_OK);
    }
    cache_close(c, &err);
    return found;
}

/* Every node settled by proofs alone agrees with alpha-beta. */
static void check_nodes(const gv_t *v, const void *root, const manager_t *m, tt_t *tt)
{
    const game_ops_t *O = v->ops;
    val_t T = m->goal == DFPN_GOAL_WIN ? 1 : 0;
    int checked = 0;
    for (int i = 0; i < m->n; i++) {
        const mg_node_t *nd = &m->node[i];
        if ((nd->pn != 0 && nd->dn != 0) || manager_assumes(m, i)) continue;
        move_t path[256];
        int np = 0;
        for (int k = i; k > 0; k = m->node[k].parent) path[np++] = m->node[k].move;
        GSW_POSBUF pos[GSW_MAX_POS];
        memcpy(pos, root, O->pos_size);
        while (np > 0) O->play(v, pos, path[--np]);
        ab_options_t o = { .threads = 1, .wdl_only = 1, .no_best = 1 };
        ab_result_t r;
        err_t err;
        assert_int_equal(ab_solve(v, tt, pos, &o, &r, &err), GSW_OK);
        assert_false(r.aborted);
        int proven = nd->attacker ? r.lo >= T : r.hi <= -T;
        int disproven = nd->attacker ? r.hi < T : r.lo > -T;
        if (nd->pn == 0 && !proven) fail_msg("node %d: proven in the tree, alpha-beta says no", i);
        if (nd->dn == 0 && !disproven) fail_msg("node %d: disproven in the tree, alpha-beta says no", i);
        checked++;
    }
    assert_true(checked > 0);
}

static void test_killed_and_resumed(void **st)
{
    (void)st;
    char dir[] = "/tmp/gsw-resume-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/whole.sqlite", dir);
    snprintf(b, sizeof b, "%s/killed.sqlite", dir);
    gv_t *v;
    err_t err;
    assert_int_equal(game_open(SPEC, &v, &err), GSW_OK);
    GSW_POSBUF pos[GSW_MAX_POS];
    assert_int_equal(game_pos_parse(v, POS, pos, &err), GSW_OK);
    assert_int_equal(run_gsw(a, 0, 0), 0);

    unsigned seed = (unsigned)time(NULL);
    if (getenv("GSW_RESUME_SEED")) seed = (unsigned)atoi(getenv("GSW_RESUME_SEED"));
    printf("seed %u (GSW_RESUME_SEED repeats it)\n", seed);
    srand(seed);
    int kills = 0, rc = -1;
    for (int round = 0; round < 40 && rc != 0; round++) {
        rc = run_gsw(b, round > 0, round < 30 ? 60 + rand() % 400 : 0);
        if (rc == -1) {
            kills++;
            manager_t m;
            char state[32];
            for (int g = DFPN_GOAL_WIN; g <= DFPN_GOAL_DRAW; g++)   /* what a kill left is whole */
                if (load(b, v, pos, (dfpn_goal_t)g, &m, state)) manager_free(&m);
        } else {
            assert_int_equal(rc, 0);
        }
    }
    printf("killed %d times before it finished\n", kills);
    assert_true(kills > 0);

    tt_t tt;
    assert_int_equal(tt_init(&tt, 16, &err), GSW_OK);
    for (int g = DFPN_GOAL_WIN; g <= DFPN_GOAL_DRAW; g++) {
        manager_t mw, mk;
        char sw[32] = "", sk[32] = "";
        int fw = load(a, v, pos, (dfpn_goal_t)g, &mw, sw), fk = load(b, v, pos, (dfpn_goal_t)g, &mk, sk);
        assert_int_equal(fw, fk);
        if (!fw) continue;
        assert_string_equal(sw, sk);   /* the same results */
        check_nodes(v, pos, &mw, &tt);
        check_nodes(v, pos, &mk, &tt);
        /* where both trees settled a root child, they agree */
        for (int c = 0; c < mw.node[0].nchildren && mk.node[0].first_child >= 0; c++) {
            const mg_node_t *x = &mw.node[mw.node[0].first_child + c];
            for (int d = 0; d < mk.node[0].nchildren; d++) {
                const mg_node_t *y = &mk.node[mk.node[0].first_child + d];
                if (x->move != y->move || manager_assumes(&mw, mw.node[0].first_child + c)
                    || manager_assumes(&mk, mk.node[0].first_child + d))
                    continue;
                if ((x->pn == 0 && y->dn == 0) || (x->dn == 0 && y->pn == 0)) fail_msg("root child %d differs", (int)x->move);
            }
        }
        manager_free(&mw);
        manager_free(&mk);
    }
    tt_free(&tt);
    game_close(v);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_killed_and_resumed) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
