#!/usr/bin/env bash
# Differential perft against Stockfish (Debian's package): positions from
# seeded random games, standard and Chess960, counted to depth 3 by both
# programs; any difference fails, naming the position. Skipped (77) where
# Stockfish is not installed.
set -uo pipefail
gsw=${GSW_BIN:?}
sf=${STOCKFISH:-/usr/games/stockfish}
[ -x "$sf" ] || { echo "no stockfish at $sf: skipped"; exit 77; }
fail=0 n=0
# positions from seeded random games, printed by the rules' unit test
fens=$(GSW_CH_FENS=60 "${1:?usage: test_chess_stockfish.sh TEST_CHESS_BINARY}")
[ -n "$fens" ] || { echo "FAIL: no positions" >&2; exit 1; }
while IFS= read -r fen; do
  [ -n "$fen" ] || continue
  n=$((n + 1))
  want=$(printf 'setoption name UCI_Chess960 value true\nposition fen %s\ngo perft 3\nquit\n' "$fen" | "$sf" | sed -n 's/^Nodes searched: //p')
  got=$("$gsw" perft chess "$fen" 3 2>/dev/null)
  if [ "$want" != "$got" ]; then echo "FAIL: $fen: gsw $got, stockfish $want"; fail=1; fi
done <<<"$fens"
echo "$n positions compared"
[ "$n" -ge 60 ] || { echo "FAIL: only $n positions"; fail=1; }
exit $fail
