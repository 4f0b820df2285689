/* The workbench's model: one game being played or studied — its start, its
 * moves with undo and redo, what is known of the value of every move at
 * every ply, who plays each side, the board cursor and selection, and a
 * lesson in progress. No terminal code: the TUI draws it, `gsw shell` prints
 * it, and the tests drive it directly. Commands (session_exec) are the same
 * everywhere. Entering moves on the board (clicks, the cursor) is in
 * session_board.h, a lesson's steps in session_lesson.h. */
#ifndef GSW_SESSION_H
#define GSW_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "core/dfpn.h"
#include "core/manager.h"
#include "core/game.h"
#include "db/cache.h"
#include "solve/analyst.h"
#include "workbench/lesson.h"

#define SESSION_MAX_PLY 1024
/* The shell's default proof budget per position where perfect play is out of reach. */
#define SESSION_SYNC_BUDGET_MS 3000
/* ... and in the workbench, where the person can ask again (a: analyse) */
#define SESSION_TUI_BUDGET_MS 15000
/* The opponent's time for a proof per move (perfect, imperfect, giveback):
 * without one by then it plays the engine's move (session_computer_move). */
#define SESSION_OPP_MS 3000
/* Autoplay's pace: a move at most this often; where perfect play is out of
 * reach (game_t.play_opponent) also its time for a proof, then the engine's
 * move (`autoplay pace MS` sets another). */
#define SESSION_AUTOPLAY_MS 700

/* Who plays a side the person does not. */
typedef enum { OPP_HUMAN = 0, OPP_PERFECT, OPP_IMPERFECT, OPP_GIVEBACK, OPP_HEURISTIC } opp_kind_t;
typedef struct opponent {
    opp_kind_t kind;
    int level;             /* heuristic: 1 (weak) .. 9 */
    int percent;           /* imperfect: plays the best move this % of the time */
    int givebacks;         /* giveback: value-losing moves still to play */
    double ms;             /* perfect:MS: its time per move (0: the session's, session_opp_ms) */
} opponent_t;

typedef struct posbuf { _Alignas(16) unsigned char b[GSW_MAX_POS]; } posbuf_t;

/* A game on a clock (session_clock.h): each side's time, counting down
 * for the side to move while the front end ticks it. */
typedef struct session_clock {
    int on;
    double base_ms, inc_ms;   /* the control: each side's time, and what a move adds */
    double left[SESSION_MAX_PLY + 1][2];   /* each side's time as the position at that ply arose */
    int running;           /* ticked since the game (re)started: moves played before (a record
                              loaded) take no time */
    int held;              /* stopped for now (the computer's move stopped by Ctrl-C) */
    double used;           /* the side to move's time spent at this ply before since */
    double since;          /* when its time last began to run (gsw_now_ms) */
    int flag_ply;          /* the ply whose side to move ran out of time (-1: none) */
    int flag_draw;         /* ... against an opponent who cannot win: a draw */
} session_clock_t;

