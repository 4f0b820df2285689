#!/usr/bin/env bash
# Node counts of two gsw builds on the positions the bench/ scripts use
# (Pons's test sets by alpha-beta and df-pn, a small empty board, perft,
# the classic mates, a checkers ending, solitaire, a BDD count): one line
# each, "same" or "DIFF", and the number of differences. A change that
# claims to leave the searches alone must leave every count the same.
# Usage: bench/node_counts.sh OLD_GSW NEW_GSW (needs jq)
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_GSW NEW_GSW" >&2; exit 2; }
old=$1 new=$2
data=$(cd "$(dirname "$0")/.." && pwd)/tests/data
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
diffs=0
cmp_() { local what=$1 a=$2 b=$3; if [ "$a" = "$b" ]; then s=same; else s=DIFF; diffs=$((diffs+1)); fi; printf '%-44s %16s %16s %s\n' "$what" "$a" "$b" "$s"; }
batch_nodes() { "$1" solve connect4 --batch "$2" --threads 1 --hash 64 --no-cache $3 2>/dev/null | grep -v '^positions' | awk '{n += $3} END {print n}'; }
for spec in Test_L3_R1:1 Test_L2_R1:1 Test_L2_R2:5 Test_L1_R1:10 Test_L1_R2:10 Test_L1_R3:10; do
  set_=${spec%%:*} step=${spec##*:}
  awk -v s="$step" 'NR % s == 1 || s == 1 {print $1}' "$data/connect4/$set_" > "$tmp/in"
  cmp_ "connect4 $set_ (every ${step}th) ab" "$(batch_nodes "$old" "$tmp/in" "")" "$(batch_nodes "$new" "$tmp/in" "")"
  cmp_ "connect4 $set_ (every ${step}th) dfpn" "$(batch_nodes "$old" "$tmp/in" "--algo dfpn --nodes 2000000")" "$(batch_nodes "$new" "$tmp/in" "--algo dfpn --nodes 2000000")"
done
j() { "$@" 2>/dev/null | jq -r '.nodes // .count // empty'; }
cmp_ "connect4:6x5 empty, exact" "$(j "$old" solve connect4:6x5 '' --json --no-cache --threads 1)" "$(j "$new" solve connect4:6x5 '' --json --no-cache --threads 1)"
cmp_ "chess perft startpos 5" "$(j "$old" perft chess '' 5 --json)" "$(j "$new" perft chess '' 5 --json)"
cmp_ "checkers perft start 9" "$(j "$old" perft checkers '' 9 --json)" "$(j "$new" perft checkers '' 9 --json)"
while IFS= read -r fen; do
  [ -z "$fen" ] && continue
  cmp_ "chess mate ${fen:0:30}" "$(j "$old" solve chess "$fen" --mate --json --no-cache --threads 1)" "$(j "$new" solve chess "$fen" --mate --json --no-cache --threads 1)"
done < <(grep -v '^#' "$data/chess/mates.txt" | head -5 | awk -F';' '{print $2}')
cmp_ "checkers solve 6-piece (issue 53 pos)" "$(j "$old" solve checkers 'B:W20,27,28:B12,21,K22' --json --no-cache --threads 1 --nodes 5000000)" "$(j "$new" solve checkers 'B:W20,27,28:B12,21,K22' --json --no-cache --threads 1 --nodes 5000000)"
cmp_ "solitaire english solve" "$(j "$old" solve solitaire --json --no-cache)" "$(j "$new" solve solitaire --json --no-cache)"
cmp_ "solitaire triangle solutions" "$("$old" count solitaire:triangle --solutions --json | jq .solutions)" "$("$new" count solitaire:triangle --solutions --json | jq .solutions)"
cmp_ "connect4:5x4 positions (BDD)" "$("$old" count connect4:5x4 --positions --json | jq .total)" "$("$new" count connect4:5x4 --positions --json | jq .total)"
echo "differences: $diffs"
[ "$diffs" -eq 0 ]
