#!/usr/bin/env bash
# Every verb and subverb with --json, read by a real JSON parser (python3):
# stdout holds exactly one JSON document (an object) whenever the verb gets
# to an answer, complete or not (exit 0, or 1 for a spent budget or a batch
# mismatch); where --json does not apply (the workbench, the shell, opening
# a lesson, a dot export) the exit is 2 with one line saying so and nothing
# on stdout; bad input with --json is exit 2, one line, nothing on stdout.
# Needs GSW_BIN (set by ctest), GSW_TEST_DATA and python3.
set -u
. "$(dirname "$0")/cli_lib.sh"
data=${GSW_TEST_DATA:?}
command -v python3 >/dev/null || { echo "FAIL: python3 is needed (tools/install-deps.sh installs it)"; exit 1; }

# doc CODE CHECK -- gsw ARGS...: exit CODE, stdout one JSON object for which
# the Python expression CHECK (over d) holds ("1": any object)
doc() {
  local code=$1 check=$2; shift 3
  "$gsw" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$? what="gsw $*"
  if [ "$rc" -ne "$code" ]; then bad "$what: exit $rc, expected $code ($(head -c 300 "$tmp/err"))"; return; fi
  if python3 -c '
import json, sys
s = open(sys.argv[1]).read()
try:
    d = json.loads(s)   # one document: nothing before or after it but white space
except ValueError as e:
    sys.exit("not one JSON document (%s): %r" % (e, s[:300]))
if not isinstance(d, dict):
    sys.exit("not an object: %r" % s[:300])
if not s.endswith("}\n") or s.count("\n") != 1:
    sys.exit("not one line: %r" % s[:300])
if not eval(sys.argv[2]):
    sys.exit("check failed: %s on %r" % (sys.argv[2], s[:400]))
' "$tmp/out" "$check" 2>"$tmp/why"; then ok; else bad "$what: $(cat "$tmp/why")"; fi
}
# na ARGS...: exit 2, one line on stderr saying --json does not apply, stdout empty
na() {
  "$gsw" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$? what="gsw $*"
  [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "--json does not apply" "$tmp/err" \
    && ok || bad "$what: exit $rc, stdout $(head -c 100 "$tmp/out"), stderr $(cat "$tmp/err")"
}
# refused ARGS...: bad input with --json: exit 2, one line on stderr, stdout empty
refused() {
  "$gsw" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$? what="gsw $*"
  [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
    && ok || bad "$what: exit $rc, stdout $(head -c 100 "$tmp/out"), stderr $(cat "$tmp/err")"
}

# the small verbs
doc 0 'any(g["name"] == "connect4" for g in d["games"])' -- games --json
doc 0 'len(d["verbs"]) >= 12 and d["version"]' -- help --json
doc 0 'd["name"] == "solve" and "usage" in d' -- help solve --json
doc 0 'd["name"] == "solve"' -- solve --help --json
doc 0 'len(d["verbs"]) >= 12' -- --help --json
doc 0 'd["version"]' -- version --json
doc 0 'd["version"]' -- --version --json
doc 0 'd["nodes"] == 2401' -- perft connect4 "" 4 --json

# solve: one position, each algorithm, an unfinished proof, batches
doc 0 'd["value"] == "draw" and d["bound"] == "exact"' -- solve connect4:4x4 "" --json
doc 1 'd["value"] == "unknown" and d["bound"] == "unknown" and not d["complete"] and "at_least" in d["proven"]' \
  -- solve connect4 "" --nodes 1000 --threads 1 --json --no-cache
doc 0 'd["value"] == "loss" and d["algo"] == "dfpn"' -- solve connect4:6x4 "" --algo dfpn --json --no-cache
doc 0 'd["value"] == "draw" and d["bound"] == "lower"' -- solve connect4:5x4 "" --algo manager --goal draw --json --no-cache
head -20 "$data/connect4/Test_L3_R1" >"$tmp/good"
doc 0 'len(d["lines"]) == 20 and d["summary"]["positions"] == 20 and d["summary"]["mismatches"] == 0 and d["summary"]["complete"]' \
  -- solve connect4 --batch "$tmp/good" --json
(head -3 "$tmp/good"; echo "2252576253462244111563365343671351441 5") >"$tmp/wrong"
doc 1 'd["summary"]["mismatches"] == 1 and not d["lines"][3]["ok"]' -- solve connect4 --batch "$tmp/wrong" --json
# solitaire: solve, fewest moves, a player, a spent budget
doc 0 'd["solvable"] and d["jumps"] == 31' -- solve solitaire --json
doc 0 'd["moves"] == 9 and d["minimal"]' -- solve solitaire:triangle,start=4,goal=any --min-moves --json
doc 0 'd["pegs_left"] == 1' -- solve solitaire --player heuristic:classes --json
doc 1 'd["solvable"] is None' -- solve solitaire:wiegleb,start=e1,goal=e1 --nodes 5000 --json

# analyze: every move; stopped by a budget; a puzzle's moves
doc 0 'len(d["moves"]) == 4 and d["complete"]' -- analyze connect4:4x4 "" --json
doc 1 'not d["complete"] and d["moves"][-1]["bound"] == "unknown"' -- analyze connect4 "" --nodes 500 --threads 1 --json --no-cache
doc 0 'd["solvable"] and [m["value"] for m in d["moves"]] == ["solvable"] * 4' -- analyze solitaire:english --json
doc 0 'not d["solvable"] and d["reason"] and all(m["value"] == "dead end" for m in d["moves"])' -- analyze solitaire:french --json

# count and bench
doc 0 'd["solutions"] == 29760' -- count solitaire:triangle --solutions --json
doc 0 'd["positions"] > 0 and len(d["levels"]) > 0' -- count solitaire:triangle --positions --json
doc 0 'len(d["players"]) == 5 and d["complete"]' -- bench solitaire:triangle --players --json
doc 0 '[e["name"] for e in d["engines"]] == ["chess-search", "chess-retrograde"] and d["complete"]' -- bench chess --json

# the cache
doc 0 'd["rows"] >= 1 and not d["read_only"]' -- cache stats --json
doc 0 'd["ok"]' -- cache check --json
doc 0 'd["rows"] >= 1 and d["wrong"] == 0 and d["complete"]' -- cache verify --json
doc 0 'd["complete"]' -- cache verify connect4:4x4 --json

# opening books
doc 0 'd["complete"] and d["positions"] == 37 and [p["positions"] for p in d["plies"]] == [1, 2, 8, 26]' -- book build connect4:4x4 --ply 3 --json
doc 0 'd["max_ply"] == 3 and d["positions"] == 37 and d["plies"][0]["draws"] == 1' -- book stats connect4:4x4 --json
refused book build connect4:4x4 --ply 17 --json
refused book stats checkers --json

# proof trees: run, show, export (as JSON; dot is no JSON)
doc 0 'd["value"] == "draw" and d["complete"]' -- proof run connect4:4x4 "" --json --hash 16
doc 1 'd["value"] in ("unknown", "at most a draw") and not d["complete"]' -- proof run connect4:6x5 "" --time 200 --hash 16 --json --db "$tmp/run.sqlite"
doc 0 'd["result"] == "proven" and "children" in d["root"]' -- proof show connect4:4x4 "" --depth 2 --json
doc 0 'd["tree_size"] > 1' -- proof export connect4:4x4 "" --format json
doc 0 'd["tree_size"] > 1' -- proof export connect4:4x4 "" --format json --json
doc 0 'd["tree_size"] > 1' -- proof export connect4:4x4 "" --json
doc 0 'd["tree_depth"] >= 16' -- proof export connect4:5x4 "" --json --db "$tmp/deep.sqlite"   # nesting deeper than 32

# lessons: the list is JSON; opening one is the workbench's
doc 0 'any(l["name"] == "connect4-centre" for l in d["lessons"])' -- lesson --json

# where --json does not apply
na play --json
na play connect4:5x4 --json
na shell --json
na shell connect4 44 --json
na lesson connect4-centre --json
na proof export connect4:4x4 "" --format dot --json

# bad input with --json: one line, nothing on stdout
refused solve connect4 48 --json
refused solve connect4 44 extra --json
refused solve connect4 --bogus --json
refused perft connect4 --json
refused cache frob --json
refused proof export connect4:4x4 "" --format svg --json
refused help nosuchverb --json
refused frobnicate --json

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
