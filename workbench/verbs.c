/* The workbench's verbs: play (the TUI), shell (its commands in a readline
 * shell or from a script) and lesson. */
#include "workbench/verbs.h"

#include <stdio.h>
#include <string.h>

#include "cli/json.h"
#include "cli/opts.h"
#include "workbench/lesson.h"
#include "workbench/shell.h"
#include "workbench/tui.h"

/* Where --json does not apply. */
static const char *json_na_play(const cli_opts_t *o)
{
    (void)o;
    return "it opens the workbench, which draws on the terminal";
}

static const char *json_na_shell(const cli_opts_t *o)
{
    (void)o;
    return "it runs the workbench's commands, which print text";
}

static const char *json_na_lesson(const cli_opts_t *o)
{
    return o->npos ? "a lesson opens in the workbench (gsw lesson --json lists the lessons)" : NULL;
}

/* gsw lesson: the list as JSON here; the rest is the workbench's. */
static int wb_lessons(cli_opts_t *o)
{
    if (!o->json || o->npos) return tui_lesson(o);
    static char names[64][64], titles[64][128];
    int n = lesson_list(names, titles, 64);
    json_t j;
    json_begin(&j, stdout);
    json_str(&j, "dir", lesson_dir());
    json_arr(&j, "lessons");
    for (int i = 0; i < n; i++) {
        json_obj(&j, NULL);
        json_str(&j, "name", names[i]);
        json_str(&j, "title", titles[i]);
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_end(&j);
    return GSW_OK;
}


const cli_verb_t verb_play = {
    "play", "gsw play [GAME[:VARIANT] [POSITION]] [--opponent perfect[:MS]|imperfect:P|giveback:N|heuristic:L|human] "
      "[--time MS] [--side first|second|both|none] [--ascii] [--mono] [--file RECORD [--game N]] [--dir DIR]\n"
      "  opponents: perfect[:MS]  the proven best move (cache, database, tablebase, book, or a proof within\n"
      "                           MS ms), else the engine's move (default 3000; --time MS sets it too)\n"
      "             imperfect:P   the best move P% of the time, else a random one (engine move without a proof)\n"
      "             giveback:N    perfect, but gives the outcome away N times\n"
      "             heuristic:L   the engine alone, level L 1-9 (its search depth and time)\n"
      "             human         no computer: people play both sides" OPTS_EGDB_DIR_HELP,
      "open the workbench (TUI) on a game; gsw alone opens its game picker", tui_play, 2, json_na_play
};

const cli_verb_t verb_shell = {
    "shell", "gsw shell [GAME[:VARIANT] [POSITION]] [FILE] [--opponent ...] [--side ...] [--time MS] [--dir DIR]" OPTS_EGDB_DIR_HELP,
      "the workbench's commands in a readline shell (runs a script FILE, or one from a pipe)", shell_run, 3, json_na_shell
};

const cli_verb_t verb_lesson = {
    "lesson", "gsw lesson [NAME|FILE] [--dir DIR]" OPTS_EGDB_DIR_HELP, "list the lessons, or open one in the workbench",
    wb_lessons, 1, json_na_lesson
};
