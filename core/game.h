/* The plugin interface: everything the core, the cache and the UI know about a
 * game. A game registers one game_t (identity and variant parsing); parsing a
 * variant ("connect4:7x6") yields a gv_t, which carries the ops for that variant
 * (a game may use different engines for different board sizes) and its data.
 * Positions are opaque, fixed-size byte blobs of ops->pos_size bytes, copied to
 * make a move (copy-make). Moves are 32-bit integers the game defines. */
#ifndef GSW_GAME_H
#define GSW_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/value.h"

typedef uint32_t move_t;
#define MOVE_NONE ((move_t)0xffffffffu)
#define GSW_MAX_MOVES 256      /* most legal moves any position of any game has */
#define AB_MOVE_CLASSES 1024   /* ab_move_class: below this */
#define AB_EVAL_KEYS 2         /* ab_eval_keys: at most this many */
#define GSW_MAX_KEY 64         /* bytes in a canonical position key */
#define GSW_MAX_POS 256        /* bytes in a position blob */
/* Declares a position buffer: `GSW_POSBUF pos[GSW_MAX_POS];` (aligned for any engine). */
#define GSW_POSBUF _Alignas(16) unsigned char

typedef struct gv gv_t;
struct ab_search;
struct puzzle_sweep;
struct retro_game;

/* A board as the UI draws it: a grid of cells the game fills in, so workbench/ holds
 * no game-specific code. Cell (r, c) is cell[r * cols + c], row 0 at the top. */
#define GSW_VIEW_MAX_SIDE 64
#define GSW_VIEW_MAX_CELLS 1024
enum { VIEW_OFF = 0, VIEW_EMPTY, VIEW_PIECE };
typedef struct view_cell {
    uint8_t kind;          /* VIEW_OFF (not part of the board), VIEW_EMPTY, VIEW_PIECE */
    uint8_t owner;         /* a piece's player, 0 or 1; 2 for a neutral piece (a peg) */
    uint8_t shade;         /* 1: a dark square (checkers, chess) */
    uint8_t tag;           /* a game-defined class (0: none) shown by the overlay key */
    uint8_t won;           /* 1: part of the line that ended the game (Connect Four's four) */
    char ascii;            /* one-character glyph: 'X', 'O', 'k', 'o' */
    char glyph[8];         /* UTF-8 glyph ("●", "♛"); "" = use ascii */
    char name[4];          /* the square's own name, shown on request (checkers: "1".."32"); "" none */
} view_cell_t;
typedef struct board_view {
    int rows, cols;
    int drop;              /* moves drop into a column (Connect Four): a click
                              anywhere in a column plays the move landing there */
    char side[2][16];      /* the players' names: "Red", "Yellow"; "White", "Black" */
    char col_label[GSW_VIEW_MAX_SIDE][4];   /* "a", "1"; "" for none */
    char row_label[GSW_VIEW_MAX_SIDE][4];
    char tag_name[32];     /* what tags mean ("piece classes"); "" if unused */
    view_cell_t cell[GSW_VIEW_MAX_CELLS];
} board_view_t;

