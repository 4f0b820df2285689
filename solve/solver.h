/* The one door to the solvers, a layer of its own below the front ends
 * (cli/, workbench/, protocol/): one solver over a table and an optional
 * cache. Every solve asks a chain of knowledge sources first (solve/
 * source.h: the shipped book, the cache, endgame databases, strong
 * solutions), which are also its searches' oracle, then searches and
 * stores what it proves (exact values as exact, proven bounds as bounds). Shared by the CLI verbs, `gsw shell` and the TUI's analysis
 * worker, plus the words used to print values. */
#ifndef GSW_SOLVER_H
#define GSW_SOLVER_H

#include <stddef.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/game.h"
#include "db/cache.h"
#include "solve/egdb.h"
#include "solve/source.h"

/* The transposition table's size when none is asked for (--hash, the
 * shell, the TUI, UCI's Hash option): one default everywhere. */
#define GSW_HASH_MB_DEFAULT 128

typedef struct solver {
    gv_t *v;               /* not owned */
    tt_t tt;
    ab_memory_t *memory;   /* solver_think's histories, kept from one move of a game to
                              the next (solver_clear empties them); made on first use */
    cache_t *cache;        /* not owned; NULL: no cache */
    ab_options_t ab;
    int wdl;               /* win/draw/loss is enough */
    int dfpn;              /* prove with df-pn (win/draw/loss) instead of alpha-beta */
    dfpn_table_t pn;       /* its table, made on first use */
    int manager;           /* prove with the proof-tree manager (win/draw/loss) */
    int goal;              /* df-pn / manager: -1 the value; else one goal (dfpn_goal_t) */
    /* where warnings go (a stored row found wrong and repaired); NULL: stderr */
    void (*warn)(void *ctx, const char *msg);
    void *warn_ctx;
    /* where notices go (a tablebase being built: not a problem), with
       warn_ctx; NULL: through warn */
    void (*note)(void *ctx, const char *msg);
    char warned[512];      /* the last warning, not said twice in a row */
    /* the knowledge sources asked before a search (solve/source.h): the
     * registry's, open or not (kind NULL), then those added at run time */
    source_chain_t chain;
    source_chain_t engine_chain;  /* the chain again, for the engine's oracle below (its
                                     sources' oracles asked in turn, as a search's are) */
    const gsw_oracle_t *engine;   /* the oracle the solver put in ab.oracle (the endgame
                                     databases'); another there is the caller's own, and
                                     the searches then see only it */
    int no_book;           /* never look for an opening book (the book's own builders) */
    int no_build;          /* never build a missing ending: answer from what is built (the
                              workbench's back-filled scores of a finished game); 2: and
                              say once an ending that is not built (UCI: info string) */
    double unflushed_ms;   /* solving time of the stores not yet written */
    uint64_t line_sig;     /* a digest of the line (ab.history) the last search was given;
                              0: none (a search over another line clears the tables first) */
    /* ab.count (set by solver_init where the game has a move-count rule;
     * solver_ignore_line clears it): every value is the game's under the
     * rule, from the clock the position carries. The sources' values are
     * the position's alone: the door applies the rule to them, at the root
     * (solver_lookup) and below it (these oracles over the searches'), and
     * stores in the cache only what holds whatever the clock. */
    gsw_count_oracle_t count_engine, count_below;
    int no_line;           /* solver_ignore_line was called */
    val_t count_lo, count_hi;   /* the bounds solver_run_within was given (the game's values) */
    char rule_phrase[48];  /* answer_t.phrase of a position the rule has drawn ("the 50-move rule") */
} solver_t;

typedef struct answer {
    ab_result_t r;
    /* the knowledge source that answered, by its description: "cache",
     * "egdb", "strong", "book" or an added source's name, and its words
     * ("the cache"); NULL: a search did */
    const char *source;
    const char *phrase;
    char note[96];         /* what the source adds in words ("Syzygy, DTZ 23"; "" none) */
    int line_free;         /* the value ignores the game's line (its move-count rule and
                              repetitions): asked for (solver_ignore_line), or the proof-tree
                              manager's, which proves values of the position alone */
} answer_t;

/* Did the source of that name answer? */
int answer_from(const answer_t *a, const char *source);

