/* The TUI's input: keys, the ':' command line (see tui_input.h). */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "workbench/session_board.h"
#include "workbench/session_lesson.h"
#include "workbench/tui_input.h"
#include "workbench/tui_keys.h"
#include "workbench/tui_overlay.h"
#include "workbench/tui_picker.h"
#include "workbench/tui_text.h"

static tui_t *T;   /* readline's callbacks reach the TUI through this */

/* Commands whose text the screen already shows in a pane of its own (a
 * lesson's step, the proof browser): their output stays in the message area. */
static int cmd_has_pane(const char *line)
{
    char w[16] = "", arg[8] = "";
    if (sscanf(line, "%15s %7s", w, arg) < 1) return 0;
    return (!strcmp(w, "lesson") && arg[0]) || !strcmp(w, "next") || !strcmp(w, "back") || !strcmp(w, "proof")
           || !strcmp(w, "follow");
}

/* Run a command line. Its output goes to the message area, or, when paged
 * (the ':' line) and longer than the area's three rows, to the pager. */
static void tui_exec_to(tui_t *t, const char *line, int paged)
{
    out_t o = { 0 };
    err_t err;
    if (!strncmp(line, "new", 3) || !strncmp(line, "undo", 4)) t->nmsg = 0;   /* stale messages go */
    int rc = session_exec(&t->s, line, &o, &err);
    if (paged && o.len && COLS > 2 && tui_wrap_text(o.buf, COLS - 2, NULL, NULL, 0) > 3 && !cmd_has_pane(line)) {
        char title[64];
        snprintf(title, sizeof title, ":%.60s", line);
        tui_pager_open(t, title, o.buf, 0);
        out_clear(&o);
    }
    tui_say_out(t, &o);
    if (rc) tui_say(t, err.msg);
    t->paused = 0;
    if (!strncmp(line, "analy", 5)) t->analysis_on = 1;
    out_free(&o);
}

void tui_exec(tui_t *t, const char *line) { tui_exec_to(t, line, 0); }

static void rl_line(char *line)
{
    tui_t *t = T;
    t->cmdline = 0;
    rl_callback_handler_remove();
    if (t->pager_passive) tui_pager_close(t);   /* the completion list goes with the line */
    if (!line) return;
    if (*line) {
        add_history(line);
        tui_exec_to(t, line, 1);
        if (t->s.lesson && t->screen != SCREEN_GAME) t->screen = SCREEN_GAME;
    }
    free(line);
}

static int rl_key_value, rl_key_ready;
static int rl_getc_tui(FILE *f) { (void)f; rl_key_ready = 0; return rl_key_value; }
static int rl_avail_tui(void) { return rl_key_ready; }
static void rl_redisplay_tui(void) { tui_draw(T); }

/* Tab's candidates in columns: in the message area when they fit in its
 * three rows, else in the pager over the screen (the line stays open under
 * it; PgUp/PgDn scroll it). */
static void rl_matches_tui(char **matches, int n, int maxlen)
{
    tui_t *t = T;
    int colw = maxlen + 2, w = COLS - 2 < 158 ? COLS - 2 : 158;
    if (w < 1) w = 1;
    int per = w / colw > 0 ? w / colw : 1, rows = (n + per - 1) / per;
    size_t cap = (size_t)rows * ((size_t)per * (size_t)colw + (size_t)maxlen + 2) + 1, used = 0;
    char *buf = malloc(cap);
    if (!buf) return;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < per; c++) {
            int i = c * rows + r;   /* down the columns, as readline lists them */
            if (i >= n) break;
            int last = c + 1 == per || i + rows >= n;
            used += (size_t)snprintf(buf + used, cap - used, "%-*s", last ? 0 : colw, matches[i + 1]);
        }
        used += (size_t)snprintf(buf + used, cap - used, "\n");
    }
    if (rows <= 3) {
        if (t->pager_passive) tui_pager_close(t);
        tui_say(t, buf);
    } else {
        tui_pager_open(t, "Tab: the candidates", buf, 1);
    }
    free(buf);
}

