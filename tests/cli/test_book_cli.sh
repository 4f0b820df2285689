#!/usr/bin/env bash
# Opening books from the command line: a book of connect4:4x4 to ply 6 and of
# 5x4 to ply 4 counted per ply against an independent enumeration (a Python
# walk of the game tree, mirror images folded), their per-ply win/draw/loss
# counts and every position's value (with distance) against solves without a
# cache, the stored rows proved again by cache verify; the solver answering
# book positions from the cache and searching through the book below a
# shallower root; Ctrl-C and resume; text and --json; bad arguments (exit 2,
# one line). Needs GSW_BIN (set by ctest), jq and python3.
set -u
. "$(dirname "$0")/cli_lib.sh"
command -v jq >/dev/null || { echo "no jq"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }

# enumerate W H N: every position reachable up to ply N whose game is not
# over, one per mirror pair: lines "PLY MOVES" (MOVES empty at ply 0)
enumerate() {
  python3 - "$@" <<'EOF'
import sys
w, h, n = map(int, sys.argv[1:4])
def won(cols, c):
    r = len(cols[c]) - 1
    p = cols[c][r]
    at = lambda x, y: 0 <= x < w and 0 <= y < len(cols[x]) and cols[x][y] == p
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        k = 1
        for s in (1, -1):
            x, y = c + s * dx, r + s * dy
            while at(x, y):
                k += 1; x += s * dx; y += s * dy
        if k >= 4:
            return True
    return False
def canon(cols):
    a = tuple(tuple(c) for c in cols)
    return min(a, a[::-1])
level = {canon([[] for _ in range(w)]): ([[] for _ in range(w)], "")}
for ply in range(n + 1):
    for cols, moves in level.values():
        print(ply, moves)
    if ply == n:
        break
    nxt = {}
    for cols, moves in level.values():
        for c in range(w):
            if len(cols[c]) == h:
                continue
            child = [list(x) for x in cols]
            child[c].append(ply % 2)
            if won(child, c) or ply + 1 == w * h:
                continue
            nxt.setdefault(canon(child), (child, moves + str(c + 1)))
    level = nxt
EOF
}

# check_book SPEC W H N: build, then count and value every position
check_book() {
  local spec=$1 w=$2 h=$3 n=$4 db="$tmp/$1.sqlite"
  enumerate "$w" "$h" "$n" >"$tmp/enum"
  expect 0 "$spec: build --ply $n" -- "$gsw" book build "$spec" --ply "$n" --db "$db"
  has out "book to ply $n: $(wc -l <"$tmp/enum") positions" "$spec: build's text names the count"
  has err ": done" "$spec: build reports progress on stderr"
  expect 0 "$spec: stats --json" -- "$gsw" book stats "$spec" --db "$db" --json
  cp "$tmp/out" "$tmp/stats.json"
  same "$(jq -r '[.plies[] | .positions] | map(tostring) | join(" ")' "$tmp/stats.json")" \
    "$(awk '{ c[$1]++ } END { for (p = 0; p in c; p++) printf "%s%d", p ? " " : "", c[p] }' "$tmp/enum")" \
    "$spec: positions per ply = an independent count"
  same "$(jq -r '[.game, .variant, .max_ply, .positions, .unsolved] | map(tostring) | join(" ")' "$tmp/stats.json")" \
    "connect4 ${w}x$h $n $(wc -l <"$tmp/enum") 0" "$spec: stats names the game, the depth and the total"
  # every position, without a cache, a table cleared each time
  awk '{ print ($2 == "" ? "startpos" : $2) }' "$tmp/enum" >"$tmp/lines"
  expect 0 "$spec: solve every position without a cache" -- \
    "$gsw" solve "$spec" --batch "$tmp/lines" --no-cache --clear-hash --hash 2 --json
  jq -r '.lines[] | "\(.value) \(.plies)"' "$tmp/out" >"$tmp/fresh"
  expect 0 "$spec: solve every position from the book" -- "$gsw" solve "$spec" --batch "$tmp/lines" --db "$db" --json
  jq -r '.lines[] | "\(.value) \(.plies)"' "$tmp/out" >"$tmp/booked"
  same "$(jq -r '[.lines[].nodes] | add' "$tmp/out")" 0 "$spec: the book answers every position (no search)"
  cmp -s "$tmp/fresh" "$tmp/booked" && ok || bad "$spec: book values differ from fresh solves: $(diff "$tmp/fresh" "$tmp/booked" | head -5)"
  # per-ply win/draw/loss for the first player, from the fresh values
  same "$(jq -r '[.plies[] | "\(.wins)/\(.draws)/\(.losses)"] | join(" ")' "$tmp/stats.json")" \
    "$(paste -d' ' "$tmp/enum" "$tmp/fresh" | awk '{ v = NF == 4 ? $3 : $2; p = $1
         if (v == "draw") r = "d"; else if ((v == "win") == (p % 2 == 0)) r = "w"; else r = "l"
         c[p, r]++; if (p > m) m = p }
       END { for (p = 0; p <= m; p++) printf "%s%d/%d/%d", p ? " " : "", c[p, "w"], c[p, "d"], c[p, "l"] }')" \
    "$spec: wins/draws/losses per ply for the first player"
  expect 0 "$spec: cache verify proves every stored row again" -- "$gsw" cache verify "$spec" --db "$db" --json
  same "$(jq -r '.wrong' "$tmp/out")" 0 "$spec: no wrong row"
}

