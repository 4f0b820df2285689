/* Shell command lines (workbench/commands.c) against a session on connect4:4x3 in
 * sync mode (as `gsw shell` runs it) with no cache and a 1 MB table: each
 * line of the input is one session_exec.
 *
 * Kept fast and harmless: the input stops being run once the session's game
 * is anything but Connect Four on at most 12 cells (a solve there takes
 * a millisecond; "analyze" on an empty 4x4 took 100 ms under the sanitizers,
 * 7x6 would take the fuzzer's whole run), and these lines are
 * skipped: "export" (writes files), "load" (reads a record file by any
 * name, /dev/stdin included; fuzz_pdn covers records), "lesson" (lessons
 * are 7x6 and solve for 1.5 s a step; fuzz_lesson covers their files),
 * "tune" (reads a folder of gsw tune's CSV files by any name; their state
 * file has fuzz_evolve_state), and any line naming a board file; and of the lines that start a search
 * (solve, analyze, hint, autoplay, proof, follow) only the first 3 of an
 * input run (each costs tens of milliseconds under the sanitizers). Lines after "quit" are not run. */
#include "tests/fuzz/fuzz_util.h"

#include <ctype.h>

#include "workbench/session.h"

void session_sync_close(session_t *s);

static int small_game(const session_t *s)
{
    int w = 0, h = 0;
    if (strcmp(s->v->game->name, "connect4")) return 0;
    if (sscanf(s->v->name, "%dx%d", &w, &h) != 2) return 0;
    return w * h <= 12;
}

static int word(const char *line, size_t n, const char *w)
{
    return n == strlen(w) && !strncmp(line, w, n);
}

static int skipped(const char *line, int *searches)
{
    while (isspace((unsigned char)*line)) line++;
    size_t n = strcspn(line, " \t");
    if (word(line, n, "export") || word(line, n, "lesson") || word(line, n, "load") || word(line, n, "tune") ||
        fuzz_names_file(line))
        return 1;
    if (word(line, n, "solve") || word(line, n, "analyze") || word(line, n, "hint") || word(line, n, "autoplay")
        || word(line, n, "proof") || word(line, n, "follow"))
        return ++*searches > 3;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once) { setenv("GSW_SEED", "1", 1); once = 1; }
    char *text = fuzz_str(data, size);
    session_t s;
    err_t err;
    if (session_init(&s, "connect4:4x3", "", &err)) { fprintf(stderr, "%s\n", err.msg); abort(); }
    s.sync = 1;
    s.hash_mb = 1;
    /* a line can open a big board and have the computer move there at
       once ("opponent perfect", then "new connect4:" is 7x6): no proof
       runs longer than this */
    s.sync_budget_ms = 200;
    out_t out = { 0 };
    char *save = NULL;
    int searches = 0;
    for (char *line = strtok_r(text, "\n", &save); line && !s.quit; line = strtok_r(NULL, "\n", &save)) {
        if (skipped(line, &searches)) continue;
        out_clear(&out);
        session_exec(&s, line, &out, &err);
        session_poll(&s, &out);
        if (!small_game(&s)) break;
    }
    out_free(&out);
    session_sync_close(&s);
    session_free(&s);
    free(text);
    return 0;
}
