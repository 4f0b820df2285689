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
static const char *json_na_play(const cli_args_t *o)
{
    (void)o;
    return "it opens the workbench, which draws on the terminal";
}

static const char *json_na_shell(const cli_args_t *o)
{
    (void)o;
    return "it runs the workbench's commands, which print text";
}

static const char *json_na_lesson(const cli_args_t *o)
{
    return o->npos ? "a lesson opens in the workbench (gsw lesson --json lists the lessons)" : NULL;
}

/* gsw lesson: the list as JSON here; the rest is the workbench's. */
static int wb_lessons(cli_args_t *o)
{
    if (!args_flag(o, "json") || o->npos) return tui_lesson(o);
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


#define WB_OPT_OPPONENT { "opponent", OPT_STR, "WHO", "the other side: perfect[:MS], imperfect:P, giveback:N, heuristic:L, human", \
                          0, 0, NULL }
#define WB_OPT_SIDE { "side", OPT_STR, "first|second|both|none", "the side(s) you play", 0, 0, NULL }
#define WB_OPT_ASCII { "ascii", OPT_FLAG, NULL, "no Unicode glyphs", 0, 0, NULL }
#define WB_OPT_MONO { "mono", OPT_FLAG, NULL, "no colours", 0, 0, NULL }
/* --time and --nodes: the budgets of the workbench's proofs */
#define WB_OPT_TIME { "time", OPT_NUM, "MS", "the perfect opponent's proof time a move (the shell: each command's)", 1, 1e12, NULL }
#define WB_OPT_NODES { "nodes", OPT_U64, "N", "a proof's budget of nodes", 1, 1e18, NULL }

static const cli_opt_t play_own[] = {
    WB_OPT_TIME,
    WB_OPT_NODES,
    OPT_NO_LINE,
    WB_OPT_OPPONENT,
    WB_OPT_SIDE,
    WB_OPT_ASCII,
    WB_OPT_MONO,
    { "file", OPT_STR, "RECORD", "open a game record (.pdn, .pgn)", 0, 0, NULL },
    { "game", OPT_INT, "N", "--file: its Nth game (default the first)", 1, 1 << 20, NULL },
    { "clock", OPT_STR, "M+S", "play on a clock: M minutes each (or M:SS, or Ns), S seconds more a move (5+3, 0:30+1)",
      0, 0, NULL },
    OPT_END,
};
static const cli_opt_t *const play_opts[] = { opts_cache, opts_search, opts_egdb, play_own, NULL };

const cli_verb_t verb_play = {
    "play", "gsw play [GAME[:VARIANT] [POSITION]] [--opponent perfect[:MS]|imperfect:P|giveback:N|heuristic:L|human] "
      "[--time MS] [--side first|second|both|none] [--clock M+S] [--ascii] [--mono] [--file RECORD [--game N]] [--dir DIR]\n"
      "  opponents: perfect[:MS]  the proven best move (cache, database, tablebase, book, or a proof within\n"
      "                           MS ms), else the engine's move (default 3000; --time MS sets it too)\n"
      "             imperfect:P   the best move P% of the time, else a random one (engine move without a proof)\n"
      "             giveback:N    perfect, but gives the outcome away N times\n"
      "             heuristic:L   the engine alone, level L 1-9 (its search depth and time)\n"
      "             human         no computer: people play both sides",
      "open the workbench (TUI) on a game; gsw alone opens its game picker", tui_play, 2, json_na_play, .opts = play_opts, .egdb = 1, .screen = 1
};

static const cli_opt_t shell_own[] = {
    WB_OPT_TIME,
    WB_OPT_NODES,
    OPT_NO_LINE,
    WB_OPT_OPPONENT,
    WB_OPT_SIDE,
    OPT_END,
};
static const cli_opt_t *const shell_opts[] = { opts_cache, opts_search, opts_egdb, shell_own, NULL };

const cli_verb_t verb_shell = {
    "shell", "gsw shell [GAME[:VARIANT] [POSITION]] [FILE] [--opponent ...] [--side ...] [--time MS] [--dir DIR]",
      "the workbench's commands in a readline shell (runs a script FILE, or one from a pipe)", shell_run, 3, json_na_shell, .opts = shell_opts, .egdb = 1
};

static const cli_opt_t lesson_own[] = {
    WB_OPT_TIME,
    WB_OPT_NODES,
    OPT_NO_LINE,
    WB_OPT_ASCII,
    WB_OPT_MONO,
    OPT_END,
};
static const cli_opt_t *const lesson_opts[] = { opts_json, opts_cache, opts_search, opts_egdb, lesson_own, NULL };

const cli_verb_t verb_lesson = {
    "lesson", "gsw lesson [NAME|FILE] [--dir DIR]", "list the lessons, or open one in the workbench",
    wb_lessons, 1, json_na_lesson, .opts = lesson_opts, .egdb = 1, .screen = 1
};
