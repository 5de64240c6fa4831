#!/bin/sh
# Runs the real-code trial app by app (Trial/Apps/<app>, filled by fetch-trial.sh): builds offstage-trial with
# that app alone (OFFSTAGE_TRIAL_APPS), so an app that does not compile does not hide the others, then runs its
# scenario, Trial/Scenarios/<app>.yaml. Each app's build and run output goes to .build/trial/<app>.log; one line
# per app says whether it compiled and how its run ended. Usage: Trial/run-trial.sh [APP...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
mkdir -p .build/trial
apps=${*:-$(grep -v '^#' Trial/trial.tsv | cut -f1 | sort -u)}
for app in $apps; do
    log=.build/trial/$app.log
    if ! OFFSTAGE_TRIAL_APPS=$app swift build --product offstage-trial > "$log" 2>&1; then
        echo "$app: does not compile ($(grep -c 'error:' "$log") errors, see $log)"
        continue
    fi
    .build/debug/offstage-trial "Trial/Scenarios/$app.yaml" >> "$log" 2>&1
    status=$?
    echo "$app: compiles; run exit $status; $(grep -E '^[a-zA-Z0-9.-]+: [0-9]+ completed' "$log" | tail -1)"
done
