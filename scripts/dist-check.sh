#!/usr/bin/env bash
# Checks the release files `make dist` made, as a user meets them:
#   the archive: its Makefile's install (DESTDIR) lays out the binary, a .desktop that
#     desktop-file-validate accepts and the icon; the installed binary says the version of
#     FyneApp.toml, the commit, Fyne's version of go.mod and the tags, and analyzes the
#     built-in sample; uninstall, user-install and user-uninstall do what they say;
#   the .deb: its control fields (Depends, Recommends) and its files;
#   both hold BIN byte for byte, the binary the tests and the window smoke test ran;
#   the Windows .zip: featurelab/ with WINEXE byte for byte, its version resource and icon,
#     README.md and LICENSE.txt; and the installer beside it (run under Wine by
#     scripts/windows-check.sh).
#   bash scripts/dist-check.sh [DIST=dist] [BIN=bin/featurelab] [WINEXE]
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist}
bin=${2:-bin/featurelab}
winexe=${3:-} # the Windows files are checked only when it is given (make windows-check)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "dist-check: $*" >&2; exit 1; }
field() { sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"?([^\"]*)\"?.*/\1/p" FyneApp.toml | head -n 1; }
version=$(field Version); build=$(field Build); id=$(field ID)
arch=$(go env GOARCH)
archive="$dist/featurelab-$version-linux-$arch.tar.xz"
deb="$dist/featurelab_${version}_$arch.deb"
[ -f "$archive" ] || fail "no $archive"
[ -f "$deb" ] || fail "no $deb"