static void cmdline_open(tui_t *t)
{
    t->cmdline = 1;
    rl_callback_handler_install(":", rl_line);
}

void tui_cmdline_close(tui_t *t)
{
    rl_callback_handler_remove();
    t->cmdline = 0;
    if (t->pager_passive) tui_pager_close(t);
}

void tui_cmdline_key(tui_t *t, int ch)
{
    switch (ch) {
    case KEY_LEFT: rl_backward_char(1, 0); break;
    case KEY_RIGHT: rl_forward_char(1, 0); break;
    case KEY_UP: rl_get_previous_history(1, 0); break;
    case KEY_DOWN: rl_get_next_history(1, 0); break;
    case KEY_HOME: rl_beg_of_line(1, 0); break;
    case KEY_END: rl_end_of_line(1, 0); break;
    case KEY_DC: rl_delete(1, 0); break;
    case KEY_PPAGE: case KEY_NPAGE:   /* scroll the completion list */
        if (t->pager) tui_pager_scroll(t, ch);
        break;
    case KEY_BACKSPACE: rl_key_value = TUI_KEY_DEL; rl_key_ready = 1; rl_callback_read_char(); return;
    case TUI_KEY_ESC:   /* Escape closes the line */
        tui_cmdline_close(t);
        return;
    default:
        if (ch < 0 || ch > 255) return;
        rl_key_value = ch;
        rl_key_ready = 1;
        rl_callback_read_char();
        return;
    }
    rl_redisplay_tui();
}

void tui_cmdline_insert(tui_t *t, const char *text)
{
    char *line = strdup(text);
    if (!line) return;
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < ' ' || *p == TUI_KEY_DEL) *p = ' ';   /* a line break ends no line here */
    rl_insert_text(line);
    free(line);
    if (t->pager_passive) tui_pager_close(t);   /* (the completion list was for the text before) */
    rl_redisplay_tui();
}

/* The pager's keys: scrolling, and q, Esc or Enter to close it. */
void tui_pager_key(tui_t *t, int ch)
{
    if (tui_pager_scroll(t, ch)) return;
    switch (ch) {
    case ' ': tui_pager_scroll(t, KEY_NPAGE); break;
    case 'b': tui_pager_scroll(t, KEY_PPAGE); break;
    case 'q': case TUI_KEY_ESC: case '\n': case '\r': case KEY_ENTER: tui_pager_close(t); break;
    case ':': tui_pager_close(t); cmdline_open(t); break;
    }
}

static void cycle_opponent(tui_t *t)
{
    static const char *const all[] = { "perfect", "imperfect:75", "giveback:1", "heuristic:1", "heuristic:2",
                                       "heuristic:3", "heuristic:4", "heuristic:5", "heuristic:6", "heuristic:7",
                                       "heuristic:8", "heuristic:9", "human", NULL };   /* every level */
    /* every game: where no proof comes within the opponent's time, the
       opponents that want proofs play the engine's move (session_computer_move) */
    const char *const *cyc = all;
    char cur[48];
    opponent_text(&t->s.opp, cur, sizeof cur);
    char *pct = strchr(cur, '%');
    if (pct) *pct = 0;
    if (!strncmp(cur, "perfect:", 8)) cur[7] = 0;   /* its time per move */
    int i = 0;
    while (cyc[i] && strcmp(cyc[i], cur)) i++;
    const char *next = cyc[i] && cyc[i + 1] ? cyc[i + 1] : cyc[0];
    char line[64];
    snprintf(line, sizeof line, "opponent %s", next);
    tui_exec(t, line);
}

static void cycle_side(tui_t *t)
{
    session_t *s = &t->s;
    const char *next = s->human[0] && !s->human[1] ? "second" : !s->human[0] && s->human[1] ? "both"
                     : s->human[0] && s->human[1] ? "none" : "first";
    char line[32];
    snprintf(line, sizeof line, "side %s", next);
    tui_exec(t, line);
}