/* A message for the person: text lines the front end shows. */
typedef struct out {
    char *buf;
    size_t len, cap;
} out_t;
void out_printf(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_clear(out_t *o);
void out_free(out_t *o);

/* The synchronous solver a shell uses (the TUI's worker, workbench/worker.h,
 * runs the same analyst on its own thread). */
struct analyst;

typedef struct session {
    gv_t *v;
    char start_text[512];
    posbuf_t *pos;         /* pos[i]: after i moves (SESSION_MAX_PLY + 1 of them) */
    move_t moves[SESSION_MAX_PLY];
    int ply, top;          /* moves 0..ply-1 played; ply..top-1 can be redone */
    analysis_t *an[SESSION_MAX_PLY + 1];   /* per ply, NULL until analysed */
    analyst_task_t *task[SESSION_MAX_PLY + 1];   /* ... what its analysis asks (with an[]) */
    unsigned pos_id[SESSION_MAX_PLY + 1];  /* the position at each ply, by a number that changes
                                              whenever another is put there (a worker's results
                                              are for the position they were asked for) */
    unsigned next_pos_id;
    unsigned game_id;      /* the game and variant played, by such a number (session_new) */
    int human[2];          /* 1: a person plays that side */
    opponent_t opp;
    int opp_chosen;        /* the person chose the opponent: a new game keeps it
                              (else each game starts with its own, game_t.play_opponent) */
    uint64_t rng;
    int cursor;            /* a view cell */
    int selected;          /* a view cell holding the selected piece, -1 none */
    int path[16], npath;   /* a move entered square by square: the cells so far
                              (path[0] == selected; stale when it is not) */
    move_t choice[16];     /* several legal moves with the very same squares (a
                              promotion's pieces): the person picks one (session_choose) */
    int nchoice;
    int numbers;           /* show the squares' names (checkers' 1-32) on the board */
    int flipped;           /* the board shown turned round, the second player's side at the
                              bottom (flip; session_board.h: where it applies) */
    int lines;             /* the analysis shows the engine's best this many lines (lines N;
                              0 or 1: the best move's line alone) */
    session_clock_t clock; /* a game on a clock (--clock, clock M+S) */
    int hint_wanted;       /* show the hint once the analysis can give it */
    int solve_wanted;      /* report the position's value once proven */
    int autoplay;          /* moves the solver still plays for the person (-1: to the end) */
    double autoplay_ms;    /* its pace (0: SESSION_AUTOPLAY_MS; autoplay pace MS) */
    opponent_t by[SESSION_MAX_PLY];   /* who played moves[i]: OPP_HUMAN a person (by_auto[i]: the
                                         solver for them, autoplay), else the computer as that opponent */
    unsigned char by_auto[SESSION_MAX_PLY];
    unsigned saved_id;     /* pos_id[top] when the game was last saved (save NAME, export): q need not ask */
    int no_line;           /* --no-line: the analyses value the positions alone (no move-count
                              rule), as the databases publish them (analysis_t.alone) */
    int think_ply;         /* a heuristic opponent's move found for this ply */
    move_t think_move;
    int quit;
    lesson_t *lesson;      /* a lesson in progress, or NULL */
    struct browse *br;     /* a proof tree being browsed, or NULL */
    int br_human[2];       /* the sides as they were before browsing (restored on close) */
    int br_ply0;           /* the ply of its root */
    int lesson_step;
    int lesson_tried;      /* the learner played at this step */
    cache_t *cache;        /* not owned; NULL: no saving, no cache */
    int sync;              /* 1: commands that need the solver run it now (the shell) */
    struct analyst *an_sync;   /* the shell's solver (sync mode) */
    gsw_flag_t *stop;    /* Ctrl-C */
    int progress;          /* sync mode: long proofs report their bounds on stderr (the shell) */
    double progress_ms;    /* ... last reported at this point of the proof */
    size_t hash_mb;
    int threads;
    char egdb_dir[1024];   /* the endgame databases' folder (--dir; "": egdb/ beside the cache) */
    uint64_t proof_nodes;  /* the proof browser's df-pn budget (0: 50 M nodes); the TUI,
                              which waits for it, sets less */
    double sync_budget_ms; /* sync mode: the proofs of one position stop after this
                              (0: never; -1: SESSION_SYNC_BUDGET_MS for games whose
                              perfect play is out of reach, game_t.play_opponent) */
    double opp_ms;         /* the opponent's time for a proof per move (--time; 0: SESSION_OPP_MS);
                              opponent perfect:MS sets its own (opponent_t.ms) */
    uint8_t stale[SESSION_MAX_PLY + 1];   /* the analysis of that ply was made before something
                              was learned (a proof tree, databases built, a value proven at
                              another ply): its moves are read again from what is known */
    int64_t known_stamp;   /* the endgame databases' folder as last seen (session_look) */
    char opp_note[96];     /* why the last computer (or autoplay) move was the engine's, not a
                              proven one ("" when it was proven); the front ends show it */
    int paste_wait;        /* paste with no text: the front end reads the text to set up next
                              (session_paste.h), up to a blank line or the end of its input */
    int (*clipboard)(const char *text);   /* hands text to the terminal's clipboard (the TUI's
                              OSC 52; 0 when sent); NULL: no terminal to hand it to (the shell) */
} session_t;

/* A session on GAME[:VARIANT] at POSITION ("" = the start); people play
 * both sides until told otherwise. */
int session_init(session_t *s, const char *spec, const char *position, err_t *err);
void session_free(session_t *s);
/* Start again on another game or position (the session keeps its settings). */
int session_new(session_t *s, const char *spec, const char *position, err_t *err);

const void *session_pos(const session_t *s);
int session_turn(const session_t *s);
/* A count of a game's moves in words: "1 ply", "40 plies" for a game of
 * two players (a chess player's move is two), "1 move", "40 moves" for a
 * puzzle (players 1); .text lasts to the end of the call it is passed to. */
typedef struct session_count {
    char text[24];
} session_count_t;
session_count_t session_plies(int players, int n);
/* 1 when the game is over, with *value the result for the side to move:
 * the position ends it (ops->terminal) or the line played to it does, by a
 * rule of play (ops->line_over: threefold repetition, a move-count rule). */
int session_over(const session_t *s, val_t *value);
/* The same, with why the line ended it in why[n] ("threefold repetition";
 * "" when the position itself is over or the game goes on). */
int session_over_why(const session_t *s, val_t *value, char *why, size_t n);
/* The opponent that plays now: s->opp, except in a lesson, where the
 * perfect opponent answers the learner in a step that asks for no move
 * (its summary: "play on") and nobody answers in the others. */
opp_kind_t session_opp_kind(const session_t *s);
/* Is the side to move played by the computer? */
int session_computer_to_move(const session_t *s);

/* Play a legal move (the redo line is kept when it is the same move). */
int session_play(session_t *s, move_t m, err_t *err);
int session_play_text(session_t *s, const char *text, err_t *err);
/* Undo one ply, or back to the last ply a person chose (against a computer). */
int session_undo(session_t *s);
int session_redo(session_t *s);

/* The analysis of the current position (NULL when none has started). */
analysis_t *session_analysis(session_t *s, int ply);
/* Make sure an analysis of ply exists and lists its moves. */
analysis_t *session_analysis_open(session_t *s, int ply);
/* What the analysis of ply asks of the analyst (its budget, the game's
 * line); NULL until session_analysis_open. */
const analyst_task_t *session_task(const session_t *s, int ply);
/* The endgame databases' folder (NULL: beside the cache). */
const char *session_egdb_dir(const session_t *s);
/* Nothing more to do for it: every move exact, or its budget spent. */
int session_analysis_done(const analysis_t *an);
/* The best move: the proven best (fastest win, slowest loss) once every
 * move is proven, else the first of session_order; MOVE_NONE when nothing
 * is known.
 * *exact = 1 when every move's value is proven. */
move_t session_best(session_t *s, int ply, int *exact);
/* One knowledge of what is proven: something was learned (a proof tree,
 * databases built): every analysis kept reads its moves' values again
 * before it is shown or continued (s->stale). */
void session_learned(session_t *s);
/* Has the endgame databases' folder changed (a build, here or in another
 * gsw) since the last look? Then session_learned. Cheap: a few stats. */
void session_look(session_t *s);
/* What the proof tree being browsed proves of ply's moves, merged into
 * its analysis (bounds only ever tighten); a no-op off the tree. */
void session_merge_known(session_t *s, int ply);
/* The moves of ply's analysis in the one order every list shows
 * (move_value_cmp: best first for the mover), a lesson's published values
 * counted where nothing is proven: order[0] the best. */
void session_order(const session_t *s, int ply, int *order);
/* The computer's move at the current position by the opponent setting,
 * given what the analysis knows; MOVE_NONE when it must wait. Once the
 * analysis's budget (the opponent's time, session_opp_ms) is spent with no
 * proven move to play, the engine's move (the heuristic best), with
 * s->opp_note saying so: it never waits for ever. */
move_t session_computer_move(session_t *s);
/* The opponent's time for a proof per move, in ms. */
double session_opp_ms(const session_t *s);
/* The solver's move for autoplay: the proven best move (a puzzle: the
 * next move of the solution found); MOVE_NONE while it is not known. In
 * two-player games, once the analysis's budget is spent, the engine's
 * move (s->opp_note says so). */
move_t session_autoplay_move(session_t *s);
/* Autoplay's pace in ms (s->autoplay_ms, else SESSION_AUTOPLAY_MS). */
double session_autoplay_ms(const session_t *s);
/* Autoplay's move once its pace is over where perfect play is out of reach:
 * the proven best move, else the best by what is known (s->opp_note says
 * "no proof within" the pace); MOVE_NONE when nothing is known yet. */
move_t session_autoplay_now(session_t *s);
/* The move just played (moves[ply - 1]) was the computer's, as s->opp, or
 * (autoplay) the solver's for the person. */
void session_played_by(session_t *s, int autoplay);
/* Who played moves[i], as text: "you", "you (autoplay)", "heuristic:5". */
void session_mover_text(const session_t *s, int i, char *buf, size_t n);
/* Is the game as it was last saved (nothing played since save or export)? */
int session_saved(const session_t *s);
/* Does the computer need the exact value of every move here (perfect and
 * imperfect opponents) rather than a heuristic search? */
int session_needs_proof(const session_t *s);

/* The value of one move as short text ("win 13", "draw", "≥ draw",
 * "~+12") and its class: 3 win, 2 draw, 1 loss, 0 unknown/heuristic. In
 * games of check and mate (ops->pos_in_check) a win reads "mate in N" and
 * a loss "mated in N", N in the mover's moves, and a heuristic score is in
 * pawns ("~+0.27": the evaluation counts centipawns there). */
int session_value_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n);
/* The same in words for a message (not a pane's column): distances in
 * plies say so ("win in 49 plies"); chess's "mate in N" as it is. */
