#!/usr/bin/env bash
# gsw under Open MPI's mpirun (--mpi) against the single process:
# - egdb build: the 4-piece checkers databases built by 3 ranks (--oversubscribe,
#   one thread each) are the files a single process writes, byte for byte;
#   -np 1 is the single process; --json is one document from rank 0 alone;
#   units divided between the workers (--divide-above) give the same files,
#   in win/draw/loss and distance to win, with 2 and 3 parts;
# - proof run: Connect Four 7x4 and a checkers endgame over those databases,
#   proven by 3 ranks (2 workers), give the value and the stored manager
#   trees (every node, byte for byte) of a single process with --workers 2,
#   and 1 rank those of a single process;
# - tune: one generation more after a resume, 3 ranks against 2 threads,
#   and every file of 2 generations against one process: byte-identical;
# - a worker killed with SIGKILL: the build stops, and a second run resumes
#   it to the same files (also when every unit is divided); the proof stops with its tree stored, and
#   --resume under a new mpirun proves the same value;
# - bad input: --mpi without mpirun, on a verb it does not apply to, a rank
#   that does not see --dir, another binary on one rank: one line each,
#   exit 2 or 1.
# Argument "none" (a build without Open MPI): --mpi says so, exit 2.
# (mpirun -q: without it mpirun adds its own lines when a rank fails.)
# Needs GSW_BIN, python3, sqlite3 and (full) mpirun.
set -u
. "$(dirname "$0")/../cli/cli_lib.sh"
if [ "${1:-}" = none ]; then
  expect 2 "--mpi without Open MPI" -- "$gsw" egdb build checkers --pieces 2 --dir "$tmp/e" --mpi
  has err "built without Open MPI" "--mpi without Open MPI says so"
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
command -v mpirun >/dev/null || { echo "FAIL: mpirun is needed (openmpi-bin)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 is needed"; exit 1; }
mpi() { local n=$1; shift; mpirun -q --allow-run-as-root --oversubscribe -np "$n" "$@"; }
json() {   # json FILE EXPR WHAT: FILE is one JSON document and EXPR holds of it (d)
  python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
if not eval(sys.argv[2]): sys.exit("check failed: %s on %r" % (sys.argv[2], d))
' "$1" "$2" 2>"$tmp/why" && ok || bad "$3: $(head -c 600 "$tmp/why")"
}
trees() { sqlite3 "$1" "select goal, state, threshold, hex(nodes) from manager_tree order by goal" | md5sum; }

# --- egdb build -------------------------------------------------------------
expect 0 "egdb build, one process" -- "$gsw" egdb build checkers --pieces 4 --dir "$tmp/e1" --threads 1 --json
cp "$tmp/out" "$tmp/e1.json"
expect 0 "egdb build, 3 ranks" -- mpi 3 "$gsw" egdb build checkers --pieces 4 --dir "$tmp/e3" --threads 1 --json --mpi
cp "$tmp/out" "$tmp/e3.json"
diff -r -x MANIFEST "$tmp/e1" "$tmp/e3" >/dev/null && ok || bad "3 ranks: the files differ from one process's"
# rank 0 recorded every file the workers wrote, with the command as typed and the SHA-256 sha256sum gives
mf=$tmp/e3/checkers/wld/MANIFEST
same "$(grep -c '^file ' "$mf")" "$(ls "$tmp/e3/checkers/wld" | grep -c '\.egdb$')" "3 ranks: the MANIFEST lists every file"
grep -q "^command 1 .*egdb build checkers --pieces 4 .* --mpi$" "$mf" && ok || bad "3 ranks: the MANIFEST's command"
f=$(ls "$tmp/e3/checkers/wld" | grep '\.egdb$' | tail -1)
grep -q "^file $f sha256 $(sha256sum "$tmp/e3/checkers/wld/$f" | cut -d' ' -f1) " "$mf" && ok || bad "3 ranks: $f's SHA-256"
same "$(find "$tmp/e3" -name '*.egdb' | wc -l)" 1029 "3 ranks: 1,029 files"
json "$tmp/e3.json" 'd["built"] == 1029 and d["positions"] == 7361090 and d["reused"] == 0' "3 ranks: --json counts"
python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if sorted(a) == sorted(b) and sorted(a["engine"]) == sorted(b["engine"]) else 1)' "$tmp/e1.json" "$tmp/e3.json" \
  && ok || bad "3 ranks: --json's document has other fields than one process's"
