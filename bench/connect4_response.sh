#!/usr/bin/env bash
# Connect Four 7x6: how long the perfect opponent and the analysis pane
# wait at each ply of a game, from an empty data folder.
#
#   bench/connect4_response.sh [--games N] [--seed S] [--threads T] [--second]
#
# Each game starts in a fresh data folder (a new cache, the shipped opening
# book). At every ply `gsw analyze connect4 MOVES --json` runs as a new
# process, which is what the analysis pane needs (every column's value) and
# what the perfect opponent needs (the best of them): a pessimistic figure
# next to the workbench, whose table stays warm between plies. The person
# plays a seeded random column; the opponent plays the move of the analysis
# with the best score. The person moves first, or second with --second.
# Prints each ply's time, then the worst ply of each game and over all games.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
games=3 seed=1 threads=2 person=0
while [ $# -gt 0 ]; do
  case $1 in
    --games) games=${2:?}; shift ;;
    --seed) seed=${2:?}; shift ;;
    --threads) threads=${2:?}; shift ;;
    --second) person=1 ;;
    *) echo "usage: bench/connect4_response.sh [--games N] [--seed S] [--threads T] [--second]" >&2; exit 2 ;;
  esac
  shift
done
gsw=${GSW_BINARY:-$here/build/release/gsw}
[ -x "$gsw" ] || make -C "$here" release >/dev/null
command -v jq >/dev/null || { echo "bench/connect4_response.sh needs jq" >&2; exit 2; }
export GSW_BOOKS=${GSW_BOOKS-$here/data/books}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
RANDOM=$seed
worst_all=0 worst_all_at=""
for ((g = 0; g < games; g++)); do
  rm -rf "$work/data"; mkdir -p "$work/data"
  moves="" ply=0 worst=0 worst_at=0 line=""
  while :; do
    t0=$(date +%s%N)
    "$gsw" analyze connect4 "$moves" --json --threads "$threads" --db "$work/data/cache.sqlite" >"$work/a.json" 2>/dev/null || break
    t1=$(date +%s%N)
    n=$(jq '.moves | length' "$work/a.json")
    [ "$n" -gt 0 ] || break   # the game is over
    ms=$(( (t1 - t0) / 1000000 ))
    line="$line $ms"
    [ "$ms" -gt "$worst" ] && { worst=$ms; worst_at=$ply; }
    if (( ply % 2 == person )); then   # the person: a random legal column
      r=$(( RANDOM % n ))   # drawn here: a subshell's RANDOM is reseeded
      m=$(jq -r ".moves[$r].move" "$work/a.json")
    else                          # the perfect opponent: the best
      m=$(jq -r '.moves | max_by(.score) | .move' "$work/a.json")
    fi
    moves="$moves$m"
    ply=$((ply + 1))
  done
  echo "game $g ($moves): ms per ply:$line"
  echo "game $g: worst ply $worst_at, $worst ms"
  [ "$worst" -gt "$worst_all" ] && { worst_all=$worst; worst_all_at="game $g ply $worst_at"; }
done
echo "worst over $games games: $worst_all ms ($worst_all_at)"