check_book connect4:4x4 4 4 6
check_book connect4:5x4 5 4 4

# ---- text, stats of no book, a second build ----
db="$tmp/connect4:4x4.sqlite"
expect 0 "stats text" -- "$gsw" book stats connect4:4x4 --db "$db"
has_re out "^ +6 +564 +68 +421 +75$" "stats text: ply 6's row"
has_re out "^ +all +901 " "stats text: the total"
expect 0 "stats of a variant without a book" -- "$gsw" book stats connect4:5x5 --db "$db"
has out "has no book" "no book is said"
expect 0 "stats --json without a book" -- "$gsw" book stats connect4:6x4 --db "$db" --json
same "$(jq -r '[.max_ply, .positions, (.plies | length)] | map(tostring) | join(" ")' "$tmp/out")" "-1 0 0" "an empty book"
# the shipped 7x6 book is reported: it answers before the cache's
books="${GSW_TEST_DATA:?}/../../data/books"
if [ -f "$books/connect4-7x6.book" ]; then
  expect 0 "stats connect4 with the shipped book" -- env GSW_BOOKS="$books" "$gsw" book stats connect4 --db "$db" --json
  same "$(jq -r '.shipped.max_ply' "$tmp/out")" 9 "stats --json: the shipped book's depth"
  expect 0 "stats connect4 (text) with the shipped book" -- env GSW_BOOKS="$books" "$gsw" book stats connect4 --db "$db"
  has out "the shipped book answers first" "stats: the shipped book is named"
  expect 0 "stats connect4:6x4 --json: no shipped book" -- env GSW_BOOKS="$books" "$gsw" book stats connect4:6x4 --db "$db" --json
  same "$(jq -r '.shipped' "$tmp/out")" null "stats --json: shipped null where none"
fi
expect 0 "build again" -- "$gsw" book build connect4:4x4 --ply 6 --db "$db" --json
same "$(jq -r '[.complete, .searched, .stored, .derived] | map(tostring) | join(" ")' "$tmp/out")" "true 0 564 0" \
  "a finished book is found whole: nothing searched or derived"
expect 0 "build a shallower book in it" -- "$gsw" book build connect4:4x4 --ply 3 --db "$db" --json
same "$(jq -r '[.searched, .stored, .derived] | map(tostring) | join(" ")' "$tmp/out")" "0 26 0" "a shallower book is in it"

# ---- the solver through the book: a shallower root not in the cache ----
# the empty 5x4 board's row goes; a solve then searches, stopping at ply 4
db5="$tmp/connect4:5x4.sqlite"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM solved WHERE variant='5x4' AND key IN (SELECT key FROM book WHERE ply < 4)\"); c.commit()" "$db5"
expect 0 "solve the empty 5x4 board through the book" -- "$gsw" solve connect4:5x4 "" --db "$db5" --json --threads 1
nodes_book=$(jq -r .nodes "$tmp/out")
value_book=$(jq -r '"\(.value) \(.plies)"' "$tmp/out")
expect 0 "the same without the cache" -- "$gsw" solve connect4:5x4 "" --no-cache --json --threads 1
same "$value_book" "$(jq -r '"\(.value) \(.plies)"' "$tmp/out")" "the book's search gives the value of a fresh search"
[ "$nodes_book" -gt 0 ] && [ "$nodes_book" -lt "$(jq -r .nodes "$tmp/out")" ] && ok \
  || bad "a search through the book should visit fewer nodes ($nodes_book) than one without ($(jq -r .nodes "$tmp/out"))"

