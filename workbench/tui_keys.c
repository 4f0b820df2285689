/* The game screen's keys as the game decides them (see tui_keys.h). */
#include "workbench/tui_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How much longer a move text that waits on a key may be and still be
 * the welcome's example: a move no key waits on reads better. */
#define EXAMPLE_WAIT_PENALTY 8

/* A move's text of numbers and separators without the separators
 * ("28-24" -> "2824", "9x18x27" -> "91827"): what a player types who
 * leaves them out. Empty for a text with letters (chess, solitaire). */
static void squeeze(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++) {
        if (*in >= '0' && *in <= '9') out[k++] = *in;
        else if (*in != '-' && *in != 'x' && *in != ':') { k = 0; break; }
    }
    out[k] = 0;
}

static int all_digits(const char *s) { return *s && strspn(s, "0123456789") == strlen(s); }
static int is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static int is_letter(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }

/* A cell's coordinates as the board's labels give them ("f1"): its
 * column's label, then its row's; 0 when the view labels neither. */
static int cell_text(const board_view_t *view, int cell, char *buf, size_t n)
{
    if (cell < 0 || cell >= view->rows * view->cols) return 0;
    const char *c = view->col_label[cell % view->cols], *r = view->row_label[cell / view->cols];
    if (!c[0] || !r[0]) return 0;
    snprintf(buf, n, "%s%s", c, r);
    return 1;
}

/* Move m typed by its squares' coordinates ("f1c4"), where the game reads
 * that form (chess's UCI moves); 0 when it has none. */
static int coordinate_text(const gv_t *v, const void *pos, const board_view_t *view, move_t m, char *buf,
                           size_t n)
{
    int from = -1, to = -1;
    char a[16], b[16];
    if (!view || !v->ops->move_cells) return 0;
    v->ops->move_cells(v, pos, m, &from, &to);
    if (!cell_text(view, from, a, sizeof a) || !cell_text(view, to, b, sizeof b)) return 0;
    snprintf(buf, n, "%s%s", a, b);
    move_t back;
    err_t err;
    return v->ops->move_parse(v, pos, buf, &back, &err) == GSW_OK && back == m;
}

int tui_move_longer(const gv_t *v, const void *pos, const char *typed)
{
    move_t mv[GSW_MAX_MOVES];
    size_t n = strlen(typed);
    int k = v->ops->moves(v, pos, mv), bare = all_digits(typed), found = 0;
    for (int i = 0; i < k && !found; i++) {
        char mt[64], sq[64];
        v->ops->move_format(v, pos, mv[i], mt, sizeof mt);
        size_t l = strlen(mt);
        while (l > n && (mt[l - 1] == '+' || mt[l - 1] == '#')) l--;
        if (l > n && !strncmp(mt, typed, n)) found = 1;
        squeeze(mt, sq, sizeof sq);
        if (bare && strlen(sq) > n && !strncmp(sq, typed, n)) found = 1;
    }
    /* the move by its squares' coordinates (f1c4), where the game reads them */
    board_view_t *view = !found && !bare && v->ops->view && v->ops->move_cells ? calloc(1, sizeof *view) : NULL;
    if (view) v->ops->view(v, pos, view);
    for (int i = 0; i < k && view && !found; i++) {
        char ct[40];
        found = coordinate_text(v, pos, view, mv[i], ct, sizeof ct) && strlen(ct) > n && !strncmp(ct, typed, n);
    }
    free(view);
    return found;
}

int tui_move_parse(const gv_t *v, const void *pos, const char *typed, move_t *m, err_t *err)
{
    if (v->ops->move_parse(v, pos, typed, m, err) == GSW_OK) return 1;
    if (!all_digits(typed)) return 0;
    /* digits without separators: the one legal move they spell (2824: 28-24) */
    move_t mv[GSW_MAX_MOVES];
    int k = v->ops->moves(v, pos, mv), found = 0;
    for (int i = 0; i < k; i++) {
        char mt[64], sq[64];
        v->ops->move_format(v, pos, mv[i], mt, sizeof mt);
        squeeze(mt, sq, sizeof sq);
        if (sq[0] && !strcmp(sq, typed)) {
            if (found++) return 0;   /* two moves spell it: the error stands */
            *m = mv[i];
        }
    }
    return found == 1;
}

