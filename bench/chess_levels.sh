#!/usr/bin/env bash
# The strength levels (UCI_LimitStrength with UCI_Elo: gsw uci's and the
# workbench's heuristic:1-9) rated on Stockfish's UCI_Elo scale. Each level,
# our side held to it (gsw match --ours-option), plays N games against
# Stockfish held to the level's rating in the table (1320 at least,
# Stockfish's floor), then N more against Stockfish at that first estimate,
# where the score is nearer even; both matches are fitted by maximum
# likelihood (a logistic model, a draw half a win) with a 95% interval from
# the likelihood's curvature. Prints each match and each level's rating.
#
#   bench/chess_levels.sh [-n GAMES] [-l "1 2 3 4 5"] [-t MS] [-b BUILD_DIR] [-o OUT]
#                         [-- EXTRA gsw match OPTIONS]
# Defaults: 40 games a match, levels 1-5 (6-9 search deeper than 100 ms
# reaches), 100 ms a move, build/release, out bench-levels/. One game at a
# time: pin it to an idle core (taskset -c 1 ...). Needs /usr/games/stockfish.
# Not part of ctest.
set -eu
games=40 levels="1 2 3 4 5" ms=100 build=build/release out=bench-levels
while getopts "n:l:t:b:o:h" opt; do
  case $opt in
    n) games=$OPTARG ;; l) levels=$OPTARG ;; t) ms=$OPTARG ;; b) build=$OPTARG ;; o) out=$OPTARG ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
gsw=$build/gsw
sf=/usr/games/stockfish
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
[ -x "$sf" ] || { echo "no $sf: apt-get install stockfish" >&2; exit 1; }
mkdir -p "$out"

# the table's rating of a level: what `gsw uci` says when set to it
table() {
  printf 'setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value %s\nquit\n' "$1" |
    "$gsw" uci | sed -n 's/^info string UCI_Elo [0-9]*: level \([0-9]*\), rated about \([0-9]*\).*/\1 \2/p' | tail -1
}
# each level's rating: UCI_Elo over the option's range, the first value that gives the level
read -r lo hi < <(printf 'uci\nquit\n' | "$gsw" uci | sed -n 's/^option name UCI_Elo type spin default [0-9]* min \([0-9]*\) max \([0-9]*\)$/\1 \2/p')
declare -A rating
for e in $(seq "$lo" 10 "$hi") "$hi"; do
  read -r l r < <(table "$e") || continue
  [ -n "${rating[$l]:-}" ] || rating[$l]=$r
done

# match LEVEL SF_ELO SEED: one match, its JSON in $out
match() {
  local l=$1 e=$2 s=$3
  shift 3
  "$gsw" match chess --engine "$sf" --option UCI_LimitStrength=true --option UCI_Elo="$e" \
    --ours-option UCI_LimitStrength=true --ours-option UCI_Elo="${rating[$l]}" \
    --games "$games" --movetime "$ms" --concurrency 1 --seed "$s" --pgn "$out/level${l}_sf$e.pgn" \
    --json "$@" >"$out/level${l}_sf$e.json" 2>"$out/level${l}_sf$e.log"
}
fit() {   # JSON files: the rating and its interval, "R M"
  python3 - "$@" <<'EOF'
import json, math, sys
ms = []
for f in sys.argv[1:]:
    d = json.load(open(f))
    sf = int(f.rsplit("_sf", 1)[1].split(".")[0])
    ms.append((sf, d["wins"], d["draws"], d["losses"]))
def ll(r):
    t = 0.0
    for sf, w, d, l in ms:
        e = 1 / (1 + 10 ** ((sf - r) / 400))
        e = min(max(e, 1e-12), 1 - 1e-12)
        t += (w + d / 2) * math.log(e) + (l + d / 2) * math.log(1 - e)
    return t
r = max((x / 2 for x in range(0, 8001)), key=ll)
k = math.log(10) / 400
info = sum((w + d + l) * k * k * (e := 1 / (1 + 10 ** ((sf - r) / 400))) * (1 - e) for sf, w, d, l in ms)
print("%.0f %.0f" % (r, 1.96 / math.sqrt(info)))
EOF
}
wdl() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%d-%d-%d" % (d["wins"], d["draws"], d["losses"]))' "$1"; }

echo "levels against Stockfish (UCI_LimitStrength): $games + $games games a level, $ms ms a move"
printf '%-6s %-7s %-20s %-20s %s\n' level table first second "rating (95%)"
for l in $levels; do
  [ -n "${rating[$l]:-}" ] || { echo "level $l: not in gsw uci's table" >&2; continue; }
  e1=$(( rating[$l] < 1320 ? 1320 : rating[$l] ))
  match "$l" "$e1" 1 "$@" || { echo "level $l: the match failed (see $out/level${l}_sf$e1.log)" >&2; continue; }
  read -r r1 _ < <(fit "$out/level${l}_sf$e1.json")
  e2=$(( r1 < 1320 ? 1320 : r1 > 3190 ? 3190 : r1 ))
  e2=$(( (e2 + 5) / 10 * 10 ))
  [ "$e2" = "$e1" ] && e2=$(( e1 + 10 ))
  match "$l" "$e2" 2 "$@" || { echo "level $l: the match failed (see $out/level${l}_sf$e2.log)" >&2; continue; }
  read -r r m < <(fit "$out/level${l}_sf$e1.json" "$out/level${l}_sf$e2.json")
  printf '%-6s %-7s %-20s %-20s %s\n' "$l" "${rating[$l]}" "$(wdl "$out/level${l}_sf$e1.json") at $e1" \
    "$(wdl "$out/level${l}_sf$e2.json") at $e2" "$r ± $m"
done
echo "games: $out/level*_sf*.pgn"
