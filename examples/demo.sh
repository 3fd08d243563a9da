#!/usr/bin/env bash
# The README's first command: builds curator, copies the bundled example
# store (examples/memory-store) into a new folder with its own git
# repository, and runs the hourly memory curation on it, then draws a rule.
# Usage: examples/demo.sh [FOLDER]   (default: a new temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d -t curator-demo-XXXXXX)}
mkdir -p "$work/bin" "$work/store"
(cd "$root" && go build -o "$work/bin/curator" ./cmd/curator)
export PATH="$work/bin:$PATH"
cp -R "$root/examples/memory-store/." "$work/store/"
cd "$work/store"

echo "== curator init (a git repository around the example store)"
curator init
echo
echo "== curator memory curate (the 09:00–10:00 window)"
curator memory curate --task "记忆整理 整理范围：2026-11-29T09:00:00Z 到 2026-11-29T10:00:00Z"
echo
echo "== curator memory promote-rule (3 distinct 'flaky CI' lessons)"
curator memory promote-rule --scenario "flaky CI"
echo
echo "== the audit trail"
git log --stat -2 | cat
echo
echo "Store left in $work/store"