typedef struct game_ops {
    /* --- positions (everyone) --- */
    size_t pos_size;
    /* The start position. */
    void (*pos_start)(const gv_t *v, void *pos);
    /* Parse the game's position text ("4453", a FEN...); "" and "startpos" are
     * handled by the caller. Returns GSW_OK or GSW_EINPUT with a message. */
    int (*pos_parse)(const gv_t *v, const char *text, void *pos, err_t *err);
    /* Write the position back as the text a person types to give it (gsw
     * solve GAME POSITION, the workbench's new GAME POSITION): pos_parse
     * must read it back to the same position, and it names the position
     * wherever gsw prints one. */
    void (*pos_format)(const gv_t *v, const void *pos, char *buf, size_t n);
    /* Canonical key: equal for positions equal up to the game's symmetries,
     * used as the cache key. Returns its length (<= GSW_MAX_KEY); *sym (may be
     * NULL) receives the symmetry that maps pos to the canonical form, for
     * move_sym (0 = identity). */
    size_t (*pos_key)(const gv_t *v, const void *pos, uint8_t *key, int *sym);
    /* The position in the key's (canonical) orientation from a pos_key
     * key: 1 when key is one pos_key can make, else 0 (bytes from a file
     * are not trusted). Optional: without it stored rows cannot be proved
     * again (gsw cache verify). */
    int (*pos_from_key)(const gv_t *v, const uint8_t *key, size_t klen, void *pos);
    /* 64-bit hash of the position (not symmetry-folded). */
    uint64_t (*pos_hash)(const gv_t *v, const void *pos);
    /* Plies played from the start (or a move counter); used for display. */
    int (*pos_ply)(const gv_t *v, const void *pos);
    /* Index (0 or 1) of the player to move. */
    int (*pos_turn)(const gv_t *v, const void *pos);

    /* --- moves (everyone) --- */
    /* Legal moves into out (at most GSW_MAX_MOVES); 0 when the game is over. */
    int (*moves)(const gv_t *v, const void *pos, move_t *out);
    /* The number of legal moves, as moves() would return, without listing
     * them where the game can count faster (perft's last ply). Optional. */
    int (*count_moves)(const gv_t *v, const void *pos);
    /* Play a legal move in place. */
    void (*play)(const gv_t *v, void *pos, move_t m);
    /* Undo the last move m (optional: NULL if the game only copies). */
    void (*undo)(const gv_t *v, void *pos, move_t m);
    /* Parse a move in the game's notation; checks legality. */
    int (*move_parse)(const gv_t *v, const void *pos, const char *text, move_t *m, err_t *err);
    void (*move_format)(const gv_t *v, const void *pos, move_t m, char *buf, size_t n);
    /* 1 if the game is over, with *value the result for the side to move
     * (val_loss(0) lost, VAL_DRAW drawn, val_win(0) won). */
    int (*terminal)(const gv_t *v, const void *pos, val_t *value);
    /* For a position terminal ends: the rule that ended it, in a few words
     * ("checkmate", "stalemate", "insufficient material"), into why.
     * Optional: without it the UI says only who won. */
    void (*terminal_why)(const gv_t *v, const void *pos, char *why, size_t n);

    /* --- solver hooks (core searches; optional unless said) --- */
    /* Heuristic evaluation for the side to move, strictly inside
     * (-VAL_PROVEN, VAL_PROVEN). Required for heuristic play. */
    int32_t (*evaluate)(const gv_t *v, const void *pos);
    /* Exact-search expansion: the moves worth searching, and
     * bounds [*lo, *hi] on the value of the (non-terminal) position. Returns
     * the number of moves; when *lo == *hi the value is known and no move need
     * be searched. Without it the search uses moves() and loose bounds. */
    int (*ab_expand)(const gv_t *v, const void *pos, move_t *out, val_t *lo, val_t *hi);
    /* Play a move from ab_expand's list (default: play); the game may skip
     * end-of-game detection that ab_expand has ruled out. Optional. */
    void (*ab_play)(const gv_t *v, void *pos, move_t m);
    /* Order ab_expand's moves best first; called only at nodes the table
     * did not settle, so the work is not wasted on cut-offs. Optional. */
    void (*ab_order)(const gv_t *v, const void *pos, move_t *mv, int n);
    /* Transposition key for the core's table. On entry *sym says whether
     * to fold symmetries (the search's choice: see pos_symmetric); on return
     * it holds the symmetry used, as for pos_key. Optional: without it
     * pos_hash is used. */
    uint64_t (*tt_key)(const gv_t *v, const void *pos, int *sym);
    /* 1 if pos is its own image under a symmetry other than the identity:
     * only then can a search from it meet mirror pairs, so only then does
     * folding them in the table pay. Optional (default: never fold). */
    int (*pos_symmetric)(const gv_t *v, const void *pos);
    /* Symmetries of the board counted with the identity (1: none; 0 is
     * read as 1). Read it through game_nsym, never directly: nsym_of
     * may say otherwise for a variant. */
    int nsym;
    /* The symmetries of v's board, where variants sharing one ops record
     * differ (solitaire: those keeping the goal). Optional: NULL means
     * nsym for every variant. */
    int (*nsym_of)(const gv_t *v);
    /* Map a move through symmetry sym. inverse = 0: a move of pos becomes
     * the same move on the canonical position (pos seen through sym, the
     * orientation pos_key and tt_key give; stored best moves are in it);
     * inverse = 1: a move of the canonical position becomes pos's. Required
     * when pos_key or tt_key report a symmetry other than 0. */
    move_t (*move_sym)(const gv_t *v, move_t m, int sym, int inverse);
    /* The game's own score convention for a proven value of pos (Connect
     * Four: stones left to the winner). Returns 0 if the game has none. */
    int (*value_score)(const gv_t *v, const void *pos, val_t value, int *score);
    /* The value, for its side to move, of a position that already occurred
     * in the line being searched, by the game's rules (a draw by
     * repetition, say); return 0 to search it as usual. NULL for games
     * whose positions never repeat (Connect Four, solitaire). Searches
     * that meet a repetition never store a result that depends on it as
     * if it held for every path (graph-history interaction). */
    int (*repetition)(const gv_t *v, const void *pos, val_t *value);
    /* 1 if the evaluation of pos can be trusted as it stands (no capture
     * pending, say); 0 makes the heuristic search go on past its depth
     * limit with every move (a quiescence search; in checkers captures are
     * compulsory, so an unquiet position's moves are all captures).
     * Optional: NULL means every position is quiet. */
    int (*pos_quiet)(const gv_t *v, const void *pos);
    /* Heuristic search, games with captures (chess): move the tactical
     * moves of mv[0..n-1] (captures, promotions) to the front, most
     * promising first (most valuable victim, least valuable attacker), and
     * return how many there are. Past the depth limit the search stands pat
     * on evaluate and tries only these (every move when in check); quiet
     * moves late in the order are searched at a reduced depth first.
     * Optional: without it pos_quiet decides (see below). */
    int (*ab_tactical)(const gv_t *v, const void *pos, move_t *mv, int n);
    /* The legal moves among which ab_tactical finds the tactical ones (at
     * least every capture and promotion), into mv; their number. Past the
     * depth limit, out of check, the search lists only these. Optional:
     * moves, then ab_tactical, otherwise. */
    int (*ab_captures)(const gv_t *v, const void *pos, move_t *mv);
    /* Heuristic search: the most the tactical move m of pos can gain in
     * evaluate's units (the victim's value, and a promotion's gain). Past
     * the depth limit, a capture that cannot lift the standing evaluation
     * to alpha even with this and two frontier margins (ab_futility) more
     * is not searched (delta pruning). Optional. */
    int32_t (*ab_gain)(const gv_t *v, const void *pos, move_t m);
    /* Heuristic search: what the side to move ends up with, in evaluate's
     * units, when both sides go on taking on m's target square (static
     * exchange; negative: m loses material). A few plies from the depth
     * limit, a move that loses more than a margin growing with the depth
     * is not searched. Optional. */
    int32_t (*ab_see)(const gv_t *v, const void *pos, move_t m);
    /* 1 if the side to move is in check: the heuristic search extends the
     * node by a ply and never stands pat or passes there. Optional. */
    int (*pos_in_check)(const gv_t *v, const void *pos);
    /* Pass the turn in place (null-move pruning). Returns 0 and leaves pos
     * as it was where passing would mislead the search (zugzwang-prone
     * positions: a king and pawns alone). Optional: no null moves. */
    int (*play_null)(const gv_t *v, void *pos);
    /* What a ply of search is worth in evaluate's units at the frontier
     * (chess: about a pawn): a non-PV node within 3 plies of the depth
     * limit whose evaluation beats beta by this much a ply is cut off
     * there (reverse futility), and at 1-2 plies a quiet move that gives
     * no check is skipped when the evaluation plus this much a ply cannot
     * reach alpha (futility). 0: neither. Needs ab_tactical. */
    int32_t ab_futility;
    /* Heuristic search: a class for the move m of pos, below AB_MOVE_CLASSES
     * (chess: the moving piece and its target square), by which the search
     * learns which reply follows which move well (continuation history:
     * the quiet moves after the last move and the one before it are
     * ordered and reduced by how such pairs fared). Optional: without it,
     * the history by move alone. */
    int (*ab_move_class)(const gv_t *v, const void *pos, move_t m);
    /* The heuristic search's aspiration window: from the fifth iteration
     * on, each is searched first within this much of the last one's score
     * (widened, doubling, when the score falls outside). 0: a full window. */
    int32_t ab_window;
    /* Heuristic search: up to AB_EVAL_KEYS keys of parts of pos whose
     * evaluation errs alike from one position to the next (chess: the
     * pawns and the side to move; the material), into key; their number.
     * The search learns, by each key, how far its results lay from the
     * static evaluation, and corrects the evaluation by the keys' mean
     * where it prunes (correction history). Optional (games with
     * ab_futility). */
    int (*ab_eval_keys)(const gv_t *v, const void *pos, uint64_t *key);
    /* In play: 1 if the game has ended by a rule that looks at the whole
     * line, not at the position alone (threefold repetition, a move-count
     * rule), with *value its result for the side to move at line[n-1] and
     * a few words in why ("threefold repetition"). line[0..n-1] are the
     * positions from the game's start, the last the current one. Searches
     * never call it: their results hold for the position. Optional. */
    int (*line_over)(const gv_t *v, const void *const *line, int n, val_t *value, char *why, size_t wn);
    /* In play: the plies since the last move that cannot be undone (a
     * capture, a man's or a pawn's move), so that only the positions that
     * recent can recur; -1 when the game cannot tell (a saturated counter).
     * *left (may be NULL) receives the plies still to be played before a
     * move-count rule ends the game as a draw (checkers' 40-move rule: 80
     * less that count), or -1 when the game has no such rule. Optional. */
    int (*pos_reversible)(const gv_t *v, const void *pos, int *left);
    /* That move-count rule's name ("40-move rule"); NULL: none. */
    const char *count_rule;
    /* Plies to the end of a drawn game under perfect play, if the game knows
     * (Connect Four: the board fills up); -1 otherwise. */
    int (*draw_plies)(const gv_t *v, const void *pos);
    /* The core's exact alpha-beta instantiated for this game's ops (its thin
     * entry point; see core/ab_exact.h). NULL: the generic copy runs. */
    val_t (*ab_exact_entry)(struct ab_search *s, const void *pos, val_t alpha, val_t beta);

    /* Endgame databases: the game's slices, their indexing and its moves
     * between indexed positions (core/retro.h). Optional. */
    const struct retro_game *retro;

    /* --- game records (optional; PDN for checkers, PGN for chess) --- */
    /* Read one game from a record's text: its start position into start,
     * its moves (checked legal, at most max) into moves, their count into
     * *n. GSW_EINPUT with a message naming the problem (and the move
     * number) for a malformed record or an illegal move. */
    int (*record_read)(const gv_t *v, const char *text, void *start, move_t *moves, int max, int *n, err_t *err);
    /* Write a record of the game from start through moves[0..n-1] into
     * buf (len bytes, always terminated); result is "1-0", "0-1", "1/2-1/2"
     * or "*". Returns the length the whole record needs (as snprintf). */
    size_t (*record_write)(const gv_t *v, const void *start, const move_t *moves, int n, const char *result,
                           char *buf, size_t len);
    const char *record_ext;   /* the record files' extension: "pdn" */

    /* --- the UI's view (optional; without it the UI shows pos_format) --- */
    /* Fill *out with the board of pos. */
    void (*view)(const gv_t *v, const void *pos, board_view_t *out);
    /* The view cells a legal move of pos goes from and to: *from = -1 for a
     * placement (a drop, a stone); *to the cell where it ends. */
    void (*move_cells)(const gv_t *v, const void *pos, move_t m, int *from, int *to);
    /* Every view cell a legal move of pos visits, in order: where it starts,
     * each square a multi-step move lands on (a checkers jump), where it
     * ends; at most max; returns the count. A person enters such a move
     * square by square. Optional: without it a move is move_cells' from
     * and to. */
    int (*move_path)(const gv_t *v, const void *pos, move_t m, int *cells, int max);
    /* A rule that restricts pos's moves, in a few words for the person ("a
     * capture is compulsory"); 0 when none applies. The UI marks the pieces
     * that can move while one does. Optional. */
    int (*move_note)(const gv_t *v, const void *pos, char *buf, size_t n);

    /* --- one-player puzzles (core/puzzle.h; optional) --- */
    /* 1 if pos meets the puzzle's goal (the search stops there). */
    int (*puzzle_goal)(const gv_t *v, const void *pos);
    /* The goal in words ("one peg on d4", "at most 3 pegs"), for hints. */
    void (*puzzle_goal_text)(const gv_t *v, char *buf, size_t n);
    /* 1 if a static argument proves pos cannot reach the goal, with a
     * one-line reason in reason[n] (reason may be NULL: skip the text). */
    int (*puzzle_prune)(const gv_t *v, const void *pos, char *reason, size_t n);
    /* Order moves most promising first in one of puzzle_orders orders
     * (optional): the search restarts with the next order and twice the
     * budget when one runs long, keeping the positions known to fail. */
    void (*puzzle_order)(const gv_t *v, const void *pos, move_t *mv, int n, int order);
    int puzzle_orders;
    /* Called when a search runs past its first round: the game may build
     * tables that make puzzle_prune stronger (idempotent, thread-safe). */
    void (*puzzle_prepare)(const gv_t *v);
    /* Level-by-level sweep of every position reachable from pos: counts per
     * level, solutions, fewest moves (see struct puzzle_sweep). Optional. */
    int (*puzzle_sweep)(const gv_t *v, const void *pos, struct puzzle_sweep *sw, err_t *err);
    /* Heuristic players for one-player games: names (NULL-terminated) and a
     * run from pos to the end, the moves played into out (at most max). */
    const char *const *puzzle_players;
    int (*puzzle_play)(const gv_t *v, const void *pos, const char *player, move_t *out, int max, int *n,
                       err_t *err);
    /* Name a chain of moves by one piece as one move ("d2-d4-f4"); n >= 1. */
    void (*chain_format)(const gv_t *v, const void *pos, const move_t *mv, int n, char *buf, size_t len);
    /* 1 if move b continues a's piece (a chain counts as one move). */
    int (*move_continues)(const gv_t *v, move_t a, move_t b);

    /* --- how a person enters a move (optional; the workbench asks) --- */
    /* What a move is, a game_move_kind: it picks the words that tell a
     * person how to move (the welcome line, ? help). GAME_MOVE_UNSET (0):
     * game_move_kind works it out from the view and move_cells. */
    int move_kind;
    /* The characters a person types a move with, where the text typed may
     * differ from move_format's (chess: UCI's e2e4 and e7e8q besides SAN):
     * a move being typed goes on with any of them, and a key among them
     * that is no command begins one. NULL: a move is typed as move_format
     * writes it (a number also without its separators: 2824 for 28-24);
     * a key begins one where some legal move's text begins with it. */
    const char *move_chars;

    /* --- play on a clock (optional; the workbench asks) --- */
    /* 1 when no series of legal moves from pos could ever let side win
     * (chess: a lone king, or a dead position): where side's opponent runs
     * out of time, the game is a draw rather than side's win (FIDE's
     * rule). NULL: the side with time left wins. */
    int (*cannot_win)(const gv_t *v, const void *pos, int side);
} game_ops_t;

