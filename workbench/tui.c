/* The workbench's terminal front end (ncurses): a game picker, the board drawn
 * from the game's view, the move list, the analysis pane filled in by the
 * worker thread, the value history, a help overlay, lessons, and a readline
 * command line on ':' that takes the shell's commands. Game-independent: all
 * it knows of a game comes through core/game.h.
 *
 * This file is its entry (gsw play, gsw lesson) and main loop: the terminal
 * set up, the worker's jobs scheduled and merged, the computer's and
 * autoplay's moves, each key handed on. The rest, layered (each calls only
 * those below it):
 *   tui_paste    bracketed paste, :paste's text, OSC 52 (calls tui_input)
 *   tui_input    keys, the ':' command line           (calls the four below)
 *   tui_overlay  the pager, help, the frame (tui_draw) (calls panes, picker)
 *   tui_picker   the game picker          tui_panes    the game screen's panes
 *   tui_board    the board                tui_text     messages, wrapping, colours
 *   tui_state.h  the shared tui_t (header only) */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cli/opts.h"
#include "workbench/complete.h"
#include "workbench/record.h"
#include "workbench/session_clock.h"
#include "workbench/shell.h"
#include "workbench/tui.h"
#include "workbench/tui_input.h"
#include "workbench/tui_keys.h"
#include "workbench/tui_overlay.h"
#include "workbench/tui_paste.h"
#include "workbench/tui_picker.h"
#include "workbench/tui_state.h"
#include "workbench/tui_text.h"


/* getch's wait for a key: the loop's tick (the worker's results, the clock) */
#define TUI_TICK_MS 100
/* ... while the computer is to move on a clock: its move is played as soon
 * as it is found, so the tick's wait is not on its clock */
#define TUI_CLOCK_TICK_MS 10
/* Esc is a key here (close, cancel, back): no second's wait for a sequence */
#define TUI_ESC_DELAY_MS 100
/* p's df-pn budget when --nodes sets none: the TUI waits for the proof, a few seconds at most */
#define TUI_PROOF_NODES 10000000

static int tui_term_check(void);
static volatile sig_atomic_t tui_signalled;

/* ---- the worker's jobs ---- */

static int tui_wants_analysis(tui_t *t)
{
    session_t *s = &t->s;
    return t->analysis_on || s->hint_wanted || s->solve_wanted || s->lesson || s->autoplay
           || (session_computer_to_move(s) && session_needs_proof(s));
}

/* One update from the worker: kept when it is the last job's and the
 * session still has the position it was asked about. */
static void tui_update(void *ctx, const worker_update_t *u)
{
    tui_t *t = ctx;
    session_t *s = &t->s;
    if (u->job != t->job.id) return;   /* (an earlier job's, stopped) */
    int ply = t->job.ply;
    if (ply < 0 || ply > s->top || s->pos_id[ply] != t->job.pos_id) return;
    if (u->kind == UPD_THINK) {
        if (!u->finished) return;
        s->think_ply = ply;
        s->think_move = u->move;
    } else if (u->kind == UPD_MOVE || u->kind == UPD_HEAD) {
        analysis_t *an = session_analysis_open(s, ply);
        if (an) worker_apply(an, u);
        session_merge_known(s, ply);   /* (a proof tree's values stand over a search's bounds) */
    }
}

static void tui_merge(tui_t *t)
{
    worker_take(&t->w, tui_update, t);
}

