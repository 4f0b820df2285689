/* The slices an endgame-database build needs, and the order it builds
 * them in: units (strongly connected groups of slices solved together),
 * each after the units it exits into. The builder's own piece
 * (solve/egdb_build.c); nothing outside solve/ uses it. */
#ifndef GSW_EGDB_PLAN_H
#define GSW_EGDB_PLAN_H

#include <stdint.h>

#include "solve/egdb.h"

#define EGDB_SUCC_MAX 512

/* A set of slice ids, in the order they were added. */
typedef struct egdb_slices {
    uint64_t *id;
    int n, cap;
    int *hash;                 /* open addressing: index + 1 into id; 0 free */
    int hcap;
} egdb_slices_t;
/* The place of id in s, or -1. */
int egdb_slices_find(const egdb_slices_t *s, uint64_t id);

/* The units in build order: Tarjan's strongly connected components over
 * the slices' successors (iterative), which come out successors first.
 * order[] lists slices unit by unit; ustart[u]
 * is unit u's first place in order (ustart[nunits] = n). */
typedef struct egdb_plan {
    egdb_slices_t s;
    int *order, *ustart, nunits;
} egdb_plan_t;
/* The target's slices (every slice of 1..pieces, or what a position or a
 * slice can reach) and their units in build order. */
int egdb_plan_target(const gv_t *v, const egdb_build_options_t *o, egdb_plan_t *pl, err_t *err);
void egdb_plan_free(egdb_plan_t *pl);

/* The units each unit of pl exits into, turned round: *left[u] counts the
 * units u waits for, dep[dstart[t] .. dstart[t + 1]) lists the units
 * waiting on t. Free the three arrays. */
int egdb_plan_deps(const gv_t *v, const egdb_plan_t *pl, int **left, int **dstart, int **dep, err_t *err);
/* plan_only: rep->critical, the longest chain of units still to build. */
int egdb_plan_critical(const gv_t *v, const egdb_plan_t *pl, egdb_build_report_t *rep, err_t *err);

/* What building a unit of n positions holds besides its move lists: its
 * arrays (bytes), and each thread's block cache for the probes of its
 * exits (MB) out of the budget (egdb_unit_memory, egdb_unit_disk: egdb.h). */
uint64_t egdb_unit_array_memory(uint64_t n, retro_metric_t m, int threads);
size_t egdb_unit_cache_mb(uint64_t n, retro_metric_t m, int threads, uint64_t budget);
/* What the probes of the exits of the unit of slices[0..ns-1] need of a
 * thread's block cache (MB; SIZE_MAX: too many exits to count, no cap). */
size_t egdb_unit_exit_mb(const gv_t *v, const uint64_t *slices, int ns, retro_metric_t m);

#endif
