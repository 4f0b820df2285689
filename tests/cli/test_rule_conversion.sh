#!/usr/bin/env bash
# A win the 50-move rule leaves standing, but without its distance: KQKR's
# longest mate (8/8/8/8/2r5/8/2k5/K6Q w, mate in 35, 69 plies) at halfmove
# 40 has 60 plies left; the tablebase's distances to conversion take the
# rook in 59 of them, so White still wins, in a number of plies no search
# of that depth can count. solve answers at once from the tablebases (it
# searched for ever before) and says why there is no distance; at halfmove
# 50 the conversion comes too late: a draw, which says why. A solve
# without a budget builds the ending and its distances to conversion
# first, and says so without a search's progress lines in between. Needs
# GSW_BIN and jq. (Release only: KQKR and its conversions take seconds, a
# minute under ASan.)
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
eg="$tmp/egdb"
long='8/8/8/8/2r5/8/2k5/K6Q w - - 40 1'
val() { jq -r "$1" "$tmp/out" | tr '\n' ' ' | sed 's/ $//'; }

# (the ticker's "searching" lines every 50 ms, not 3 s: none may come while the build runs)
expect 0 "solve at halfmove 40" -- env GSW_SOLVE_TICK_MS=50 timeout 120 "$gsw" solve chess "$long" --dir "$eg" --no-cache --json
same "$(val '.value, .plies, .source, .nodes, .complete')" "win null egdb 0 true" \
    "a win under the rule, from the tablebases, no search"
same "$(val '.note')" "under the 50-move rule: converts in 59 plies; wins in 69 plies without it" "the note says why"
has err "building the KQKR tablebase in" "it built the ending"
has err "building the KQKR tablebase's distances to conversion" "and its distances to conversion"
grep -q "searching" "$tmp/err" && bad "search progress lines while the tablebases were built: $(grep -m2 searching "$tmp/err")" || ok
has_re err "built the KQKR tablebase's distances to conversion: [0-9]+ positions in [0-9.]+ s" "the build's end is said"
# the best move is one that converts soonest, and every other winning move
# converts no sooner
expect 0 "analyze at halfmove 40" -- "$gsw" analyze chess "$long" --dir "$eg" --json
best=$(jq -r '[.moves[] | select(.value == "win") | .conversion_plies] | min' "$tmp/out")
same "$best" 59 "the soonest conversion among the winning moves"
expect 0 "solve again" -- "$gsw" solve chess "$long" --dir "$eg" --no-cache --json
bm=$(val .best)
same "$(jq -r --arg m "$bm" '.moves[] | select(.move == $m) | .conversion_plies' <(\
    "$gsw" analyze chess "$long" --dir "$eg" --json))" 59 "solve's best move converts in 59"
expect 0 "text" -- "$gsw" solve chess "$long" --dir "$eg" --no-cache
has_re out ': win \(under the 50-move rule: converts in 59 plies; wins in 69 plies without it\), best move ' \
    "the text answer says it too"
# at halfmove 50 the rook falls too late: the rule's draw
expect 0 "solve at halfmove 50" -- "$gsw" solve chess "${long/ 40 1/ 50 1}" --dir "$eg" --no-cache --json
same "$(val '.value, .source, .nodes')" "draw egdb 0" "halfmove 50: a draw by the rule"
same "$(val '.note')" "by the 50-move rule: no conversion in the 50 plies left; wins in 69 plies without it" \
    "the draw says why"
# the position's value alone keeps its distance
expect 0 "solve --no-line" -- "$gsw" solve chess "$long" --dir "$eg" --no-cache --no-line --json
same "$(val '.value, .plies')" "win 69" "--no-line: mate in 35"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
