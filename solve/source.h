/* Knowledge sources: what the cached solver (solve/solver.h) asks before it
 * searches, behind one interface. A source opens for a variant, probes a
 * position (an exact value or proven bounds, and a best move where it
 * knows one), describes itself (the "source" of an answer) and closes; one
 * that can answer below a root also hands the searches an oracle
 * (core/game.h). The registry lists the built-in kinds in chain order:
 * adding one is a file implementing source_kind_t and a line in
 * source_registry (solve/source.c); solver_add_source adds one at run time. */
#ifndef GSW_SOLVE_SOURCE_H
#define GSW_SOLVE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "core/ab.h"
#include "core/dfpn.h"
#include "core/game.h"
#include "db/cache.h"

/* What open gets: the variant and the solver's surroundings. */
typedef struct source_env {
    gv_t *v;
    const char *dir;          /* the endgame databases' folder (NULL: egdb/ beside db) */
    const char *strong_dir;   /* the strong solutions' folder (NULL: strong/ beside db) */
    const char *db;           /* the cache file's path (NULL: the default cache's) */
    cache_t *cache;           /* the solver's cache (NULL: none) */
    /* warnings (said once in a row) and notices (a build under way), with ctx */
    void (*warn)(void *ctx, const char *msg);
    void (*note)(void *ctx, const char *msg);
    void *ctx;
} source_env_t;

/* What a probe is asked: a position and what would settle it. */
typedef struct source_query {
    gv_t *v;
    const void *pos;           /* the root of the solve */
    int want_best;             /* the solve wants a best move with the value */
    int wdl;                   /* the solve asks win/draw/loss only (solver_t.wdl) */
    int proof_numbers;         /* it proves with df-pn or the manager (win/draw/loss) */
    int goal;                  /* ... one goal of theirs (dfpn_goal_t); -1 the value */
    int no_book;               /* never look for a book (the book's own builders) */
    int no_build;              /* never build a missing ending (solver_t.no_build); 2: say
                                  once (warn) that the root's ending is not built */
    const uint8_t *key;        /* pos's cache key, its length (0: no cache) and symmetry */
    size_t klen;
    int sym;
    const ab_options_t *ab;    /* the search's options (threads, stop, budget) */
} source_query_t;

/* What a probe found. */
typedef enum {
    SOURCE_ANSWER,             /* the answer: the solve returns it */
    SOURCE_KNOWN,              /* proven bounds, no answer: a search starts inside them */
    SOURCE_SEED                /* a partial proof: a search resumes from it (and may find it false) */
} source_use_t;

typedef struct source_answer {
    val_t lo, hi;              /* for pos's side to move */
    move_t best;               /* MOVE_NONE: none named */
    double time_ms;
    source_use_t use;
    char note[96];             /* the answer in the source's own words, for the
                                  person ("Syzygy, DTZ 23"; "" none) */
} source_answer_t;

/* How it names itself: "source" in answers (--json), and words for a
 * status line ("the endgame databases": "(from the endgame databases)").
 * Both live as long as the source. */
typedef struct source_description {
    const char *name;
    const char *phrase;
} source_description_t;

typedef struct source_kind {
    /* 1 with *ctx when it has something for env->v, 0 when not (nothing to
     * close), -1 on error (err). */
    int (*open)(const source_env_t *env, void **ctx, err_t *err);
    /* pos at the root: 1 with *a filled (a->best preset MOVE_NONE, a->use
     * SOURCE_ANSWER), 0 when it knows nothing useful, -1 on error. NULL:
     * never at the root. */
    int (*probe)(void *ctx, const source_query_t *q, source_answer_t *a, err_t *err);
    /* The oracle a search from root (q->pos) may consult below it, NULL
     * when none; q->pos NULL: the one the heuristic engine keeps between
     * solves (solver_t.ab.oracle). NULL: never. */
    const gsw_oracle_t *(*oracle)(void *ctx, const source_query_t *q);
    void (*describe)(void *ctx, source_description_t *d);
    void (*close)(void *ctx);
    /* optional: after a search (whatever it consulted), say what its
     * probes found (a damaged file) through the env's warn */
    void (*after_search)(void *ctx);
    /* optional: the distance to conversion of pos (solver_conversion) */
    int (*conversion)(void *ctx, const void *pos, int *plies);
    /* optional: keep what a solve proved (the cache): row e merged under
     * q->key, or, e NULL, the row there dropped (a stored value a search
     * found false); with now (or e NULL) written at once, else when the
     * next write comes. 0 done, -1 on error (err). Every source that has
     * it keeps the solver's proofs. */
    int (*store)(void *ctx, const source_query_t *q, const cache_entry_t *e, int now, err_t *err);
    /* optional: 1 when it knows pos (a probe would answer): the sources
     * that build what they lack on demand (gsw's tablebases) build nothing
     * for it (source_query_t.no_build) */
    int (*covers)(void *ctx, const void *pos);
    int first;                 /* asked at the root before the sources ahead of it in the
                                  registry (the shipped book, before the cache) */
    int shadows;               /* where it answers below a root, the sources after it are
                                  not asked there */
    int with_dirs;             /* opened by solver_open_egdb (its folders), not by solver_init */
} source_kind_t;

