#!/usr/bin/env bash
# The refactor's invariant: the records of the demo, of Examples/scenarios/week-20-apps.yaml and of 30 days of
# the scheduler benchmark's 50 apps, and the evaluation table of the example trace, are those of the goldens in
# scripts/invariant/ (made from main at cc39ab2). Each record is compared on at, app, kind, task, reason, value
# and taskKind, so new typed fields may be added. `--record` writes the goldens anew (only on purpose).
# Usage: scripts/check-invariant.sh [--record]   (OFFSTAGE=path/to/offstage to use a built binary)
set -euo pipefail
cd "$(dirname "$0")/.."
golden=scripts/invariant
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${OFFSTAGE:-}" ]; then
    swift build --product offstage >/dev/null
    OFFSTAGE=.build/debug/offstage
fi

# One line per record, tab-separated: the fields the invariant holds fixed.
project() {
    python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    print("\t".join(str(r.get(k, "")) for k in ("at", "app", "kind", "task", "reason", "value", "taskKind")))
' "$1"
}

"$OFFSTAGE" demo --json "$work/demo.json" >/dev/null
"$OFFSTAGE" simulate Examples/scenarios/week-20-apps.yaml --json "$work/week.json" >/dev/null
python3 scripts/bench-scenario.py 30 >"$work/bench30.yaml"
"$OFFSTAGE" simulate "$work/bench30.yaml" --json "$work/bench30.json" >/dev/null
for name in demo week bench30; do project "$work/$name.json" >"$work/$name.tsv"; done
"$OFFSTAGE" evaluate --trace Examples/traces/four-users-two-weeks.csv | grep -v '^Wall time' >"$work/evaluate.txt"

if [ "${1:-}" = "--record" ]; then
    mkdir -p "$golden"
    for name in demo week bench30; do xz -9 -T1 -c "$work/$name.tsv" >"$golden/$name.tsv.xz"; done
    cp "$work/evaluate.txt" "$golden/evaluate.txt"
    echo "invariant: goldens written to $golden"
    exit 0
fi

failed=0
for name in demo week bench30; do
    xz -dc "$golden/$name.tsv.xz" >"$work/$name.golden.tsv"
    if ! cmp -s "$work/$name.golden.tsv" "$work/$name.tsv"; then
        echo "invariant: the records of '$name' differ from the golden; the first difference (golden < > now):"
        diff "$work/$name.golden.tsv" "$work/$name.tsv" | head -12
        failed=1
    fi
done
if ! diff "$golden/evaluate.txt" "$work/evaluate.txt" >"$work/evaluate.diff"; then
    echo "invariant: the evaluation table differs (golden < > now):"
    head -12 "$work/evaluate.diff"
    failed=1
fi
[ $failed -eq 0 ] && echo "invariant: demo, week-20-apps, 30 days of the benchmark's 50 apps and the evaluation table are unchanged"
exit $failed
