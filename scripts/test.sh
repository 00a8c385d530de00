#!/usr/bin/env bash
# npm test: every stage in order, stopping at the first that fails, then each stage's time.
set -uo pipefail
cd "$(dirname "$0")/.."
stages=(typecheck lint test:server test:unit test:stories test:e2e)
times=()
status=0
for stage in "${stages[@]}"; do
  start=$(date +%s)
  npm run -s "$stage" || status=$?
  times+=("$(printf '%-14s %5d s%s' "$stage" $(($(date +%s) - start)) "$([ "$status" -ne 0 ] && echo '  FAILED')")")
  [ "$status" -ne 0 ] && break
done
echo
echo "npm test: time per stage"
printf '  %s\n' "${times[@]}"
exit "$status"