/* The job the screen wants now (kind JOB_NONE: none), for ply *ply. */
static void tui_want(tui_t *t, job_t *want, int *ply)
{
    session_t *s = &t->s;
    want->kind = JOB_NONE;
    *ply = -1;
    if (!t->paused && !session_over(s, NULL)) {
        if (session_computer_to_move(s) && session_opp_kind(s) == OPP_HEURISTIC && s->think_ply != s->ply) {
            want->kind = JOB_THINK;
            want->level = s->opp.level;
            want->ms = s->clock.on ? session_clock_budget(s) : 0;   /* on a clock: its share of its time */
            *ply = s->ply;
            for (int i = 0; i < *ply; i++) want->line[i] = s->v->ops->pos_hash(s->v, s->pos[i].b);
            want->nline = *ply;
        } else if (tui_wants_analysis(t) && (!session_analysis_done(s->an[s->ply]) || s->stale[s->ply])) {
            want->kind = JOB_ANALYZE;
            *ply = s->ply;
            /* lines N: deeper lines, where they take no time from the computer's move */
            want->lines = s->lines >= 2 && !session_computer_to_move(s) ? s->lines : 0;
        }
    }
    if (!want->kind && !t->paused && (t->analysis_on || t->show_history)) {
        /* back-fill the value history: where perfect play is out of reach,
         * or the game is over, the scores only (a proof of every past
         * position kept the CPU busy long after a chess game had ended) */
        int cheap = s->v->game->play_opponent != NULL || session_over(s, NULL);
        for (int i = s->top - 1; i >= 0; i--)
            if (s->stale[i] || (cheap ? !s->an[i] || !(s->an[i]->heuristic_done || s->an[i]->proven)
                                      : !session_analysis_done(s->an[i]))) {
                want->kind = JOB_ANALYZE;
                want->scores_only = cheap;
                *ply = i;
                break;
            }
    }
}

/* Hand the worker the job wanted, once the last has ended; stop the
 * running one when another is wanted. */
static void tui_schedule(tui_t *t)
{
    session_t *s = &t->s;
    job_t want;
    int ply;
    memset(&want, 0, sizeof want);
    tui_want(t, &want, &ply);
    /* (a full analysis of the ply a back-fill wants scores of is not the
     * same job: the game ended under it, and it went on building a
     * tablebase for a finished game) */
    int same = want.kind && t->job.kind == want.kind && t->job.ply == ply && t->job.pos_id == s->pos_id[ply]
               && t->job.scores_only == want.scores_only;
    /* something learned since the job started: it starts again reading it
       first, unless it is building the ending that changed the folder */
    if (same && want.kind == JOB_ANALYZE && s->stale[ply] && !worker_building(&t->w)) same = 0;
    if (!worker_idle(&t->w)) {
        if (!same) worker_cancel(&t->w);
        return;
    }
    if (same && want.kind == JOB_ANALYZE && s->stale[ply]) same = 0;   /* (ended: read it now) */
    tui_merge(t);
    if (!want.kind) { t->job.kind = JOB_NONE; return; }
    if (same && want.kind == JOB_THINK && s->think_ply == s->ply) return;
    const analysis_t *from = NULL;
    if (want.kind == JOB_ANALYZE) {   /* go on from what is known */
        analysis_t *an = session_analysis_open(s, ply);
        if (!an) return;
        if (same && session_analysis_done(an)) return;
        want.task = *session_task(s, ply);
        want.task.no_build = want.scores_only;
        session_merge_known(s, ply);
        want.reread = s->stale[ply];   /* what was learned since, read first */
        s->stale[ply] = 0;
        from = an;
    }
    memcpy(want.pos.b, s->pos[ply].b, s->v->ops->pos_size);
    gv_t *game = NULL;   /* the worker's own handle on a game it has not had */
    if (t->worker_game != s->game_id) {
        err_t err;
        if (game_dup(s->v, &game, &err)) { tui_say(t, err.msg); t->paused = 1; return; }
        t->worker_game = s->game_id;
    }
    t->job.kind = want.kind;
    t->job.ply = ply;
    t->job.pos_id = s->pos_id[ply];
    t->job.scores_only = want.scores_only;
    t->job.id = worker_submit(&t->w, &want, game, from);
}

/* The solver's next move for autoplay, once its pause is over (the pace,
 * session_autoplay_ms): the proven best move, or where perfect play is out
 * of reach and the pace has passed at this position, the best known by
 * then; ends autoplay at the end of the game or when there is nothing to
 * play. */
