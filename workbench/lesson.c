/* Lesson files (see lesson.h): "key: value" lines, steps opened by "step:",
 * '#' comments. Checked whole when loaded, so a broken lesson says where. */
#include "workbench/lesson.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/game.h"

#ifndef GSW_SOURCE_DIR
#define GSW_SOURCE_DIR "."
#endif
#ifndef GSW_SHARE_DIR
#define GSW_SHARE_DIR "/usr/local/share/gsw"
#endif

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
    return s;
}

static int append(char **dst, const char *line)
{
    size_t a = *dst ? strlen(*dst) : 0, b = strlen(line);
    char *p = realloc(*dst, a + b + 2);
    if (!p) return -1;
    if (a) p[a++] = '\n';
    memcpy(p + a, line, b + 1);
    *dst = p;
    return 0;
}

/* "W41", "D", "L", "win in 12" -> outcome and plies. */
static int parse_value(const char *t, lesson_value_t *v)
{
    v->plies = -1;
    switch (t[0]) {
    case 'W': case 'w': v->outcome = OUTCOME_WIN; break;
    case 'D': case 'd': v->outcome = OUTCOME_DRAW; break;
    case 'L': case 'l': v->outcome = OUTCOME_LOSS; break;
    default: return -1;
    }
    if (t[1]) {
        char *end;
        long p = strtol(t + 1, &end, 10);
        if (*end || p < 0 || p > VAL_MAX_PLIES) return -1;
        v->plies = (int)p;
    }
    return 0;
}

void lesson_free(lesson_t *l)
{
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) { free(l->steps[i].say); free(l->steps[i].right); }
    free(l->steps);
    free(l);
}

/* Every step's position parses and its moves are legal. */
static int lesson_check(lesson_t *l, const char *path, err_t *err)
{
    gv_t *v;
    err_t e;
    int rc = GSW_OK;
    GSW_POSBUF pos[GSW_MAX_POS];
    for (int i = 0; i < l->nsteps && !rc; i++) {
        lesson_step_t *st = &l->steps[i];
        move_t m;
        if (game_open(lesson_step_game(l, i), &v, &e))
            return err_set(err, GSW_EINPUT, "%s:%d: %s", path, st->game[0] ? st->line : 1, e.msg);
        if (game_pos_parse(v, st->position, pos, &e)) {
            rc = err_set(err, GSW_EINPUT, "%s:%d: %s", path, st->line, e.msg);
            game_close(v);
            break;
        }
        for (int k = 0; k < st->nexpect && !rc; k++)
            if (v->ops->move_parse(v, pos, st->expect[k], &m, &e))
                rc = err_set(err, GSW_EINPUT, "%s:%d: expected move: %s", path, st->line, e.msg);
        for (int k = 0; k < st->nvalues && !rc; k++)
            if (v->ops->move_parse(v, pos, st->values[k].move, &m, &e))
                rc = err_set(err, GSW_EINPUT, "%s:%d: valued move: %s", path, st->line, e.msg);
        game_close(v);
    }
    return rc;
}

const char *lesson_step_game(const lesson_t *l, int i)
{
    return l->steps[i].game[0] ? l->steps[i].game : l->game;
}