int session_value_words(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n);
/* A heuristic score (for the side it is for) as text, as above: "+27",
 * "+0.27", "win", "mate in 3". */
void session_score_text(const session_t *s, int32_t score, char *buf, size_t n);
/* Games of check and mate (ops->pos_in_check): their words for results. */
int session_mate_game(const session_t *s);
/* The heuristic line of a move (its principal variation, the move first)
 * in the game's notation, from the position at ply; 0 when it has none
 * beyond the move itself. */
int session_line_text(const session_t *s, int ply, const move_value_t *mv, char *buf, size_t n);
/* The engine's best lines at ply (at most max): the moves the heuristic
 * engine scored, with a line beyond the move, best first by the one order
 * (session_order); a proven move is not among them (its value is shown as
 * proven). Their indexes into s->an[ply]->mv in which, and their places in
 * that order (0 the best of all moves) in rank; returns the count. */
int session_engine_lines(const session_t *s, int ply, int max, int *which, int *rank);
/* The value history: for ply i (the move played from position i), what the
 * mover got and the best it could have had, as text and classes; returns 0
 * when ply i's analysis is not proven yet. */
int session_history_entry(session_t *s, int i, char *got, size_t ng, char *best, size_t nb, int *cls_got,
                          int *cls_best);

/* Run one command line ("move 4", "undo", "4", ...). Text for the person
 * goes to out. Returns GSW_OK, GSW_EINPUT (a bad command: message in err)
 * or GSW_EFAIL. */
