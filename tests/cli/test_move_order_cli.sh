#!/usr/bin/env bash
# Best first, in one order (issue 53): `gsw analyze` lists every move best
# first for the side to move, text and JSON alike, each JSON move with its
# rank (1 the best): wins, fastest first; draws; unproven moves; losses,
# slowest first. Three positions per game: checkers over the 4-piece
# databases built here, Connect Four 6x5, chess endings over their
# tablebases, and peg solitaire (solvable moves before dead ends).
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }
eg="$tmp/eg"
mkdir -p "$eg"
"$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$eg" --threads 2 >/dev/null 2>&1 || bad "4-piece build"

# sorted GAME POS [ARGS]: analyze's JSON moves are in the one order, ranked
# 1..n, and the text lists the same moves in the same order
sorted() {
  local game=$1 pos=$2; shift 2
  "$gsw" analyze "$game" "$pos" --json "$@" >"$tmp/j" 2>"$tmp/err"
  "$gsw" analyze "$game" "$pos" "$@" >"$tmp/t" 2>/dev/null
  local why
  why=$(jq -r '
    def cls: if .value == "win" then 4 elif .value == "draw" then 2 elif .value == "loss" then 0
             elif .value == "solvable" then 4 elif .value == "dead end" then 0 else 1 end;
    def key: if .value == "win" then -(.plies // 100000) elif .value == "loss" then (.plies // 0) else 0 end;
    [.moves[] | [cls, key, .rank]] as $m
    | if ($m | length) == 0 then "no moves"
      elif ([range(0; $m | length)] | map($m[.][2] == . + 1) | all | not) then "ranks are not 1..n"
      elif ([range(1; $m | length)] | map($m[. - 1][0:2] >= $m[.][0:2]) | all | not) then "not best first"
      else "" end' "$tmp/j")
  [ -z "$why" ] && ok || bad "$game '$pos': $why: $(jq -c '[.moves[]|[.move,.value,.plies]]' "$tmp/j")"
  local jm tm
  jm=$(jq -r '.moves[].move' "$tmp/j" | tr '\n' ' ')
  tm=$(awk '{print $1}' "$tmp/t" | grep -v '^(' | tr '\n' ' ')
  same "$tm" "$jm" "$game '$pos': the text's order is the JSON's"
}
# first GAME POS MOVE [ARGS]: the move ranked 1
first() {
  local game=$1 pos=$2 m=$3; shift 3
  same "$("$gsw" analyze "$game" "$pos" --json "$@" 2>/dev/null | jq -r '.moves[0].move')" "$m" "$game '$pos': the best first"
}

# checkers: a quick win first (a loss last); draws before a loss; wins alone
sorted checkers 'B:W20,27:BK22,12' --dir "$eg" --no-cache
first checkers 'B:W20,27:BK22,12' 22-18 --dir "$eg" --no-cache
same "$(jq -r '.moves[-1].move + " " + .moves[-1].value' "$tmp/j")" "12-16 loss" "checkers: the loss last"
sorted checkers 'W:WK19,28:BK22,12' --dir "$eg" --no-cache
same "$(jq -r '.moves[-1].move + " " + .moves[-1].value' "$tmp/j")" "19-16 loss" "checkers: draws before the loss"
sorted checkers 'B:WK28:BK1,K5,9' --dir "$eg" --no-cache
# Connect Four 6x5: wins before draws before losses
sorted connect4:6x5 '' --no-cache
sorted connect4:6x5 '4433' --no-cache
same "$(jq -r '[.moves[0:2][].value] | join(" ")' "$tmp/j")" "win win" "connect4 6x5 '4433': the two wins first"
sorted connect4:6x5 '3344' --no-cache
# chess endings over their tablebases: mates, fastest first, then the
# draws (the queen given away); a mate in 1 first
"$gsw" egdb build chess KQK --dir "$tmp/chess" >/dev/null 2>&1 || bad "KQK build"
"$gsw" egdb build chess KRK --dir "$tmp/chess" >/dev/null 2>&1 || bad "KRK build"
sorted chess '8/8/8/4k3/8/8/3QK3/8 w - - 0 1' --no-cache --dir "$tmp/chess"
same "$(jq -r '.moves[-1].value' "$tmp/j")" "draw" "chess KQK: the queen's loss last"
sorted chess '6k1/8/6K1/8/8/8/8/R7 w - - 0 1' --no-cache --dir "$tmp/chess"
first chess '6k1/8/6K1/8/8/8/8/R7 w - - 0 1' 'Ra8#' --no-cache --dir "$tmp/chess"
sorted chess '8/8/8/8/3k4/8/3K4/7r w - - 0 1' --no-cache --dir "$tmp/chess"
# a puzzle: solvable moves before dead ends
sorted solitaire:english 'oo.oooo/ooooooo/ooooooo/ooo.ooo/ooooooo/ooooooo/ooooooo'
# one truth: what a proof tree proved reaches analyze through the cache
# (the position alone: --no-line), and a node budget is each move's own
expect 0 "proof show" -- "$gsw" proof show checkers 'B:W20,27,28:B12,21,K22'
"$gsw" analyze checkers 'B:W20,27,28:B12,21,K22' --nodes 100000 --no-line --json >"$tmp/j" 2>/dev/null
same "$(jq -r '.moves[0].move + " " + .moves[0].value' "$tmp/j")" "22-18 win" "analyze after proof show: 22-18 a win, first"
same "$(jq '.moves | length' "$tmp/j")" "6" "analyze --nodes: every move listed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
