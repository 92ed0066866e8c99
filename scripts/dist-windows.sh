#!/usr/bin/env bash
# Packs the featurelab.exe `make windows` made, as it is (nothing is rebuilt), for Windows:
#   DIST/featurelab-VERSION-windows-amd64.zip         featurelab/ with featurelab.exe, README.md
#       and LICENSE.txt (packaging/copyright and the Go modules the .exe holds, as in the .deb)
#   DIST/featurelab-VERSION-windows-amd64-setup.exe   the NSIS installer of the same three files
#       (packaging/windows/featurelab.nsi: per user, Start-menu entry, uninstaller)
#   bash scripts/dist-windows.sh EXE ICO DIST
# ICO is the icon scripts/winres wrote for the .exe, which the installer wears too.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:?usage: scripts/dist-windows.sh EXE ICO DIST}
ico=${2:?usage: scripts/dist-windows.sh EXE ICO DIST}
dist=${3:?usage: scripts/dist-windows.sh EXE ICO DIST}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

field() { sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"?([^\"]*)\"?.*/\1/p" FyneApp.toml | head -n 1; }
version=$(field Version); build=$(field Build); id=$(field ID)
# The version resource says the version and build the .exe was built with (scripts/winres,
# in UTF-16): one built before FyneApp.toml last changed would ship under the wrong version.
strings -el "$exe" | grep -qxF "$version.$build" ||
  { echo "dist-windows: $exe has no version resource $version.$build (FyneApp.toml): run make windows" >&2; exit 1; }

name="featurelab-$version-windows-amd64"
stage="$work/featurelab"
mkdir -p "$stage" "$dist"
cp "$exe" "$stage/featurelab.exe"
cp README.md "$stage/README.md"
{
  cat packaging/copyright
  echo
  echo "Files: featurelab.exe"
  echo "Comment: The program also holds these Go modules, each under its own licence:"
  go version -m "$exe" | awk '$1 == "dep" { print " " $2 " " $3 }'
} >"$stage/LICENSE.txt"

zip="$dist/$name.zip"
rm -f "$zip"
# The same timestamps in every build of the same files: the zip differs only when they do.
touch -d @0 "$stage" "$stage"/*
(cd "$work" && TZ=UTC zip -q -X -r -9 "$root/$zip" featurelab)
echo "dist: $zip ($(du -h "$zip" | cut -f1))"

setup="$dist/$name-setup.exe"
makensis -V2 -NOCD -DVERSION="$version" -DFILEVERSION="$version.$build" -DID="$id" \
  -DSTAGE="$stage" -DICON="$root/$ico" -DOUTFILE="$root/$setup" packaging/windows/featurelab.nsi
echo "dist: $setup ($(du -h "$setup" | cut -f1))"
