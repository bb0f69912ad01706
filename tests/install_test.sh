#!/usr/bin/env bash
# The installed WarpLens, as a user gets it. Two modes:
#   install BUILD VERSION   cmake --install BUILD --prefix TMP, then check TMP
#   deb BUILD VERSION       cpack -G DEB from BUILD, dpkg -x the .deb into TMP, check TMP/usr
# Checks: the installed `warplens --version` (the project's version), `list`, a model-only
# `render` to a PNG; the man page and the per-verb reference (made from --help at build time);
# the desktop entry (desktop-file-validate), its icon, the AppStream metadata (appstreamcli
# validate). Exit 77 (ctest: skipped) only when a tool it needs is not installed.
set -euo pipefail
mode=$1 build=$2 version=$3
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
need=(desktop-file-validate appstreamcli)
[[ $mode == deb ]] && need+=(cpack dpkg-deb dpkg-shlibdeps)
for tool in "${need[@]}"; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/setup installs it)"
done
[[ -f $build/docs/warplens.1 ]] || skip "no man page in the build: help2man is not installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ $mode == install ]]; then
  prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
    cat "$tmp/install.log"
    fail "cmake --install"
  }
else
  (cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || {
    cat "$tmp/cpack.log"
    fail "cpack -G DEB"
  }
  deb=$tmp/pkg/warplens_${version}_$(dpkg --print-architecture).deb
  [[ -f $deb ]] || fail "no $(basename "$deb"): $(ls "$tmp/pkg")"
  info=$(dpkg-deb --field "$deb" Package Version Depends Recommends)
  echo "$info"
  grep -qx "Package: warplens" <<<"$info" || fail "package name"
  grep -qx "Version: $version" <<<"$info" || fail "package version"
  for dep in libglfw3 libcairo2 fonts-dejavu-core libc6; do
    grep -q "^Depends:.*\b$dep\b" <<<"$info" || fail "Depends lacks $dep"
  done
  grep -q "^Recommends:.*\blibgl1-mesa-dri\b" <<<"$info" || fail "Recommends lacks libgl1-mesa-dri"
  dpkg -x "$deb" "$tmp/root"
  prefix=$tmp/root/usr
fi

for f in bin/warplens bin/warplens-bench share/man/man1/warplens.1 \
  share/applications/warplens.desktop share/icons/hicolor/scalable/apps/warplens.svg \
  share/metainfo/io.github.warplens.WarpLens.metainfo.xml \
  share/warplens/scenarios/01-aligned.toml share/doc/warplens/README.md \
  share/doc/warplens/guide/lecturer.md share/doc/warplens/reference/warplens-render.md; do
  [[ -e $prefix/$f ]] || fail "not installed: $f"
done

warplens=$prefix/bin/warplens
out=$("$warplens" --version) || fail "warplens --version"
echo "$out"
grep -q "^warplens $version\b" <<<"$out" || fail "--version does not name $version"
list=$("$warplens" list) || fail "warplens list"
grep -q "^tile-column-32x32 " <<<"$list" || fail "list lacks tile-column-32x32"
"$warplens" render --model-only --scenario bank-stride-2 --size 640x400 --out "$tmp/r.png" \
  >/dev/null || fail "render"
[[ $(head -c 8 "$tmp/r.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
  fail "render wrote no PNG"
"$warplens" render --model-only --scenario bank-stride-32 --panel banks --out "$tmp/f.svg" \
  >/dev/null || fail "render --panel"
grep -q "<svg" "$tmp/f.svg" || fail "render --panel wrote no SVG"

man=$prefix/share/man/man1/warplens.1
grep -q '^\.SH NAME' "$man" || fail "man page has no NAME"
for verb in render analyze measure list verify; do
  grep -q "warplens $verb" "$man" || fail "man page lacks $verb"
done
grep -q '^\.SH "EXIT STATUS"' "$man" || fail "man page lacks EXIT STATUS"
grep -q "$version" "$man" || fail "man page does not name $version"
grep -q -- "--sweep-word-bytes" "$prefix/share/doc/warplens/reference/warplens-render.md" ||
  fail "reference page for render is not render --help"

desktop-file-validate "$prefix/share/applications/warplens.desktop" || fail "desktop file"
appstreamcli validate --no-net \
  "$prefix/share/metainfo/io.github.warplens.WarpLens.metainfo.xml" || fail "metainfo"
echo "PASS: $mode"