int session_exec(session_t *s, const char *line, out_t *out, err_t *err);
/* Set up a pasted text (session_paste.h) as the command paste TEXT does,
 * for a text of any length (several lines: a game record): the front
 * ends' bracketed paste, and the text paste alone read. */
int session_exec_paste(session_t *s, const char *text, out_t *out, err_t *err);
/* The command names, NULL-terminated (for completion and help). */
extern const char *const session_commands[];
/* The command help text, one command per line. */
const char *session_help(void);
/* Close the shell's synchronous solver (sync mode), if one was opened; the
 * session itself stays (session_free frees the rest). */
void session_sync_close(session_t *s);

/* Opponent text: "perfect", "perfect:5000" (its time per move, when not
 * the default), "imperfect:70", "giveback:2", "heuristic:3", "human". */
int opponent_parse(const char *text, opponent_t *o, err_t *err);
void opponent_text(const opponent_t *o, char *buf, size_t n);

/* The game record: tags and the moves in notation. */
void session_record(const session_t *s, out_t *out);
/* The board as text, with the side to move and the position's text. */
void session_show(session_t *s, out_t *out);
/* Messages that waited on the analysis (hint, solve); 1 if any was written. */
int session_poll(session_t *s, out_t *out);

/* A tree to browse: a df-pn proof tree or the manager's tree, as nodes
 * whose children are contiguous, each with its value for its side to move
 * and its proof and disproof numbers. */
