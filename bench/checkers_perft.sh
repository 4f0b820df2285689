#!/usr/bin/env bash
# Checkers (8x8 English draughts) perft speed: gsw against a reference move
# generator, side by side, in one invocation. Fetches nothing.
#
#   bench/checkers_perft.sh [REFERENCE_BINARY] [DEPTH]
#   bench/checkers_perft.sh --harness     (prints the reference driver's source)
#
# Perft from the initial position, one thread, no hashing, bulk counting at
# the last ply, for both programs. Both counts are checked against the
# published ones (depths 1-13) and against each other; a mismatch exits 1.
# Without a reference, gsw alone at depths 10-13 (or DEPTH). With one, both
# at DEPTH (default 12): nodes/s from each process's CPU time (user + sys,
# the figure to quote on a shared machine), its wall time and, where the
# program reports it, its own (wall) timing of the perft call, and the
# ratios gsw / reference (above 1: gsw is faster).
#
# The reference is run as `REFERENCE_BINARY DEPTH`; its count is the number
# after "nodes" in its output, else the last number it prints; its own time
# the number after "seconds", if any.
#
# gsw is build/release/gsw (made if missing), or $GSW.
#
# Reference used: Dark Horse by Robin Messemer (github.com/CheckersGuy/DarkHorse,
# commit 8f07eb97cbe2, a bitboard engine for English checkers; its generator
# counts two capture sequences that take the same pieces by different paths
# as two moves, as gsw does). Build, outside this repository, the driver
# printed by --harness (copy-make; at the last ply it counts the generated
# list, where gsw only counts) against its unmodified sources:
#   git clone https://github.com/CheckersGuy/DarkHorse /tmp/ckref/darkhorse
#   bench/checkers_perft.sh --harness >/tmp/ckref/dh_perft.cpp
#   D=/tmp/ckref/darkhorse/Checkers/CheckerEngineX
#   g++ -std=c++20 -O3 -march=native -DNDEBUG -I$D /tmp/ckref/dh_perft.cpp \
#       $D/Position.cpp $D/Move.cpp $D/MoveListe.cpp -o /tmp/ckref/dh_perft
#   bench/checkers_perft.sh /tmp/ckref/dh_perft 12
# Dark Horse's own check (cmake target perft_check, make/undo, prints every
# depth from 1 up with no timing) also works as REFERENCE_BINARY; its wall
# time then covers depths 1..DEPTH (about 1.27 times depth DEPTH alone).
set -euo pipefail

if [ "${1:-}" = --harness ]; then
  cat <<'EOF'
// Perft driver for Dark Horse's move generator (unmodified sources):
// copy-make, bulk counting at the last ply, no hashing, one thread.
#include "MGenerator.h"
#include "MoveListe.h"
#include "Position.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>

static uint64_t perft(Position &pos, int depth) {
  MoveListe list;
  get_moves(pos, list);
  if (depth == 1) return (uint64_t)list.length();
  uint64_t n = 0;
  for (int i = 0; i < list.length(); ++i) {
    Position next = pos;
    next.make_move(list[i]);
    n += perft(next, depth - 1);
  }
  return n;
}

int main(int argc, char **argv) {
  int depth = argc == 2 ? std::atoi(argv[1]) : 0;
  if (depth < 1 || depth > 30) { std::fprintf(stderr, "usage: %s DEPTH (1-30)\n", argv[0]); return 2; }
  Position pos = Position::get_start_position();
  auto t0 = std::chrono::steady_clock::now();
  uint64_t n = perft(pos, depth);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("depth %d nodes %llu seconds %.3f\n", depth, (unsigned long long)n, s);
  return 0;
}
EOF
  exit 0
fi

here=$(cd "$(dirname "$0")/.." && pwd)
ref="" depth=""
for a in "$@"; do
  if [[ $a =~ ^[0-9]+$ ]] && [ -z "$depth" ] && [ ! -f "$a" ]; then depth=$a
  elif [ -z "$ref" ]; then ref=$a
  else echo "usage: bench/checkers_perft.sh [REFERENCE_BINARY] [DEPTH]" >&2; exit 2
  fi
done
if [ -n "$depth" ] && { [ "$depth" -lt 1 ] || [ "$depth" -gt 20 ]; }; then
  echo "DEPTH must be 1-20" >&2; exit 2