# The archive, installed by its own Makefile into a staging root.
tar -xJf "$archive" -C "$work"
root="$work/root"
make -s -C "$work/featurelab" install DESTDIR="$root" >/dev/null
installed=(usr/bin/featurelab "usr/share/applications/$id.desktop" "usr/share/pixmaps/$id.png")
for f in "${installed[@]}"; do [ -s "$root/$f" ] || fail "make install DESTDIR=… did not lay out /$f"; done
exe="$root/usr/bin/featurelab"
[ -x "$exe" ] || fail "/usr/bin/featurelab is not executable"
cmp -s "$exe" "$bin" || fail "the archive's binary is not $bin, the binary the tests ran"
[ "$(head -c 8 "$root/usr/share/pixmaps/$id.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the icon is not a PNG"
desktop="$root/usr/share/applications/$id.desktop"
# Errors fail; hints (Graphics and Science are both main categories) do not.
msgs=$(desktop-file-validate "$desktop") || fail "desktop-file-validate refuses the .desktop: $msgs"
for line in "Exec=featurelab" "Icon=$id" "Categories=Graphics;Science;" "Name=Feature Lab"; do
  grep -qxF "$line" "$desktop" || fail "the .desktop has no line $line"
done
grep -q '^Comment=.' "$desktop" || fail "the .desktop has no Comment"
echo "dist-check: archive installs ${installed[*]}; the .desktop is valid"

# The installed binary: who it is, and a real analysis of the built-in sample.
fyne=$(awk '$1 == "fyne.io/fyne/v2" { print $2 }' go.mod)
v=$("$exe" --version)
for want in "Feature Lab $version (build $build)" "fyne:   $fyne" "tags:   migrated_fynedo" "id:     $id"; do
  grep -qxF "$want" <<<"$v" || fail "featurelab --version lacks \"$want\":"$'\n'"$v"
done
grep -Eq '^commit: [0-9a-f]{12}(-dirty)?$' <<<"$v" || fail "featurelab --version has no commit:"$'\n'"$v"
out=$("$exe" analyze --algo kmeans --k 4 --restarts 2 --out "$work/out" --json 2>/dev/null)
grep -q '"n_images": *[1-9]' <<<"$out" && grep -q '"k": *4' <<<"$out" || fail "featurelab analyze on the built-in sample: $out"
[ -s "$work/out/features.png" ] || fail "featurelab analyze wrote no features.png"
echo "dist-check: the installed binary says $(head -n 1 <<<"$v"), $(grep '^commit' <<<"$v"); analyze on the built-in sample: $(grep -o '"n_images": *[0-9]*' <<<"$out")"

make -s -C "$work/featurelab" uninstall DESTDIR="$root" >/dev/null 2>&1
left=$(find "$root" -type f)
[ -z "$left" ] || fail "make uninstall left $left"
home="$work/home"
mkdir -p "$home"
HOME="$home" make -s -C "$work/featurelab" user-install >/dev/null
[ -x "$home/.local/bin/featurelab" ] && [ -s "$home/.local/share/icons/$id.png" ] || fail "user-install did not install into ~/.local"
grep -qxF "Exec=$home/.local/bin/featurelab" "$home/.local/share/applications/$id.desktop" || fail "user-install's .desktop does not run ~/.local/bin/featurelab"
HOME="$home" make -s -C "$work/featurelab" user-uninstall >/dev/null 2>&1
left=$(find "$home" -type f)
[ -z "$left" ] || fail "make user-uninstall left $left"
echo "dist-check: uninstall, user-install and user-uninstall leave what they should"

# The .deb.
info=$(dpkg-deb --info "$deb")
fieldof() { dpkg-deb --field "$deb" "$1"; }
[ "$(fieldof Package)" = featurelab ] && [ "$(fieldof Version)" = "$version" ] && [ "$(fieldof Architecture)" = "$(dpkg --print-architecture)" ] ||
  fail "the .deb's Package, Version or Architecture is wrong:"$'\n'"$info"
for p in libc6 libgl1 libopenblas0 libturbojpeg0 libwayland-client0 libx11-6; do
  fieldof Depends | tr ',' '\n' | grep -Eq "^ *$p( |$)" || fail "the .deb does not depend on $p: $(fieldof Depends)"
done
for p in libxcursor1 libxrandr2 libxinerama1 libxi6 libxxf86vm1; do
  fieldof Recommends | tr ',' '\n' | grep -Eq "^ *$p$" || fail "the .deb does not recommend $p: $(fieldof Recommends)"
done
contents=$(dpkg-deb --contents "$deb" | awk '$1 ~ /^-/ { print $6 }' | sort)
want=$(printf '%s\n' ./usr/bin/featurelab "./usr/share/applications/$id.desktop" "./usr/share/pixmaps/$id.png" \
  "./usr/share/icons/hicolor/256x256/apps/$id.png" ./usr/share/doc/featurelab/copyright | sort)
[ "$contents" = "$want" ] || fail "the .deb holds"$'\n'"$contents"$'\n'"want"$'\n'"$want"
dpkg-deb --contents "$deb" | awk '$2 != "root/root" { bad = 1 } END { exit bad }' || fail "the .deb has files not owned by root"
dpkg-deb -x "$deb" "$work/deb"
cmp -s "$work/deb/usr/bin/featurelab" "$bin" || fail "the .deb's binary is not $bin, the binary the tests ran"
desktop-file-validate "$work/deb/usr/share/applications/$id.desktop" >/dev/null || fail "the .deb's .desktop is not valid"
echo "dist-check: $deb: Depends: $(fieldof Depends)"

# The Windows .zip and installer.
if [ -z "$winexe" ]; then
  echo "dist-check: ok (the Windows files: make windows-check)"
  exit 0
fi
zip="$dist/featurelab-$version-windows-amd64.zip"
setup="$dist/featurelab-$version-windows-amd64-setup.exe"
[ -f "$zip" ] || fail "no $zip"
[ -f "$setup" ] || fail "no $setup"
contents=$(unzip -Z1 "$zip" | grep -v '/$' | sort)
want=$(printf '%s\n' featurelab/LICENSE.txt featurelab/README.md featurelab/featurelab.exe)
[ "$contents" = "$want" ] || fail "the .zip holds"$'\n'"$contents"$'\n'"want"$'\n'"$want"
unzip -q "$zip" -d "$work/zip"
cmp -s "$work/zip/featurelab/featurelab.exe" "$winexe" || fail "the .zip's featurelab.exe is not $winexe"
file -b "$winexe" | grep -q 'PE32+ executable (console) x86-64' || fail "$winexe is not a 64-bit console PE: $(file -b "$winexe")"
strings -el "$winexe" | grep -qxF "$version.$build" || fail "$winexe has no version resource $version.$build"
x86_64-w64-mingw32-objdump -p "$winexe" | grep -q 'name: .*GLFW_ICON' || fail "$winexe has no icon"
grep -q 'Go modules' "$work/zip/featurelab/LICENSE.txt" || fail "the .zip's LICENSE.txt does not list the Go modules"
echo "dist-check: $zip ($(du -h "$zip" | cut -f1)) and $setup ($(du -h "$setup" | cut -f1))"
echo "dist-check: ok"
