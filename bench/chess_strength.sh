#!/usr/bin/env bash
# Chess playing strength: gsw (in process) against Stockfish held to a
# rating (UCI_LimitStrength, UCI_Elo 1500, 2000 and 2500), N games each at
# a fixed time a move, several games at once, colours alternating from the
# built-in opening book. Prints each match's W-D-L, score and the Elo
# difference with its 95% interval, and the rating that suggests for gsw
# (Stockfish's UCI_Elo plus the difference; its scale is calibrated at
# 40+0.4 s games, so read the figures as a relative measure). The games
# are kept in OUT/sf_ELO.pgn.
#
#   bench/chess_strength.sh [-n GAMES] [-t MS] [-j CONCURRENCY] [-e "1500 2000 2500"]
#                           [-b BUILD_DIR] [-s SEED] [-o OUT] [-- EXTRA gsw match OPTIONS]
# Defaults: 40 games, 100 ms a move, concurrency = cores / 2 (each game runs
# two engines), build/release, seed 1, out bench-chess/. Needs
# /usr/games/stockfish (apt-get install stockfish; tools/install-deps.sh).
# Not part of ctest.
set -eu
games=40 ms=100 elos="1500 2000 2500" build=build/release seed=1 out=bench-chess
cores=$(nproc)
jobs=$(( cores / 2 > 0 ? cores / 2 : 1 ))
while getopts "n:t:j:e:b:s:o:h" opt; do
  case $opt in
    n) games=$OPTARG ;; t) ms=$OPTARG ;; j) jobs=$OPTARG ;; e) elos=$OPTARG ;;
    b) build=$OPTARG ;; s) seed=$OPTARG ;; o) out=$OPTARG ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
gsw=$build/gsw
sf=/usr/games/stockfish
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
[ -x "$sf" ] || { echo "no $sf: apt-get install stockfish" >&2; exit 1; }
mkdir -p "$out"

echo "gsw vs Stockfish (UCI_LimitStrength): $games games a level, $ms ms a move, $jobs at once, seed $seed"
printf '%-8s %-12s %8s %-20s %s\n' sf_elo W-D-L score "elo diff (95%)" "gsw rating"
for elo in $elos; do
  json=$out/sf_$elo.json
  if ! "$gsw" match chess --engine "$sf" --option UCI_LimitStrength=true --option UCI_Elo="$elo" \
      --games "$games" --movetime "$ms" --concurrency "$jobs" --seed "$seed" --pgn "$out/sf_$elo.pgn" \
      --json "$@" >"$json" 2>"$out/sf_$elo.log"; then
    echo "UCI_Elo $elo: the match failed (see $out/sf_$elo.log)" >&2
    continue
  fi
  python3 - "$json" "$elo" <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
elo = int(sys.argv[2])
wdl = "%d-%d-%d" % (d["wins"], d["draws"], d["losses"])
score = "%.1f%%" % d["score_pct"] if d["score_pct"] is not None else "-"
if d["elo"] is None:
    diff, rating = ("+inf" if d["wins"] > 0 and not d["losses"] and not d["draws"] else
                    "-inf" if d["losses"] > 0 and not d["wins"] and not d["draws"] else "n/a"), "-"
else:
    m = d["elo_margin"]
    diff = "%+.0f ± %s" % (d["elo"], "inf" if m is None else "%.0f" % m)
    rating = "%.0f" % (elo + d["elo"])
print("%-8d %-12s %8s %-20s %s" % (elo, wdl, score, diff, rating))
EOF
done
echo "games: $out/sf_*.pgn; per-game lines: $out/sf_*.log"
