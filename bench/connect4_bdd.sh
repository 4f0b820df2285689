#!/usr/bin/env bash
# Connect Four on BDDs: `gsw count` (every position reachable by legal play,
# per ply) and `gsw strong build` (the won/drawn/lost sets of every ply) on
# small boards, checked against the published numbers, in one invocation.
# Fetches nothing; needs GNU time (/usr/bin/time).
#
#   bench/connect4_bdd.sh [--boards "4x4 5x4 ..."] [--7x6] [--encodings] [--count-only]
#                         [--memory GB] [--timeout S] [--logs DIR]
#                         [--reference DIR [--ref-log2 N] [--ref-strong-boards "..."]]
#
# For each board (default 4x4 5x4 6x4 5x5 6x5): `gsw count connect4:WxH`
# (compressed encoding, column order; its plies' sets saved, as it always
# does, in a fresh temporary folder) and `gsw strong build` into another
# (its own forward pass), one table row each: positions (total) against the
# published count, count seconds (gsw's own clock) and peak BDD nodes,
# strong-build seconds (wall; forward / backward by gsw's clock) and peak
# nodes, peak RSS of each run (GNU time's maximum resident set size), the
# strong solution's size on disk, and the empty board's value (ply 0's set)
# against the published one. OK / MISMATCH; '-' where nothing is published.
#   --7x6         also counts 7x6 (count only: no strong build; opt-in: hours
#                 and far more memory than the small boards).
#   --encodings   a second table: the count again under each encoding x order
#                 (compressed/cellwise x column/row): largest ply set, peak
#                 nodes, seconds, RSS.
#   --count-only  no strong builds.
#   --memory GB   gsw's --memory (the BDD node table's limit) for every run;
#                 default 1 for boards of up to 20 cells, 4 above.
#   --timeout S   stop a run after S seconds (SIGINT: gsw stops cleanly); its
#                 row then shows the last progress line (how far it got).
#   --logs DIR    keep every run's stdout and stderr (progress lines) in DIR,
#                 as BOARD-WHAT.out / .err (default: a temporary folder,
#                 removed at the end); `tail -f DIR/*.err` watches a long run.
#   --reference DIR  side by side with the BDD solver we follow
#                 (github.com/markus7800/Connect4-Strong-Solver): DIR is its
#                 src/connect4 folder, built there with `make count solve`
#                 (build/count.out, build/solve.out). For each board, right
#                 after gsw's run: `count.out LOG2 W H` (and `solve.out LOG2 W
#                 H` for the strong boards), in a scratch folder; a last table
#                 gives both wall times, both peak RSS and the ratio gsw/ref
#                 (below 1: gsw is faster). LOG2 is the reference's node
#                 table (2^LOG2 nodes, 2^LOG2 * 64 bytes): by default its best
#                 size per board, as measured here (its README: large tables
#                 make small boards slow in garbage collection; at most half
#                 full is fastest): count 4x4 18, 5x4 20, 6x4 and 5x5 22, 7x4
#                 and 6x5 26, 7x5 and 6x6 27, 7x6 28 (16 GB); solve 4x4 to
#                 6x4 and 5x5 22 (its README's 24 was slower here: 6x4 113 s
#                 against 98 s), 6x5 27, 6x6 28 (its README's); --ref-log2 N
#                 for all.
#   --ref-strong-boards "..."  the boards the reference also solves (default:
#                 6x4 5x5 6x5 among --boards).
# gsw is GSW_BIN (default build/release/gsw). Each run is one process on
# one core; runs go one after another. Run from the repository root.
# Published numbers: John Tromp's position counts (4x4 .. 7x6, the last
# 4,531,985,219,092) and game values (4x4, 5x4, 5x5, 6x5, 7x4 draws; 6x4 a
# second-player win; 7x6 a first-player win). For scale: a published BDD
# strong solver reports 6x4 strong-solved in 33 s and 5x5 in 40 s under 1 GB.
# gsw sizes its node table at 80 bytes a node of --memory (BuDDy's node,
# its caches and a doubling in flight: 6x5's strong build was seen at 75);
# check `free -g` before the big boards on a shared machine.
set -euo pipefail
gsw=${GSW_BIN:-build/release/gsw}
boards="4x4 5x4 6x4 5x5 6x5"
add76=0 encodings=0 count_only=0 memory="" tmo="" logs="" ref="" ref_log2="" ref_strong="6x4 5x5 6x5"
while [ $# -gt 0 ]; do
  case $1 in
    --boards) boards=${2:?--boards \"WxH ...\"}; shift 2 ;;
    --7x6) add76=1; shift ;;
    --encodings) encodings=1; shift ;;
    --count-only) count_only=1; shift ;;
    --memory) memory=${2:?--memory GB}; shift 2 ;;
    --timeout) tmo=${2:?--timeout SECONDS}; shift 2 ;;
    --logs) logs=${2:?--logs DIR}; shift 2 ;;
    --reference) ref=${2:?--reference DIR}; shift 2 ;;
    --ref-log2) ref_log2=${2:?--ref-log2 N}; shift 2 ;;
    --ref-strong-boards) ref_strong=${2:?--ref-strong-boards \"WxH ...\"}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ $add76 = 1 ] && boards="$boards 7x6"
[ -x "$gsw" ] || { echo "build first: make release (no $gsw; or set GSW_BIN)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
if [ -n "$ref" ]; then
  ref=$(cd "$ref" && pwd) || exit 1
  for x in count solve; do
    [ -x "$ref/build/$x.out" ] || { echo "no $ref/build/$x.out: build the reference there with make count solve" >&2; exit 1; }
  done
fi
for b in $boards; do
  [[ $b =~ ^[0-9]+x[0-9]+$ ]] || { echo "not a board: $b (want WxH)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$logs" ]; then mkdir -p "$logs"; else logs=$tmp/logs; mkdir -p "$logs"; fi

published_count() {
  case $1 in
    4x4) echo 161029 ;; 5x4) echo 3945711 ;; 6x4) echo 94910577 ;; 4x5) echo 1706255 ;;
    5x5) echo 69763700 ;; 4x6) echo 15835683 ;; 6x5) echo 2818972642 ;; 5x6) echo 1044334437 ;;
    7x4) echo 2265792710 ;; 7x6) echo 4531985219092 ;; *) echo "" ;;
  esac
}
published_value() {
  case $1 in
    4x4|5x4|5x5|6x5|7x4) echo draw ;; 6x4) echo "second player wins" ;; 7x6) echo "first player wins" ;; *) echo "" ;;
  esac
}
mem_for() {   # BOARD -> GB
  if [ -n "$memory" ]; then echo "$memory"; return; fi
  local w=${1%x*} h=${1#*x}
  if [ $((w * h)) -le 20 ]; then echo 1; else echo 4; fi
}
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }
check() {   # GOT WANT -> OK / MISMATCH / -
  if [ -z "$2" ]; then echo "-"; elif [ "$1" = "$2" ]; then echo OK; else echo MISMATCH; fi
}

