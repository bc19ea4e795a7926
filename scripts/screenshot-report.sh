#!/usr/bin/env bash
# Renders a report.html in headless Chromium and writes a PNG screenshot, to check how a report looks.
# Needs Chromium (Debian: apt-get install chromium). Usage: scripts/screenshot-report.sh REPORT.html OUT.png [WIDTH,HEIGHT]
set -euo pipefail
report=$(realpath "$1")
out=$(realpath -m "$2")
size=${3:-1100,1600}
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" \
  --screenshot="$out" --window-size="$size" "file://$report" >/dev/null 2>&1
echo "$out"