static move_t tui_autoplay(tui_t *t)
{
    session_t *s = &t->s;
    if (session_over(s, NULL)) { s->autoplay = 0; return MOVE_NONE; }
    analysis_t *an = s->an[s->ply];
    if (s->v->game->players == 1 && an && an->root_done && an->root_lo < VAL_DRAW) {
        s->autoplay = 0;
        tui_say(t, an->reason);
        return MOVE_NONE;
    }
    double now = tui_now_ms(), pace = session_autoplay_ms(s);
    if (s->pos_id[s->ply] != t->autoplay_pos) { t->autoplay_pos = s->pos_id[s->ply]; t->autoplay_from = now; }
    if (now < t->autoplay_at) return MOVE_NONE;
    move_t m = session_autoplay_move(s);
    if (m == MOVE_NONE && s->v->game->play_opponent && now >= t->autoplay_from + pace) m = session_autoplay_now(s);
    if (m == MOVE_NONE) return MOVE_NONE;
    t->autoplay_at = now + pace;
    if (s->autoplay > 0) s->autoplay--;
    t->nmsg = 0;
    return m;
}

static void tui_signal(int sig)
{
    tui_signalled = sig;
}

static void tui_end(void)
{
    tui_paste_mode(0);   /* (said once, whichever way out) */
    if (!isendwin()) endwin();
}

/* The session: the game named (else Connect Four under the picker), with
 * the cache, or without it when it will not open and the person says so
 * (nothing is lost: the file is left as it is). */
static int tui_open_session(tui_t *t, cli_args_t *o, err_t *err)
{
    if (!shell_session_open(o, &t->s, "connect4", err)) return GSW_OK;
    fprintf(stderr, "gsw: %s\n", err->msg);
    if (args_flag(o, "no-cache") || strncmp(err->msg, "cache ", 6)) return err->code;
    fprintf(stderr, "Start without the cache (nothing will be stored)? [y/N] ");
    fflush(stderr);
    char answer[16];
    if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) return err->code;
    args_set_flag(o, "no-cache");
    if (shell_session_open(o, &t->s, "connect4", err)) { fprintf(stderr, "gsw: %s\n", err->msg); return err->code; }
    return GSW_OK;
}

/* The worker thread, on the session's cache file and databases. */
static int tui_start_worker(tui_t *t, cli_args_t *o, err_t *err)
{
    char db[1024] = "";
    if (!args_flag(o, "no-cache")) {
        if (args_str(o, "db")) snprintf(db, sizeof db, "%s", args_str(o, "db"));
        else if (cache_default_path(db, sizeof db, err)) db[0] = 0;
    }
    return worker_start(&t->w, db, session_egdb_dir(&t->s), opts_hash_mb(o), opts_threads(o), err);
}

/* The colour pairs (tui_state.h), when the terminal has colours. */
static void tui_colours(void)
{
    start_color();
    use_default_colors();
    init_pair(PAIR_P0, COLOR_RED, -1);
    init_pair(PAIR_P1, COLOR_YELLOW, -1);
    init_pair(PAIR_NEUTRAL, COLOR_CYAN, -1);
    init_pair(PAIR_WIN, COLOR_GREEN, -1);
    init_pair(PAIR_DRAW, COLOR_YELLOW, -1);
    init_pair(PAIR_LOSS, COLOR_RED, -1);
    init_pair(PAIR_DARK, -1, COLOR_BLUE);
    init_pair(PAIR_P0_DARK, COLOR_RED, COLOR_BLUE);
    init_pair(PAIR_P1_DARK, COLOR_YELLOW, COLOR_BLUE);
    init_pair(PAIR_NEUTRAL_DARK, COLOR_CYAN, COLOR_BLUE);
    init_pair(PAIR_P0_MUST, COLOR_RED, COLOR_WHITE);
    init_pair(PAIR_P1_MUST, COLOR_YELLOW, COLOR_WHITE);
    init_pair(PAIR_NEUTRAL_MUST, COLOR_CYAN, COLOR_WHITE);
    init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_WHITE);
    init_pair(PAIR_TAG, COLOR_MAGENTA, -1);
}

