#!/usr/bin/env bash
# Chess tablebases (issue 16): build time, CPU, peak memory and size on disk
# of each ending, distance to mate, each in a fresh folder (so the times
# include what the ending needs: KPK builds KQK, KRK, KBK and KNK too), then
# the whole set of 3-piece and 4-piece endings the issue names together.
# The published longest mates are checked on the way (FACTS.md). No public
# program runs beside it: Syzygy and Nalimov tables are probed, not built,
# by the engines Debian ships.
#
#
# With --rtbgen PATH (syzygy1/tb's generator, built outside this repository:
# git clone https://github.com/syzygy1/tb; cd tb/src; make), the other
# mode (issue 55): rtbgen and gsw side by side in one invocation, turn about
# (A B A B, --runs N pairs), with the same threads (--threads N, default 2),
# each from an empty folder: an ending with what it needs (gsw egdb build
# chess KQKR, DTM, which builds KQK, KRK and KK; rtbgen, WDL and DTZ, the
# same endings in gsw's plan's order, rtbgenp from beside rtbgen for those
# with pawns). --endings "KQKR KBNKN KRPKR" chooses them (default KQKR and
# KBNKN, the longest pawnless 5-piece mate; KRPKR builds 1.6 G positions
# with its four 5-piece promotions). Prints each time, the medians and
# gsw's time over rtbgen's.
#
#   bench/chess_egdb.sh [--kqkr] [BUILD_DIR]     # default build/release
#   bench/chess_egdb.sh --rtbgen PATH [--threads N] [--runs N] [--endings LIST] [BUILD_DIR]
# Run from the repository root after `make release`. Uses a temporary folder.
set -eu
kqkr=0 rtbgen="" threads=2 runs=2 endings="KQKR KBNKN"
while [ $# -gt 0 ]; do
  case $1 in
    --kqkr) kqkr=1; shift ;;
    --rtbgen) rtbgen=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --endings) endings=$2; shift 2 ;;
    *) break ;;
  esac
done
dir=${1:-build/release}
gsw=$dir/gsw
[ -x "$gsw" ] || { echo "build first: make release (no $gsw)" >&2; exit 1; }
if [ -n "$rtbgen" ]; then
  [ -x "$rtbgen" ] || { echo "no rtbgen at $rtbgen" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", b - a}'; }
  now() { date +%s.%N; }
  median() { sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
  rtbgenp=$(dirname "$rtbgen")/rtbgenp
  side() {   # ENDING: rtbgen's tables in the order of gsw's plan (KQKR -> KQvK KRvK KQvKR)
    local name=$1 i t0 d e
    local list
    list=$("$gsw" egdb build chess "$name" --plan --json --dir "$tmp/plan" | jq -r '.units[].slice' |
      grep -v '^KK$' | sed 's/^\(K[^K]*\)K/\1vK/') || { echo "$name: gsw cannot plan it" >&2; return 1; }
    : >"$tmp/r"; : >"$tmp/g"
    for ((i = 1; i <= runs; i++)); do
      d=$(mktemp -d -p "$tmp"); t0=$(now)
      (cd "$d" && export RTBPATH="$d" && for e in $list; do
         case $e in *P*) "$rtbgenp" -t "$threads" "$e" ;; *) "$rtbgen" -t "$threads" "$e" ;; esac >/dev/null 2>&1 || exit 1
       done) || { echo "$name: rtbgen failed" >&2; return 1; }
      secs "$t0" "$(now)" >>"$tmp/r"; echo >>"$tmp/r"; rm -rf "$d"
      d=$(mktemp -d -p "$tmp"); t0=$(now)
      if ! "$gsw" egdb build chess "$name" --threads "$threads" --dir "$d" >/dev/null 2>"$tmp/err"; then
        echo "$name: gsw: $(tail -1 "$tmp/err")"; rm -rf "$d"; return 0
      fi
      secs "$t0" "$(now)" >>"$tmp/g"; echo >>"$tmp/g"; rm -rf "$d"
    done
    local r g
    r=$(grep . "$tmp/r" | median); g=$(grep . "$tmp/g" | median)
    printf '%-7s rtbgen %s s [%s]  gsw %s s [%s]  gsw/rtbgen %.2f  (%s)\n' "$name" "$r" "$(grep . "$tmp/r" | paste -sd' ')" \
      "$g" "$(grep . "$tmp/g" | paste -sd' ')" "$(awk -v a="$g" -v b="$r" 'BEGIN{print a/b}')" "$(echo $list)"
  }
  command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
  [ -x "$rtbgenp" ] || echo "(no rtbgenp beside rtbgen: endings with pawns fail on its side)"
  echo "$threads threads, $runs runs each, turn about; rtbgen: WDL+DTZ; gsw: DTM (distance to mate)"
  for e in $endings; do side "$e"; done
  exit 0
fi
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %10s %10s %10s %10s %10s %14s %8s %8s\n' ending wall_s cpu_s peak_MB disk_MB files positions mate want
declare -A want=([KQK]=10 [KRK]=16 [KPK]=28 [KBBK]=19 [KBNK]=33 [KQKR]=35)
run() {   # ENDING
  local e=$1 d=$tmp/$1
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$gsw" egdb stats chess "$e" --dir "$d" --json >"$tmp/out" 2>"$tmp/err" ||
    { echo "$e: failed: $(tail -1 "$tmp/err")" >&2; return 1; }
  read -r wall usr sys rss <"$tmp/t"
  printf '%-8s %10.1f %10.1f %10.0f %10.1f %10d %14s %8s %8s\n' "$e" "$wall" \
    "$(awk -v a="$usr" -v b="$sys" 'BEGIN{print a+b}')" "$(awk -v k="$rss" 'BEGIN{print k/1024}')" \
    "$(du -sk "$d" | awk '{print $1/1024}')" "$(find "$d" -name '*.egdb' | wc -l)" \
    "$(jq -r .positions "$tmp/out")" "$(jq -r .longest_mate_moves "$tmp/out")" "${want[$e]}"
}
for e in KQK KRK KPK KBBK KBNK; do run "$e"; done
[ "$kqkr" -eq 1 ] && run KQKR
echo
echo "longest mates: FACTS.md (KQK 10, KRK 16, KBBK 19, KBNK 33, KPK 28 moves); KQKR's 35 is the commonly published figure"
