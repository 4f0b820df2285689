#!/usr/bin/env bash
# `gsw solve checkers` and `gsw proof run|show|export checkers`: a bad FEN
# exits 2 with the parser's one-line message before any search; a small
# position solves with the same --json fields as Connect Four and is cached;
# a budget too small exits 1 with the heuristic engine's line (text and
# --json); a proof of a small position runs, shows and exports. Needs
# GSW_BIN (set by ctest) and python3.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }

# run CODE DESCRIPTION -- command...: exit code; stdout in $tmp/out, stderr in $tmp/err
run() {
  local code=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  if [ "$rc" -ne "$code" ]; then bad "$what: exit $rc, expected $code ($(head -c 300 "$tmp/err"))"; return 1; fi
  ok
}
has() { grep -qF -- "$2" "$tmp/$1" && ok || bad "$3: '$2' not in $1: $(head -c 400 "$tmp/$1")"; }
# json CHECK DESCRIPTION: $tmp/out is one JSON object for which CHECK (over d) holds
json() {
  python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
if not eval(sys.argv[2]): sys.exit("check failed: %s on %r" % (sys.argv[2], d))
' "$tmp/out" "$1" 2>"$tmp/why" && ok || bad "$2: $(cat "$tmp/why")"
}

# a bad FEN: exit 2, the parser's message on one line, nothing on stdout
for fen in "B:W:Bbad" "X:W1:B2" "B:W1" "B:W1,1:B2"; do
  run 2 "solve checkers \"$fen\"" -- "$gsw" solve checkers "$fen" --nodes 1
  [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "FEN" "$tmp/err" && [ ! -s "$tmp/out" ] && ok \
    || bad "solve checkers \"$fen\": not one line naming the FEN: $(cat "$tmp/err")"
  run 2 "solve --json checkers \"$fen\"" -- "$gsw" solve checkers "$fen" --json
  [ ! -s "$tmp/out" ] && ok || bad "solve --json with a bad FEN printed: $(cat "$tmp/out")"
done

# two kings against one: a win, with Connect Four's fields; then from the cache
fields='all(k in d for k in ("game","position","value","plies","score","best","bound","nodes","time_ms","source","algo","complete"))'
run 0 "solve checkers 2K v 1K" -- "$gsw" solve checkers "B:WK10:BK1,K2" --json
json "$fields and d['value'] == 'win' and d['complete'] and d['source'] == 'search' and d['algo'] == 'ab' and 0 < d['plies'] <= 33" "2K v 1K --json"
run 0 "solve checkers 2K v 1K again" -- "$gsw" solve checkers "B:WK10:BK1,K2" --json
json "d['value'] == 'win' and d['source'] == 'cache'" "2K v 1K from the cache"
# the same by df-pn and the manager (win/draw/loss)
for algo in dfpn manager; do
  run 0 "solve --algo $algo" -- "$gsw" solve checkers "W:WK10:BK1,K2" --algo $algo --json --no-cache
  json "$fields and d['value'] == 'loss' and d['algo'] == '$algo'" "--algo $algo"
done
# king against king: a draw (a repetition is a draw; nothing path-dependent is cached)
run 0 "solve checkers K v K" -- "$gsw" solve checkers "B:WK32:BK1"
has out "draw" "K v K"
run 0 "solve checkers K v K again" -- "$gsw" solve checkers "B:WK32:BK1" --json
json "d['value'] == 'draw' and d['source'] == 'cache'" "K v K from the cache"
# no legal move: lost
run 0 "solve checkers blocked" -- "$gsw" solve checkers "B:W29,30:B25" --json --no-cache
json "d['value'] == 'loss' and d['plies'] == 0" "blocked"

# a budget too small: exit 1, the bounds proven, and the heuristic line
run 1 "solve --nodes 1000" -- "$gsw" solve checkers "W:WK27:BK5,K6,10" --nodes 1000 --no-cache
has out "heuristic: score" "budget spent, text"
has err "budget spent" "budget spent, text"
run 1 "solve --nodes 1000 --json" -- "$gsw" solve checkers "W:WK27:BK5,K6,10" --nodes 1000 --no-cache --json
json "$fields and not d['complete'] and d['heuristic']['depth'] >= 1 and len(d['heuristic']['pv']) >= 1 and isinstance(d['heuristic']['score'], int)" "budget spent, --json"
run 1 "solve --time 5" -- "$gsw" solve checkers "W:WK27:BK5,K6,10" --time 5 --no-cache --json
json "not d['complete'] and 'heuristic' in d" "--time budget"

# proofs: a forced win (Black's king steps aside, White's man must move, Black takes it)
pos="B:W21:B14,K1"
run 0 "proof run" -- "$gsw" proof run checkers "$pos"
has out "win for the side to move" "proof run"
run 0 "proof show" -- "$gsw" proof show checkers "$pos"
has out "a win for the side to move" "proof show"
has out "14x21" "proof show names the capture"
run 0 "proof show again" -- "$gsw" proof show checkers "$pos" --json
json "d['result'] == 'proven' and d['goal'] == 'win' and d['source'] == 'cache'" "proof show from the cache"
run 0 "proof export" -- "$gsw" proof export checkers "$pos" --format json
json "d['tree_size'] >= 2 and d['root']['children'][0]['move']" "proof export json"
run 0 "proof export dot" -- "$gsw" proof export checkers "$pos" --format dot
has out "digraph proof" "proof export dot"
run 2 "proof show with a bad FEN" -- "$gsw" proof show checkers "B:W1:Bx"
has err "FEN" "proof show with a bad FEN"

# analyze where proofs are out of reach: a default budget per move, said,
# and every move listed
run 0 "analyze checkers (no budget)" -- "$gsw" analyze checkers 'B:W18,22,26,30,31:B1' --no-cache
has err "each move gets 2 s" "analyze says its budget per move"
has out "1-5 " "analyze lists 1-5"
has out "1-6 " "analyze lists 1-6"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
