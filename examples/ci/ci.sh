#!/usr/bin/env bash
# toolsim in a plain shell CI (Jenkins, GitLab, Buildkite, cron): the same
# checks as toolsim.yml. Reports go to $REPORTS; keep it as the job's
# artifacts and point the CI's JUnit reader at $REPORTS/*.xml.
#   REGRESSIONS  directory of committed traces (default: regressions)
#   FUZZ_SEEDS   seeds per run, split over SHARDS (default: 20000; 0 skips fuzzing)
#   SHARDS       shards to run one after the other (default: 4; a CI matrix
#                runs one each with SHARD=K)
#   ENGINE       extra flags, e.g. --engine 'python3 adapter.py'
set -uo pipefail
REGRESSIONS=${REGRESSIONS:-regressions}
REPORTS=${REPORTS:-reports}
FUZZ_SEEDS=${FUZZ_SEEDS:-20000}
SHARDS=${SHARDS:-4}
ENGINE=${ENGINE:-}
mkdir -p "$REPORTS"
status=0

# shellcheck disable=SC2086 # ENGINE holds flags
toolsim check $ENGINE --junit "$REPORTS/regressions.xml" --json "$REPORTS/regressions.jsonl" \
  --html "$REPORTS/regression-failure.html" "$REGRESSIONS" || status=1

if [ "$FUZZ_SEEDS" -gt 0 ]; then
  for k in ${SHARD:-$(seq 1 "$SHARDS")}; do
    # shellcheck disable=SC2086
    if ! toolsim fuzz $ENGINE --seeds "$FUZZ_SEEDS" --shard "$k/$SHARDS" --out "$REPORTS/failures-$k" \
      --junit "$REPORTS/fuzz-$k.xml" --json "$REPORTS/fuzz-$k.jsonl"; then
      status=1
      # shellcheck disable=SC2086
      [ -d "$REPORTS/failures-$k" ] && toolsim check $ENGINE --html "$REPORTS/fuzz-$k.html" "$REPORTS/failures-$k" >/dev/null
    fi
  done
fi
exit "$status"
