#!/usr/bin/env bash
# The Windows build under Wine, against the Linux build on the same folders:
#   bash scripts/windows-check.sh EXE LINUX_BIN DIST [WORK]
# in a throwaway Wine prefix, WORK/prefix (default bin/wine-check/prefix), made afresh each run,
# with the test-only ProcessPrng shim (scripts/wine/processprng.c) that Go's runtime needs
# and Wine 8.0 lacks:
#   --version                    says FyneApp.toml's version and build, and a commit
#   analyze --json, the sample   K as the Linux build's, objective within 1e-6 relative
#   analyze --json, the tabletop the same on the real tabletop (TABLETOP, default
#                                ../shared/data/tabletop; skipped, saying so, when absent), read
#                                from and written to paths with a drive letter, backslashes,
#                                spaces and a non-ASCII letter; the run timed on both
#   outputs replaced             a second analyze --save into the same outputs replaces them
#   encode                       the samples written by `samples`, coded with an analysis saved
#                                by the Windows build and with one saved by the Linux build: the
#                                same codes as the Linux build's encode
#   names that are not UTF-8     a Linux name with a byte no UTF-8 has, and (where the file
#                                system takes them) Windows names with an unpaired surrogate
#                                (scripts/wine/badname.c): every file read or skipped with a
#                                reason, the names written back in codes.csv
#   window                       featurelab.exe opens its window under Xvfb on the built-in sample
#                                and on a folder (a Windows path), each screenshot not blank
#                                (WORK/window.png, WORK/window-folder.png); the preferences,
#                                the folder among the recent ones, are in %APPDATA%
#   installer                    the NSIS installer in DIST installs silently (the .exe, the
#                                Start-menu entry, the uninstaller's registry key), the installed
#                                .exe runs, and the uninstaller takes it all away
# Every step is timed; the table ends the output and WORK/times.txt. Ends only the processes
# it started: Xvfb by PID, the prefix's Wine processes with wineserver -k.
set -uo pipefail
cd "$(dirname "$0")/.."
exe=${1:?usage: scripts/windows-check.sh EXE LINUX_BIN DIST [WORK]}
linux=${2:?usage: scripts/windows-check.sh EXE LINUX_BIN DIST [WORK]}
dist=${3:?usage: scripts/windows-check.sh EXE LINUX_BIN DIST [WORK]}
work=${4:-bin/wine-check}
tabletop=${TABLETOP:-../shared/data/tabletop}
root=$PWD
exe=$(realpath "$exe"); linux=$(realpath "$linux")
field() { sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"?([^\"]*)\"?.*/\1/p" FyneApp.toml | head -n 1; }
version=$(field Version); build=$(field Build)

rm -rf "$work"
mkdir -p "$work/linux"
work=$(realpath "$work")
export WINEPREFIX="$work/prefix" WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko (their installers would ask), and the shim's DLL as the native one.
export WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n"
c="$WINEPREFIX/drive_c"

xvfb_pid=""
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  wineserver -k 2>/dev/null
  wait 2>/dev/null
}
trap cleanup EXIT