/* A game with moves made and not over (lessons aside): q asks first. */
static int game_in_progress(tui_t *t)
{
    session_t *s = &t->s;
    return !s->lesson && s->ply > 0 && !session_over(s, NULL) && !session_saved(s);   /* (saved: nothing is lost) */
}

void tui_quit(tui_t *t)
{
    if (game_in_progress(t)) t->confirm_quit = 1;
    else t->s.quit = 1;
}

/* Ctrl-C: stop the worker's job (the analysis, or the computer's move); it
 * never quits. */
void tui_interrupt(tui_t *t)
{
    session_t *s = &t->s;
    worker_cancel(&t->w);
    t->paused = 1;
    /* the moves stay listed with what is known of them (a lesson's published
     * values) even when the stop came before the analysis had begun */
    if (!session_over(s, NULL)) session_analysis_open(s, s->ply);
    s->hint_wanted = s->solve_wanted = 0;
    if (s->autoplay) { s->autoplay = 0; tui_say(t, "autoplay stopped"); }
    if (session_computer_to_move(s) && !session_over(s, NULL))
        tui_say(t, "computer's move stopped: a lets it move, u takes yours back");
    /* (the analysis stopped: the status line says so while it stays stopped; said once) */
}

void tui_key_picker(tui_t *t, int ch)
{
    switch (ch) {
    case KEY_UP: if (t->pick > 0) t->pick--; break;
    case KEY_DOWN: if (t->pick + 1 < t->nitems) t->pick++; break;
    case KEY_PPAGE: t->pick = t->pick > TUI_PICK_PAGE ? t->pick - TUI_PICK_PAGE : 0; break;
    case KEY_NPAGE: t->pick = t->pick + TUI_PICK_PAGE < t->nitems ? t->pick + TUI_PICK_PAGE : t->nitems - 1; break;
    case '\n': case '\r': case KEY_ENTER: case ' ': tui_picker_start(t); break;
    case 'o': cycle_opponent(t); break;
    case 's': cycle_side(t); break;
    case '?': tui_help_open(t); break;
    case TUI_KEY_ESC: if (t->have_game) t->screen = SCREEN_GAME; break;   /* back to the game in progress */
    case 'q': tui_quit(t); break;
    case KEY_MOUSE: {
        MEVENT e;
        if (getmouse(&e) == OK && (e.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))) {
            int h = LINES - TUI_PICK_ROWS_LESS, first = t->pick >= h ? t->pick - h + 1 : 0, i = first + e.y - TUI_PICK_TOP;
            if (i >= 0 && i < t->nitems && e.y >= TUI_PICK_TOP) { t->pick = i; tui_picker_start(t); }
        }
        break;
    }
    }
}

/* A move was played: the old messages are stale. */
static void tui_played(tui_t *t)
{
    session_t *s = &t->s;
    out_t o = { 0 };
    t->nmsg = 0;
    t->paused = 0;
    if (s->lesson) { session_lesson_judge(s, &o); tui_say_out(t, &o); }
    out_free(&o);
}

/* The computer is to move: a person's move waits (said why). */
static int computer_turn(tui_t *t)
{
    if (!session_computer_to_move(&t->s)) return 0;
    tui_say(t, t->paused ? "the computer's move is stopped: a lets it move, u takes yours back"
                         : "wait: the computer is to move");
    return 1;
}

/* ---- a move typed: it starts with a digit, or with the first letter of
 * a legal move's text (chess: e4, Nf3, O-O; p2 on a board of 16 columns);
 * column 1 plays at once on a board of 9, on a wider one 1 waits for a
 * second digit (10, 11, ...), Enter or a pause; a move with separators
 * (11-15, 1x10x19, or from and last square 1x19) plays once it names a
 * move no longer one begins with. A letter that is also a command key
 * (chess's a, b, f, g, h) begins a move only when the move's next
 * character follows within a second; alone, its command runs. Which keys
 * do what is the game's to say (tui_keys.h).
 * ---- */

