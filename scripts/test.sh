#!/usr/bin/env bash
# npm test: every stage, stopping at the first that fails, then each stage's time. The type check
# and the lint run side by side (see below); the other stages one after another, each using the
# cores itself.
set -uo pipefail
cd "$(dirname "$0")/.."
times=()
status=0
record() { # stage, start, exit status
  times+=("$(printf '%-14s %5d s%s' "$1" $(($(date +%s) - $2)) "$([ "$3" -ne 0 ] && echo '  FAILED')")")
}

# the type check, ESLint and Prettier at once (the lint is the last two), their output shown one
# after the other; the lint's type-aware rules read the generated files, so they are made first
# (typecheck's own `npm run gen` then finds them up to date and writes nothing). The type check is
# TypeScript 7's native compiler (package typescript-native; it uses both cores for a while),
# ESLint and Prettier are one thread each.
start=$(date +%s)
npm run -s gen || status=$?
logs=$(mktemp -d)
npm run -s typecheck >"$logs/typecheck" 2>&1 &
tc=$!
npm run -s lint:code >"$logs/eslint" 2>&1 &
es=$!
npm run -s format:check >"$logs/prettier" 2>&1 &
pr=$!
wait $tc
tc_status=$?
record typecheck "$start" $tc_status
wait $es
es_status=$?
wait $pr
pr_status=$?
li_status=$((es_status || pr_status))
record lint "$start" $li_status
cat "$logs/typecheck" "$logs/eslint" "$logs/prettier"
rm -rf "$logs"
[ $tc_status -ne 0 ] && status=$tc_status
[ $li_status -ne 0 ] && status=$li_status
[ "$status" -ne 0 ] && echo "npm test: the generated files, the type check or the lint failed (above)"

if [ "$status" -eq 0 ]; then
  for stage in test:server test:unit test:stories test:e2e; do
    start=$(date +%s)
    npm run -s "$stage" || status=$?
    record "$stage" "$start" "$status"
    [ "$status" -ne 0 ] && break
  done
fi
echo
echo "npm test: time per stage (typecheck and lint side by side)"
printf '  %s\n' "${times[@]}"
exit "$status"
