#!/usr/bin/env bash
# gsw count connect4 and gsw strong build|query|best from the command line:
# the published counts, JSON shapes, the stored values against the solver's
# (analyze, solve), damage (truncated files, another board's), resume after
# Ctrl-C, and bad input as one-line errors.
source "$(dirname "$0")/cli_lib.sh"
d=$tmp/strong        # (the default folder too: strong/ beside $GSW_DB)
indep=$tmp/indep/cache.sqlite   # solves that must not see the strong solution

# --- counting ---
expect 0 "count 4x4 --json" -- "$gsw" count connect4:4x4 --json
py() { python3 -c "import json,sys; j=json.load(open('$tmp/out')); $1"; }
same "$(py 'print(j["total"], len(j["per_ply"]), [r["positions"] for r in j["per_ply"][:3]], j["peak_nodes"] > 0, j["time_ms"] >= 0)')" \
  "161029 17 [1, 4, 16] True True" "4x4: the published total, 17 plies"
same "$(py 'print(sum(r["positions"] for r in j["per_ply"]) == j["total"], type(j["total"]).__name__)')" "True int" \
  "per-ply counts add up to the total, an integer"
expect 0 "count 5x4 cellwise, row order" -- "$gsw" count connect4:5x4 --encoding cellwise --order row
has out "3,945,711" "5x4 total (cellwise, rows)"
has out "cellwise encoding, row order" "the encoding is named"
expect 0 "count 4x5" -- "$gsw" count connect4:4x5
has out "1,706,255" "4x5 total"
expect 0 "count 1x1" -- "$gsw" count connect4:1x1 --json
same "$(py 'print(j["total"], [r["positions"] for r in j["per_ply"]])')" "2 [1, 1]" "1x1: the empty board and one disc"
expect 2 "count: unknown encoding" -- "$gsw" count connect4:4x4 --encoding zip
has err "--encoding" "names the option"
expect 2 "count: unknown order" -- "$gsw" count connect4:4x4 --order diagonal
expect 2 "count: a board too big" -- "$gsw" count connect4:20x9
expect 2 "count: bad --memory" -- "$gsw" count connect4:4x4 --memory -1
expect 1 "count: node table too small" -- "$gsw" count connect4:6x5 --memory 0.001
has err "--memory" "says what to give more of"
expect 2 "count chess" -- "$gsw" count chess
expect 2 "count connect4 --solutions" -- "$gsw" count connect4:4x4 --solutions
expect 0 "count connect4 --positions (the flag is implied)" -- "$gsw" count connect4:3x3 --positions
expect 2 "count connect4 with a position" -- "$gsw" count connect4:4x4 1234

# --- the strong solution ---
expect 1 "query before a build" -- "$gsw" strong query connect4:4x4 "" --dir "$d"
has err "gsw strong build connect4:4x4" "says how to build it"
expect 0 "build 4x4 --json" -- "$gsw" strong build connect4:4x4 --dir "$d" --json
same "$(py 'p=j["plies"]; print(len(p), p[0]["drawn"], all(r["won"]+r["drawn"]+r["lost"]==r["total"] for r in p), p[16]["won"], j["resumed_from"])')" \
  "17 1 True 0 None" "4x4: 17 plies, the start drawn, sets add up, a full board is never won"
[ -f "$d/connect4-4x4/manifest" ] && ok || bad "no manifest in $d/connect4-4x4"
expect 0 "build again: nothing to do" -- "$gsw" strong build connect4:4x4 --dir "$d"
has out "already complete" "a complete build is checked, not redone"

