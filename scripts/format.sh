#!/usr/bin/env bash
# Formats the project's Swift with the toolchain's swift-format and the committed .swift-format
# (two spaces, lines up to 150 characters, imports ordered), leaving generated code alone.
#
#   scripts/format.sh           rewrite the files in place
#   scripts/format.sh --lint    change nothing; fail, naming each place, if a file is not formatted
#                               (the test command's lint step)
set -euo pipefail
cd "$(dirname "$0")/.."

# Every Swift file of the project but generated code (Shared/Proto, */Generated/) and build folders.
files() {
  git ls-files --cached --others --exclude-standard -- '*.swift' |
    grep -v -E '^Shared/Proto/|/Generated/|(^|/)\.build' |
    while read -r file; do [ -f "$file" ] && printf '%s\n' "$file"; done
}

if [ "${1:-}" = "--lint" ]; then
  report=$(mktemp)
  trap 'rm -f "$report"' EXIT
  files | xargs -d '\n' swift format lint --strict --parallel >"$report" 2>&1 || true
  if [ -s "$report" ]; then
    cat "$report" >&2
    echo "lint: $(wc -l <"$report") places are not formatted as .swift-format says; scripts/format.sh fixes most" >&2
    exit 1
  fi
  echo "lint: $(files | wc -l) Swift files formatted as .swift-format says"
else
  files | xargs -d '\n' swift format format --in-place --parallel
fi