grep -q "done by rank [12]" "$tmp/err" && ok || bad "3 ranks: no progress line says which rank built a unit"
expect 0 "egdb build, 1 rank" -- mpi 1 "$gsw" egdb build checkers --pieces 3 --dir "$tmp/e1r" --threads 1 --json --mpi
n=0 differ=0
for f in $(cd "$tmp/e1r" && find . -name '*.egdb'); do n=$((n + 1)); cmp -s "$tmp/e1r/$f" "$tmp/e1/$f" || differ=$((differ + 1)); done
same "$n $differ" "394 0" "1 rank: 394 files, each equal to one process's"
# units divided between the 2 workers: those of more than 100,000 positions, as many as the plan lists
expect 0 "egdb plan" -- "$gsw" egdb build checkers --pieces 4 --dir "$tmp/e3d" --plan --json
big=$(python3 -c 'import json,sys; print(sum(u["positions"] > 100000 for u in json.load(open(sys.argv[1]))["units"]))' "$tmp/out")
expect 0 "egdb build, 3 ranks, large units divided" -- mpi 3 "$gsw" egdb build checkers --pieces 4 --dir "$tmp/e3d" --threads 1 \
  --json --mpi --divide-above 100000
diff -r -x MANIFEST "$tmp/e1" "$tmp/e3d" >/dev/null && ok || bad "divided units: the files differ from one process's"
json "$tmp/out" "d['built'] == 1029 and d['positions'] == 7361090 and d['farm']['divided_units'] == $big and $big >= 10" \
  "divided units: --json counts ($big units of more than 100,000 positions)"
has_re err "done by ranks 1-2 \\(divided\\)" "divided units: the progress line says so"
rm -rf "$tmp/e3d"
expect 2 "--divide-above without --mpi" -- "$gsw" egdb build checkers --pieces 2 --dir "$tmp/b" --divide-above 10
has err "--divide-above goes with --mpi" "--divide-above without --mpi: said"
expect 0 "egdb build, 3 ranks again: nothing to do" -- mpi 3 "$gsw" egdb build checkers --pieces 4 --dir "$tmp/e3" --threads 1 --json --mpi
json "$tmp/out" 'd["built"] == 0 and d["reused"] == 1029' "3 ranks again: every slice reused"