#define PEND_MS 1000          /* a command key a move begins with waits this long for the move's next key */
#define NUMBER_PAUSE_MS 600   /* a number that may go on (column 1 of 10) plays after this pause */
#define TYPED_OWN_MS 1000     /* a check sign or Enter this soon after a typed move is the move's own */
#define LEGAL_LISTED 12       /* legal moves listed when none begins with what was typed */

static int is_enter(int ch) { return ch == '\n' || ch == '\r' || ch == KEY_ENTER; }

static int digits_longer(tui_t *t) { return tui_move_longer(t->s.v, session_pos(&t->s), t->digits); }

static int digits_parse(tui_t *t, move_t *m, err_t *err)
{
    return tui_move_parse(t->s.v, session_pos(&t->s), t->digits, m, err);
}

void tui_digits_play(tui_t *t)
{
    session_t *s = &t->s;
    move_t m;
    err_t err;
    if (!t->digits[0]) return;
    if (computer_turn(t)) { t->digits[0] = 0; return; }
    int ok = digits_parse(t, &m, &err);
    t->digits[0] = 0;
    if (!ok) { tui_say(t, err.msg); return; }
    if (session_play(s, m, &err)) tui_say(t, err.msg);
    else {
        t->typed_at = tui_now_ms() + TYPED_OWN_MS;
        tui_played(t);
    }
}

/* "no legal move begins with TYPED (legal: ...)" into msg[n]. */
static void no_move_text(tui_t *t, const char *typed, char *msg, int n)
{
    session_t *s = &t->s;
    move_t mv[GSW_MAX_MOVES];
    int k = s->v->ops->moves(s->v, session_pos(s), mv);
    int len = snprintf(msg, (size_t)n, "no legal move begins with \"%s\" (legal:", typed);
    for (int i = 0; i < k && len < n - 40; i++) {
        char mt[64];
        s->v->ops->move_format(s->v, session_pos(s), mv[i], mt, sizeof mt);
        len += snprintf(msg + len, (size_t)(n - len), " %s", mt);
        if (i == LEGAL_LISTED - 1 && k > LEGAL_LISTED) { len += snprintf(msg + len, (size_t)(n - len), " ..."); break; }
    }
    snprintf(msg + len, (size_t)(n - len), ")");
}

/* The keys of a move refused as it was typed (22 of 22-18, where no move
 * begins with 2): they go with it, said once, in a game whose moves go on
 * past a number (checkers' 11-15; Connect Four's every digit is a move).
 * 1 if ch was one: the message names what was typed so far. */
static int refused_key(tui_t *t, int ch)
{
    const char *mc = t->s.v->ops->move_chars;
    if (!t->refused[0]) return 0;
    int more = mc && strspn(mc, "0123456789") < strlen(mc) && ch > 0 && ch < 127 && strchr(mc, ch);
    if (!more || tui_now_ms() > t->refused_at) { t->refused[0] = 0; return 0; }
    size_t n = strlen(t->refused);
    if (n + 1 < sizeof t->refused) { t->refused[n] = (char)ch; t->refused[n + 1] = 0; }
    t->refused_at = tui_now_ms() + PEND_MS;
    if (t->nmsg > 0 && !strncmp(t->msg[t->nmsg - 1], "no legal move begins with", 25))
        no_move_text(t, t->refused, t->msg[t->nmsg - 1], (int)sizeof t->msg[0]);
    return 1;
}

/* The digits typed begin no legal move: say so with the moves there are
 * (a compulsory capture says itself: every move listed captures); the
 * rest of the move's keys go with it (refused_key). */
static void no_move_begins(tui_t *t)
{
    move_t mv[GSW_MAX_MOVES];
    err_t err;
    if (!digits_parse(t, mv, &err) && strncmp(err.msg, "bad move", 8)) {   /* the game's own reason (a full column) */
        t->digits[0] = 0;
        tui_say(t, err.msg);
        return;
    }
    char msg[400];
    no_move_text(t, t->digits, msg, (int)sizeof msg);
    snprintf(t->refused, sizeof t->refused, "%s", t->digits);
    t->refused_at = tui_now_ms() + PEND_MS;
    t->digits[0] = 0;
    tui_say(t, msg);
}

