/* The workbench's terminal front end, its shared state: the one tui_t the
 * TUI's modules pass about (the session, the worker, what is on screen and
 * what is open over it), the screens and the colour pairs. Header only, and
 * below every other tui_*.h: the drawing modules (tui_board, tui_panes,
 * tui_overlay, tui_picker) read it, the input (tui_input) and the loop
 * (tui.c) change it. */
#ifndef GSW_TUI_STATE_H
#define GSW_TUI_STATE_H

#include "workbench/session.h"
#include "workbench/worker.h"

enum { SCREEN_PICKER, SCREEN_GAME };
enum { PAIR_P0 = 1, PAIR_P1, PAIR_NEUTRAL, PAIR_WIN, PAIR_DRAW, PAIR_LOSS, PAIR_DARK, PAIR_TITLE, PAIR_TAG,
       PAIR_P0_DARK, PAIR_P1_DARK, PAIR_NEUTRAL_DARK,   /* a piece on a dark square */
       PAIR_P0_MUST, PAIR_P1_MUST, PAIR_NEUTRAL_MUST }; /* a piece that must move (a capture is compulsory) */

typedef struct pick_item {
    char label[128];
    char spec[96];         /* game:variant, or "" for a lesson */
    char lesson[64];
} pick_item_t;

typedef struct tui {
    session_t s;
    worker_t w;
    int screen;
    int unicode, colour;
    int show_history;      /* the value history replaces the move list */
    int show_help;
    int show_tags;         /* the view's tags (solitaire: piece classes) */
    int analysis_on;       /* the analysis pane fills in */
    int paused;            /* Ctrl-C stopped the worker: wait for the person */
    int cmdline;           /* the ':' line is open */
    char msg[8][1024];     /* the message area, newest last */
    int nmsg;
    int msg_cut;           /* the last draw left part of the newest message out (m shows it) */
    int lesson_cut;        /* ... or part of the lesson step's narration */
    pick_item_t items[128];
    int nitems, pick;
    int board_y, board_x, cell_w;   /* where the board was drawn, for the mouse */
    board_view_t view;
    struct {               /* the job last submitted: what its updates are for */
        job_kind_t kind;
        unsigned id;
        int ply;
        unsigned pos_id;   /* s.pos_id[ply] when it was submitted */
        int scores_only;
    } job;
    unsigned worker_game;  /* s.game_id of the game the worker was last handed (0: none) */
    double autoplay_at;    /* the monotonic ms of autoplay's next move */
    unsigned autoplay_pos; /* the position (s.pos_id) autoplay is waiting at, since autoplay_from */
    double autoplay_from;
    int left_w;            /* the board's column: the board, and the turn or result under it */
    int too_small;         /* the last draw found the window too small for the board */
    int names_need;        /* the squares' names are on but left out: the window is narrower than this */
    int small_ignored;     /* keys ignored since the window became too small */
    int an_top, an_ply;    /* the analysis pane's first move shown (scrolled), and for which ply */
    int an_shown;          /* how many moves it shows: PgUp/PgDn's page */
    char *pager;           /* long output in a scrollable pane over the screen, NULL none */
    char pager_title[64];
    int pager_top;         /* its first screen line shown */
    int pager_passive;     /* the completion list: the command line stays open under it */
    char digits[48];       /* a move being typed (column 10, 11, ...; 11-15, 1x10x19) */
    double digits_at;      /* when the pause ends it */
    char refused[48];      /* a typed move refused: its next keys go with it until refused_at */
    double refused_at;
    double typed_at;       /* a typed move was played as its last character came: until
                              then a check sign or Enter typed after it is its own (Qa5#) */
    int pend_key;          /* a command key that also begins a move (chess's a, b, f, g, h):
                              a digit or x within a second makes it a move, else its command runs */
    double pend_at;        /* when its second ends */
    double look_at;        /* when to look at the databases' folder again (session_look) */
    int confirm_quit;      /* q asked "quit? y/n" */
    int confirm_new;       /* n asked "a new game? y/n" */
    int have_game;         /* a game was on screen: Esc in the picker goes back to it */
    char *collect;         /* :paste alone: the text typed or pasted so far (NULL: not reading) */
    size_t collect_len, collect_cap;
} tui_t;

#endif