# run NAME -- gsw args...: runs gsw under GNU time (and timeout); sets rc,
# wall (s) and rss (MB); stdout / stderr in $logs/NAME.out / .err
run() {
  local name=$1; shift 2
  local pre=()
  [ -n "$tmo" ] && pre=(timeout --signal=INT --kill-after=60 "$tmo")
  rc=0
  /usr/bin/time -v -o "$tmp/time" "${pre[@]}" "$gsw" "$@" >"$logs/$name.out" 2>"$logs/$name.err" || rc=$?
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.1f", s }' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$tmp/time")
}
# runref NAME LOG2 PROGRAM W H: the reference in a scratch folder, as run()
runref() {
  local name=$1 log2=$2 prog=$3 w=$4 h=$5 pre=()
  [ -n "$tmo" ] && pre=(timeout --signal=INT --kill-after=60 "$tmo")
  rm -rf "$tmp/refrun"; mkdir -p "$tmp/refrun"
  rc=0
  (cd "$tmp/refrun" && /usr/bin/time -v -o "$tmp/time" "${pre[@]}" "$ref/build/$prog.out" "$log2" "$w" "$h") \
    >"$logs/$name.out" 2>"$logs/$name.err" </dev/null || rc=$?
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.1f", s }' "$tmp/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$tmp/time")
  rm -rf "$tmp/refrun"
}
log2_for() {   # BOARD PROGRAM -> the reference's node table (log2)
  if [ -n "$ref_log2" ]; then echo "$ref_log2"; return; fi
  if [ "$2" = solve ]; then   # 6x4, 5x5: 2^22 was faster here than its README's 2^24
    case $1 in 4x4|5x4|6x4|5x5) echo 22 ;; 6x5) echo 27 ;; 6x6) echo 28 ;; *) echo 28 ;; esac
    return
  fi
  case $1 in
    4x4) echo 18 ;; 5x4) echo 20 ;; 6x4|5x5) echo 22 ;; 7x4|6x5) echo 26 ;; 7x5|6x6) echo 27 ;; 7x6) echo 28 ;; *) echo 26 ;;
  esac
}
side=()   # the side-by-side table's rows
# refrow BOARD WHAT GSW_WALL GSW_RSS PROGRAM: runs the reference, adds a row
refrow() {
  [ -n "$ref" ] || return 0
  local b=$1 what=$2 gw=$3 grss=$4 prog=$5 l2 ok=-
  l2=$(log2_for "$b" "$prog")
  runref "$b-ref-$prog" "$l2" "$prog" "${b%x*}" "${b#*x}"
  if [ $rc != 0 ]; then
    side+=("$(printf '%-5s %-7s %9s %8s %5s  reference failed (exit %s; see %s)' "$b" "$what" "$gw" "$grss" "$l2" "$rc" "$logs/$b-ref-$prog.out")")
    return 0
  fi
  if [ "$prog" = count ]; then
    local n
    n=$(sed -n 's/^Total number of positions for .* board: \([0-9]*\)$/\1/p' "$logs/$b-ref-$prog.out")
    ok=$(check "$n" "$(published_count "$b")")
  fi
  side+=("$(printf '%-5s %-7s %9s %8s %5s %9s %8s %7s  %s' "$b" "$what" "$gw" "$grss" "$l2" "$wall" "$rss" \
    "$(awk -v a="$gw" -v b="$wall" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" "$ok")")
}

# why NAME: one line on a failed run: gsw's error and the last progress line
why() {
  local err last
  err=$(grep -v '^\(forward\|backward\): ' "$logs/$1.err" | tail -1 || true)
  last=$(grep '^\(forward\|backward\): ' "$logs/$1.err" | tail -1 || true)
  [ $rc = 124 ] && err="timed out after $tmo s${err:+; $err}"
  echo "exit $rc${err:+: $err}${last:+ (last progress: $last)}"
}
json_num() { grep -o "\"$1\":[0-9.]*" "$2" | tail -1 | cut -d: -f2; }

echo "gsw Connect Four on BDDs ($(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo); $gsw)"
echo "count: compressed encoding, column order; times in seconds, RSS in MB; --memory per board shown as mem"
printf '%-5s %4s %19s %-8s %9s %12s %7s %20s %12s %9s %8s  %-20s %s\n' \
  board mem positions count count_s count_peak cnt_RSS "strong_s (fwd/bwd)" strong_peak str_RSS disk "empty board" value
failed=0
for b in $boards; do
  mem=$(mem_for "$b")
  rm -rf "$tmp/count"   # (a count keeps its plies' sets: a fresh folder, so it counts them all)
  run "$b-count" -- count "connect4:$b" --encoding compressed --order column --memory "$mem" --dir "$tmp/count" --json
  rm -rf "$tmp/count"
  if [ $rc != 0 ]; then
    printf '%-5s %4s count failed: %s\n' "$b" "$mem" "$(why "$b-count")"
    failed=1
    continue
  fi
  total=$(grep -o '"total":[0-9]*' "$logs/$b-count.out" | head -1 | cut -d: -f2)
  cpeak=$(json_num peak_nodes "$logs/$b-count.out")
  csec=$(awk -v m="$(json_num time_ms "$logs/$b-count.out")" 'BEGIN { printf "%.1f", m / 1e3 }')
  cok=$(check "$total" "$(published_count "$b")")
  [ "$cok" = MISMATCH ] && failed=1
  crss=$rss
  refrow "$b" count "$wall" "$crss" count
  if [ $count_only = 1 ] || [ "$b" = 7x6 ]; then
    printf '%-5s %4s %19s %-8s %9s %12s %7s %20s %12s %9s %8s  %-20s %s\n' "$b" "$mem" "$(commas "$total")" "$cok" \
      "$csec" "$cpeak" "$crss" - - - - - -
    continue
  fi
  sdir=$tmp/strong-$b
  rm -rf "$sdir"
  run "$b-strong" -- strong build "connect4:$b" --dir "$sdir" --memory "$mem"
  if [ $rc != 0 ]; then
    printf '%-5s %4s %19s %-8s %9s %12s %7s  strong build failed: %s\n' "$b" "$mem" "$(commas "$total")" "$cok" \
      "$csec" "$cpeak" "$crss" "$(why "$b-strong")"
    failed=1
    rm -rf "$sdir"
    continue
  fi
  out=$logs/$b-strong.out
  # the table's rows: ply won drawn lost total terminal nodes...
  read -r won drawn lost < <(awk '$1 == "0" && NF >= 6 { gsub(",", ""); print $2, $3, $4; exit }' "$out")
  stotal=$(awk '$1 ~ /^[0-9]+$/ && NF >= 6 { gsub(",", "", $5); s += $5 } END { printf "%.0f", s }' "$out")
  read -r fwd bwd speak < <(sed -n 's/^forward \([0-9.]*\) s, backward \([0-9.]*\) s, peak \([0-9]*\) live BDD nodes.*$/\1 \2 \3/p' "$out")
  if [ "$won" = 1 ]; then value="first player wins"
  elif [ "$drawn" = 1 ]; then value=draw
  elif [ "$lost" = 1 ]; then value="second player wins"
  else value="? ($won/$drawn/$lost)"; fi
  vok=$(check "$value" "$(published_value "$b")")
  [ "$vok" = MISMATCH ] && failed=1
  [ "$stotal" != "$total" ] && { cok="$cok strong_total=$stotal!"; failed=1; }
  disk=$(du -sk "$sdir" | awk '{ if ($1 >= 10240) printf "%.0fM", $1 / 1024; else printf "%dK", $1 }')
  printf '%-5s %4s %19s %-8s %9s %12s %7s %20s %12s %9s %8s  %-20s %s\n' "$b" "$mem" "$(commas "$total")" "$cok" \
    "$csec" "$cpeak" "$crss" "$wall ($fwd/$bwd)" "$speak" "$rss" "$disk" "$value" "$vok"
  rm -rf "$sdir"
  case " $ref_strong " in *" $b "*) refrow "$b" strong "$wall" "$rss" solve ;; esac