# every move's value against analyze's (the searches), at a few positions
for p in "" 1 23 2332 2332141 12344321; do
  expect 0 "query '$p'" -- "$gsw" strong query connect4:4x4 "$p" --dir "$d" --json
  cp "$tmp/out" "$tmp/q.json"
  expect 0 "analyze '$p'" -- "$gsw" analyze connect4:4x4 "$p" --no-cache --db "$indep" --json
  cp "$tmp/out" "$tmp/a.json"
  expect 0 "solve '$p'" -- "$gsw" solve connect4:4x4 "$p" --no-cache --db "$indep" --json
  cp "$tmp/out" "$tmp/s.json"
  r=$(python3 - "$tmp" <<'EOF'
import json, sys
t = sys.argv[1]
q, a, s = (json.load(open(f"{t}/{n}.json")) for n in ("q", "a", "s"))
qa = {m["move"]: m["value"] for m in q["moves"]}
aa = {m["move"]: m["value"] for m in a["moves"]}
rank = {"win": 0, "draw": 1, "loss": 2}
best_first = [rank[m["value"]] for m in q["moves"]] == sorted(rank[m["value"]] for m in q["moves"])
print("ok" if qa == aa and q["value"] == s["value"] and best_first else f"query {q} analyze {a} solve {s}")
EOF
)
  same "$r" ok "query '$p' against analyze and solve"
done
# the solver's door: a win/draw/loss solve answers from the sets, an exact
# one searches with them as bounds (and agrees with the plain search)
expect 0 "solve --wdl from the strong solution" -- "$gsw" solve connect4:4x4 2332 --wdl --json
same "$(py 'print(j["source"], j["nodes"])')" "strong 0" "answered by the strong solution"
expect 0 "solve, exact, beside the strong solution" -- "$gsw" solve connect4:4x4 23 --no-cache --json
cp "$tmp/out" "$tmp/e.json"
expect 0 "solve, exact, without" -- "$gsw" solve connect4:4x4 23 --no-cache --db "$indep" --json
same "$(python3 -c "import json; a=json.load(open('$tmp/e.json')); b=json.load(open('$tmp/out')); print(a['value']==b['value'], a['plies']==b['plies'], a['nodes'] < b['nodes'])")" \
  "True True True" "the sets prune the exact search, same value and distance"
# the last move made four: a loss, no moves; a move after it: exit 2
expect 0 "query a won game" -- "$gsw" strong query connect4:4x4 1213141 --dir "$d" --json
same "$(py 'print(j["value"], j["moves"])')" "loss []" "the side to move has lost"
expect 2 "query past the end" -- "$gsw" strong query connect4:4x4 12131412 --dir "$d"
expect 2 "query a bad move" -- "$gsw" strong query connect4:4x4 19 --dir "$d"
expect 0 "query text" -- "$gsw" strong query connect4:4x4 "" --dir "$d"
has out "draw for the side to move" "the text answer"

# best: the fastest win, in plies, as solve finds it
for p in 1 2332141 22; do
  expect 0 "best '$p'" -- "$gsw" strong best connect4:4x4 "$p" --dir "$d" --json
  cp "$tmp/out" "$tmp/b.json"
  expect 0 "solve '$p'" -- "$gsw" solve connect4:4x4 "$p" --no-cache --db "$indep" --json
  same "$(python3 -c "import json; b=json.load(open('$tmp/b.json')); s=json.load(open('$tmp/out')); print(b['value']==s['value'], b.get('plies')==s.get('plies'))")" \
    "True True" "best '$p': value and plies as solve's"
done
expect 2 "best after the end" -- "$gsw" strong best connect4:4x4 1213141 --dir "$d"

# another board's files, a truncated file
mkdir -p "$d/connect4-5x4" && cp "$d/connect4-4x4/"* "$d/connect4-5x4/"
expect 1 "another board's files" -- "$gsw" strong query connect4:5x4 "" --dir "$d"
has err "made for connect4:4x4" "names the board they were made for"
rm -rf "$d/connect4-5x4"
f=$d/connect4-4x4/ply05-drawn.bdd
head -c 40 "$f" >"$f.cut" && mv "$f.cut" "$f"
expect 1 "a truncated file (ply 5: the moves of a 4-stone position)" -- "$gsw" strong query connect4:4x4 1212 --dir "$d"
has err "ply05-drawn.bdd" "names the file"
expect 0 "other plies still answer" -- "$gsw" strong query connect4:4x4 12 --dir "$d"
"$gsw" strong build connect4:4x4 --dir "$d" >"$tmp/out" 2>"$tmp/err" && ok || bad "rebuild after damage: $(tail -1 "$tmp/err")"
has err "building it again" "the damaged file is built again"
has out "resumed: plies 6 to 16" "only the plies below it"
expect 0 "query after the repair" -- "$gsw" strong query connect4:4x4 12121 --dir "$d"