typedef struct browse_node {
    move_t move;
    int parent, first, nchildren;
    uint32_t pn, dn;       /* for the root side's goal (0 / DFPN_INF: settled) */
    int size;              /* nodes in the subtree */
    char label[12];        /* "=W", ">=D", "~=W" (assumed), "?" (open) */
    uint8_t leaf;          /* settled by the game, a solver or an assumption */
    uint8_t known;         /* the tree proves lo..hi for the side to move there */
    val_t lo, hi;          /* (prover_node_bounds) */
} browse_node_t;
/* What the browser's value letters mean, for the side to move at a node. */
#define PROOF_LEGEND "values for the side to move there: =W a win, =L a loss, >=D at least a draw, <=D at most a draw, " \
                     "~ assumed from a heuristic score, ? open; pn/dn: proof and disproof numbers (0 proven, inf refuted)"

typedef struct browse {
    char title[128];
    int n;
    browse_node_t *node;
    int leaf_node;         /* the leaf leaf_text describes (-1: none yet) */
    char leaf_text[640];
} browse_t;
/* Browse a df-pn proof tree (or the manager's tree) rooted at the current
 * position; the session takes the tree over. */
int session_browse_proof(session_t *s, const proof_tree_t *t, err_t *err);
int session_browse_manager(session_t *s, const manager_t *m, err_t *err);
/* The node of the current position (-1: no tree, or off it). */
int session_browse_node(const session_t *s);
/* What settles leaf node (the current position): the game's end, a
 * repetition, the search (not expanded: `proof` there proves its tree) or
 * the endgame databases with their perfect line (fastest win, slowest
 * loss) from the distance-to-win files. Kept until another leaf is asked. */
const char *session_browse_leaf(session_t *s, int node);
/* The children of node (the current one) best first for the side to
 * move, by the one order (move_value_cmp) over what the analysis and the
 * tree prove; ties: the winner's smallest subtree, the loser's largest.
 * Returns their number. */
int session_browse_order(const session_t *s, int node, int *order);
/* The value the analysis proves for child c's move, for the player making
 * it, as session_value_text words it ("" and 0 when none). */
int session_browse_value_text(const session_t *s, int c, char *buf, size_t n);
/* The child of node on the principal line: the first of that order (the
 * fastest win; for the loser, the longest resistance). */
int session_browse_principal(const session_t *s, int node);
void session_browse_close(session_t *s);
/* The proof browser's view of the current node as text: its value and
 * its children, best first (the shell's proof and follow). */
void session_show_proof(session_t *s, out_t *out);
/* A certificate (solve/certificate.h) of what the browsed tree proves of
 * its root, written to path; what it holds said on out. */
int session_certificate(session_t *s, const char *path, out_t *out, err_t *err);

/* A lesson step's narration (commands.c; the steps themselves and the
 * learner's progress: session_lesson.h). */
void session_lesson_say(session_t *s, out_t *out);

#endif