/* How a person makes a move (game_ops_t.move_kind). */
enum game_move_kind {
    GAME_MOVE_UNSET = 0,   /* not declared: game_move_kind works it out */
    GAME_MOVE_PLACE,       /* a piece put on an empty cell (a stone) */
    GAME_MOVE_DROP,        /* a piece dropped into a column, falling to its foot (Connect Four) */
    GAME_MOVE_FROM_TO,     /* a piece taken from one cell to another (chess, a peg's jump) */
    GAME_MOVE_CHAIN,       /* from-to, or a chain of jumps entered square by square (checkers) */
};

/* Which optional hooks the workbench's players use (a game without them
 * still plays; they make the help better):
 * - the analysis pane (every legal move's value) solves each move with the
 *   exact search: ab_expand, ab_play, ab_order, tt_key with pos_symmetric
 *   and move_sym, draw_plies, repetition and line_over, the endgame
 *   databases (retro); value_score gives the score shown beside a value.
 *   Where a proof runs out of time it shows the heuristic search's guess
 *   (evaluate, ab_tactical, pos_quiet, pos_in_check, play_null), marked ~.
 *   One-player games use the puzzle_* hooks instead.
 * - the hint is the pane's best move: the same hooks.
 * - the perfect opponent plays the pane's best proven move, and where no
 *   proof comes within its time the heuristic search's (evaluate ...).
 * - the board: view, move_cells, move_path, move_note, terminal_why;
 *   typed moves: move_kind, move_chars (above). */

