#!/usr/bin/env bash
# The docs' promises, checked: README.md is at most 150 lines and shows the two commands
# (scripts/run, scripts/test); every picture the README and docs/ show from docs/guide/pictures/
# is made by scripts/guide-pictures, and every file there is one it makes; no page names an
# internal issue number.
set -euo pipefail
root=$1
cd "$root"
fail() { echo "FAIL: $*" >&2; exit 1; }
lines=$(wc -l <README.md)
((lines <= 150)) || fail "README.md has $lines lines (at most 150)"
grep -q '^scripts/run ' README.md || fail "README.md does not show scripts/run"
grep -q '^scripts/test ' README.md || fail "README.md does not show scripts/test"
made=$(grep -o -- '--out pictures/[A-Za-z0-9._-]*' scripts/guide-pictures | sed 's|--out pictures/||' | sort -u)
shown=$(grep -rhoE 'guide/pictures/[A-Za-z0-9._-]+|\]\(pictures/[A-Za-z0-9._-]+' README.md docs \
  --include='*.md' | sed -E 's|.*pictures/||' | sort -u)
for p in $shown; do
  grep -qx "$p" <<<"$made" || fail "docs show pictures/$p, which scripts/guide-pictures does not make"
done
for f in docs/guide/pictures/*; do
  grep -qx "$(basename "$f")" <<<"$made" || fail "$f is not made by scripts/guide-pictures"
done
if grep -rnE '\b[Ii]ssue [0-9]+' README.md docs --include='*.md'; then
  fail "a page names an internal issue number"
fi
echo "PASS: README $lines lines; $(wc -w <<<"$shown") pictures shown, all made by scripts/guide-pictures"
