#!/usr/bin/env bash
# gsw bench (issue 56 item 4): every engine's node count on its fixed set,
# the same in two runs with one thread; GAME runs that game's engines alone,
# with the same counts; the retrograde engine's scratch folder is removed;
# bad input refused in one line; Ctrl-C stops it with what ran reported.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "jq missing"; exit 77; }
mkdir -p "$tmp/scratch"
export TMPDIR="$tmp/scratch"

engines="connect4-ab connect4-dfpn connect4-bdd checkers-search chess-search chess-retrograde"
expect 0 "bench --json" -- "$gsw" bench --json
cp "$tmp/out" "$tmp/run1.json"
same "$(jq -r '[.engines[].name] | join(" ")' "$tmp/run1.json")" "$engines" "every engine, in order"
same "$(jq -r '[.engines[] | select((.nodes | type) == "number" and .nodes > 0 and .nodes == (.nodes | floor) and .ms > 0)] | length' "$tmp/run1.json")" 6 "each engine's nodes a positive integer, ms positive"
same "$(jq -r '.complete' "$tmp/run1.json")" true "complete"
same "$(jq -r '.nodes == ([.engines[].nodes] | add)' "$tmp/run1.json")" true "the total is the engines' sum"
# the retrograde engine: KPK with its five sub-endings, its scratch gone
same "$(jq -r '.engines[] | select(.name == "chess-retrograde") | .runs' "$tmp/run1.json")" 6 "KPK and its promotions built"
same "$(ls -A "$tmp/scratch" | wc -l)" 0 "the scratch folder removed"

expect 0 "bench again" -- "$gsw" bench --json
cp "$tmp/out" "$tmp/run2.json"
for e in $engines; do
  a=$(jq -r ".engines[] | select(.name == \"$e\") | .nodes" "$tmp/run1.json")
  b=$(jq -r ".engines[] | select(.name == \"$e\") | .nodes" "$tmp/run2.json")
  same "$b" "$a" "$e: the same node count in two runs"
done

# one game's engines, the same counts
expect 0 "bench chess" -- "$gsw" bench chess --json
same "$(jq -r '[.engines[].name] | join(" ")' "$tmp/out")" "chess-search chess-retrograde" "bench chess runs chess's engines"
same "$(jq -r '.engines[0].nodes' "$tmp/out")" "$(jq -r '.engines[] | select(.name == "chess-search") | .nodes' "$tmp/run1.json")" "chess-search alone counts the same"

# the table
expect 0 "bench connect4" -- "$gsw" bench connect4
has_re out "^connect4-ab +15 +[0-9,]+ " "the alpha-beta row: 15 positions"
has_re out "^connect4-bdd +21 " "the BDD row: 21 plies"
has_re out "^total +[0-9,]+ " "a total"
has out "1 thread, a 16 MB table" "the settings said"

# bad input
expect 2 "a variant" -- "$gsw" bench connect4:6x5
has err "name the game alone" "a variant refused"
expect 2 "no engine" -- "$gsw" bench solitaire
has err "--players" "solitaire points to --players"
expect 2 "unknown game" -- "$gsw" bench nosuchgame
expect 2 "a position" -- "$gsw" bench chess startpos
expect 2 "--board alone" -- "$gsw" bench connect4 --board x
expect 2 "threads 0" -- "$gsw" bench --threads 0
expect 0 "players still" -- "$gsw" bench solitaire:triangle --players
has out "heuristic:table" "--players lists the puzzle's players"

# Ctrl-C: the engines finished are reported, exit 1, a one-line note
"$gsw" bench --json >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 0.2   # (the first engine stopped midway, or more finished: the whole run takes about 0.9 s on one idle core)
kill -INT "$pid"
wait "$pid"
rc=$?
same "$rc" 1 "Ctrl-C: exit 1"
has err "gsw: interrupted after" "Ctrl-C said"
same "$(jq -r '.complete' "$tmp/out")" false "Ctrl-C: complete false"
same "$(ls -A "$tmp/scratch" | wc -l)" 0 "the scratch folder removed after Ctrl-C"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
