#!/bin/bash
# run_fuzz.sh FUZZER CORPUS REGRESS [libFuzzer options...]: runs FUZZER from
# a scratch copy of CORPUS (so the repository's corpus is not changed) plus
# the regression inputs in REGRESS (read only); a crash input is left in the
# scratch folder's crashes/ and named in the output. The targets' own
# scratch files are made in the scratch folder and go with it.
set -u
fuzzer=$1 corpus=$2 regress=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/gsw-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/crashes" "$work/tmp"
cp -r "$corpus/." "$work/corpus/" 2>/dev/null
dirs=("$work/corpus")
[ -d "$regress" ] && dirs+=("$regress")
# (the targets' scratch files, fuzz_path in fuzz_util.h, go under $TMPDIR:
# here, so that they leave with the scratch folder)
TMPDIR="$work/tmp" "$fuzzer" -artifact_prefix="$work/crashes/" "$@" "${dirs[@]}"
rc=$?
if [ $rc -ne 0 ]; then
    for f in "$work"/crashes/*; do
        [ -f "$f" ] || continue
        keep="${TMPDIR:-/tmp}/$(basename "$f")"
        cp "$f" "$keep" && echo "run_fuzz.sh: input kept as $keep (add it to $regress)"
    done
fi
exit $rc