struct gv {
    const struct game *game;
    const game_ops_t *ops;
    char name[48];          /* canonical variant name, e.g. "7x6": part of the
                               cache's key (with the game's name and pos_key's
                               bytes), so variants whose values can differ must
                               be named apart, and one variant always alike */
    const void *data;       /* the game's variant data */
};

typedef struct game {
    const char *name;       /* "connect4" */
    const char *title;      /* "Connect Four" */
    const char *summary;    /* one line */
    int players;            /* 1 or 2 */
    const char *default_variant;
    const char *variants_help;   /* one line listing the variants */
    const char *const *test_variants; /* variants the generic self-test covers */
    const char *const *menu_variants; /* variants the game picker offers (NULL: the
                                         default and the test variants) */
    const char *play_opponent; /* the workbench's first opponent where perfect play is
                                  out of reach ("heuristic:5"); NULL: perfect */
    const char *eval_unit;     /* evaluate's unit in words, 100 of its points each ("pawns",
                                  "men"); NULL: points without a unit */
    /* Parse a variant name (NULL or "" = default) into *out (heap; free with
     * variant_close). GSW_EINPUT for an unknown variant, its message naming
     * the variant as given and the game ("unknown connect4 variant \"9\"
     * (expected WIDTHxHEIGHT, e.g. 7x6)"). */
    int (*variant_open)(const char *spec, gv_t **out, err_t *err);
    void (*variant_close)(gv_t *v);
} game_t;

