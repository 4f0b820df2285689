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

#endif
