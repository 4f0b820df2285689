/* Opening books: every position reachable from the start up to ply N
 * (mirror images once, finished games left out) solved exactly, stored in
 * the cache as solved rows (so a solve's cache-first lookup answers them at
 * once) and marked as book positions (db/book.h), with per-ply statistics;
 * and a book loaded in memory as the searches' oracle (core/game.h), which
 * the cached solver uses below the root. For two-player games whose
 * positions never repeat and whose length is bounded: Connect Four. */
#ifndef GSW_SOLVE_BOOK_H
#define GSW_SOLVE_BOOK_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "db/cache.h"

#define BOOK_MAX_PLY 64
#define BOOK_MAX_POSITIONS 2000000    /* positions a build enumerates, at most (7x6: to ply 10) */

/* GSW_OK when v can have a book; else GSW_EINPUT with a message saying why. */
int book_supported(const gv_t *v, err_t *err);

typedef struct book_options {
    int ply;                   /* every position up to this ply */
    int threads;               /* workers solving ply-N positions (0: all cores) */
    size_t hash_mb;            /* their tables, all together (0: 128) */
    gsw_flag_t *stop;        /* Ctrl-C: what is solved is kept; a build again resumes */
    /* progress on stderr's behalf: a line now and then, and one with
     * ": done" at the end of each phase; NULL: none */
    void (*progress)(void *ctx, const char *line);
    void *ctx;
    /* the workers' caches' notices (cache_open_notice), with ctx */
    void (*notice)(void *ctx, const char *msg);
} book_options_t;

typedef struct book_report {
    int ply;
    int64_t positions;                 /* book positions up to ply */
    int64_t at_ply[BOOK_MAX_PLY + 1];  /* ... at each ply */
    int64_t searched;                  /* ply-N positions solved by search in this run */
    int64_t stored;                    /* ply-N positions found in the book already */
    int64_t derived;                   /* positions below ply N valued from their children in this run */
    uint64_t nodes;                    /* the searches' nodes */
    double ms;
    int complete;                      /* 0: stopped (Ctrl-C) */
} book_report_t;

/* Build (or finish, or extend) v's book to o->ply in cache: the ply-N
 * positions not yet in it are solved by the cached solver on o->threads
 * workers, each over its own table and its own connection to the cache
 * file, every result stored as it comes; the plies below are then valued
 * by negamax over their children's values (no search). A stop returns
 * GSW_OK with r->complete 0. */
int book_build(gv_t *v, cache_t *cache, const book_options_t *o, book_report_t *r, err_t *err);

typedef struct book_ply {
    int64_t positions;                 /* book positions at this ply */
    int64_t wins, draws, losses;       /* ... by value for the first player */
    int64_t unsolved;                  /* ... whose solved row is gone or inexact */
} book_ply_t;

typedef struct book_stats {
    int max_ply;                       /* the deepest ply (-1: no book) */
    book_ply_t ply[BOOK_MAX_PLY + 1];
    book_ply_t total;
} book_stats_t;

int book_stats(const gv_t *v, cache_t *cache, book_stats_t *st, err_t *err);

/* v's book in memory: exact values by canonical key. */
typedef struct book book_t;
/* Load v's book from cache: 1 (*b set) when it has one, 0 (*b NULL) when
 * not, -1 on error. */
int book_load(book_t **b, const gv_t *v, cache_t *cache, err_t *err);
void book_free(book_t *b);
/* The deepest ply it holds. */
int book_max_ply(const book_t *b);
/* The book as the searches' oracle: exact values of its positions. */
const gsw_oracle_t *book_oracle(const book_t *b);

/* Book files (db/bookfile.h), to ship a book with gsw. */
typedef struct book_file_report {
    int64_t positions;
    int max_ply;
    uint64_t checksum;                 /* the file's FNV-1a 64 */
} book_file_report_t;
/* Write v's book in cache (every position's value, which must all be
 * there) to path. */
int book_export(const gv_t *v, cache_t *cache, const char *path, book_file_report_t *r, err_t *err);
/* Read a book file for v: every entry must be a position of v at its
 * stated ply, by its canonical key; a damaged file is refused whole. */
int book_open_file(book_t **b, const gv_t *v, const char *path, book_file_report_t *r, err_t *err);
/* Where v's shipped book is (GSW_BOOKS, else the data/books folder of the
 * source tree gsw was built from): 1 and path set when gsw ships one for
 * v or that folder has one for it, 0 when not (or GSW_BOOKS is set empty). */
int book_shipped_path(const gv_t *v, char *path, size_t n);
/* The deepest ply a book file's header states, read without loading the
 * book (db/bookfile.h's bookf_peek: a hint the whole read confirms); -1
 * when the header cannot be read. */
int book_file_depth(const char *path);
/* Record the book file at path (written or checked now, `positions` in it)
 * in its folder's MANIFEST (db/manifest.h), argv the command as typed. */
int book_file_record(const char *path, int argc, char *const *argv, int64_t positions, err_t *err);

#endif