/* Curses in raw mode (Ctrl-C arrives as a key: it stops work, it does not
 * quit), keys, the mouse, colours; SIGTERM and SIGHUP end the loop. */
static void tui_screen_open(tui_t *t, cli_args_t *o)
{
    setlocale(LC_ALL, "");
    t->unicode = !args_flag(o, "ascii") && !strcmp(nl_langinfo(CODESET), "UTF-8");
    atexit(tui_end);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tui_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    if (!getenv("ESCDELAY")) set_escdelay(TUI_ESC_DELAY_MS);
    timeout(TUI_TICK_MS);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED, NULL);
    mouseinterval(0);
    tui_paste_mode(1);   /* pastes marked: a FEN or a record pasted sets it up (tui_paste.h) */
    t->colour = !args_flag(o, "mono") && has_colors() && !getenv("NO_COLOR");
    if (t->colour) tui_colours();
}

/* What happens between keys on the game's screen: the worker's results
 * taken, waiting messages said, the next job handed over, the computer's
 * (or autoplay's) move played, a pending key or typed number settled. */
static void tui_tick(tui_t *t, out_t *out)
{
    err_t err;
    if (t->screen != SCREEN_GAME) return;
    /* the clocks run (held while Ctrl-C stops the computer's move, and the
     * person's while the window is too small to show the board), and a
     * flag falls */
    const int comp = session_computer_to_move(&t->s);
    if (session_clock_tick(&t->s, tui_now_ms(), comp ? t->paused : t->too_small)) {
        char why[96];
        session_clock_over(&t->s, NULL, why, sizeof why);
        tui_say(t, why);
    }
    tui_merge(t);
    if (tui_now_ms() >= t->look_at) {   /* databases built since (here or in another gsw): values read again */
        session_look(&t->s);
        t->look_at = tui_now_ms() + 2000;
    }
    if (session_poll(&t->s, out)) tui_say_out(t, out);
    tui_schedule(t);
    move_t m = t->paused ? MOVE_NONE : session_computer_move(&t->s);   /* Ctrl-C holds it until a */
    int mine = 0;   /* autoplay waits while the board is not on screen, and a typed number is dropped */
    if (m == MOVE_NONE && t->s.autoplay && !session_computer_to_move(&t->s) && !t->too_small) {
        m = tui_autoplay(t);
        mine = m != MOVE_NONE;
    }
    if (m != MOVE_NONE) {   /* said with its mover: "you (w): 10-15", "heuristic:5: 11-15" */
        char mt[32], line[200], note[sizeof t->s.opp_note], who[48];
        t->s.v->ops->move_format(t->s.v, session_pos(&t->s), m, mt, sizeof mt);
        snprintf(note, sizeof note, "%s", t->s.opp_note);   /* (no proof in time: the engine's move) */
        if (!session_play(&t->s, m, &err)) {
            session_played_by(&t->s, mine);
            if (mine) snprintf(who, sizeof who, "you (w)");
            else session_mover_text(&t->s, t->s.ply - 1, who, sizeof who);
            snprintf(line, sizeof line, "%s: %s%s%s%s", who, mt, note[0] ? " (" : "", note, note[0] ? ")" : "");
            tui_say(t, line);
        }
    }
    if (t->pend_key && tui_now_ms() >= t->pend_at) tui_pend_run(t);   /* a's second is over */
    if (t->digits[0]) {   /* a pause ends a typed number */
        if (t->too_small) t->digits[0] = 0;
        else if (t->digits_at > 0 && tui_now_ms() >= t->digits_at) tui_digits_play(t);
    }
}

/* One key, to whatever has it: a question asked, Ctrl-C, a window too
 * small, the command line, the pager, the picker or the game. */