fi
if [ -n "$ref" ]; then
  case $ref in */*) ;; *) ref=./$ref ;; esac
  if [ ! -f "$ref" ] || [ ! -x "$ref" ]; then echo "not an executable: $ref" >&2; exit 2; fi
fi
gsw=${GSW:-$here/build/release/gsw}
[ -x "$gsw" ] || make -C "$here" release >/dev/null

# Published counts (Aart Bik; OEIS A133046).
published=(1 7 49 302 1469 7361 36768 179740 845931 3963680 18391564 85242128 388623673 1766623630)
expect() { [ "$1" -lt ${#published[@]} ] && echo "${published[$1]}" || echo ""; }

now() { date +%s%N; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# cpu VAR: sets VAR to the CPU seconds (user + sys) this shell's finished
# children have used so far (`times` must run in this shell, not a subshell)
cpu() {
  times >"$work/times"
  printf -v "$1" %s "$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
                          printf "%.3f", s }' "$work/times")"
}
diff_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
mnps() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", n / s / 1e6; else print "nan" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "nan") printf "%.2f", a / b; else print "nan" }'; }
status=0
check() {   # name depth count
  local want
  want=$(expect "$2")
  if [ -n "$want" ] && [ "$3" != "$want" ]; then
    echo "error: $1 counts $3 at depth $2, published $want" >&2; status=1
  fi
}

# gsw at depth $1: sets g_nodes, g_cpu, g_wall, g_self (seconds)
run_gsw() {
  local t0 t1 c0 c1 out
  cpu c0; t0=$(now); out=$("$gsw" perft checkers "$1" --json); t1=$(now); cpu c1
  g_cpu=$(diff_s "$c0" "$c1")
  g_nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$out")
  g_self=$(sed -n 's/.*"time_ms":\([0-9.]*\).*/\1/p' <<<"$out" | awk '{ printf "%.4f", $1 / 1000 }')
  g_wall=$(awk -v t=$(( t1 - t0 )) 'BEGIN { printf "%.4f", t / 1e9 }')
  check gsw "$1" "$g_nodes"
}

run_ref() {
  local t0 t1 c0 c1 out
  cpu c0; t0=$(now); out=$("$ref" "$1" 2>&1); t1=$(now); cpu c1
  r_cpu=$(diff_s "$c0" "$c1")
  r_nodes=$(grep -oE 'nodes[^0-9]*[0-9]+' <<<"$out" | tail -1 | grep -oE '[0-9]+$' || true)
  [ -n "$r_nodes" ] || r_nodes=$(grep -oE '[0-9]+' <<<"$out" | tail -1 || true)
  r_self=$(grep -oE 'seconds[^0-9]*[0-9.]+' <<<"$out" | tail -1 | grep -oE '[0-9.]+$' || true)
  r_wall=$(awk -v t=$(( t1 - t0 )) 'BEGIN { printf "%.4f", t / 1e9 }')
  check reference "$1" "${r_nodes:-none}"
  if [ "${r_nodes:-}" != "$g_nodes" ]; then
    echo "error: gsw counts $g_nodes, the reference ${r_nodes:-nothing} at depth $1" >&2; status=1
  fi
}

echo "gsw: $gsw"
if [ -z "$ref" ]; then
  printf "%5s %14s %8s %9s %10s %10s\n" depth nodes "cpu s" "cpu Mn/s" "wall Mn/s" "self Mn/s"
  for d in ${depth:-10 11 12 13}; do
    run_gsw "$d"
    printf "%5d %14s %8s %9s %10s %10s\n" "$d" "$g_nodes" "$g_cpu" "$(mnps "$g_nodes" "$g_cpu")" \
      "$(mnps "$g_nodes" "$g_wall")" "$(mnps "$g_nodes" "$g_self")"
  done
  exit $status
fi

d=${depth:-12}
echo "reference: $ref"
run_gsw "$d"
run_ref "$d"
gc=$(mnps "$g_nodes" "$g_cpu"); rc=$(mnps "$r_nodes" "$r_cpu")
gw=$(mnps "$g_nodes" "$g_wall"); rw=$(mnps "$r_nodes" "$r_wall")
gs=$(mnps "$g_nodes" "$g_self"); rs=nan
[ -n "$r_self" ] && rs=$(mnps "$r_nodes" "$r_self")
row() { printf "%-10s %5s %14s %8s %9s %8s %10s %8s %10s\n" "$@"; }
row program depth nodes "cpu s" "cpu Mn/s" "wall s" "wall Mn/s" "self s" "self Mn/s"
row gsw "$d" "$g_nodes" "$g_cpu" "$gc" "$g_wall" "$gw" "$g_self" "$gs"
row reference "$d" "$r_nodes" "$r_cpu" "$rc" "$r_wall" "$rw" "${r_self:--}" "$rs"
echo "ratio gsw/reference nodes/s: cpu $(ratio "$gc" "$rc"), wall $(ratio "$gw" "$rw"), self $(ratio "$gs" "$rs") (above 1: gsw is faster)"
exit $status
