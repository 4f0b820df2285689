/* Readline support shared by `gsw shell` and the TUI's command line: tab
 * completion of commands, game names, opponents, lessons and the legal
 * moves of the current position, and the history file in the data
 * directory. Readline's callbacks are global, so the session they complete
 * against is registered here (the one piece of global state in workbench/). */
#ifndef GSW_COMPLETE_H
#define GSW_COMPLETE_H

#include "workbench/session.h"

void complete_install(session_t *s);
/* Load the history from the data directory (kept across runs). */
void complete_history_load(void);
void complete_history_save(void);
/* The candidates for text at word index `word` of line: NULL-terminated,
 * malloc'd strings (the caller frees them and the array). */
char **complete_candidates(session_t *s, const char *line, int word, const char *text);

#endif