static void tui_key(tui_t *t, int ch)
{
    if (ch == KEY_RESIZE) { clear(); return; }
    if (t->show_help) { t->show_help = 0; return; }
    if (t->confirm_new) {   /* "a new game? y/n" */
        t->confirm_new = 0;
        t->nmsg = 0;
        if (ch == 'y' || ch == 'Y') tui_exec(t, "new");
        else tui_say(t, "the game goes on");
        return;
    }
    if (t->confirm_quit) {   /* "quit? y/n" */
        t->confirm_quit = 0;
        if (ch == 'y' || ch == 'Y') t->s.quit = 1;
        else tui_say(t, "not quitting");
        return;
    }
    if (ch == TUI_KEY_CTRL_C) { tui_interrupt(t); return; }   /* wherever it comes */
    if (t->screen == SCREEN_GAME && t->too_small) {   /* no key plays a move off the screen */
        if (ch == 'q') tui_quit(t);
        else if (ch == TUI_KEY_ESC && t->cmdline) tui_cmdline_close(t);
        else if (ch == TUI_KEY_ESC && t->pager) tui_pager_close(t);
        else t->small_ignored++;
        return;
    }
    if (t->cmdline) {
        tui_cmdline_key(t, ch);
        if (t->s.lesson || t->screen == SCREEN_GAME) t->screen = SCREEN_GAME;
        return;
    }
    if (t->pager && !t->pager_passive) { tui_pager_key(t, ch); return; }
    if (t->screen == SCREEN_PICKER) tui_key_picker(t, ch);
    else tui_key_game(t, ch);
}

/* --clock CONTROL: the game on a clock, where it has two sides. */
static int tui_clock_open(tui_t *t, double base, double inc, err_t *err)
{
    if (t->s.v->game->players != 2) return err_set(err, GSW_EINPUT, "--clock: a puzzle has no opponent to race");
    session_clock_set(&t->s, base, inc);
    return GSW_OK;
}

/* The workbench: the picker (no game named), a game, or a command to start
 * with ("lesson NAME"). */
