#!/usr/bin/env bash
# Runs on Open MPI's ranks against one process (issue 36, docs/SCALING.md):
# the same job at 1, 2 and 4 workers, first as one process with that many
# threads, then under mpirun with that many worker ranks (rank 0 manages).
#   - egdb: checkers --pieces 5 --metric wld, one thread each (worker
#     ranks with --threads 1), from an empty folder: positions a second in
#     all and per worker, and where the workers' time went (--json farm);
#   - one unit divided: the 6-piece unit 3K0C-3K0C.bxwx (dtw) on k threads
#     of one process, then divided between k worker ranks (--divide-above
#     0): wall time and the largest process's peak memory;
#   - proof: connect4:6x5 by the proof-tree manager: wall time and leaves;
#   - tune: chess, population 16, one generation, 2000 nodes a move: games
#     a second.
# On a machine with fewer cores than workers, mpirun runs with
# --oversubscribe and the rate stops growing there.
#
#   bench/mpi_scaling.sh [--workers "1 2 4"] [BUILD_DIR]
set -u
workers="1 2 4"
while [ $# -gt 0 ]; do
  case $1 in
    --workers) workers=$2; shift 2 ;;
    *) break ;;
  esac
done
B=${1:-build/release}
G=$(cd "$B" && pwd)/gsw
command -v mpirun >/dev/null || { echo "mpirun is needed (openmpi-bin)"; exit 1; }
M="mpirun -q --allow-run-as-root --oversubscribe --bind-to none"   # (a bound rank on a busy core runs at half speed)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
secs() { python3 -c "import sys; print(open(sys.argv[1]).read().split()[-1])" "$out/t"; }
echo "gsw on Open MPI's ranks against one process; $(nproc) cores; rank 0 manages, workers build, solve or play"
echo
echo "egdb build checkers --pieces 5 --metric wld (one thread a worker)"
printf '%-18s %8s %10s %12s %8s %8s %8s %8s\n' run wall_s M_pos/s M/s/worker busy% comm% wait% tail%
for k in $workers; do
  for mode in threads ranks; do
    rm -rf "$out/e"
    if [ $mode = threads ]; then
      /usr/bin/time -f "%e" -o "$out/t" "$G" egdb build checkers --pieces 5 --metric wld --dir "$out/e" --threads "$k" --json >"$out/j" 2>/dev/null
    else
      /usr/bin/time -f "%e" -o "$out/t" $M -np $((k + 1)) "$G" egdb build checkers --pieces 5 --metric wld --dir "$out/e" \
        --threads 1 --json --mpi >"$out/j" 2>/dev/null
    fi
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); f = d["farm"]; t = float(sys.argv[2]); k = int(sys.argv[3])
a = f["busy_ms"] + f["comm_ms"] + f["wait_ms"] + f["tail_ms"]
pct = lambda x: "%.1f" % (100 * x / a) if a else "-"
print("%-18s %8.1f %10.2f %12.2f %8s %8s %8s %8s" % (sys.argv[4], t, d["positions"] / t / 1e6, d["positions"] / t / 1e6 / k,
      pct(f["busy_ms"]), pct(f["comm_ms"]), pct(f["wait_ms"]), pct(f["tail_ms"])))' "$out/j" "$(secs)" "$k" "$k $mode"
  done
done
echo
echo "one unit divided between the workers: checkers 3K0C-3K0C.bxwx --metric dtw (18.1 M positions; its exits built first)"
echo "(threads: one process; divided: k worker ranks of one thread, --divide-above 0; peak: the largest process's RSS)"
"$G" egdb build checkers 3K0C-3K0C.bxwx --metric dtw --dir "$out/u" --threads 2 >/dev/null 2>&1
printf '%-18s %8s %10s %10s\n' run wall_s M_pos/s peak_MB
for k in $workers; do
  for mode in threads divided; do
    rm -f "$out"/u/checkers/*/3K0C-3K0C.bxwx.egdb
    if [ $mode = threads ]; then
      /usr/bin/time -f "%e %M" -o "$out/t" "$G" egdb build checkers 3K0C-3K0C.bxwx --metric dtw --dir "$out/u" --threads "$k" \
        >/dev/null 2>&1
    else
      /usr/bin/time -f "%e %M" -o "$out/t" $M -np $((k + 1)) "$G" egdb build checkers 3K0C-3K0C.bxwx --metric dtw --dir "$out/u" \
        --threads 1 --mpi --divide-above 0 >/dev/null 2>&1
    fi
    python3 -c '
import sys
t, kb = open(sys.argv[1]).read().split()[-2:]
print("%-18s %8.2f %10.2f %10.0f" % (sys.argv[2], float(t), 18123840 / float(t) / 1e6, int(kb) / 1024))' "$out/t" "$k $mode"
  done
done
echo
echo "proof run connect4:6x5 (the proof-tree manager; ranks give the trees of as many threads)"
printf '%-18s %8s %s\n' run wall_s "trees (win?, at least a draw?)"
for k in $workers; do
  rm -f "$out"/p.db*
  /usr/bin/time -f "%e" -o "$out/t" "$G" proof run connect4:6x5 --workers "$k" --db "$out/p.db" >/dev/null 2>"$out/err"
  printf '%-18s %8s %s\n' "$k threads" "$(secs)" "$(grep -o 'tree [0-9,]* nodes, [0-9,]* leaves solved' "$out/err" | tr '\n' ';')"
  rm -f "$out"/p.db*
  /usr/bin/time -f "%e" -o "$out/t" $M -np $((k + 1)) "$G" proof run connect4:6x5 --db "$out/p.db" --mpi >/dev/null 2>"$out/err"
  printf '%-18s %8s %s\n' "$k ranks" "$(secs)" "$(grep -o 'tree [0-9,]* nodes, [0-9,]* leaves solved' "$out/err" | tr '\n' ';')"
done
echo
echo "tune chess --population 16 --generations 1 --nodes 2000 --seed 3"
printf '%-18s %8s %8s %8s\n' run wall_s games games/s
for k in $workers; do
  for mode in threads ranks; do
    rm -rf "$out/t1"
    if [ $mode = threads ]; then
      /usr/bin/time -f "%e" -o "$out/t" "$G" tune chess --out "$out/t1" --population 16 --generations 1 --nodes 2000 --seed 3 \
        --threads "$k" --json >"$out/j" 2>/dev/null
    else
      /usr/bin/time -f "%e" -o "$out/t" $M -np $((k + 1)) "$G" tune chess --out "$out/t1" --population 16 --generations 1 \
        --nodes 2000 --seed 3 --mpi --json >"$out/j" 2>/dev/null
    fi
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); t = float(sys.argv[2])
print("%-18s %8.2f %8d %8.1f" % (sys.argv[3], t, d["games"], d["games"] / t))' "$out/j" "$(secs)" "$k $mode"
  done
done