/* A key while a move is typed (or its first): 1 if it belongs to the move
 * (tui_key_continues: a digit, a separator after a digit, a character the
 * game types moves with or a legal move's text has there). */
static int digits_key(tui_t *t, int ch)
{
    size_t n = strlen(t->digits);
    if (!tui_key_continues(t->s.v, session_pos(&t->s), t->digits, ch, 0)) return 0;
    if (computer_turn(t)) { t->digits[0] = 0; return 1; }
    if (n + 1 >= sizeof t->digits) return 1;
    t->digits[n] = (char)ch;
    t->digits[n + 1] = 0;
    move_t m;
    err_t err;
    int names = digits_parse(t, &m, &err), longer = digits_longer(t);
    if (names && !longer) tui_digits_play(t);                     /* complete: played now */
    else if (names) t->digits_at = tui_now_ms() + NUMBER_PAUSE_MS;   /* column 1 of 10: a pause plays it */
    else if (!longer && strspn(t->digits, "0123456789") == n + 1) no_move_begins(t);   /* no move begins so: why */
    else t->digits_at = 0;                                    /* not a move yet: Enter plays it or says why */
    return 1;
}

static void key_command(tui_t *t, int ch, int command);

/* m: the whole of what the screen cut (the lesson step's narration, the
 * messages) in the pager. */
static void more_open(tui_t *t)
{
    session_t *s = &t->s;
    size_t cap = 16384, used = 0;
    char *buf = malloc(cap);
    if (!buf) return;
    buf[0] = 0;
    if (s->lesson) {
        const lesson_step_t *st = &s->lesson->steps[s->lesson_step];
        used += (size_t)snprintf(buf + used, cap - used, "Lesson %d/%d: %s\n\n%s\n\n", s->lesson_step + 1,
                                 s->lesson->nsteps, st->title, st->say ? st->say : "");
    }
    for (int k = 0; k < t->nmsg && used < cap; k++) used += (size_t)snprintf(buf + used, cap - used, "%s\n", t->msg[k]);
    if (!buf[0]) snprintf(buf, cap, "(nothing more to show)\n");
    tui_pager_open(t, s->lesson ? "The lesson step and the messages" : "The messages", buf, 0);
    free(buf);
}

void tui_pend_run(tui_t *t)
{
    int k = t->pend_key;
    t->pend_key = 0;
    if (k) key_command(t, k, 1);
}

void tui_key_game(tui_t *t, int ch)
{
    session_t *s = &t->s;
    if (s->autoplay) {   /* any key stops the solver playing on (at the end it has stopped already) */
        int over = session_over(s, NULL);
        s->autoplay = 0;
        if (!over) { tui_say(t, "autoplay stopped"); return; }
    }
    if (t->pend_key) {   /* a command key that may begin a move: the move's next character makes it one */
        int k = t->pend_key;
        char first[2] = { (char)k, 0 };
        t->pend_key = 0;
        if (tui_key_continues(s->v, session_pos(s), first, ch, 1)) {
            t->digits[0] = (char)k;
            t->digits[1] = 0;
            if (digits_key(t, ch)) return;
            t->digits[0] = 0;
        }
        if (ch == TUI_KEY_ESC) return;   /* Esc: neither */
        key_command(t, k, 1);   /* its command, then this key as usual */
    }
    key_command(t, ch, 0);
}

/* A check sign or Enter just after a typed move was played is the move's
 * own end (Qa5#, e4 Enter): 1 if ch was one, to be dropped. */
static int typed_end_key(tui_t *t, int ch)
{
    int sign = ch == '+' || ch == '#';
    int own = t->typed_at > 0 && (sign || is_enter(ch)) && tui_now_ms() < t->typed_at;
    if (!sign) t->typed_at = 0;
    return own;
}

/* A move's first key, nothing typed yet: 1 if ch began a move, or waits a
 * second to see whether it does (a command key a move begins with). */
