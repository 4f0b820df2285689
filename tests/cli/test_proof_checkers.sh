#!/usr/bin/env bash
# Proof trees of checkers endgames over the 4-piece databases. The first
# position, two men against three with Black to move, once ended after
# minutes with "df-pn: inconsistent table while extracting the proof tree":
# the side that picks a child took the one of least work, and on its line a
# repetition the table never saw let the other side escape (the table's
# values hold for positions, not for lines). Now the search keeps each
# settled node's height and the tree follows it down; a tree too large to
# expand in full is expanded as deep as fits, its deeper nodes leaves
# settled by the search. Checked: the value (a loss), exit 0 (about 40 s
# alone on 2 cores; the limit here, 300 s, allows for a loaded machine),
# the tree from the cache the second time, --json's counts, and a budget
# that stops the proof (exit 1, one line saying how far it got). Argument
# "quick" (the sanitizer build): a smaller position only. Needs GSW_BIN and
# python3.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }
mode=${1:-full}
dir="$tmp/egdb"
json() {
  python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
if not eval(sys.argv[2]): sys.exit("check failed: %s on %r" % (sys.argv[2], {k: d[k] for k in d if k != "root"}))
' "$tmp/out" "$1" 2>"$tmp/why" && ok || bad "$2: $(cat "$tmp/why")"
}

expect 0 "egdb build checkers --pieces 4" -- "$gsw" egdb build checkers --pieces 4 --metric wld --dir "$dir"

# smaller ones first (every build): three kings against two, where lines
# can repeat, and two men against three
small='B:WK18,26:BK3,5,6'
expect 0 "proof show $small" -- timeout 120 "$gsw" proof show checkers "$small" --dir "$dir" --depth 2
has out "a win for the side to move" "proof show $small"
has_re out "proof tree of [0-9]{3,} nodes" "proof show $small"
expect 0 "proof show W:W30,31:B1,2,3" -- timeout 120 "$gsw" proof show checkers 'W:W30,31:B1,2,3' --dir "$dir" --depth 1
has out "a loss for the side to move" "proof show W:W30,31:B1,2,3"

if [ "$mode" = full ]; then
  # the proof browser (shell): follow the tree to a database leaf, which says
  # what settles it; with only win/draw/loss files there is no perfect line
  short='W:W18,22,26:B11,15' follow=$(printf 'follow\n%.0s' $(seq 1 8))
  printf "new checkers %s\nproof\n%s" "$short" "$follow" | GSW_EGDB="$dir" "$gsw" shell --time 300 >"$tmp/out" 2>&1
  has out "values for the side to move there: =W a win" "shell proof: the legend"
  has_re out ": a leaf" "shell proof: followed to a leaf"
  has out "no distance-to-win file holds it" "shell proof: a database leaf without dtw files"
  # with the distance-to-win files the leaf shows its perfect line to the end
  expect 0 "egdb build checkers --pieces 4 --metric dtw" -- "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$dir"
  printf "new checkers %s\nproof\n%s" "$short" "$follow" | GSW_EGDB="$dir" "$gsw" shell --time 300 >"$tmp/out" 2>&1
  has_re out "the databases: (win|loss) in [0-9]+ plies; perfect line: .* \(the end\)" "shell proof: a database leaf's perfect line"

  p='B:W27,28,32:B5,9'
  t0=$(date +%s)
  expect 0 "proof show $p (regression: inconsistent table)" -- \
    timeout 300 "$gsw" proof show checkers "$p" --dir "$dir" --depth 1
  t1=$(date +%s)
  echo "proof show $p: $((t1 - t0)) s"
  has out "a loss for the side to move" "proof show $p"
  has_re out "^  9-1[34] =W" "proof show $p: both moves shown, each a win for White"
  # the tree was stored: the second time it comes from the cache, the same
  expect 0 "proof show $p --json (from the cache)" -- "$gsw" proof show checkers "$p" --dir "$dir" --depth 1 --json
  json 'd["source"] == "cache" and d["result"] == "disproven" and d["goal"] == "draw" and d["tree_size"] > 100 and d["searched_leaves"] >= 0 and len(d["root"]["children"]) == 2' \
    "proof show $p --json from the cache"
  # a budget stops it: exit 1 and one line saying how far the proof got
  expect 1 "proof show $p --nodes 100000 --no-cache" -- \
    "$gsw" proof show checkers "$p" --dir "$dir" --nodes 100000 --no-cache
  has_re err "budget ran out.*100,0[0-9]+ nodes" "proof show --nodes: how far it got"
  expect 1 "proof show $p --time 1000 --no-cache" -- "$gsw" proof show checkers "$p" --dir "$dir" --time 1000 --no-cache
  has_re err "budget ran out.* nodes in 1\.[0-9] s" "proof show --time: how far it got"
fi

echo "test_proof_checkers ($mode): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