# resume after Ctrl-C: the same table as a build in one go
"$gsw" strong build connect4:5x4 --dir "$tmp/one" >"$tmp/one.txt" 2>"$tmp/one.err" || bad "5x4 build"
# the backward pass says each set as it is made, and the last ply's time
has one.err "backward: ply 19: won set made, 33,855 positions" "a set made is said, with its count"
has one.err "backward: ply 18: making its won set (ply 19 took" "a ply's start names the last ply's time"
"$gsw" strong build connect4:5x4 --dir "$tmp/two" >/dev/null 2>"$tmp/prog" &
pid=$!
for _ in $(seq 200); do grep -q "backward: ply 1[0-6]" "$tmp/prog" 2>/dev/null && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 0 ]; then echo "note: the build finished before Ctrl-C"; ok; else same "$rc" 1 "Ctrl-C: exit 1"; fi
"$gsw" strong build connect4:5x4 --dir "$tmp/two" >"$tmp/two.txt" 2>/dev/null || bad "resumed 5x4 build"
[ $rc -eq 0 ] || has two.txt "resumed: plies" "the second run goes on"
same "$(grep -E '^ +[0-9]+ ' "$tmp/two.txt" | md5sum)" "$(grep -E '^ +[0-9]+ ' "$tmp/one.txt" | md5sum)" \
  "the resumed build's table equals the one-go build's"
has one.txt "   0                  0                  1                  0" "5x4: the start is a draw"
# Ctrl-C in the forward pass: the plies made are kept, and the next run
# goes on after the last of them
"$gsw" strong build connect4:6x4 --dir "$tmp/three" >/dev/null 2>"$tmp/prog" &
pid=$!
for _ in $(seq 200); do grep -q "forward: ply 1[0-9]" "$tmp/prog" 2>/dev/null && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
if grep -q "backward: ply" "$tmp/prog"; then echo "note: the forward pass ended before Ctrl-C"; ok
else
  same "$rc" 1 "Ctrl-C in the forward pass: exit 1"
  has prog "the plies made are kept" "Ctrl-C in the forward pass: said"
  "$gsw" strong build connect4:6x4 --dir "$tmp/three" --from-ply 20 >/dev/null 2>"$tmp/prog2" || bad "6x4 after Ctrl-C"
  has prog2 "going on after ply" "the forward pass goes on after the plies kept"
fi

# count keeps every ply's sets: stopped and run again, it goes on, with the
# table of a count in one go; a build then reuses them
expect 0 "count 6x4 in one go" -- "$gsw" count connect4:6x4 --dir "$tmp/c1"
grep -E '^ +[0-9]+ ' "$tmp/out" | awk '{print $1, $2, $3, $4}' >"$tmp/c1.txt"
"$gsw" count connect4:6x4 --dir "$tmp/c2" >/dev/null 2>"$tmp/prog" &
pid=$!
for _ in $(seq 400); do grep -q "^ply 12 " "$tmp/c2/connect4-6x4/manifest" 2>/dev/null && break; sleep 0.01; done
kill -INT $pid
wait $pid
rc=$?
expect 0 "count 6x4 again" -- "$gsw" count connect4:6x4 --dir "$tmp/c2"
if [ $rc -eq 0 ]; then echo "note: the count finished before Ctrl-C"; ok
else has out "went on after ply" "the second count goes on"; fi
same "$(grep -E '^ +[0-9]+ ' "$tmp/out" | awk '{print $1, $2, $3, $4}' | md5sum)" "$(md5sum <"$tmp/c1.txt")" \
  "the resumed count's table equals the one-go count's"