static int move_first_key(tui_t *t, int ch)
{
    session_t *s = &t->s;
    if (t->digits[0] || s->nchoice || ch == ':') return 0;
    int act = tui_key_first(s->v, session_pos(s), ch);
    if (act == TUI_KEY_COMMAND || computer_turn(t)) return 0;
    if (act == TUI_KEY_EITHER) {   /* also a command: a second to say which */
        t->pend_key = ch;
        t->pend_at = tui_now_ms() + PEND_MS;
        return 1;
    }
    digits_key(t, ch);   /* e4, Nf3, O-O */
    return 1;
}

/* A key while a move is typed: Enter ends it, Backspace takes a character
 * back, Esc drops it, a key of the move goes on with it. 1 if ch was used;
 * another key drops the move and is a command. */
static int typing_key(tui_t *t, int ch)
{
    if (!t->digits[0]) return 0;
    if (is_enter(ch)) { tui_digits_play(t); return 1; }
    if (ch == KEY_BACKSPACE || ch == TUI_KEY_DEL || ch == TUI_KEY_BS) {
        t->digits[strlen(t->digits) - 1] = 0;
        t->digits_at = 0;
        return 1;
    }
    if (ch == TUI_KEY_ESC) { t->digits[0] = 0; return 1; }
    if (digits_key(t, ch)) return 1;
    t->digits[0] = 0;
    return 0;
}

/* A click named several moves (a promotion): a key picks one. 1 if ch was
 * used (a click elsewhere drops the choice and counts as a click). */
static int choice_key(tui_t *t, int ch)
{
    session_t *s = &t->s;
    err_t err;
    if (!s->nchoice) return 0;
    if (ch == TUI_KEY_ESC) { session_choice_cancel(s); return 1; }
    if (ch == KEY_MOUSE) { session_choice_cancel(s); return 0; }
    int r = ch == KEY_ENTER ? session_choose(s, '\n', &err) : ch >= 0 && ch < 256 ? session_choose(s, ch, &err) : 0;
    if (r < 0) tui_say(t, err.msg);
    else if (r > 0) tui_played(t);
    else tui_say(t, "choose one of the moves on the status line by its key (Enter: the first; Esc cancels)");
    return 1;
}

/* The board's keys: the cursor, Enter or space there, a click, the
 * analysis pane's scrolling. 1 if ch was one; *played: a move was made. */
static int board_key(tui_t *t, int ch, int *played)
{
    session_t *s = &t->s;
    err_t err;
    int r;
    switch (ch) {
    case KEY_LEFT: session_cursor_move(s, 0, -1); return 1;
    case KEY_RIGHT: session_cursor_move(s, 0, 1); return 1;
    case KEY_UP: session_cursor_move(s, -1, 0); return 1;
    case KEY_DOWN: session_cursor_move(s, 1, 0); return 1;
    case KEY_NPAGE: t->an_top += t->an_shown > 0 ? t->an_shown : 1; return 1;   /* the analysis pane, when cut */
    case KEY_PPAGE: t->an_top -= t->an_shown > 0 ? t->an_shown : 1; if (t->an_top < 0) t->an_top = 0; return 1;
    case '\n': case '\r': case KEY_ENTER: case ' ':
        if (computer_turn(t)) return 1;
        break;
    case KEY_MOUSE: {
        MEVENT e;
        if (getmouse(&e) != OK || !(e.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))) return 1;
        int row = e.y - t->board_y, c = (e.x - t->board_x) / t->cell_w;
        if (e.x < t->board_x || c >= t->view.cols || row >= t->view.rows || (row < 0 && !(t->view.drop && row == -1)))
            return 1;
        if (row < 0) row = 0;   /* a drop: the column's label row is the column */
        s->cursor = session_shown_cell(s, &t->view, row, c);   /* (the cell shown there: turned round when flipped) */
        if (computer_turn(t)) return 1;
        break;
    }
    default: return 0;
    }
    r = session_click(s, s->cursor, &err);
    if (r < 0) tui_say(t, err.msg);
    *played = r == 1;   /* (2: a move entered one square further) */
    return 1;
}