/* A table of hash_mb megabytes for v; the cache may be NULL. */
int solver_init(solver_t *s, gv_t *v, size_t hash_mb, cache_t *cache, err_t *err);
void solver_free(solver_t *s);
/* Consult the endgame databases in dir (NULL: the default, beside the
 * cache file db, or the default cache) after the cache and before any
 * search, and let every search probe them. A directory without files of
 * the game is not an error: nothing changes. In a game whose endings are
 * built on demand (chess's tablebases: retro_game_t.mate_metric), a solve
 * of a position whose ending is covered but not built builds it there
 * first (on the solve's threads; its stop flag stops it). */
int solver_open_egdb(solver_t *s, const char *dir, const char *db, err_t *err);
/* The strong solution of s's board in dir (NULL: strong/ beside the cache
 * file db, or the default cache's), where the game has them: a solve
 * answers win/draw/loss from it at once and its searches take its values
 * as proven bounds. None there: nothing changes; a damaged manifest is
 * said (warn) and left alone. solver_open_egdb calls it. */
int solver_open_strong(solver_t *s, const char *dir, const char *db, err_t *err);
/* Add a knowledge source at the end of the chain (after the registry's),
 * open already: ctx is its kind's, closed by solver_free (kind->close). A
 * solve asks it after the others at the root, and searches see its oracle
 * after theirs (unless one ahead shadows it). GSW_EINPUT when the chain is full. */
int solver_add_source(solver_t *s, const source_kind_t *kind, void *ctx, err_t *err);
/* Values of the position alone from now on, not the game's: the move-count
 * rule and the line's repetitions are ignored (`--no-line`; endgame
 * databases' own figures). Answers say so (answer_t.line_free). */
void solver_ignore_line(solver_t *s);
/* Does s apply the game's move-count rule (the game has one, not ignored)? */
int solver_counts(const solver_t *s);
/* Where a's value is the position's alone, not the game's (the line
 * ignored: solver_ignore_line, or the manager's proof), the words that say
 * so ("the position's value alone: no 50-move rule, no repetition"; the
 * manager's: "... no 40-move rule", it sees the line's repetitions) into
 * buf, and 1; 0 (buf "") where it is the game's, or the game has no rule
 * that looks at the line. */
int solver_line_note(const solver_t *s, const answer_t *a, char *buf, size_t n);

/* Empty every table (alpha-beta's and df-pn's): the next solve starts cold. */
void solver_clear(solver_t *s);
/* Solve pos (cache first; a search below it takes the opening book's
 * values where the cache has a book: solve/book.h). On a stop or a spent
 * budget a->r.aborted is set and the bounds proven so far are stored and
 * returned. A stored row that
 * the search contradicts is reported (warn), dropped, and replaced by the
 * value proven without it. Stores are written before it returns, except
 * cheap ones (under 0.1 s of solving, all together since the last write),
 * which the next write or the cache's closing writes; a store that fails
 * (a full disk, a lost file) is warned about, once, and the answer stands. */
int solver_run(solver_t *s, const void *pos, answer_t *a, err_t *err);
/* solver_run where pos's value is known to lie in [lo, hi], proven
 * elsewhere (the parent's value in an analysis: every move's value is at
 * most the position's): a search starts inside those bounds and does not
 * prove them again. The opening book's value of a position on its last ply
 * (the book names no best move there) is used the same way by solver_run. */
int solver_run_within(solver_t *s, const void *pos, val_t lo, val_t hi, answer_t *a, err_t *err);

/* One solve's own terms, beside the solver's settings: what an analysis
 * (solve/analyst.h) asks of each solve it runs. */
typedef struct solver_terms {
    double time_ms;            /* this solve's time (0: the solver's own limit) */
    const uint64_t *line;      /* the game's line: pos_hash of its positions (ab.history) */
    int nline;
    int alone;                 /* the position's value alone: no move-count rule */
    int want_best;             /* a best move wanted, whatever ab.no_best says */
    int no_build;              /* answer from what is built (solver_t.no_build) */
} solver_terms_t;
/* The settings a solve under terms changes, to put back. */
typedef struct solver_saved {
    double time_ms;
    const uint64_t *history;
    int history_len, count, no_best, no_build;
} solver_saved_t;
/* Take on t's terms until solver_terms_leave puts back what they changed. */
void solver_terms_enter(solver_t *s, const solver_terms_t *t, solver_saved_t *saved);
void solver_terms_leave(solver_t *s, const solver_saved_t *saved);
/* solver_run_within and solver_cached under t's terms. */
int solver_run_terms(solver_t *s, const void *pos, val_t lo, val_t hi, const solver_terms_t *t, answer_t *a,
                     err_t *err);