expect 0 "count 6x4 a third time" -- "$gsw" count connect4:6x4 --dir "$tmp/c2" --json
same "$(py 'print(j["total"], j["resumed_after"], len(j["per_ply"]))')" "94910577 24 25" "counted before: read back"
expect 0 "build from a count: no forward pass" -- "$gsw" strong build connect4:6x4 --dir "$tmp/c2" --from-ply 22
[ -s "$tmp/err" ] && ! grep -q "forward: ply" "$tmp/err" && ok || bad "the build made the forward pass again"

# two at once in one folder: the second waits for the first, then reads
# back what it made
"$gsw" strong build connect4:5x4 --dir "$tmp/lk" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 400); do [ -f "$tmp/lk/connect4-5x4/manifest" ] && break; sleep 0.01; done
expect 0 "a count while a build runs there" -- "$gsw" count connect4:5x4 --dir "$tmp/lk" --json
wait $pid && ok || bad "the build beside a count failed"
has err "waiting: another gsw" "the count said it waits"
same "$(py 'print(j["total"], j["resumed_after"])')" "3945711 20" "then read the build's plies back"

# --from-ply: the last plies alone, equal to the full build's rows; other
# plies are named, and a later full build goes on from there
expect 0 "5x4 from ply 10" -- "$gsw" strong build connect4:5x4 --dir "$tmp/fp" --from-ply 10 --json
same "$(py 'print(j["from_ply"], [r["ply"] for r in j["plies"]][:2], len(j["plies"]))')" "10 [10, 11] 11" "plies 10 to 20"
py 'print(json.dumps([[r[k] for k in ("ply","won","drawn","lost")] for r in j["plies"]]))' >"$tmp/fp.rows"
expect 0 "5x4 full (json)" -- "$gsw" strong build connect4:5x4 --dir "$tmp/one" --json
same "$(py 'print(json.dumps([[r[k] for k in ("ply","won","drawn","lost")] for r in j["plies"][10:]]))')" "$(cat "$tmp/fp.rows")" \
  "from ply 10: each ply's rows equal the full build's"
expect 1 "query below the plies held" -- "$gsw" strong query connect4:5x4 1122 --dir "$tmp/fp"
has err "holds plies 10 to 20" "names the plies held"
expect 1 "query two plies above the lowest held" -- "$gsw" strong query connect4:5x4 12345123 --dir "$tmp/fp"
has err "not ply 8" "names the position's ply"
# a position a ply above the lowest held is worth its best move: answered from ply 10
for p in 1234512345 12345123452 5432154321543 123451234 543215432; do
  expect 0 "query '$p' from the last plies" -- "$gsw" strong query connect4:5x4 "$p" --dir "$tmp/fp" --json
  cp "$tmp/out" "$tmp/q.json"
  expect 0 "query '$p' from the full build" -- "$gsw" strong query connect4:5x4 "$p" --dir "$tmp/one" --json
  same "$(cat "$tmp/q.json")" "$(cat "$tmp/out")" "'$p': the same answer"
done
expect 0 "best at ply 10" -- "$gsw" strong best connect4:5x4 1234512345 --dir "$tmp/fp"
expect 0 "5x4 the rest" -- "$gsw" strong build connect4:5x4 --dir "$tmp/fp"
has out "resumed: plies 10 to 20" "goes on from ply 10"
expect 2 "--from-ply past the last ply" -- "$gsw" strong build connect4:5x4 --dir "$tmp/fp" --from-ply 21
expect 2 "--from-ply not a number" -- "$gsw" strong build connect4:5x4 --dir "$tmp/fp" --from-ply x
expect 1 "another encoding in the same folder" -- "$gsw" strong build connect4:5x4 --dir "$tmp/one" --encoding cellwise
has err "--encoding compressed" "says how it was built"