/* Does a legal move's text begin with the character ch? */
static int move_begins(const gv_t *v, const void *pos, int ch)
{
    char one[2] = { (char)ch, 0 };
    return tui_move_longer(v, pos, one);
}

int tui_key_first(const gv_t *v, const void *pos, int ch)
{
    if (!is_letter(ch)) return TUI_KEY_COMMAND;
    int command = strchr(TUI_COMMAND_KEYS, ch) != NULL;
    if (move_begins(v, pos, ch)) return command ? TUI_KEY_EITHER : TUI_KEY_MOVE;
    /* a letter the game types its moves with and no command: a move (one
       that begins no legal move is said so) */
    if (!command && v->ops->move_chars && strchr(v->ops->move_chars, ch)) return TUI_KEY_MOVE;
    return TUI_KEY_COMMAND;
}

int tui_key_continues(const gv_t *v, const void *pos, const char *typed, int ch, int strict)
{
    size_t n = strlen(typed);
    char more[64];
    if (ch <= 0 || ch > 126 || n + 2 > sizeof more) return 0;
    if (is_digit(ch)) return 1;
    if (n && is_digit(typed[n - 1]) && (ch == '-' || ch == ':' || ch == '/')) return 1;   /* 11-15 */
    if (!strict && v->ops->move_chars && strchr(v->ops->move_chars, ch)) return 1;
    /* a character that continues a legal move's text (the x of 1x10, the f
       of Nf3), or ends one (the last O of O-O) */
    memcpy(more, typed, n);
    more[n] = (char)ch;
    more[n + 1] = 0;
    move_t m;
    err_t err;
    return tui_move_longer(v, pos, more) || tui_move_parse(v, pos, more, &m, &err);
}

const char *tui_move_kind_words(int kind)
{
    switch (kind) {
    case GAME_MOVE_PLACE: return "put a piece on an empty cell";
    case GAME_MOVE_DROP: return "drop a piece into a column";
    case GAME_MOVE_CHAIN: return "a piece, then each square it lands on (a step, or a chain of jumps)";
    default: return "a piece, then its target";
    }
}

void tui_move_how(const gv_t *v, const void *pos, char *buf, size_t n)
{
    char example[64] = "";
    int ex_wait = 0;
    move_t mv[GSW_MAX_MOVES];
    int k = v->ops->moves(v, pos, mv);
    for (int i = 0; i < k; i++) {   /* the shortest move's text as the example, one no key waits on */
        char mt[64];
        v->ops->move_format(v, pos, mv[i], mt, sizeof mt);
        int wait = tui_key_first(v, pos, (unsigned char)mt[0]) == TUI_KEY_EITHER;
        if (!example[0] || (int)strlen(mt) + EXAMPLE_WAIT_PENALTY * wait
                                   < (int)strlen(example) + EXAMPLE_WAIT_PENALTY * ex_wait) {
            snprintf(example, sizeof example, "%s", mt);
            ex_wait = wait;
        }
    }
    char typed[96] = "";
    if (example[0]) snprintf(typed, sizeof typed, ", or type it (%s)", example);
    if (!v->ops->view) {   /* no board on screen: moves are typed */
        snprintf(buf, n, "Your move: type it%s%s%s.  ? for help.", example[0] ? " (" : "", example, example[0] ? ")" : "");
        return;
    }
    const char *how;
    switch (game_move_kind(v, pos)) {
    case GAME_MOVE_PLACE: how = "an empty cell (arrows and Enter, or a click)"; break;
    case GAME_MOVE_DROP: how = "a column (arrows and Enter, or a click)"; break;
    case GAME_MOVE_CHAIN: how = "a piece, then each square it lands on (arrows and Enter, or clicks)"; break;
    default: how = "a piece, then its target (arrows and Enter, or clicks)"; break;
    }
    snprintf(buf, n, "Your move: %s%s.  ? for help.", how, typed);
}
