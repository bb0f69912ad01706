#!/usr/bin/env bash
# scripts/check-structure on a made-up tree: a source of 601 lines and an include from one lab's
# folder of a header only another lab's folder has are both reported, exit 1; the same tree
# without them passes.
set -uo pipefail
script=${1:?usage: check_structure_test.sh SCRIPT}
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/app/labs/alpha" "$tree/app/labs/beta" "$tree/app/core"
printf '#pragma once\n' > "$tree/app/labs/beta/beta_session.h"
printf '#pragma once\n' > "$tree/app/core/lab.h"
printf '#include "lab.h"\n#include "beta_session.h"\n' > "$tree/app/labs/alpha/alpha_ui.cpp"
seq 601 | sed 's/^/\/\/ line /' > "$tree/app/core/long.cpp"
out=$(python3 "$script" "$tree"); rc=$?
echo "$out"
[[ $rc -eq 1 ]] || { echo "FAIL: exit $rc, expected 1"; exit 1; }
grep -q 'app/core/long.cpp:601: 601 lines' <<<"$out" || { echo "FAIL: the long file"; exit 1; }
grep -q 'app/labs/alpha/alpha_ui.cpp:2: includes beta_session.h of the beta lab' <<<"$out" ||
  { echo "FAIL: the cross-lab include"; exit 1; }
grep -q 'lab.h' <<<"$(grep alpha_ui <<<"$out")" && { echo "FAIL: app/core's header reported"; exit 1; }
sed -i '2d' "$tree/app/labs/alpha/alpha_ui.cpp"
sed -i '600,$d' "$tree/app/core/long.cpp"
python3 "$script" "$tree" || { echo "FAIL: the fixed tree does not pass"; exit 1; }
echo "check_structure_test: pass"
