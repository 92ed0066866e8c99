#!/usr/bin/env bash
# Packs the binary `make build` made, as it is: nothing is rebuilt, so the binary the tests,
# the smoke test and the first-paint probe ran is the one that ships.
#   scripts/dist.sh archive BIN DIST   DIST/featurelab-VERSION-linux-ARCH.tar.xz, made by Fyne's
#       packager (the version pinned in go.mod) from BIN with --executable: the binary, the
#       .desktop, the icon and a Makefile with install, uninstall, user-install and
#       user-uninstall (PREFIX, DESTDIR); also unpacked as DIST/featurelab/.
#   scripts/dist.sh deb BIN DIST       DIST/featurelab_VERSION_ARCH.deb: that tree installed
#       under /usr by its own Makefile, plus the icon in hicolor/256x256, the copyright file
#       and the control file (Depends from dpkg-shlibdeps, and libx11-6, which GLFW opens at
#       run time where dpkg-shlibdeps cannot see it).
# The packager runs on a copy of FyneApp.toml in a temporary folder: run on the checkout it
# rewrites FyneApp.toml (Build + 1, indentation lost) and leaves files in the root.
set -euo pipefail
# How hard xz packs the archive and the .deb: 6, Debian's default, for the files a user
# gets; make test checks what they hold and how they install, not their size, at 1
# (XZ_LEVEL, from the Makefile). Fyne's packager packs with tar -J, which reads XZ_OPT.
level=${XZ_LEVEL:-6}
export XZ_OPT="-$level -T0"
cd "$(dirname "$0")/.."
what=${1:?usage: scripts/dist.sh archive|deb BIN DIST}
bin=${2:?usage: scripts/dist.sh archive|deb BIN DIST}
dist=${3:?usage: scripts/dist.sh archive|deb BIN DIST}
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The version, the ID and the website of FyneApp.toml, which the binary embeds: a binary
# built before FyneApp.toml last changed would ship under the wrong version.
field() { sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"([^\"]*)\".*/\1/p" FyneApp.toml | head -n 1; }
version=$(field Version); id=$(field ID); website=$(field Website)
built=$("$bin" --version | head -n 1)
case "$built" in
  *" $version (build "*) ;;
  *) echo "dist: $bin says \"$built\", FyneApp.toml has version $version: run make build" >&2; exit 1 ;;
esac
arch=$(go env GOARCH)
archive="$dist/featurelab-$version-linux-$arch.tar.xz"
deb="$dist/featurelab_${version}_$arch.deb"
mkdir -p "$dist"

case "$what" in
archive)
  # The packager wants a source folder with Go code and FyneApp.toml; it reads the icon's
  # path from FyneApp.toml relative to it.
  src="$work/src"
  mkdir -p "$src/assets"
  cp FyneApp.toml go.mod main.go "$src/"
  cp assets/icon.png "$src/assets/"
  go build -o "$work/fyne" fyne.io/tools/cmd/fyne
  (cd "$src" && "$work/fyne" package --target linux --executable "$root/$bin" --src "$src")
  # It names the archive after the app ("Feature Lab.tar.xz"); ours says what and which.
  mv "$src/Feature Lab.tar.xz" "$archive"
  rm -rf "$dist/featurelab"
  tar -xJf "$archive" -C "$dist"
  echo "dist: $archive ($(du -h "$archive" | cut -f1))"
  ;;
deb)
  [ -f "$archive" ] || { echo "dist: no $archive: run scripts/dist.sh archive first" >&2; exit 1; }
  tree="$work/featurelab"
  tar -xJf "$archive" -C "$work"
  pkg="$work/deb"
  make -s -C "$tree" install DESTDIR="$pkg" PREFIX=/usr
  install -Dm0644 "$pkg/usr/share/pixmaps/$id.png" "$pkg/usr/share/icons/hicolor/256x256/apps/$id.png"
  doc="$pkg/usr/share/doc/featurelab"
  install -Dm0644 packaging/copyright "$doc/copyright"
  {
    echo
    echo "Files: usr/bin/featurelab"
    echo "Comment: The binary also holds these Go modules, each under its own licence:"
    go version -m "$bin" | awk '$1 == "dep" { print " " $2 " " $3 }'
  } >>"$doc/copyright"

  # dpkg-shlibdeps reads the binary's NEEDED libraries (libc6, libgl1, libopenblas0,
  # libturbojpeg0, libwayland-client0 today); GLFW opens libX11 with dlopen, and the
  # rest only when there: the X extensions on X11, the Wayland ones on Wayland.
  mkdir -p "$work/shlibs/debian"
  printf 'Source: featurelab\n\nPackage: featurelab\nArchitecture: any\n' >"$work/shlibs/debian/control"
  shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$pkg/usr/bin/featurelab" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  [ -n "$shlibs" ] || { echo "dist: dpkg-shlibdeps found no dependencies of $bin" >&2; exit 1; }
  mkdir -p "$pkg/DEBIAN"
  cat >"$pkg/DEBIAN/control" <<CONTROL
Package: featurelab
Version: $version
Architecture: $(dpkg --print-architecture)
Maintainer: Feature Lab maintainers <featurelab@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
Depends: $shlibs, libx11-6
Recommends: libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1, libwayland-cursor0, libwayland-egl1, libxkbcommon0, libegl1
Section: graphics
Priority: optional
Homepage: $website
Description: find the binary features shared by a folder of images
 Feature Lab finds the latent binary features shared by a folder of images
 (the base picture and the objects that come and go on it) with
 Bayesian-nonparametric models and their small-variance (MAD-Bayes) limits,
 segments single images with a kernel Pitman-Yor process, and runs the same
 pipeline headless from the command line.
CONTROL
  # Root-owned files whatever user builds it, and xz as Debian's own packages use.
  dpkg-deb --root-owner-group -Zxz -z"$level" --build "$pkg" "$deb" >/dev/null
  echo "dist: $deb ($(du -h "$deb" | cut -f1))"
  ;;
*) echo "usage: scripts/dist.sh archive|deb BIN DIST" >&2; exit 2 ;;
esac
