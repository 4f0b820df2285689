#!/usr/bin/env bash
# Connect Four's opening book: what it does to the empty 7x6 board's solve,
# beside Pascal Pons's and Christophe Steininger's solvers, in one invocation.
# Fetches nothing.
#
#   bench/connect4_book.sh PONS_BINARY STEININGER_BINARY [--ply N] [--hash MB] [--no-pons]
#
# PONS_BINARY is Pons's c4solver (run in an empty folder: his repository ships
# no 7x6.book, so it solves without one); STEININGER_BINARY is his `c4`
# (solves the empty board; its threads and table are compiled in, by default
# all cores and 1 GB). gsw (GSW_BIN, default build/release/gsw) runs on
# every core with --hash MB (default 1024), each in a fresh cache:
#   no book:     gsw solve connect4 "" in an empty cache (a full search);
#   book build:  gsw book build connect4 --ply N (default 2), positions per ply;
#   book, cache: the empty board solved again with the book in the cache
#                (the root is a book position: answered from the cache);
#   book, below: the same with the rows of plies < N deleted, so the search
#                runs from the root and stops at the ply-N book positions.
# --no-pons skips Pons's solver (about 7 minutes on 2 cores).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pons=${1:?usage: bench/connect4_book.sh PONS_BINARY STEININGER_BINARY [--ply N] [--hash MB] [--no-pons]}
stein=${2:?usage: bench/connect4_book.sh PONS_BINARY STEININGER_BINARY [--ply N] [--hash MB] [--no-pons]}
shift 2
ply=2 hash=1024 run_pons=1
while [ $# -gt 0 ]; do
  case $1 in
    --ply) ply=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --no-pons) run_pons=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
pons=$(abs "$pons"); stein=$(abs "$stein")
[ -x "$pons" ] || { echo "not an executable: $pons" >&2; exit 2; }
[ -x "$stein" ] || { echo "not an executable: $stein" >&2; exit 2; }
gsw=${GSW_BIN:-$here/build/release/gsw}
[ -x "$gsw" ] || make -C "$here" release >/dev/null
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # no opening book of Pons's here

now() { date +%s%N; }
secs() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1e9 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3g", a / b; else print "nan" }'; }
rows=()
row() { rows+=("$(printf "%-34s %12s %14s  %s" "$1" "$2" "$3" "$4")"); }

# gsw, no book
t0=$(now); "$gsw" solve connect4 "" --db nobook.sqlite --hash "$hash" --json >nobook.json 2>/dev/null; t1=$(now)
base=$((t1 - t0))
row "gsw, no book" "$(secs $base)" "$(jq -r .nodes nobook.json)" "$(jq -r '"\(.value) in \(.plies)"' nobook.json)"

# the book
t0=$(now); "$gsw" book build connect4 --ply "$ply" --db book.sqlite --hash "$hash" --json >build.json 2>/dev/null; t1=$(now)
build=$((t1 - t0))
"$gsw" book stats connect4 --db book.sqlite --json >stats.json
t0=$(now); "$gsw" solve connect4 "" --db book.sqlite --hash "$hash" --json >cached.json 2>/dev/null; t1=$(now)
cached=$((t1 - t0))
row "gsw, book (root in the cache)" "$(secs $cached)" "$(jq -r .nodes cached.json)" "$(jq -r '"\(.value) in \(.plies)"' cached.json)"
cp book.sqlite below.sqlite
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM solved WHERE game = 'connect4' AND variant = '7x6' AND key IN (SELECT key FROM book WHERE variant = '7x6' AND ply < ?)\", (int(sys.argv[2]),)); c.commit()" below.sqlite "$ply"
t0=$(now); "$gsw" solve connect4 "" --db below.sqlite --hash "$hash" --json >below.json 2>/dev/null; t1=$(now)
below=$((t1 - t0))
row "gsw, book (search to ply $ply)" "$(secs $below)" "$(jq -r .nodes below.json)" "$(jq -r '"\(.value) in \(.plies)"' below.json)"

# the references
if [ $run_pons = 1 ]; then
  t0=$(now); echo "" | "$pons" >pons.out 2>/dev/null; t1=$(now)
  row "Pons, no book" "$(secs $((t1 - t0)))" "" "score $(awk '{ print $NF }' pons.out)"
  pons_t=$((t1 - t0))
fi
t0=$(now); "$stein" >stein.out 2>&1; t1=$(now)
stein_t=$((t1 - t0))
row "Steininger" "$(secs $stein_t)" "" "$(grep -o 'Final strong score is [-0-9]*' stein.out || echo '?')"

echo "book: connect4:7x6 to ply $ply, built in $(secs $build) s on $(nproc) cores; positions by ply: $(jq -r '[.plies[].positions] | map(tostring) | join(" ")' build.json) ($(jq -r .positions build.json) in all; $(jq -r .searched build.json) searched, $(jq -r .derived build.json) derived)"
echo "first player's values by ply (win/draw/loss): $(jq -r '[.plies[] | "\(.wins)/\(.draws)/\(.losses)"] | join(" ")' stats.json)"
printf "%-34s %12s %14s  %s\n" "empty 7x6 board" "seconds" "nodes" "value"
for r in "${rows[@]}"; do echo "$r"; done
echo "ratios against gsw without a book: book in the cache $(ratio $cached $base), search to the book $(ratio $below $base), book build $(ratio $build $base)${pons_t:+, Pons $(ratio ${pons_t:-0} $base)}, Steininger $(ratio $stein_t $base)"