/* Knowledge from outside the search (endgame databases): probe gives
 * bounds [*lo, *hi] on pos's value for its side to move and returns 1, or
 * 0 when it knows nothing of pos. Called from any search thread at once. */
typedef struct gsw_oracle {
    int (*probe)(void *ctx, const gv_t *v, const void *pos, val_t *lo, val_t *hi);
    /* Where probe knows a position won or lost but not in how many plies
     * (win/draw/loss databases): the plies to the next conversion (a
     * capture or a man's move) that keeps the result, with perfect play
     * by both sides (1 if the position is known, 0 if not). NULL: never. */
    int (*conversion)(void *ctx, const void *pos, int *plies);
    void *ctx;
} gsw_oracle_t;

/* The registry: every game, NULL-terminated. */
extern const game_t *const gsw_games[];
const game_t *game_find(const char *name);
/* Parse "GAME[:VARIANT]" and open the variant. */
int game_open(const char *spec, gv_t **out, err_t *err);
void game_close(gv_t *v);
/* Another handle on v's game and variant, its own to close (a thread that
 * works on the game beside its owner's: the workbench's worker). */
int game_dup(const gv_t *v, gv_t **out, err_t *err);
/* Parse a position for v: "" or "startpos" give the start. */
int game_pos_parse(const gv_t *v, const char *text, void *pos, err_t *err);
/* "game:variant" into buf. */
void game_spec(const gv_t *v, char *buf, size_t n);
/* The symmetries of v's board counted with the identity (nsym_of, else
 * nsym; at least 1): the one way to read them. */
