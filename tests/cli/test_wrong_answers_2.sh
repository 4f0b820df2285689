#!/usr/bin/env bash
# Wrong answers, round 2 (issue 31), end to end:
# 1. values given the game's line: with the 4-piece distance-to-win
#    databases, after 19-15 1-5 15-18 5-1 18-15 1-5 15-11 5-1 from
#    W:WK19,K27:BK1 the move 11-15 repeats a position a third time. hint,
#    analyze, the perfect opponent and the value history must treat it as
#    the draw it is, and keep the win (11-7, 27-23, 27-24: win in 25).
# 2. a search stopped early is not stored as finished: a solve of a
#    position on the shipped book's last ply with a budget of 1000 nodes
#    stores the book's value without a best move, and the next solve must
#    search for the move rather than answer "best": null from the cache.
# 3. a position with no pieces is a loss in 0 to egdb probe, as to solve;
#    a solve with a budget does not build a tablebase it cannot finish.
# Needs GSW_BIN and jq.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
export GSW_EGDB="$tmp/egdb"

# ---- 1. the line ----
start='W:WK19,K27:BK1'
expect 0 "build the databases the position reaches" -- "$gsw" egdb build checkers --for "$start" --metric dtw
line='19-15 1-5 15-18 5-1 18-15 1-5 15-11 5-1'
script() { { echo "opponent human"; for m in $line; do echo "$m"; done; printf '%s\n' "$@"; } >"$tmp/script"; }

script hint analyze
expect 0 "hint and analyze after the line" -- "$gsw" shell checkers "$start" "$tmp/script"
has_re out '^hint: (11-7|27-23|27-24), win in 25 plies' "hint: a move that keeps the win in 25, not 11-15"
has_re out '^11-15 +draw: threefold repetition' "analyze: 11-15 is the draw by threefold repetition"
for m in 11-7 27-23 27-24; do has_re out "^$m +win 25" "analyze: $m wins in 25"; done

script "opponent perfect" "side first" history
expect 0 "the perfect opponent moves after the line" -- "$gsw" shell checkers "$start" "$tmp/script"
has_re out '^perfect: (11-7|27-23|27-24)$' "the perfect opponent keeps the win"
has_re out '^ +9\. (11-7|27-23|27-24) +got win 25 +best win 25' "value history: the move played, given the line"
! grep -q "Game over" "$tmp/out" && ok || bad "the game goes on: $(grep 'Game over' "$tmp/out")"

# the move played by hand: the game ends, and the history says what it got
script 11-15 history
expect 0 "11-15 played" -- "$gsw" shell checkers "$start" "$tmp/script"
has out "threefold repetition" "11-15 ends the game by threefold repetition"
has_re out '^ +9\. 11-15 +got draw: threefold repetition +best win 25' "value history: a draw thrown away"

# the cache keeps values of positions: a solve of the position itself (no line) still says win in 25
expect 0 "solve the position alone" -- "$gsw" solve checkers 'W:WK11,K27:BK1' --json
same "$(jq -r '.value, .plies' "$tmp/out" | tr '\n' ' ')" "win 25 " "the position's own value, from the cache or not"
expect 0 "cache verify after the line's analysis" -- "$gsw" cache verify checkers --json
same "$(jq -r .wrong "$tmp/out")" 0 "no row stored from the line is wrong for the position"

# ---- 1b. the 50-move rule in long database wins ----
# 8/8/8/7k/5K2/8/3P4/8 at halfmove 98: the fastest mate without the rule
# starts with a king move (Ke5, Kf5: mate in 15), which leaves Black a move
# to reach the 100th ply: under the rule those moves draw. d4 resets the
# count and mates in 16: the perfect opponent plays it. In 4k3/8/4K3/4P3
# at halfmove 98 the pawn is blocked and no mate comes in time: a draw.
# (issue 51: the values are the game's, under the rule; test_line_rules.sh
# checks every front end.)
for m in dtm dtc; do expect 0 "build KPK $m" -- "$gsw" egdb build chess KPK --metric $m; done
printf 'analyze\nhint\nopponent perfect\nside second\n' >"$tmp/script"
expect 0 "KPK at halfmove 98" -- "$gsw" shell chess '8/8/8/7k/5K2/8/3P4/8 w - - 98 60' "$tmp/script"
has_re out '^Ke5 +draw \(a win without the 50-move rule\)$' "analyze: the fastest mate without the rule is a draw under it, said so"
has_re out '^d4 +mate in 16$' "analyze: d4 mates in time"
has_re out '^hint: d4, mate in 16$' "hint: the mate that comes in time"
has_re out '^perfect: d4$' "the perfect opponent converts in time"
! grep -q '50-move rule?' "$tmp/out" && ok || bad "no hedged value is left: $(grep '50-move rule?' "$tmp/out")"
printf 'hint\n' >"$tmp/script"
expect 0 "KPK, the pawn blocked, at halfmove 98" -- "$gsw" shell chess '4k3/8/4K3/4P3/8/8/8/8 w - - 98 60' "$tmp/script"
has_re out '^hint: K[a-h][1-8], draw \(a win without the 50-move rule\)$' "hint: no win comes in time: a draw"
# the same positions at halfmove 0: the fastest mate, unmarked
printf 'hint\n' >"$tmp/script"
expect 0 "KPK at halfmove 0" -- "$gsw" shell chess '8/8/8/7k/5K2/8/3P4/8 w - - 0 60' "$tmp/script"
has_re out '^hint: K[ef]5, mate in 15$' "hint at halfmove 0: the fastest mate"

# ---- 2. a stopped solve ----
pos=637676651
rm -f "$GSW_DB"*
expect 1 "solve with 1000 nodes stops" -- "$gsw" solve connect4 $pos --nodes 1000 --json
same "$(jq -r '.complete, .best' "$tmp/out" | tr '\n' ' ')" "false null " "stopped: incomplete, no best move claimed"
expect 0 "the next solve finishes the job" -- "$gsw" solve connect4 $pos --json
same "$(jq -r '.complete, .best, .value, .plies' "$tmp/out" | tr '\n' ' ')" "true 4 win 27 " "complete, with best move 4"
same "$(jq -r .source "$tmp/out")" search "the incomplete row was not taken as an answer"
expect 0 "then from the cache" -- "$gsw" solve connect4 $pos --json
same "$(jq -r '.source, .best' "$tmp/out" | tr '\n' ' ')" "cache 4 " "the finished row answers, with its move"

# ---- 3. also ----
expect 0 "probe a position with no pieces" -- "$gsw" egdb probe checkers 'B:W:B' --json
same "$(jq -r '.value, .plies' "$tmp/out" | tr '\n' ' ')" "loss 0 " "no pieces: a loss in 0 for the side to move"
expect 0 "solve a position with no pieces" -- "$gsw" solve checkers 'B:W:B' --json
same "$(jq -r '.value, .plies' "$tmp/out" | tr '\n' ' ')" "loss 0 " "solve agrees"

t0=$(date +%s)
"$gsw" solve chess '8/8/8/3k4/8/8/2NN4/4K3 w - - 0 1' --time 1000 --json >"$tmp/out" 2>"$tmp/err"
t1=$(date +%s)
[ $((t1 - t0)) -le 20 ] && ok || bad "solve --time 1000 took $((t1 - t0)) s (a tablebase built beyond the budget)"
has err "egdb build chess KNNK" "the solve says how to build the ending"
[ ! -e "$GSW_EGDB/chess/dtm/KNNK.egdb" ] && ok || bad "a budgeted solve built KNNK"

echo "test_wrong_answers_2: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