# parts: 5x4 built in 4 parts from ply 12, and a whole build split after
expect 0 "5x4 in 4 parts" -- "$gsw" strong build connect4:5x4 --dir "$tmp/parts" --from-ply 12 --parts 4 --json
same "$(py 'print(sorted(set(r["parts"] for r in j["plies"])), j["from_ply"])')" "[4] 12" "every ply in 4 parts"
ls "$tmp/parts/connect4-5x4" >"$tmp/ls"
has ls "ply12-won-part03of04.bdd" "a part's file"
cp -r "$tmp/one" "$tmp/split"
expect 0 "split 5x4 into 8 parts" -- "$gsw" strong split connect4:5x4 --dir "$tmp/split" --parts 8 --from-ply 12 --json
same "$(py 'print(sorted(set((r["ply"] >= 12, r["parts"]) for r in j["plies"])), "forward_ms" in j)')" \
  "[(False, 1), (True, 8)] False" "plies 12 up in 8 parts, no build's figures"
expect 0 "verify the parts" -- "$gsw" strong verify connect4:5x4 --dir "$tmp/split"
has out "ply15-lost-part07of08.bdd: ok" "each part's file checked"
for p in 123451234512 12345123451234 3312451245315 5412335421 ""; do   # (the last two: plies left whole)
  if [ ${#p} -ge 12 ]; then
    expect 0 "query '$p' in 4 parts" -- "$gsw" strong query connect4:5x4 "$p" --dir "$tmp/parts" --json
    cp "$tmp/out" "$tmp/q.json"
  fi
  expect 0 "query '$p' split" -- "$gsw" strong query connect4:5x4 "$p" --dir "$tmp/split" --json
  cp "$tmp/out" "$tmp/q2.json"
  expect 0 "query '$p' whole" -- "$gsw" strong query connect4:5x4 "$p" --dir "$tmp/one" --json
  same "$(cat "$tmp/q2.json")" "$(cat "$tmp/out")" "'$p': split, the same answer"
  if [ ${#p} -ge 12 ]; then same "$(cat "$tmp/q.json")" "$(cat "$tmp/out")" "'$p': in parts, the same answer"; fi
done
expect 0 "split 8 parts into 16" -- "$gsw" strong split connect4:5x4 --dir "$tmp/split" --parts 16 --from-ply 14
has err "ply 14: in 16 parts (from fewer)" "says the parts were cut again"
expect 0 "verify the finer parts" -- "$gsw" strong verify connect4:5x4 --dir "$tmp/split"
has out "ply15-lost-part15of16.bdd: ok" "each finer part's file checked"
expect 0 "query in 16 parts" -- "$gsw" strong query connect4:5x4 3312451245315 --dir "$tmp/split" --json
cp "$tmp/out" "$tmp/q2.json"
expect 0 "query whole" -- "$gsw" strong query connect4:5x4 3312451245315 --dir "$tmp/one" --json
same "$(cat "$tmp/q2.json")" "$(cat "$tmp/out")" "in 16 parts, the same answer"
expect 2 "split without --parts" -- "$gsw" strong split connect4:5x4 --dir "$tmp/split"
has err "--parts N" "says what it wants"
expect 2 "--parts not a power of two" -- "$gsw" strong build connect4:5x4 --dir "$tmp/p3" --parts 3
expect 2 "--parts past the board's cells" -- "$gsw" strong build connect4:5x4 --dir "$tmp/p3" --parts 64
has err "32 parts at most" "names the most"
expect 2 "--parts with the cellwise encoding" -- "$gsw" strong build connect4:5x4 --dir "$tmp/p3" --parts 2 --encoding cellwise
expect 1 "split where nothing is built" -- "$gsw" strong split connect4:5x4 --dir "$tmp/none" --parts 2
[ -e "$tmp/none" ] && { echo "FAIL: split made a folder where nothing was built"; fail=$((fail + 1)); }

# bad input
expect 2 "strong: no action" -- "$gsw" strong
expect 2 "strong: unknown action" -- "$gsw" strong make connect4:4x4
expect 2 "strong: not connect4" -- "$gsw" strong build chess
expect 2 "strong: bad board" -- "$gsw" strong build connect4:0x4
expect 2 "strong build: a position" -- "$gsw" strong build connect4:4x4 12
echo "test_strong_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
