#!/usr/bin/env bash
# The whole test command, RUNS times in a row (default 3), beside two busy loops that keep both
# cores of a small machine taken: the suite must stay green on a machine other programs keep busy.
# Usage: bash bench/suite_under_load.sh [RUNS]   (from the repository root; logs in bench/.cache/)
set -u
runs=${1:-3}
mkdir -p bench/.cache
busy() { while :; do :; done; }
busy & first=$!
busy & second=$!
trap 'kill "$first" "$second" 2>/dev/null' EXIT
failed=0
for run in $(seq 1 "$runs"); do
    log=bench/.cache/suite-under-load-$run.log
    start=$(date +%s)
    PYTHONFAULTHANDLER=1 bash tests/run.sh >"$log" 2>&1
    code=$?
    summary=$(grep -E "passed|failed" "$log" | tail -1)
    echo "run $run: exit $code in $(( $(date +%s) - start )) s: $summary"
    [ "$code" -eq 0 ] || failed=1
done
exit "$failed"