/* The built-in kinds, in chain order. */
extern const source_kind_t source_cache;         /* solve/source_cache.c */
extern const source_kind_t source_egdb;          /* solve/source_egdb.c */
extern const source_kind_t source_syzygy;        /* solve/source_syzygy.c */
extern const source_kind_t source_strong;        /* solve/source_strong.c */
extern const source_kind_t source_book_shipped;  /* solve/source_book.c */
extern const source_kind_t source_book_cache;    /* solve/source_book.c */
extern const source_kind_t *const source_registry[];   /* NULL-terminated */

/* One open source. */
typedef struct source {
    const source_kind_t *kind;
    void *ctx;
} source_t;

#define SOURCE_MAX 16
/* The sources a solver asks, and the oracle its searches see. */
typedef struct source_chain {
    source_t src[SOURCE_MAX];  /* kind NULL: a registry kind not open */
    int n;
    /* a search's oracle where several sources answer below its root */
    const gsw_oracle_t *below[SOURCE_MAX];
    int nbelow;
    gsw_oracle_t multi;
} source_chain_t;

/* The file of the cache a solver keeps its proofs in, where the sources
 * look for their folders beside it (NULL: no cache). */
const char *source_cache_file(const cache_t *cache);

/* The proof-tree manager's and the prover's leaves may be settled by the
 * cache: a probe over one connection shared by their worker threads (under
 * a lock); source_cache_probe is a dfpn probe (core/dfpn.h) over it. */
typedef struct source_cache_probe {
    cache_t *cache;
    void *lock;            /* a pthread mutex, made by source_cache_probe_init */
} source_cache_probe_t;
void source_cache_probe_init(source_cache_probe_t *p, cache_t *cache);
void source_cache_probe_free(source_cache_probe_t *p);
int source_cache_probe(void *ctx, const gv_t *v, const void *pos, dfpn_goal_t goal, int attacker, int *proven);

/* The root's value from an oracle where it is enough of an answer (it
 * settles q, or it is a win or a loss), with the best move by its moves'
 * values (the one worth most to the mover): 1 with *a, 0 not. Under the
 * move-count rule a distance the rule took away is left to a search when
 * the root converts within SOURCE_SEARCH_CONVERSION plies; beyond them
 * the result is the answer, without its distance. */
#define SOURCE_SEARCH_CONVERSION 12
int source_oracle_answer(const source_query_t *q, const gsw_oracle_t *o, source_answer_t *a);
/* That best move: the child o values best for the mover (exact with
 * distances: the fastest win, the slowest loss). Bounds are ranked by
 * what the mover is sure of, its lower bound, then by its upper bound (a
 * move the move-count rule leaves between a loss and a draw ranks below a
 * draw); among equal results without distances, the one converting
 * soonest for the winner, latest for the loser
 * (source_conversion_better). MOVE_NONE when o knows no child. */
move_t source_oracle_best(const gv_t *v, const gsw_oracle_t *o, const void *pos);
/* The plies from a move to the next conversion that keeps its result, when
 * o knows the result of child (the position the move leads to) without its
 * distance: 1 when the move converts (pos_reversible says 0), else 1 + the
 * child's distance to conversion (o->conversion); -1 unknown. */
int source_conversion_plies(const gv_t *v, const gsw_oracle_t *o, const void *child);
/* Between two moves of the same value without a distance: is the one whose
 * position is worth child_lo to the opponent, conv plies from a conversion,
 * better than the best so far (best_conv)? The winner converts soonest, the
 * loser latest; -1 (unknown) is never better. */
static inline int source_conversion_better(val_t child_lo, int conv, int best_conv)
{
    if (conv < 0) return 0;
    return child_lo < VAL_DRAW ? best_conv < 0 || conv < best_conv : conv > best_conv;
}
/* Is [lo, hi] enough of an answer for q? */
int source_settles(const source_query_t *q, val_t lo, val_t hi);

/* The oracle below root q->pos: each source's in chain order up to one
 * that shadows the rest; none: NULL; one: its own (no indirection);
 * several: c->multi, which asks them in turn. */
const gsw_oracle_t *source_chain_oracle(source_chain_t *c, const source_query_t *q);

#endif
