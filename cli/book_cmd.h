/* gsw book build|stats|export|check: opening books of solved positions. */
#ifndef GSW_BOOK_CMD_H
#define GSW_BOOK_CMD_H

#include "cli/opts.h"

extern const cli_verb_t verb_book;

#endif