failed=()
times="$work/times.txt"
: >"$times"
# since T0 [T1]: the seconds from T0 to T1 (or now), both from date +%s.%N.
since() { awk -v a="$1" -v b="${2:-$(date +%s.%N)}" 'BEGIN { printf "%.2f", b - a }'; }
# step NAME COMMAND...: runs it, times it, and records ok or FAIL.
step() {
  local name=$1 t0 t1 status
  shift
  echo "== $name"
  t0=$(date +%s.%N)
  if "$@"; then status=ok; else status=FAIL; failed+=("$name"); fi
  t1=$(date +%s.%N)
  printf '%-44s %8.2f s  %s\n' "$name" "$(since "$t0" "$t1")" "$status" | tee -a "$times"
}
# seconds COMMAND...: runs it and prints its wall time.
seconds() {
  local t0 t1
  t0=$(date +%s.%N); "$@"; local s=$?; t1=$(date +%s.%N)
  since "$t0" "$t1" >"$work/last-seconds"
  return $s
}
win() { wine "$@"; }
# jsonField NAME FILE: a top-level number of featurelab's JSON (two-space indent).
jsonField() { sed -nE "s/^  \"$1\": ([^,]*),?$/\1/p" "$2" | head -n 1; }
# stages FILE: the seconds of the load, the PCA and the learner in featurelab's JSON.
stages() {
  sed -n '/^  "seconds": {/,/^  }/p' "$1" | awk -F'[":, ]+' '$2 == "load" || $2 == "pca" || $2 == "algorithm" {
    printf "%s %.2f s  ", $2, $3 }'
}
# jsonCodes FILE: the "codes" of featurelab's JSON, one a line.
jsonCodes() { sed -n '/^  "codes": \[/,/^  \]/p' "$1" | grep -o '"[01]*"' | tr -d '"'; }
# columns: codes (one a line) read as features, each the string of its bits over the images,
# sorted: two results with the same features in another order have the same columns.
columns() { awk '{ for (i = 1; i <= length($0); i++) col[i] = col[i] substr($0, i, 1) } END { for (i in col) print col[i] }' | sort; }
# same WHAT LINUX.json WINDOWS.json: K equal, objective within 1e-6 relative, and the same
# codes up to the order of the features (which of two restarts tied to rounding is kept
# decides the order the learner found them in).
same() {
  local k1 k2 o1 o2 order=same
  k1=$(jsonField k "$2"); k2=$(jsonField k "$3"); o1=$(jsonField objective "$2"); o2=$(jsonField objective "$3")
  echo "$1: Linux K = $k1, objective $o1; Windows K = $k2, objective $o2"
  [ -n "$k1" ] && [ "$k1" = "$k2" ] || { echo "  K differs"; return 1; }
  awk -v a="$o1" -v b="$o2" 'BEGIN {
    d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a
    printf "  relative difference of the objectives: %.3g\n", (m > 0 ? d / m : d)
    exit !(d <= 1e-6 * m) }' || return 1
  [ "$(jsonCodes "$2")" = "$(jsonCodes "$3")" ] || order="another"
  [ "$(jsonCodes "$2" | columns)" = "$(jsonCodes "$3" | columns)" ] ||
    { echo "  the codes differ beyond the order of the features"; return 1; }
  echo "  the same codes of $(jsonCodes "$2" | wc -l) images, the features in $order order"
}

prefix() {
  wineboot --init >"$work/wineboot.log" 2>&1 && wineserver -w || { cat "$work/wineboot.log"; return 1; }
  x86_64-w64-mingw32-gcc -shared -O2 -s -o "$work/bcryptprimitives.dll" \
    scripts/wine/processprng.c scripts/wine/processprng.def || return 1
  cp "$work/bcryptprimitives.dll" "$c/windows/system32/bcryptprimitives.dll"
}
step "Wine prefix and the ProcessPrng shim" prefix

version_check() {
  local v
  v=$(win "$exe" --version 2>"$work/version.err") || { cat "$work/version.err"; return 1; }
  echo "$v"
  grep -qF "Feature Lab $version (build $build)" <<<"$v" && grep -Eq '^commit: [0-9a-f]{12}(-dirty)?' <<<"$v" ||
    { echo "featurelab.exe --version does not say version $version (build $build) and a commit"; cat "$work/version.err"; return 1; }
}
step "featurelab.exe --version" version_check

# The folders and outputs on drive C:, named as a Windows user names them.
data="$c/Feature Lab data"; out="$c/Feature Lab out"
wdata='C:\Feature Lab data'; wout='C:\Feature Lab out'
mkdir -p "$data" "$out"

sample() {
  "$linux" analyze --json --out "$work/linux/sample" >"$work/linux/sample.json" 2>"$work/linux/sample.err" || return 1
  win "$exe" analyze --json --out "$wout\\sample" >"$work/sample.json" 2>"$work/sample.err" ||
    { tail -n 5 "$work/sample.err"; return 1; }
  [ -s "$out/sample/result.json" ] || { echo "no result.json in $wout\\sample"; return 1; }
  same "built-in sample" "$work/linux/sample.json" "$work/sample.json"
}
step "analyze --json, built-in sample" sample

