#!/usr/bin/env bash
# Runs each test file N times in a row (default 20) on the embedded PGlite and on a PostgreSQL server,
# and prints a table of passes and failures; exits 1 if any run failed. It is how a flaky test is
# caught before CI catches it (issues 32 and 43). Files default to the browser tests.
#   scripts/repeat-tests.sh [N] [file...]
# PostgreSQL: PG_URL (default postgres://postgres@127.0.0.1:5432/postgres); DBS chooses the databases
# (default "pglite postgresql"). Logs of failed runs are kept in $LOGS (default a new temporary folder).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/browser/*.test.ts)
pg=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
logs=${LOGS:-$(mktemp -d)}
if printf '%s\n' "${files[@]}" | grep -q '^tests/browser/'; then
  command -v chromium >/dev/null || [ -n "${CHROMIUM_PATH:-}" ] || { echo "no Chromium: the browser tests would skip, so nothing would be proved"; exit 2; }
fi

failed_total=0
printf '%-40s %-10s %6s %6s\n' file database passed failed
for file in "${files[@]}"; do
  for db in ${DBS:-pglite postgresql}; do
    url=''
    [ "$db" = postgresql ] && url=$pg
    passed=0 failed=0
    for i in $(seq 1 "$runs"); do
      log="$logs/$(basename "$file" .test.ts)-$db-$i.log"
      if TEST_DATABASE_URL=$url npm test --silent -- "$file" >"$log" 2>&1 && ! grep -q '^ 0 pass' "$log"; then
        passed=$((passed + 1))
        rm -f "$log"
      else
        failed=$((failed + 1))
      fi
    done
    failed_total=$((failed_total + failed))
    printf '%-40s %-10s %6d %6d\n' "$file" "$db" "$passed" "$failed"
  done
done
[ "$failed_total" -eq 0 ] || { echo "failed runs: logs in $logs"; exit 1; }