# ---- Ctrl-C and resume: the same book as an uninterrupted build ----
expect 0 "reference build" -- "$gsw" book build connect4:5x5 --ply 4 --db "$tmp/ref.sqlite" --threads 1
"$gsw" book stats connect4:5x5 --db "$tmp/ref.sqlite" --json | jq -c 'del(.cache)' >"$tmp/ref.json"
"$gsw" book build connect4:5x5 --ply 4 --db "$tmp/r.sqlite" --threads 1 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 400); do   # until some ply-4 positions are in the book
  n=$("$gsw" book stats connect4:5x5 --db "$tmp/r.sqlite" --json 2>/dev/null | jq -r '.positions // 0')
  [ "${n:-0}" -gt 0 ] && break
  sleep 0.02
done
kill -INT $pid
wait $pid
rc=$?
same "$rc" 1 "Ctrl-C: exit 1"
has err "run again to resume" "Ctrl-C says how to resume"
[ "$(wc -l <"$tmp/err")" -le 4 ] && ok || bad "Ctrl-C: a few lines on stderr: $(cat "$tmp/err")"
"$gsw" book stats connect4:5x5 --db "$tmp/r.sqlite" --json >"$tmp/out"
same "$(jq -r '.max_ply == 4 and .plies[4].positions > 0 and .plies[4].positions < 177 and .plies[0].positions == 0' "$tmp/out")" \
  true "stopped part way: some ply-4 positions kept, the plies above not yet valued"
expect 0 "resume" -- "$gsw" book build connect4:5x5 --ply 4 --db "$tmp/r.sqlite" --threads 1 --json
same "$(jq -r '.complete and .stored > 0 and .searched > 0 and .stored + .searched == 177' "$tmp/out")" true \
  "resumed: the stored positions kept, the rest searched"
same "$("$gsw" book stats connect4:5x5 --db "$tmp/r.sqlite" --json | jq -c 'del(.cache)')" "$(cat "$tmp/ref.json")" \
  "the resumed book equals the uninterrupted one"
# a Ctrl-C with --json: one document, complete false
: >"$tmp/err"   # (an earlier run's text there would signal the forked shell, not gsw)
"$gsw" book build connect4:5x5 --ply 5 --db "$tmp/r.sqlite" --threads 1 --json >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 400); do grep -q "positions to solve" "$tmp/err" 2>/dev/null && break; sleep 0.02; done
kill -INT $pid
wait $pid
same "$?" 1 "Ctrl-C with --json: exit 1"
same "$(jq -r '.complete' "$tmp/out")" false "Ctrl-C with --json: complete false"

# ---- bad arguments: one line, exit 2 ----
expect 2 "book alone" -- "$gsw" book
expect 2 "book frob" -- "$gsw" book frob connect4
expect 2 "build without a game" -- "$gsw" book build
expect 2 "build without --ply" -- "$gsw" book build connect4:4x4
expect 2 "--ply -1" -- "$gsw" book build connect4:4x4 --ply -1
expect 2 "--ply junk" -- "$gsw" book build connect4:4x4 --ply x
expect 2 "--ply without a value" -- "$gsw" book build connect4:4x4 --ply
expect 2 "--ply 17 on 4x4" -- "$gsw" book build connect4:4x4 --ply 17
has err "lasts at most 16 plies" "--ply past the game's end is named"
expect 2 "--ply 1000" -- "$gsw" book build connect4 --ply 1000
expect 2 "--ply 1001" -- "$gsw" book build connect4 --ply 1001
expect 2 "--ply 20 on 7x6: too many positions" -- "$gsw" book build connect4 --ply 20 --db "$tmp/big.sqlite"
has err "too many for a book" "too many positions are named"
expect 2 "stats --ply" -- "$gsw" book stats connect4:4x4 --ply 3
expect 2 "unknown game" -- "$gsw" book build chequers --ply 2
expect 2 "bad variant" -- "$gsw" book build connect4:2x99 --ply 2
expect 2 "checkers" -- "$gsw" book build checkers --ply 2
has err "no opening book" "a game without books is named"
expect 2 "solitaire stats" -- "$gsw" book stats solitaire:english
expect 2 "--no-cache" -- "$gsw" book build connect4:4x4 --ply 2 --no-cache
expect 2 "an extra argument" -- "$gsw" book stats connect4:4x4 extra
expect 2 "an unknown option" -- "$gsw" book build connect4:4x4 --ply 2 --plies 3
printf 'not a database, not at all, just some text long enough\n%.0s' $(seq 1 40) >"$tmp/junk.sqlite"
expect 1 "a cache that is no database" -- "$gsw" book stats connect4:4x4 --db "$tmp/junk.sqlite"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
