/* Completion and history for readline (see complete.h). */
#include "workbench/complete.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "db/cache.h"

static session_t *complete_session;

static int add(char ***v, int *n, int *cap, const char *text, const char *cand)
{
    if (strncmp(cand, text, strlen(text))) return 0;
    for (int i = 0; i < *n; i++)
        if (!strcmp((*v)[i], cand)) return 0;
    if (*n + 2 > *cap) {
        int nc = *cap ? *cap * 2 : 32;
        char **nv = realloc(*v, (size_t)nc * sizeof *nv);
        if (!nv) return -1;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = strdup(cand);
    (*v)[*n] = NULL;
    return 0;
}

char **complete_candidates(session_t *s, const char *line, int word, const char *text)
{
    char **v = NULL;
    int n = 0, cap = 0;
    char first[32] = "";
    sscanf(line, "%31s", first);
    int moves = word == 0 || (word == 1 && !strcmp(first, "move"));
    if (word == 0)
        for (int i = 0; session_commands[i]; i++) add(&v, &n, &cap, text, session_commands[i]);
    if (word == 1 && !strcmp(first, "new"))
        for (int g = 0; gsw_games[g]; g++) {
            char spec[96];
            add(&v, &n, &cap, text, gsw_games[g]->name);
            snprintf(spec, sizeof spec, "%s:%s", gsw_games[g]->name, gsw_games[g]->default_variant);
            add(&v, &n, &cap, text, spec);
            for (int k = 0; gsw_games[g]->test_variants && gsw_games[g]->test_variants[k]; k++) {
                snprintf(spec, sizeof spec, "%s:%s", gsw_games[g]->name, gsw_games[g]->test_variants[k]);
                add(&v, &n, &cap, text, spec);
            }
        }
    if (word == 1 && !strcmp(first, "opponent")) {
        static const char *const o[] = { "perfect", "imperfect:", "giveback:", "heuristic:", "human", NULL };
        for (int i = 0; o[i]; i++) add(&v, &n, &cap, text, o[i]);
    }
    if (word == 1 && !strcmp(first, "side")) {
        static const char *const o[] = { "first", "second", "both", "none", NULL };
        for (int i = 0; o[i]; i++) add(&v, &n, &cap, text, o[i]);
    }
    if (word == 1 && !strcmp(first, "lesson")) {
        static char names[64][64], titles[64][128];
        int k = lesson_list(names, titles, 64);
        for (int i = 0; i < k; i++) add(&v, &n, &cap, text, names[i]);
    }
    if (word == 1 && (!strcmp(first, "help")))
        for (int i = 0; session_commands[i]; i++) add(&v, &n, &cap, text, session_commands[i]);
    if (moves && s && s->v) {
        move_t mv[GSW_MAX_MOVES];
        int k = s->v->ops->moves(s->v, session_pos(s), mv);
        for (int i = 0; i < k; i++) {
            char mt[64];
            s->v->ops->move_format(s->v, session_pos(s), mv[i], mt, sizeof mt);
            add(&v, &n, &cap, text, mt);
        }
    }
    return v;
}

static char **complete_rl(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;
    int word = 0;   /* words before the one being completed */
    for (int i = 0, in = 0; i < start; i++) {
        int sp = rl_line_buffer[i] == ' ';
        if (!sp && !in) word++;
        in = !sp;
    }
    char **c = complete_candidates(complete_session, rl_line_buffer, word, text);
    if (!c) return NULL;
    int n = 0;
    while (c[n]) n++;
    /* readline wants [common prefix, candidates..., NULL] */
    char **r = malloc((size_t)(n + 2) * sizeof *r);
    if (!r) { for (int i = 0; i < n; i++) free(c[i]); free(c); return NULL; }
    size_t common = strlen(c[0]);
    for (int i = 1; i < n; i++) {
        size_t k = 0;
        while (k < common && c[i][k] == c[0][k]) k++;
        common = k;
    }
    r[0] = strndup(c[0], common);
    for (int i = 0; i < n; i++) r[i + 1] = n == 1 ? NULL : c[i];
    if (n == 1) { free(r[0]); r[0] = c[0]; }
    r[n == 1 ? 1 : n + 1] = NULL;
    free(c);
    return r;
}

void complete_install(session_t *s)
{
    complete_session = s;
    rl_attempted_completion_function = complete_rl;
    rl_readline_name = "gsw";
}

static int history_path(char *buf, size_t n)
{
    err_t err;
    char p[1024];
    const char *env = getenv("GSW_HISTORY");
    if (env) { snprintf(buf, n, "%s", env); return *env ? 0 : -1; }
    if (cache_default_path(p, sizeof p, &err)) return -1;
    char *slash = strrchr(p, '/');
    if (!slash) return -1;
    *slash = 0;
    snprintf(buf, n, "%s/history", p);
    return 0;
}

void complete_history_load(void)
{
    char p[1100];
    using_history();
    stifle_history(1000);
    if (!history_path(p, sizeof p)) read_history(p);
}

void complete_history_save(void)
{
    char p[1100];
    if (!history_path(p, sizeof p)) write_history(p);
}