# --- proof run --------------------------------------------------------------
for case in "connect4:7x4|" "checkers|B:WK18,26:BK3,5,6"; do
  g=${case%%|*} p=${case#*|}
  expect 0 "proof run $g $p, one process" -- "$gsw" proof run "$g" "$p" --workers 2 --db "$tmp/p1.db" --dir "$tmp/e1" --json
  cp "$tmp/out" "$tmp/p1.json"
  expect 0 "proof run $g $p, 3 ranks" -- mpi 3 "$gsw" proof run "$g" "$p" --db "$tmp/p3.db" --dir "$tmp/e1" --json --mpi
  json "$tmp/out" "d['value'] == json.load(open('$tmp/p1.json'))['value'] and d['complete']" "proof run $g $p: 3 ranks' value"
  has err "leaves solved" "proof run $g $p: rank 0's lines on stderr"
  same "$(trees "$tmp/p3.db")" "$(trees "$tmp/p1.db")" "proof run $g $p: the stored trees"
  same "$(sqlite3 "$tmp/p3.db" "select count(*) from manager_tree")" "$(sqlite3 "$tmp/p1.db" "select count(*) from manager_tree")" \
    "proof run $g $p: as many trees"
  rm -f "$tmp"/p1.db* "$tmp"/p3.db*
done
has_re err "tree [0-9]+ nodes" "proof run: a tree"
# -np 1 is the single process (its workers are threads, as without --mpi)
expect 0 "proof run connect4:7x4, one process" -- "$gsw" proof run connect4:7x4 --db "$tmp/q1.db"
expect 0 "proof run connect4:7x4, 1 rank" -- mpi 1 "$gsw" proof run connect4:7x4 --db "$tmp/q3.db" --mpi
same "$(trees "$tmp/q3.db")" "$(trees "$tmp/q1.db")" "proof run, 1 rank: the stored trees"

# --- tune ------------------------------------------------------------------
targs="--generations 2 --nodes 500 --seed 7 --population 6 --max-moves 40"
expect 0 "tune, one process" -- "$gsw" tune chess --out "$tmp/t1" $targs --threads 1
expect 0 "tune, 3 ranks" -- mpi 3 "$gsw" tune chess --out "$tmp/t3" $targs --mpi --json
json "$tmp/out" 'd["generations"] == 2 and d["games"] > 0' "tune, 3 ranks: --json"
has err "2 worker ranks" "tune, 3 ranks: the workers named"
n=0 differ=0
for f in $(cd "$tmp/t1" && ls); do n=$((n + 1)); cmp -s "$tmp/t1/$f" "$tmp/t3/$f" || differ=$((differ + 1)); done
same "$n $differ" "4 0" "tune, 3 ranks: its 4 files equal one process's"
expect 0 "tune, 1 rank" -- mpi 1 "$gsw" tune chess --out "$tmp/t1r" $targs --mpi
n=0 differ=0
for f in $(cd "$tmp/t1" && ls); do n=$((n + 1)); cmp -s "$tmp/t1/$f" "$tmp/t1r/$f" || differ=$((differ + 1)); done
same "$n $differ" "4 0" "tune, 1 rank: its 4 files equal one process's"
expect 0 "tune, 3 ranks, one more generation" -- mpi 3 "$gsw" tune chess --out "$tmp/t3" --generations 3 --resume --mpi
expect 0 "tune, one process, one more generation" -- "$gsw" tune chess --out "$tmp/t1" --generations 3 --resume --threads 2
cmp -s "$tmp/t1/state.txt" "$tmp/t3/state.txt" && cmp -s "$tmp/t1/gen-0003.csv" "$tmp/t3/gen-0003.csv" && ok \
  || bad "tune resumed: 3 ranks and 2 threads differ"
expect 2 "tune, 3 ranks, into a folder that holds a run" -- mpi 3 "$gsw" tune chess --out "$tmp/t3" $targs --mpi
has err "holds a tune run already" "tune into a used folder: rank 0 says why"

# --- a worker killed --------------------------------------------------------
# kill_rank R PATTERN: SIGKILL the process of rank R whose command line holds PATTERN
kill_rank() {
  for _ in $(seq 1 200); do
    for p in $(pgrep -f -- "$2"); do
      if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then kill -9 "$p"; return 0; fi
    done
    sleep 0.05
  done
  return 1
}
mpi 3 "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/k" --threads 1 --mpi >"$tmp/out" 2>"$tmp/err" &
job=$!
sleep 1.5
kill_rank 1 "--dir $tmp/k " && ok || bad "build: no rank 1 to kill"
wait $job
rc=$?
[ "$rc" -ne 0 ] && ok || bad "build with a rank killed: exit 0"
expect 0 "build resumed after a rank was killed" -- mpi 3 "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/k" --threads 1 --mpi
expect 0 "dtw build, one process" -- "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/k1" --threads 1
diff -r -x MANIFEST "$tmp/k" "$tmp/k1" >/dev/null && ok || bad "build resumed after a kill: files differ from one process's"
same "$(grep -c '^file ' "$tmp/k/checkers/dtw/MANIFEST")" "$(ls "$tmp/k/checkers/dtw" | grep -c '\.egdb$')" \
  "build resumed after a kill: its MANIFEST lists every file"
rm -rf "$tmp/k"
# every unit divided between 3 workers (the smallest have parts of no position), one killed mid-build
mpi 4 "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/k" --threads 1 --mpi --divide-above 0 \
  >"$tmp/out" 2>"$tmp/err" &
job=$!
sleep 1.5
kill_rank 2 "--dir $tmp/k " && ok || bad "divided build: no rank 2 to kill"
wait $job
[ $? -ne 0 ] && ok || bad "divided build with a rank killed: exit 0"
expect 0 "divided build resumed, 3 parts" -- mpi 4 "$gsw" egdb build checkers --pieces 4 --metric dtw --dir "$tmp/k" \
  --threads 1 --mpi --divide-above 100000 --json
json "$tmp/out" "d['farm']['divided_units'] > 0 and d['built'] + d['reused'] == 1029" "divided build resumed: units divided"
diff -r -x MANIFEST "$tmp/k" "$tmp/k1" >/dev/null && ok || bad "divided dtw build: files differ from one process's"
rm -rf "$tmp/k" "$tmp/k1"

GSW_SAVE_MS=300 mpi 3 "$gsw" proof run connect4:6x5 "" --db "$tmp/k.db" --mpi >"$tmp/out" 2>"$tmp/err" &
job=$!
sleep 2.5
kill_rank 2 "--db $tmp/k.db" && ok || bad "proof: no rank 2 to kill"
wait $job
[ $? -ne 0 ] && ok || bad "proof with a rank killed: exit 0"
same "$(sqlite3 "$tmp/k.db" "select count(*) > 0 from manager_tree where state = 'running'")" 1 "proof with a rank killed: its tree stored"
expect 0 "proof resumed under a new mpirun" -- mpi 3 "$gsw" proof run connect4:6x5 "" --db "$tmp/k.db" --mpi --resume --json
json "$tmp/out" 'd["value"] == "draw" and d["complete"]' "proof resumed: connect4:6x5 is a draw"
has_re err "resuming the (win|draw) tree" "proof resumed from the stored tree"

# --- bad input --------------------------------------------------------------
expect 2 "--mpi without mpirun" -- "$gsw" egdb build checkers --pieces 2 --dir "$tmp/b" --mpi
has err "not started by mpirun" "--mpi without mpirun says so"
expect 2 "--mpi on solve" -- mpi 2 "$gsw" solve connect4:4x4 --mpi
has err "gsw solve: no option --mpi (gsw solve --help)" "--mpi on solve: a verb that does not take it"
expect 2 "--mpi on egdb probe" -- mpi 2 "$gsw" egdb probe checkers 'B:WK10:BK28,K32' --mpi
has err "--mpi applies to" "--mpi on egdb probe says where it applies"
expect 1 "a rank that does not see --dir" -- mpirun -q --allow-run-as-root --oversubscribe -np 1 "$gsw" egdb build checkers \
  --pieces 2 --dir "$tmp/d0" --mpi : -np 1 "$gsw" egdb build checkers --pieces 2 --dir "$tmp/d1" --mpi
has err "rank 1 cannot see $tmp/d0" "a rank that does not see --dir: named"
expect 2 "a bad move string, 3 ranks: said once" -- mpi 3 "$gsw" proof run connect4:4x4 zz --db "$tmp/b.db" --mpi
has err 'bad character' "a bad move string under mpirun: named"
expect 2 "tune without --out, 2 ranks: said once" -- mpi 2 "$gsw" tune chess --mpi
cp "$gsw" "$tmp/gsw2" && printf 'x' >>"$tmp/gsw2"
expect 1 "another binary on rank 1" -- mpirun -q --allow-run-as-root --oversubscribe -np 1 "$gsw" egdb build checkers \
  --pieces 2 --dir "$tmp/d2" --mpi : -np 1 "$tmp/gsw2" egdb build checkers --pieces 2 --dir "$tmp/d2" --mpi
has err "rank 1 runs another gsw binary" "another binary: named"
[ -z "$(find "$tmp/d2" -name '*.egdb' 2>/dev/null)" ] && ok || bad "another binary: files were built"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