if [ -d "$tabletop" ]; then
  dir="$data/table top é"
  mkdir -p "$dir"
  cp "$tabletop"/* "$dir/"
  tabletop_linux() {
    seconds "$linux" analyze --json --out "$work/linux/tabletop" "$tabletop" >"$work/linux/tabletop.json" 2>"$work/linux/tabletop.err"
  }
  tabletop_windows() {
    seconds win "$exe" analyze --json --out "$wout\\tabletop run" "$wdata\\table top é" \
      >"$work/tabletop.json" 2>"$work/tabletop.err" || { tail -n 5 "$work/tabletop.err"; return 1; }
    [ -s "$out/tabletop run/result.json" ] || { echo "no result.json in $wout\\tabletop run"; return 1; }
    [ "$(jsonField n_images "$work/tabletop.json")" = "$(jsonField n_images "$work/linux/tabletop.json")" ] ||
      { echo "the Windows build read $(jsonField n_images "$work/tabletop.json") images"; return 1; }
    same "real tabletop" "$work/linux/tabletop.json" "$work/tabletop.json"
  }
  step "analyze --json, real tabletop (Linux)" tabletop_linux; tl=$(cat "$work/last-seconds")
  step "analyze --json, real tabletop (Wine)" tabletop_windows; tw=$(cat "$work/last-seconds")
  printf 'real tabletop, whole analyze: Linux %.2f s, Windows under Wine %.2f s (%.2f×)\n' "$tl" "$tw" "$(awk -v a="$tl" -v b="$tw" 'BEGIN { print b / a }')" | tee -a "$times"
  echo "  stages, Linux (OpenBLAS, libjpeg-turbo): $(stages "$work/linux/tabletop.json")" | tee -a "$times"
  echo "  stages, Wine (pure Go):                  $(stages "$work/tabletop.json")" | tee -a "$times"
else
  echo "analyze, real tabletop: skipped, no folder $tabletop (TABLETOP=DIR)" | tee -a "$times"
fi

# A second run into the same outputs replaces them (atomicfile: a temporary file renamed
# over the old one), as on Linux.
replace() {
  local i
  for i in 1 2; do
    win "$exe" analyze --algo kmeans --k 4 --restarts 2 --save "$wout\\again.featurelab" --out "$wout\\again" >/dev/null 2>"$work/again.err" ||
      { echo "run $i into the same outputs:"; tail -n 5 "$work/again.err"; return 1; }
  done
  for f in again.featurelab again/result.json again/features.png again/codes.csv; do
    [ -s "$out/$f" ] || { echo "no $f after the second run"; return 1; }
  done
  echo "the second run replaced again.featurelab and again\\{result.json,features.png,codes.csv}"
}
step "analyze twice into the same outputs" replace

encode() {
  local l w
  "$linux" samples "$work/linux/samples" >/dev/null 2>&1 || return 1
  "$linux" analyze --save "$work/linux/sample.featurelab" --out "$work/linux/save" >/dev/null 2>&1 || return 1
  "$linux" encode --out "$work/linux/encode" "$work/linux/sample.featurelab" "$work/linux/samples/tabletop" >/dev/null 2>"$work/linux/encode.err" ||
    { cat "$work/linux/encode.err"; return 1; }
  win "$exe" samples "$wdata\\samples é" >/dev/null 2>"$work/samples.err" || { cat "$work/samples.err"; return 1; }
  win "$exe" analyze --save "$wout\\sample.featurelab" --out "$wout\\save" >/dev/null 2>"$work/save.err" ||
    { tail -n 5 "$work/save.err"; return 1; }
  cp "$work/linux/sample.featurelab" "$out/linux sample.featurelab"
  # The Linux build's analysis gives the same codes in the same order; the Windows build's
  # own, the same codes up to the order of its features (as analyze's).
  for saved in "linux sample" sample; do
    win "$exe" encode --out "$wout\\encode $saved" "$wout\\$saved.featurelab" "$wdata\\samples é\\tabletop" \
      >/dev/null 2>"$work/encode.err" || { tail -n 5 "$work/encode.err"; return 1; }
    [ -s "$out/encode $saved/codes.csv" ] || { echo "no codes.csv in $wout\\encode $saved"; return 1; }
    l=$(cut -d, -f1,2 "$work/linux/encode/codes.csv"); w=$(cut -d, -f1,2 "$out/encode $saved/codes.csv")
    if [ "$saved" = sample ]; then
      l=$(cut -d, -f1 <<<"$l"; tail -n +2 <<<"$l" | cut -d, -f2 | columns)
      w=$(cut -d, -f1 <<<"$w"; tail -n +2 <<<"$w" | cut -d, -f2 | columns)
    fi
    if [ "$l" != "$w" ]; then
      echo "encode with the $saved analysis: codes.csv differs from the Linux build's:"
      diff <(echo "$l") <(echo "$w") | head -n 10
      return 1
    fi
    echo "encode with the $saved analysis: the Linux build's codes of $(($(wc -l <"$out/encode $saved/codes.csv") - 1)) images"
  done
}
step "encode of a saved analysis" encode

# Names that are not UTF-8 on one side. A Linux name with a byte no UTF-8 has reaches a
# Windows program through Wine as a name it can open again: featurelab.exe reads that
# picture and writes its name into codes.csv. Windows names with an unpaired surrogate
# (UTF-16 that no UTF-8 holds) are made by badname.exe where the file system takes them;
# Wine 8.0's does not, and the step says what it printed. Every file of the folder is a
# picture read or a file skipped with a reason.
odd_names() {
  local d="$c/odd names" pics files n skipped
  rm -rf "$d" "$work/odd-samples"
  mkdir -p "$d"
  "$linux" samples "$work/odd-samples" >/dev/null 2>&1 || { echo "samples failed"; return 1; }
  pics=("$work/odd-samples/tabletop/"*.jpg)
  cp "${pics[0]}" "${pics[1]}" "$d/"
  cp "${pics[2]}" "$d/$(printf 'not utf-8 \377.jpg')"
  printf 'not a picture' >"$d/$(printf 'notes \376.txt')"
  x86_64-w64-mingw32-gcc -municode -O2 -s -o "$work/badname.exe" scripts/wine/badname.c || return 1
  win "$work/badname.exe" 'C:\odd names' "C:\\odd names\\$(basename "${pics[0]}")" | sed 's/^/  badname.exe: /'
  files=$(find "$d" -type f | wc -l)
  win "$exe" analyze --json --out "$wout\\odd names" 'C:\odd names' >"$work/odd.json" 2>"$work/odd.err" ||
    { tail -n 5 "$work/odd.err"; return 1; }
  n=$(jsonField n_images "$work/odd.json")
  skipped=$(sed -n '/^  "skipped": {/,/^  }/p' "$work/odd.json" | grep -c '": "')
  echo "  $files files: $n pictures read, $skipped skipped with a reason"
  [ "$((n + skipped))" = "$files" ] || { echo "  files neither read nor skipped"; cat "$work/odd.err"; return 1; }
  [ "$(($(wc -l <"$out/odd names/codes.csv") - 1))" = "$n" ] || { echo "  codes.csv does not list the $n pictures"; return 1; }
  grep -q 'not utf-8' "$out/odd names/codes.csv" || { echo "  codes.csv lacks the picture with a byte no UTF-8 has"; return 1; }
}
step "names that are not UTF-8" odd_names

# window NAME SOURCE [ARG]: featurelab.exe [ARG] under Xvfb, until its window says it loaded
# SOURCE (its status line, logged), then a screenshot, WORK/NAME.png, that must not be blank.
window() {
  local name=$1 source=$2 wid="" colours=0 sd=0 shot="$work/$1.png" log="$work/$1.log" t0 loaded
  shift 2
  . scripts/xvfb.sh
  start_xvfb "$work/xvfb.log" || return 1
  # A fresh Wine session: the one the headless steps started has a desktop with no display,
  # on which GLFW fails ("Win32: Failed to create helper window").
  wineserver -k 2>/dev/null; wineserver -w
  t0=$(date +%s.%N)
  DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1 FYNE_SCALE=1 wine "$exe" "$@" >"$log" 2>&1 &
  for _ in $(seq 1 600); do
    wid=$(DISPLAY="$display" xdotool search --name "^Feature Lab$" 2>/dev/null | head -n 1)
    [ -n "$wid" ] && break
    sleep 0.1
  done
  [ -n "$wid" ] || { echo "no window named 'Feature Lab' in 60 s; featurelab.exe printed:"; tail -n 20 "$log"; return 1; }
  echo "Xvfb on $display: window $wid after $(since "$t0") s"
  for _ in $(seq 1 600); do
    grep -q 'Loaded [0-9]* images from ' "$log" && break
    sleep 0.1
  done
  # The log's text doubles a backslash.
  loaded=$(grep -o 'Loaded [0-9]* images from [^"]*' "$log" | sed 's/\\\\/\\/g')
  echo "${loaded:-(no Loaded line)}"
  grep -qF "images from $source in" <<<"$loaded" ||
    { echo "the window did not say it loaded $source; featurelab.exe printed:"; tail -n 20 "$log"; return 1; }
  for _ in $(seq 1 150); do
    xwd -silent -root -display "$display" >"$work/$name.xwd"
    /usr/bin/convert "xwd:$work/$name.xwd" "$shot"
    colours=$(/usr/bin/convert "$shot" -format '%k' info:)
    [ "$colours" -gt 2000 ] && break
    sleep 0.2
  done
  rm -f "$work/$name.xwd"
  sd=$(/usr/bin/convert "$shot" -colorspace Gray -format '%[fx:standard_deviation]' info:)
  echo "screenshot $shot: $colours colours, grey sd $sd"
  # Preferences are saved a moment after they change.
  sleep 1
  wineserver -k
  kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; xvfb_pid=""
  awk -v c="$colours" -v s="$sd" 'BEGIN { exit !(c > 2000 && s > 0.02) }' ||
    { echo "the screenshot looks blank; featurelab.exe printed:"; tail -n 20 "$log"; return 1; }
}
step "window under Xvfb, built-in sample" window window "built-in sample tabletop"

# The window opened on a folder given as a Windows path: its preferences, with that folder
# first among the recent ones, are where Windows keeps a user's (%APPDATA%).
window_folder() {
  local prefs="$c/users/${USER:-$(id -un)}/AppData/Roaming/fyne/io.github.featurelab/preferences.json"
  window window-folder "$wdata\\samples é\\tabletop" "$wdata\\samples é\\tabletop" || return 1
  [ -s "$prefs" ] || { echo "no preferences in %APPDATA%\\fyne\\io.github.featurelab"; return 1; }
  grep -qF '"recentFolders":["C:\\Feature Lab data\\samples é\\tabletop"' "$prefs" ||
    { echo "the recent folders in $prefs are not the folder opened:"; grep -o '"recentFolders":[^]]*]' "$prefs"; return 1; }
  echo "%APPDATA%\\fyne\\io.github.featurelab\\preferences.json: $(grep -o '"recentFolders":[^]]*]' "$prefs")"
}
step "window under Xvfb, a folder; preferences" window_folder

installer() {
  local user=${USER:-$(id -un)}
  local setup="$dist/featurelab-$version-windows-amd64-setup.exe"
  local inst="$c/users/$user/AppData/Local/Programs/Feature Lab"
  local lnk="$c/users/$user/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Feature Lab.lnk"
  [ -f "$setup" ] || { echo "no $setup"; return 1; }
  win "$setup" /S && wineserver -w || return 1
  for f in "$inst/featurelab.exe" "$inst/uninstall.exe" "$inst/README.md" "$inst/LICENSE.txt" "$lnk"; do
    [ -s "$f" ] || { echo "the installer did not write $f"; return 1; }
  done
  cmp -s "$inst/featurelab.exe" "$exe" || { echo "the installed featurelab.exe is not $exe"; return 1; }
  win reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\io.github.featurelab' /v DisplayVersion 2>/dev/null |
    grep -q "$version" || { echo "no uninstall entry in the registry"; return 1; }
  win "C:\\users\\$user\\AppData\\Local\\Programs\\Feature Lab\\featurelab.exe" --version | head -n 1 || return 1
  win "$inst/uninstall.exe" /S "_?=C:\\users\\$user\\AppData\\Local\\Programs\\Feature Lab" && wineserver -w
  # Run in place (_?=), the uninstaller cannot delete itself: NSIS leaves it to the caller.
  rm -f "$inst/uninstall.exe"; rmdir "$inst" 2>/dev/null
  for f in "$inst/featurelab.exe" "$lnk"; do
    [ ! -e "$f" ] || { echo "the uninstaller left $f"; return 1; }
  done
  ! win reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\io.github.featurelab' >/dev/null 2>&1 ||
    { echo "the uninstaller left the registry entry"; return 1; }
  echo "installed in $inst with its Start-menu entry; uninstalled"
}
step "installer: install, run, uninstall" installer

echo
echo "windows-check: $(wine --version) in $WINEPREFIX"
cat "$times"
if [ ${#failed[@]} -gt 0 ]; then
  echo "windows-check: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "windows-check: all passed"
