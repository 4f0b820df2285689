#!/usr/bin/env bash
# The chess mate prover against alpha-beta mate searches, on the mates of
# tests/data/chess/mates.txt (those the side to move gives; never in ctest):
#   dfpn  gsw solve chess FEN --mate: df-pn, "mate within N moves" for
#         N = 1, 2, ..: the first N proven with N - 1 disproven (a proof of
#         the exact length), plus the proof tree extracted and stored
#   ab    our heuristic engine through `gsw uci`, `go mate N`: iterative-
#         deepening PVS with mate scores (table, quiescence, check
#         extensions, null move, LMR, futility), depth limited to 2N plies,
#         stopping at the first mate of N or fewer found — a search that
#         finds the mate, not a proof that none is shorter
#   sf    Debian's Stockfish, `go mate N` (one thread, its default hash)
# Times: df-pn's is the solve's own time_ms (its 64 MB table's allocation and
# the process start not counted); ab's and sf's the wall clock from `go` to
# `bestmove` as this script sees it (a few ms of pipe overhead included);
# nodes as each reports them; ratios are ab/dfpn and sf/dfpn time.
# usage: bench/chess_mate.sh [GSW] [STOCKFISH]
#   GSW defaults to build/release/gsw (cmake -B build/release -DCMAKE_BUILD_TYPE=Release)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
gsw=${1:-$root/build/release/gsw}
sf=${2:-/usr/games/stockfish}
data=$root/tests/data/chess/mates.txt
limit=${MATE_LIMIT_S:-300}   # per engine and position
[ -x "$gsw" ] || { echo "no gsw at $gsw (build a Release tree, or pass its path)" >&2; exit 1; }
have_sf=1
[ -x "$sf" ] || { echo "note: no stockfish at $sf: its column is empty" >&2; have_sf=0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GSW_DB=$tmp/cache.sqlite

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# uci_mate "ENGINE ARGS" FEN N: "ms nodes mate" for go mate N (mate "-" if none)
uci_mate() {
  local eng=$1 fen=$2 n=$3 line last="" t0 t1
  coproc ENG { exec $eng 2>/dev/null; }
  local in=${ENG[1]} out=${ENG[0]}
  echo uci >&"$in"
  while read -r -t "$limit" line <&"$out"; do [ "$line" = uciok ] && break; done
  echo isready >&"$in"
  while read -r -t "$limit" line <&"$out"; do [ "$line" = readyok ] && break; done
  t0=$(now_ms)
  printf 'position fen %s\ngo mate %d\n' "$fen" "$n" >&"$in"
  while read -r -t "$limit" line <&"$out"; do
    case $line in
      info*score*) last=$line ;;
      bestmove*) break ;;
    esac
  done
  t1=$(now_ms)
  echo quit >&"$in" 2>/dev/null
  wait "$ENG_PID" 2>/dev/null
  local nodes mate
  nodes=$(sed -n 's/.* nodes \([0-9]*\).*/\1/p' <<<"$last")
  mate=$(sed -n 's/.*score mate \(-\{0,1\}[0-9]*\).*/\1/p' <<<"$last")
  echo "$((t1 - t0)) ${nodes:--} ${mate:--}"
}

printf '%-4s %-10s %10s %12s %10s %12s %5s %10s %12s %5s %8s %8s\n' mate game "dfpn ms" "dfpn nodes" "ab ms" "ab nodes" "ab" \
  "sf ms" "sf nodes" "sf" "ab/dfpn" "sf/dfpn"
while IFS=';' read -r mate fen what; do
  case $mate in '#'*|'') continue ;; esac
  [ "$mate" -gt 0 ] || continue
  case $what in
    *Lasker*) name="Lasker-$mate" ;;
    *Legal*) name=Legal ;;
    *"(the "[A-Z]*) name=$(sed 's/.*(the \([A-Za-z]*\) game).*/\1/' <<<"$what") ;;
    *) name=${what%%,*} ;;
  esac
  timeout "$limit" "$gsw" solve chess "$fen" --mate --json --no-cache >"$tmp/out" 2>/dev/null
  dms=$(grep -o '"time_ms":[0-9.]*' "$tmp/out" | cut -d: -f2)
  dnodes=$(grep -o '"nodes":[0-9]*' "$tmp/out" | cut -d: -f2)
  dmate=$(grep -o '"mate":[-0-9a-z]*' "$tmp/out" | cut -d: -f2)
  [ "$dmate" = "$mate" ] || echo "note: df-pn says mate ${dmate:-?}, the data $mate" >&2
  read -r ams anodes amate <<<"$(uci_mate "$gsw uci" "$fen" "$mate")"
  if [ "$have_sf" = 1 ]; then read -r sms snodes smate <<<"$(uci_mate "$sf" "$fen" "$mate")"; else sms=- snodes=- smate=-; fi
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b + 0 <= 0) print "-"; else printf "%.2f", a / b }'; }
  printf '%-4s %-10s %10.1f %12s %10s %12s %5s %10s %12s %5s %8s %8s\n' "$mate" "$name" "${dms:-0}" "${dnodes:--}" \
    "$ams" "$anodes" "$amate" "$sms" "$snodes" "$smate" "$(ratio "$ams" "${dms:-0}")" "$(ratio "$sms" "${dms:-0}")"
done <"$data"