done

if [ -n "$ref" ]; then
  echo
  echo "side by side with the reference ($ref), one after the other on this machine: wall seconds and peak RSS (MB) of"
  echo "whole runs; log2: the reference's node table; ratio: gsw / reference (below 1: gsw is faster); count: its total"
  printf '%-5s %-7s %9s %8s %5s %9s %8s %7s  %s\n' board what gsw_s gsw_RSS log2 ref_s ref_RSS ratio count
  for row in "${side[@]}"; do echo "$row"; done
fi

if [ $encodings = 1 ]; then
  echo
  echo "count under each encoding and order: max_ply_nodes is the largest ply's BDD, peak_nodes the most live nodes (at garbage collections and ply ends)"
  printf '%-5s %-11s %-7s %19s %-8s %13s %12s %9s %7s\n' board encoding order positions count max_ply_nodes peak_nodes seconds RSS_MB
  for b in $boards; do
    [ "$b" = 7x6 ] && continue
    mem=$(mem_for "$b")
    for enc in compressed cellwise; do
      for ord in column row; do
        rm -rf "$tmp/count"
        run "$b-count-$enc-$ord" -- count "connect4:$b" --encoding "$enc" --order "$ord" --memory "$mem" --dir "$tmp/count" --json
        rm -rf "$tmp/count"
        if [ $rc != 0 ]; then
          printf '%-5s %-11s %-7s failed: %s\n' "$b" "$enc" "$ord" "$(why "$b-count-$enc-$ord")"
          failed=1
          continue
        fi
        o=$logs/$b-count-$enc-$ord.out
        total=$(grep -o '"total":[0-9]*' "$o" | head -1 | cut -d: -f2)
        maxn=$(grep -o '"nodes":[0-9]*' "$o" | cut -d: -f2 | sort -n | tail -1)
        sec=$(awk -v m="$(json_num time_ms "$o")" 'BEGIN { printf "%.1f", m / 1e3 }')
        cok=$(check "$total" "$(published_count "$b")")
        [ "$cok" = MISMATCH ] && failed=1
        printf '%-5s %-11s %-7s %19s %-8s %13s %12s %9s %7s\n' "$b" "$enc" "$ord" "$(commas "$total")" "$cok" \
          "$maxn" "$(json_num peak_nodes "$o")" "$sec" "$rss"
      done
    done
  done
fi
exit $failed