static int tui_run(cli_args_t *o, const char *first)
{
    double clock_base = 0, clock_inc = 0;   /* --clock: a mistyped control is said first, as a usage error */
    err_t err;
    const char *clock = args_has(o, "clock") ? args_str(o, "clock") : NULL;   /* (gsw lesson has none) */
    if (clock && clock_parse(clock, &clock_base, &clock_inc, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        return GSW_EINPUT;
    }
    if (!isatty(0) || !isatty(1)) {
        fprintf(stderr, "gsw: not a terminal: the workbench needs one. For scripts use `gsw shell` "
                        "(reads commands from a pipe) or the CLI verbs (gsw help)\n");
        return GSW_EINPUT;
    }
    if (tui_term_check()) return GSW_EFAIL;   /* said on stderr, before anything is drawn */
    static tui_t t;   /* (one workbench per process; too big for the stack) */
    memset(&t, 0, sizeof t);
    int picker = o->npos == 0 && !first;
    if (tui_open_session(&t, o, &err)) return err.code;
    if (clock_base > 0 && tui_clock_open(&t, clock_base, clock_inc, &err)) {   /* said before the screen opens */
        fprintf(stderr, "gsw: %s\n", err.msg);
        shell_session_close(&t.s, &err);
        return GSW_EINPUT;
    }
    int chosen = (args_has(o, "opponent") && args_str(o, "opponent")) || (args_has(o, "side") && args_str(o, "side"));
    if (!chosen) { t.s.human[0] = 1; t.s.human[1] = 0; }   /* default: you first, against the game's opponent */
    if (tui_start_worker(&t, o, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        shell_session_close(&t.s, &err);
        return GSW_EFAIL;
    }
    t.cell_w = 2;
    t.analysis_on = 1;
    if (!args_u64(o, "nodes", 0)) t.s.proof_nodes = TUI_PROOF_NODES;
    tui_screen_open(&t, o);
    tui_readline_install(&t);
    t.s.clipboard = tui_clipboard;   /* :fen hands the position to the terminal's clipboard */
    complete_install(&t.s);
    complete_history_load();
    tui_picker_fill(&t);
    t.screen = picker ? SCREEN_PICKER : SCREEN_GAME;
    t.have_game = !picker;
    if (!picker) tui_say_welcome(&t);
    if (first) {
        t.nmsg = 0;
        tui_exec(&t, first);
    }
    out_t out = { 0 };
    while (!t.s.quit && !tui_signalled) {
        tui_tick(&t, &out);
        tui_draw(&t);
        timeout(t.s.clock.on && !t.paused && session_computer_to_move(&t.s) ? TUI_CLOCK_TICK_MS : TUI_TICK_MS);
        int ch = getch();
        if (ch == TUI_KEY_ESC && tui_paste_read(&t)) continue;   /* a bracketed paste, whole */
        if (ch != ERR && !tui_paste_key(&t, ch)) tui_key(&t, ch);
        tui_paste_key(&t, ERR);   /* (:paste alone: its text is read from the next key) */
    }
    if (t.cmdline) rl_callback_handler_remove();
    tui_pager_close(&t);
    free(t.collect);
    tui_paste_mode(0);
    endwin();
    complete_history_save();
    worker_stop(&t.w);
    out_free(&out);
    int rc = shell_session_close(&t.s, &err);
    if (rc) fprintf(stderr, "gsw: %s\n", err.msg);
    return rc;
}

int tui_play(cli_args_t *o)
{
    if (!args_str(o, "file")) return tui_run(o, NULL);
    static char line[1100];   /* --file F: read it now (a bad record is an error before the screen opens) */
    err_t err;
    if (record_play_line(o, line, sizeof line, &err)) { fprintf(stderr, "gsw: %s\n", err.msg); return err.code; }
    return tui_run(o, line);
}

int tui_lesson(cli_args_t *o)
{
    if (o->npos == 0) {
        static char names[64][64], titles[64][128];
        int n = lesson_list(names, titles, 64);
        if (!n) printf("no lessons in %s\n", lesson_dir());
        for (int i = 0; i < n; i++) printf("%-20s %s\n", names[i], titles[i]);
        if (n) printf("\nOpen one with: gsw lesson NAME (or from gsw's game picker)\n");
        return GSW_OK;
    }
    char path[1024];
    err_t err;
    lesson_t *l;
    if (o->npos > 1) {
        fprintf(stderr, "gsw: usage: %.*s\n", opts_usage_line(o->entry), o->entry->usage);
        return GSW_EINPUT;
    }
    if (lesson_find(o->pos[0], path, sizeof path, &err) || lesson_load(path, &l, &err)) {
        fprintf(stderr, "gsw: %s\n", err.msg);
        return err.code;
    }
    lesson_free(l);
    static char line[1100];
    snprintf(line, sizeof line, "lesson %s", path);
    o->npos = 0;
    return tui_run(o, line);
}

/* ---- can this terminal draw the workbench? ----
 * Asked of terminfo before curses starts, so a terminal that cannot gets one
 * line on stderr and no half-drawn screen. term.h comes last: its macros
 * (lines, columns, ...) would clash with the names above. */
#include <term.h>

static int tui_term_check(void)
{
    const char *term = getenv("TERM");
    int e = 0;
    if (!term || !*term) {
        fprintf(stderr, "gsw: TERM is not set, so the workbench cannot draw here; use `gsw shell` (the same commands, "
                        "no screen) or set TERM (e.g. TERM=xterm-256color)\n");
        return -1;
    }
    if (setupterm(NULL, 1, &e) != OK) {
        fprintf(stderr, "gsw: the terminal \"%s\" is unknown here, so the workbench cannot draw; use `gsw shell` "
                        "(the same commands, no screen) or another TERM (e.g. xterm-256color)\n", term);
        return -1;
    }
    const char *cup = tigetstr("cup");
    int ok = cup && cup != (const char *)-1 && tigetflag("hc") <= 0;
    del_curterm(cur_term);
    if (!ok) {
        fprintf(stderr, "gsw: the terminal \"%s\" cannot place the cursor, so the workbench cannot draw there; use "
                        "`gsw shell` (the same commands, no screen) or a terminal such as xterm\n", term);
        return -1;
    }
    return 0;
}

