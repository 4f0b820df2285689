/* A lesson in the session: going to a step (its position, a new game), and
 * the learner's progress judged: the step's published values checked against
 * the solver's, and the value of the move the learner played. The lesson
 * files themselves are lesson.h's; a step's narration is commands.c's
 * (session_lesson_say, session.h). */
#ifndef GSW_SESSION_LESSON_H
#define GSW_SESSION_LESSON_H

#include "workbench/session.h"

/* Start a lesson (the session takes it over) at its first step; go to a step. */
int session_lesson_start(session_t *s, lesson_t *l, err_t *err);
int session_lesson_goto(session_t *s, int step, err_t *err);
/* The next step (the lesson ends after the last), said; a learner who
 * left the lesson's line is told the story goes back to it. */
int session_lesson_next(session_t *s, out_t *out, err_t *err);
/* Compare the step's published values with what the solver proved; the
 * number of disagreements. */
int session_lesson_check(session_t *s, out_t *out);
/* Say what the learner's move at this step was worth. */
void session_lesson_judge(session_t *s, out_t *out);

#endif
