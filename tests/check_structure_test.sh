#!/usr/bin/env bash
# scripts/check-structure on a made-up tree that breaks every rule once: each breach is reported
# with its path and line, exit 1; the registry, the lab list, the index machinery, a USES'd
# include and a listed exception are not; the same tree, fixed, passes.
set -uo pipefail
script=${1:?usage: check_structure_test.sh SCRIPT}
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
expect() { grep -qF -- "$1" <<<"$out" || fail "not reported: $1"; }
absent() { grep -qF -- "$1" <<<"$out" && fail "reported: $1"; }

mkdir -p "$tree"/app/labs/{alpha,beta,gamma}/gpu "$tree"/app/{core,shell,cli} "$tree"/kernels \
  "$tree"/model/index "$tree"/tests "$tree"/scripts
# Three labs: alpha's GPU files start with "ahead", so "ahead" is alpha's prefix too.
printf 'X(Alpha, "alpha", "Alpha", "A", 0) X(Beta, "beta", "Beta", "B", 0) X(Gamma, "gamma", "G", "G", 0)\n' \
  > "$tree/app/core/lab_list.h"
printf '#pragma once\n' > "$tree/app/labs/alpha/gpu/ahead_lab.h"
printf '#pragma once\n' > "$tree/app/labs/beta/beta_session.h"
printf '#pragma once\n' > "$tree/app/core/lab.h"
printf 'warplens_add_lab(gamma\n  USES beta\n  APP_SOURCES gamma_ui.cpp)\n' > "$tree/app/labs/gamma/CMakeLists.txt"
printf '#include "beta_session.h"\n' > "$tree/app/labs/gamma/gamma_ui.cpp"
# 1. size
seq 601 | sed 's/^/\/\/ line /' > "$tree/app/core/long.cpp"
# 2. lab to lab (alpha does not USE beta)
printf '#include "lab.h"\n#include "beta_session.h"\n' > "$tree/app/labs/alpha/alpha_ui.cpp"
# 3a. a file named after a lab outside its folder (by folder name and by GPU prefix)
printf '// test\n' > "$tree/tests/alpha_plan_test.cpp"
printf '// model\n' > "$tree/app/core/ahead_model.h"
# 3b. an include of a lab's header outside the folders; 3c. a lab's id
printf '#include "lab.h"\n#include "beta_session.h"\n' > "$tree/app/shell/menu.cpp"
printf 'int f() {\n  return lab == Lab::Gamma;\n}\n' > "$tree/app/cli/verb.cpp"
# Allowed: the registry, the index machinery, tests (for 3b and 3c), a listed exception.
printf '#include "beta_session.h"\nauto x = Lab::Beta;\n' > "$tree/app/shell/lab_registry.cpp"
printf '#pragma once\n' > "$tree/model/index/alpha_index.h"
printf '#include "beta_session.h"\nauto y = Lab::Alpha;\n' > "$tree/tests/session_test.cpp"
printf 'auto z = Lab::Alpha;\n' > "$tree/app/core/defaults.h"
printf '# why\napp/core/defaults.h  # the first lab\napp/core/gone.h  # a file since moved\n' \
  > "$tree/scripts/structure-exceptions.txt"
# 4. a lab's file in the shared GPU folder (by folder name and by GPU prefix)
printf '// kernel\n' > "$tree/kernels/beta_lab.cu"
printf '// plan\n' > "$tree/kernels/ahead_plan.cpp"
printf '// shared\n' > "$tree/kernels/gpu.h"
# 5. a lab with presets and no round-trip test of them (gamma has one, beta none)
printf '// presets\n' > "$tree/app/labs/beta/beta_preset.cpp"
printf '// presets\n' > "$tree/app/labs/gamma/gamma_preset.cpp"
mkdir -p "$tree/app/labs/gamma/tests"
printf '// round trip\n' > "$tree/app/labs/gamma/tests/gamma_preset_test.cpp"

out=$(python3 "$script" "$tree"); rc=$?
[[ $rc -eq 1 ]] || fail "exit $rc, expected 1"
expect 'app/core/long.cpp:601: 601 lines'
expect 'app/labs/alpha/alpha_ui.cpp:2: includes beta_session.h of the beta lab'
absent 'app/labs/alpha/alpha_ui.cpp:1:'
absent 'app/labs/gamma/gamma_ui.cpp'
expect 'tests/alpha_plan_test.cpp:1: named after the alpha lab'
expect 'app/core/ahead_model.h:1: named after the alpha lab'
expect 'app/shell/menu.cpp:2: includes beta_session.h of the beta lab'
absent 'app/shell/menu.cpp:1:'
expect 'app/cli/verb.cpp:2: names the lab Lab::Gamma'
absent 'lab_registry.cpp'
absent 'model/index'
absent 'tests/session_test.cpp'
absent 'app/core/defaults.h'
absent 'app/core/lab_list.h'
expect 'app/core/gone.h:1: listed in scripts/structure-exceptions.txt but names no lab'
expect "kernels/beta_lab.cu:1: the beta lab's file in the shared GPU folder"
expect "kernels/ahead_plan.cpp:1: the alpha lab's file in the shared GPU folder"
absent 'kernels/gpu.h'
expect "app/labs/beta/beta_preset.cpp:1: the lab's presets have no round-trip test"
absent 'gamma_preset'
[[ $(grep -c . <<<"$out") -eq 11 ]] || fail "expected 10 breaches and the summary"

# The same tree with each breach mended passes.
sed -i '2d' "$tree/app/labs/alpha/alpha_ui.cpp" "$tree/app/shell/menu.cpp"
sed -i '600,$d' "$tree/app/core/long.cpp"
mkdir -p "$tree/app/labs/alpha/tests"
mv "$tree/tests/alpha_plan_test.cpp" "$tree/app/labs/alpha/tests/"
mv "$tree/app/core/ahead_model.h" "$tree/app/labs/alpha/gpu/"
sed -i 's/Lab::Gamma/lab_is_first/' "$tree/app/cli/verb.cpp"
sed -i '/gone.h/d' "$tree/scripts/structure-exceptions.txt"
mv "$tree/kernels/beta_lab.cu" "$tree/app/labs/beta/gpu/"
mv "$tree/kernels/ahead_plan.cpp" "$tree/app/labs/alpha/gpu/"
mkdir -p "$tree/app/labs/beta/tests"
printf '// round trip\n' > "$tree/app/labs/beta/tests/beta_preset_test.cpp"
out=$(python3 "$script" "$tree") || fail "the mended tree does not pass"
# An exception whose file stops naming a lab is reported.
sed -i 's/Lab::Alpha/first_lab/' "$tree/app/core/defaults.h"
out=$(python3 "$script" "$tree") && fail "a stale exception passes"
expect 'app/core/defaults.h:1: listed in scripts/structure-exceptions.txt but names no lab'
echo "check_structure_test: pass"
