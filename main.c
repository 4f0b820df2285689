/* gsw's entry point, and the one file that knows all three front ends: the
 * table of verbs handed to the command line's dispatcher (cli/cli.c). A new
 * verb is an entry defined beside its code and one line here. */
#include "cli/annotate_cmd.h"
#include "cli/bench_cmd.h"
#include "cli/book_cmd.h"
#include "cli/cache_cmd.h"
#include "cli/cli.h"
#include "cli/egdb_cmd.h"
#include "cli/game_cmd.h"
#include "cli/proof_cmd.h"
#include "cli/puzzle_cmd.h"
#include "cli/solve_cmd.h"
#include "cli/strong_cmd.h"
#include "protocol/match.h"
#include "protocol/tune.h"
#include "protocol/uci.h"
#include "workbench/verbs.h"

/* In the order `gsw help` lists them. */
static const cli_verb_t *const verbs[] = {
    &verb_play, &verb_shell, &verb_lesson,                    /* workbench/ */
    &verb_games, &verb_solve, &verb_analyze, &verb_annotate, &verb_proof,     /* cli/ */
    &verb_count, &verb_strong, &verb_egdb, &verb_bench, &verb_perft, &verb_cache,
    &verb_uci, &verb_match, &verb_tune,                       /* protocol/ */
    &verb_book, &verb_help, &verb_version,                    /* cli/ */
    NULL,
};

int main(int argc, char **argv)
{
    return cli_main(verbs, argc, argv);
}