int game_nsym(const gv_t *v);
/* How a move is made in v (a game_move_kind, never GAME_MOVE_UNSET): the
 * declared move_kind, else worked out at pos: a drop where the view
 * drops, a placement where move_cells gives a legal move no from, else
 * from-to. */
int game_move_kind(const gv_t *v, const void *pos);
/* The variants g offers a person, in order: the default first, then
 * menu_variants (NULL: test_variants), each once; at most max into
 * names. Returns the count. What they mean in words: g->variants_help.
 * The game picker, gsw games and the workbench's help list these. */
int game_variants(const game_t *g, const char **names, int max);

/* The game's move-count rule (count_rule: chess's 50-move rule, checkers'
 * 40-move rule) as searches apply it: the plies pos's clock leaves before
 * the rule draws the game (0: it has, unless pos is over by the rules
 * themselves: a mate on the last ply counts), or -1 when the game has no
 * such rule. */
int game_count_left(const gv_t *v, const void *pos);
/* Has the move-count rule ended the game at pos (its clock run out, and the
 * rules do not end the game there otherwise)? Then it is a draw. */
int game_count_over(const gv_t *v, const void *pos);
/* A table key's share of the clock: searches that apply the rule key a
 * position by its plies left too (its value depends on them). */
static inline uint64_t game_count_key(int left)
{
    uint64_t x = (uint64_t)(left + 2) * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 31);
}
/* Bounds [*lo, *hi] that hold for pos without the move-count rule (a
 * database's, a stored row's) made to hold under it, pos's clock leaving
 * left plies (game_count_left; -1: no rule, nothing changes; 0 and pos not
 * over by the rules: the rule's draw): a win or a loss in at
 * most left plies stands; a longer one may be drawn by the rule first, so
 * its bound widens to a draw, unless o's distance to conversion (a capture,
 * a pawn's or a man's move: the clock starts again) settles it: within left
 * plies the result stands (its distance unknown), beyond them it is a draw.
 * o may be NULL (no distances to conversion). */
