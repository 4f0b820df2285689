/* Lessons: small text files of positions, narration and expected moves that
 * the TUI and the shell step through (format in lessons/README.md). A lesson
 * may carry the published value of each move of a step, so it runs at once;
 * the front end checks them against the cache or a solve when it can. */
#ifndef GSW_LESSON_H
#define GSW_LESSON_H

#include <stddef.h>

#include "core/err.h"
#include "core/value.h"

#define LESSON_MAX_VALUES 64
#define LESSON_MAX_EXPECT 16

typedef struct lesson_value {
    char move[24];
    outcome_t outcome;     /* for the player making the move */
    int plies;             /* -1 when not given */
} lesson_value_t;

typedef struct lesson_step {
    char title[96];
    char game[64];         /* GAME[:VARIANT] of this step; "" = the lesson's */
    char position[512];    /* "" = the start */
    char *say;             /* narration, lines joined by '\n' */
    char *right;           /* said after a move that keeps the value (optional) */
    int nvalues;
    lesson_value_t values[LESSON_MAX_VALUES];
    int nexpect;           /* moves the learner is asked to find (0: just read) */
    char expect[LESSON_MAX_EXPECT][24];
    int line;              /* where the step starts in the file */
} lesson_step_t;

typedef struct lesson {
    char name[64];         /* the file name without .lesson */
    char title[128];
    char game[64];         /* GAME[:VARIANT] */
    char about[256];
    int nsteps;
    lesson_step_t *steps;
} lesson_t;

/* Read and check a lesson: its game opens, every position parses, every
 * expected or valued move is legal there. GSW_EINPUT with file:line. */
int lesson_load(const char *path, lesson_t **out, err_t *err);
void lesson_free(lesson_t *l);
/* Where lessons live: $GSW_LESSONS, else the source tree's lessons/, else
 * the installed share/gsw/lessons. */
const char *lesson_dir(void);
/* Find NAME (a file name, with or without .lesson, or a path). */
int lesson_find(const char *name, char *path, size_t n, err_t *err);
/* The lessons in lesson_dir(), sorted: names[i] and titles[i]; the count. */
int lesson_list(char names[][64], char titles[][128], int max);
/* The game of step i: its own, else the lesson's. */
const char *lesson_step_game(const lesson_t *l, int i);
/* The published value of move text at step (NULL when none). */
const lesson_value_t *lesson_value(const lesson_step_t *st, const char *move);

#endif
