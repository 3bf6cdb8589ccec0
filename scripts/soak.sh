#!/usr/bin/env bash
# The long versions of the reliability properties : more races between two instances,
# longer load before SIGTERM and SIGKILL, a 30 s database outage, 20,000 fuzz cases.
# `npm test` runs the same tests at a size CI can afford. Uses DATABASE_URL like `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

SOAK=1 npm test -- --selectProjects e2e --testPathPatterns 'multi-instance|restarts|fuzz'

echo
echo "== soak figures"
node -e '
  const lines = require("fs").readFileSync("test-output/figures.jsonl", "utf8").trim().split("\n");
  for (const { name, value } of lines.map((line) => JSON.parse(line))) {
    console.log(`${String(value).padStart(10)}  ${name}`);
  }
'