int solver_cached_terms(solver_t *s, const void *pos, const solver_terms_t *t, answer_t *a, err_t *err);
/* Work on another variant of the game (the move-count rule as the solver
 * was told); the sources in folders open again for it (dir, beside db). */
void solver_retarget(solver_t *s, gv_t *v, const char *dir, const char *db);

/* The cache alone, no search: 1 when a stored row settles pos (a filled),
 * 0 when none does, -1 on error. */
int solver_cached(solver_t *s, const void *pos, answer_t *a, err_t *err);
/* Store what is known of pos from elsewhere (its moves' values): bounds
 * [lo, hi] and a best move, merged into the cache and written at once.
 * No cache: nothing to do. A store that fails is warned about (warn), not
 * returned: the value was only derived. */
int solver_store(solver_t *s, const void *pos, val_t lo, val_t hi, move_t best, err_t *err);

/* The endgame databases' distance to conversion of pos (a capture, a
 * man's or pawn's move: what resets a move-count rule): 1 with *plies when
 * a distance-to-conversion file holds pos and it is a win or a loss, else 0. */
int solver_conversion(solver_t *s, const void *pos, int *plies);
/* A move into child that the game's move-count rule draws (its value
 * under the rule is a draw): what it is to the mover without the rule, as
 * the sources know child alone (Syzygy's cursed wins and blessed losses,
 * a DTM's mate beyond the count): 1 a win, 2 a loss, 0 a draw either way,
 * unknown, or no rule applied. move_value_t.rule_draw holds it. */
int solver_rule_draw(solver_t *s, const void *child);
/* Its words: "a win without the 50-move rule" (rule_draw 1 or 2). */
void rule_draw_words(const gv_t *v, int rule_draw, char *buf, size_t n);

/* The heuristic engine's best line for pos (ab_think over the solver's
 * table, with its line for repetitions), within o's depth, time and node
 * limits: what a solve whose budget ran out reports. Never stored. */
int solver_think(solver_t *s, const void *pos, const ab_options_t *o, ab_result_t *r, err_t *err);

/* The shortest forced win within max_moves of the winner's moves, for
 * games won only on the winner's own move (chess: checkmate), by the mate
 * prover (df-pn over o->table): "the side to move wins within N" for N =
 * 1, 2, .. (the first N proven, N - 1 disproven), and when every N is
 * disproven, "the side to move loses within N". *mate gets N (the side to
 * move mates in N), -N (is mated in N) or 0 (neither within max_moves:
 * both disproven); t (may be NULL) the proof tree, r the totals. o's node
 * and time budgets are the whole search's; o->count applies the game's
 * move-count rule (every front end sets it unless told --no-line: a mate
 * the rule pre-empts is no mate). GSW_EFAIL when they run out
 * (or o->stop is set) first. Not for a finished position. */
int solver_mate(const gv_t *v, const void *pos, int max_moves, const dfpn_options_t *o, proof_tree_t *t, int *mate,
                dfpn_result_t *r, err_t *err);

/* One end of a proven interval: "win in 33", "draw", "loss in 36". */
void value_bound_text(val_t v, char *buf, size_t n);
/* "win in 13 plies", "at least a draw", "unknown (no win or loss in fewer
 * than 17 plies)". */
void value_text(val_t lo, val_t hi, char *buf, size_t n);
/* What bounds [lo, hi] that leave the value open prove, in a player's
 * words: "no win or loss in fewer than 17 plies", "at least a draw, no win
 * in fewer than 9 plies", "nothing proven yet". */
void value_open_text(val_t lo, val_t hi, char *buf, size_t n);
/* The reported value of pos: outcome, plies (-1 unknown), bound. */
gvalue_t value_report(const gv_t *v, const void *pos, val_t lo, val_t hi);
/* The game's own score for [lo, hi] at pos, if it has one and the interval
 * settles it (wdl: the sign is enough). Returns 1 when *score is set. */
int value_score(const gv_t *v, const void *pos, val_t lo, val_t hi, int wdl, int *score);

#endif