/* o and s: the opponent and the side, but not in a lesson. */
static void opponent_key(tui_t *t, int ch)
{
    if (t->s.lesson)   /* the step decides who moves */
        tui_say(t, "in a lesson you play the side that begins each step; a step that says play on gets the "
                   "perfect opponent's replies (the opponent and sides come back after the lesson)");
    else if (ch == 'o') cycle_opponent(t);
    else cycle_side(t);
}

/* The one-key commands (? help lists them), and a number's first digit. */
static void command_key(tui_t *t, int ch)
{
    session_t *s = &t->s;
    out_t o = { 0 };
    switch (ch) {
    case 'u': t->nmsg = 0; tui_exec(t, "undo"); break;   /* (the messages were about the move taken back) */
    case 'r': tui_exec(t, "redo"); break;
    case 'h': tui_exec(t, "hint"); break;
    case 'a':
        if (t->paused) {   /* go on: the analysis, or the computer's move (the pane stays as it was) */
            t->paused = 0;
            if (!session_computer_to_move(s)) t->analysis_on = 1;
        } else {
            t->analysis_on = !t->analysis_on;
        }
        break;
    case 'v': t->show_history = !t->show_history; break;
    case 'm': more_open(t); break;
    case 'w': t->autoplay_pos = 0; tui_exec(t, "autoplay"); break;
    case 't': t->show_tags = !t->show_tags; break;
    case 'p': t->nmsg = 0; tui_say(t, "proving..."); tui_draw(t); t->nmsg = 0; tui_exec(t, "proof"); break;
    case 'f': if (s->br) { t->nmsg = 0; tui_exec(t, "follow"); } break;
    case 'x': if (s->br) tui_exec(t, "proof off"); break;
    case 'o': case 's': opponent_key(t, ch); break;
    case 'n':
        t->nmsg = 0;
        if (s->lesson) tui_exec(t, "next");
        else if (game_in_progress(t)) { t->confirm_new = 1; break; }   /* as q does */
        else tui_exec(t, "new");
        if (s->lesson) { session_lesson_say(s, &o); tui_say_out(t, &o); }
        break;
    case 'b':
        if (s->lesson) {
            t->nmsg = 0;
            tui_exec(t, "back");
            session_lesson_say(s, &o);
            tui_say_out(t, &o);
        }
        break;
    case 'g': tui_picker_fill(t); t->screen = SCREEN_PICKER; break;
    case ':': cmdline_open(t); break;
    case '?': tui_help_open(t); break;
    case 'q': tui_quit(t); break;
    case TUI_KEY_ESC: s->selected = -1; s->npath = 0; break;
    case '#': tui_exec(t, "numbers"); break;
    case 'F': {   /* (where the board cannot turn, it says why); a stopped computer stays stopped */
        int paused = t->paused;
        tui_exec(t, "flip");
        t->paused = paused;
        break;
    }
    default:
        if (ch >= '0' && ch <= '9') digits_key(t, ch);   /* a move typed: its first digit */
    }
    out_free(&o);
}

/* A key on the game screen, in turn: the end of a move just typed, a
 * move's first key, a move being typed, a choice among moves, the board's
 * keys, the commands (command: ch is a command key whose second ran out,
 * a command for sure). */
static void key_command(tui_t *t, int ch, int command)
{
    int played = 0;
    if (typed_end_key(t, ch) || refused_key(t, ch)) return;
    if (!command && move_first_key(t, ch)) return;
    if (typing_key(t, ch)) return;
    if (choice_key(t, ch)) return;
    if (board_key(t, ch, &played)) {
        if (played) tui_played(t);
        return;
    }
    command_key(t, ch);
}

/* readline on the bottom line, fed key by key */
void tui_readline_install(tui_t *t)
{
    T = t;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = NULL;
    rl_deprep_term_function = NULL;
    rl_getc_function = rl_getc_tui;
    rl_input_available_hook = rl_avail_tui;
    rl_redisplay_function = rl_redisplay_tui;
    rl_completion_display_matches_hook = rl_matches_tui;
}