void game_count_bounds(const gv_t *v, const void *pos, int left, const gsw_oracle_t *o, val_t *lo, val_t *hi);
/* An oracle whose values are another's under the move-count rule
 * (game_count_bounds at each position's clock, with the other's distances
 * to conversion), while *on is nonzero; while it is 0 they pass through.
 * Hand &c->o to a search. */
typedef struct gsw_count_oracle {
    gsw_oracle_t o;
    const gsw_oracle_t *inner;
    const int *on;
} gsw_count_oracle_t;
/* c over inner (NULL: none; then &c->o is not to be used) switched by *on. */
const gsw_oracle_t *game_count_oracle(gsw_count_oracle_t *c, const gsw_oracle_t *inner, const int *on);

/* ---- repetitions (games whose rules draw a repeated position) ---- */
/* A repetition hook (game_ops_t.repetition) for games where a position met
 * again on the searched line is a draw: either side could have steered
 * away from the cycle, and neither did. Always 1, *value VAL_DRAW. */
int game_repetition_draw(const gv_t *v, const void *pos, val_t *value);
/* The threefold-repetition rule, for a game's line_over: 1, with *value
 * VAL_DRAW and "threefold repetition" in why, if the current position
 * line[n-1] stood twice before among the last back plies (only positions
 * with the same side to move count: every second ply back), same(a, b)
 * saying when two positions are the same by the rule; else 0. */
int game_line_threefold(const void *const *line, int n, int back, int (*same)(const void *a, const void *b),
                        val_t *value, char *why, size_t wn);

#endif