int lesson_load(const char *path, lesson_t **out, err_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f) return err_set(err, GSW_EINPUT, "cannot open lesson %s", path);
    lesson_t *l = calloc(1, sizeof *l);
    if (!l) { fclose(f); return err_set(err, GSW_EFAIL, "out of memory"); }
    const char *base = strrchr(path, '/');
    snprintf(l->name, sizeof l->name, "%s", base ? base + 1 : path);
    char *dot = strstr(l->name, ".lesson");
    if (dot) *dot = 0;
    char line[1024];
    int lineno = 0, rc = GSW_OK;
    lesson_step_t *st = NULL;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *colon = strchr(s, ':');
        if (!colon) { rc = err_set(err, GSW_EINPUT, "%s:%d: expected \"key: value\"", path, lineno); break; }
        *colon = 0;
        char *key = trim(s), *val = trim(colon + 1);
        if (!strcmp(key, "title")) snprintf(l->title, sizeof l->title, "%s", val);
        else if (!strcmp(key, "game")) snprintf(st ? st->game : l->game, sizeof l->game, "%s", val);
        else if (!strcmp(key, "about")) snprintf(l->about, sizeof l->about, "%s", val);
        else if (!strcmp(key, "step")) {
            lesson_step_t *ns = realloc(l->steps, (size_t)(l->nsteps + 1) * sizeof *ns);
            if (!ns) { rc = err_set(err, GSW_EFAIL, "out of memory"); break; }
            l->steps = ns;
            st = &l->steps[l->nsteps++];
            memset(st, 0, sizeof *st);
            snprintf(st->title, sizeof st->title, "%s", val);
            st->line = lineno;
        } else if (!st) {
            rc = err_set(err, GSW_EINPUT, "%s:%d: \"%s\" before the first step", path, lineno, key);
        } else if (!strcmp(key, "position")) {
            snprintf(st->position, sizeof st->position, "%s", strcmp(val, "startpos") ? val : "");
        } else if (!strcmp(key, "say")) {
            if (append(&st->say, val)) rc = err_set(err, GSW_EFAIL, "out of memory");
        } else if (!strcmp(key, "right")) {
            if (append(&st->right, val)) rc = err_set(err, GSW_EFAIL, "out of memory");
        } else if (!strcmp(key, "expect")) {
            char *save, *tok;
            for (tok = strtok_r(val, " ,", &save); tok && !rc; tok = strtok_r(NULL, " ,", &save)) {
                if (st->nexpect == LESSON_MAX_EXPECT) rc = err_set(err, GSW_EINPUT, "%s:%d: too many moves", path, lineno);
                else snprintf(st->expect[st->nexpect++], sizeof st->expect[0], "%s", tok);
            }
        } else if (!strcmp(key, "values")) {
            char *save, *tok;
            for (tok = strtok_r(val, " ", &save); tok && !rc; tok = strtok_r(NULL, " ", &save)) {
                char *eq = strchr(tok, '=');
                lesson_value_t lv;
                if (!eq || eq == tok || parse_value(eq + 1, &lv)) {
                    rc = err_set(err, GSW_EINPUT, "%s:%d: bad value \"%s\" (expected MOVE=W|D|L[PLIES])", path,
                                 lineno, tok);
                    break;
                }
                *eq = 0;
                snprintf(lv.move, sizeof lv.move, "%s", tok);
                if (st->nvalues == LESSON_MAX_VALUES) rc = err_set(err, GSW_EINPUT, "%s:%d: too many values", path, lineno);
                else st->values[st->nvalues++] = lv;
            }
        } else {
            rc = err_set(err, GSW_EINPUT, "%s:%d: unknown key \"%s\"", path, lineno, key);
        }
    }
    fclose(f);
    if (!rc && !l->game[0]) rc = err_set(err, GSW_EINPUT, "%s: no \"game:\" line", path);
    if (!rc && !l->nsteps) rc = err_set(err, GSW_EINPUT, "%s: no steps", path);
    if (!rc && !l->title[0]) snprintf(l->title, sizeof l->title, "%s", l->name);
    if (!rc) rc = lesson_check(l, path, err);
    if (rc) { lesson_free(l); return rc; }
    *out = l;
    return GSW_OK;
}

const char *lesson_dir(void)
{
    static char dir[1024];
    const char *env = getenv("GSW_LESSONS");
    struct stat sb;
    if (env && *env) snprintf(dir, sizeof dir, "%s", env);
    else if (stat(GSW_SOURCE_DIR "/lessons", &sb) == 0 && S_ISDIR(sb.st_mode)) snprintf(dir, sizeof dir, "%s", GSW_SOURCE_DIR "/lessons");
    else snprintf(dir, sizeof dir, "%s", GSW_SHARE_DIR "/lessons");
    return dir;
}

int lesson_find(const char *name, char *path, size_t n, err_t *err)
{
    struct stat sb;
    if (strchr(name, '/')) snprintf(path, n, "%s", name);
    else if (strstr(name, ".lesson")) snprintf(path, n, "%s/%s", lesson_dir(), name);
    else snprintf(path, n, "%s/%s.lesson", lesson_dir(), name);
    if (stat(path, &sb) || !S_ISREG(sb.st_mode))
        return err_set(err, GSW_EINPUT, "no lesson \"%s\" (gsw lesson lists them)", name);
    return GSW_OK;
}

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

int lesson_list(char names[][64], char titles[][128], int max)
{
    DIR *d = opendir(lesson_dir());
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 8 || len >= 64 || strcmp(e->d_name + len - 7, ".lesson")) continue;
        snprintf(names[n], 64, "%.*s", (int)(len - 7), e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, 64, cmp_name);
    for (int i = 0; i < n; i++) {
        char path[1200];
        lesson_t *l;
        err_t err;
        snprintf(path, sizeof path, "%s/%s.lesson", lesson_dir(), names[i]);
        if (lesson_load(path, &l, &err)) snprintf(titles[i], 128, "(broken: %.100s)", err.msg);
        else { snprintf(titles[i], 128, "%s", l->title); lesson_free(l); }
    }
    return n;
}

const lesson_value_t *lesson_value(const lesson_step_t *st, const char *move)
{
    for (int i = 0; i < st->nvalues; i++)
        if (!strcmp(st->values[i].move, move)) return &st->values[i];
    return NULL;
}
