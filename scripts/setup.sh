#!/usr/bin/env bash
# Installs, idempotently, the Debian packages Feature Lab needs: the C toolchain and X11/GL
# headers for Fyne's cgo build, OpenBLAS for the PCA's products, libjpeg-turbo for decoding
# camera JPEGs already reduced; with --windows, the MinGW-w64 C compiler for featurelab.exe,
# zip and NSIS for its .zip and installer; with --dist, what the Linux release files are
# packed with (xz, and dpkg-dev for dpkg-shlibdeps); with --test, those and Xvfb and the
# tools of the window smoke test and of the release files' check (desktop-file-validate);
# with --windows-check, all of those, Wine, unzip and file (`make windows-check`).
# --no-upgrade keeps an installed Mesa as it is: upgrading it mid-session breaks llvmpipe.
set -euo pipefail

build_pkgs=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
  libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev libopenblas-dev
  libturbojpeg0-dev)
windows_pkgs=(gcc-mingw-w64-x86-64 zip nsis)
dist_pkgs=(xz-utils dpkg-dev)
test_pkgs=(xvfb xauth x11-utils x11-apps xdotool imagemagick libgl1-mesa-dri desktop-file-utils)
wine_pkgs=(wine wine64 unzip file)

pkgs=("${build_pkgs[@]}")
case "${1:-}" in
  --windows) pkgs+=("${windows_pkgs[@]}") ;;
  --dist) pkgs+=("${dist_pkgs[@]}") ;;
  --test) pkgs+=("${dist_pkgs[@]}" "${test_pkgs[@]}") ;;
  --windows-check) pkgs+=("${dist_pkgs[@]}" "${windows_pkgs[@]}" "${test_pkgs[@]}" "${wine_pkgs[@]}") ;;
esac

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup: this script installs Debian packages with apt-get; on this system install by hand: ${pkgs[*]}" >&2
  exit 1
fi

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
