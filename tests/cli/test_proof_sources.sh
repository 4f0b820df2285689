#!/usr/bin/env bash
# gsw proof run --sources search (issue 53): the manager's leaves are
# searched even where the cache already holds their value, so the manager
# can be watched at work; --sources all (the default) takes the cache's
# value; another word is refused with exit 2. Needs GSW_BIN (set by ctest).
set -u
. "$(dirname "$0")/cli_lib.sh"

pos='B:W30:B5,K10'   # Black wins in 7 plies
expect 0 "solve: the value into the cache" -- "$gsw" solve checkers "$pos" --db "$tmp/c.sqlite" --dir "$tmp/eg"
expect 0 "proof run: the cache settles the root" -- "$gsw" proof run checkers "$pos" --db "$tmp/c.sqlite" --dir "$tmp/eg"
has err "(0 solver nodes)" "sources all: the cache's value, no search"
expect 0 "proof run --sources search" -- "$gsw" proof run checkers "$pos" --db "$tmp/c.sqlite" --dir "$tmp/eg" --sources search
has err "sources: search only" "--sources search: said"
has_re err "win\?: proven; .*\([1-9][0-9,]* solver nodes\)" "--sources search: the leaf searched"
has out "win for the side to move" "--sources search: the same value"
expect 2 "--sources bad" -- "$gsw" proof run checkers "$pos" --db "$tmp/c.sqlite" --sources books
has err "--sources: all or search" "a bad --sources: one line"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
