#!/usr/bin/env bash
# Smoke test of the real window on a real X server (Xvfb, through Qt's xcb plugin, not offscreen):
# the program starts on an empty library, paints its window, is screenshotted, and quits on Ctrl+Q.
#
# Usage: tests/e2e/xvfb_smoke.sh PAPER_READER [SHOT_DIR]
#   PAPER_READER  the program to run, e.g. .venv/bin/paper-reader
#   SHOT_DIR      where the screenshot goes (default: a new temporary folder, printed)
# Exits 0 only if every step held; prints one line per step. Installs nothing.
# XVFB_SMOKE_QUIT=term quits with SIGTERM instead of the Ctrl+Q key (the default when
# xdotool is installed).
#
# Needs these Debian 12 packages:
#   the tools:        xvfb imagemagick x11-utils xdotool (xdotool optional: without it, SIGTERM)
#   Qt's xcb plugin:  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-randr0
#                     libxcb-render-util0 libxcb-render0 libxcb-shape0 libxcb-shm0 libxcb-sync1
#                     libxcb-util1 libxcb-xfixes0 libxcb-xkb1 libxcb1 libx11-xcb1 libx11-6
#                     libxkbcommon-x11-0 libxkbcommon0 libegl1 libgl1 libfontconfig1 libfreetype6
#                     libglib2.0-0 libdbus-1-3
#   and a font:       fonts-dejavu-core (any font fontconfig finds)
# (from `ldd` on PySide6's Qt/plugins/platforms/libqxcb.so and Qt/lib/libQt6XcbQpa.so.6; a minimal
# Debian lacks libxcb-cursor0, libxcb-icccm4 and libxcb-keysyms1 first)
set -euo pipefail

WINDOW_TITLE="Paper Reader"  # reader/ui/app.py gives the main window this title
PAINT_TIMEOUT=30             # seconds for the window to appear and be painted
SETTLE_TIMEOUT=5             # seconds more, once painted, for the picture to stop changing
QUIT_TIMEOUT=15              # seconds for the program to exit once asked
MIN_COLOURS=50               # a painted window has text, icons and a list: many colours
MIN_STDDEV=0.02              # and is not one flat colour (0..1)

say() { printf 'xvfb-smoke: %s\n' "$*"; }
app_log() { tail -n 5 "$work/app.log" 2>/dev/null | grep . || echo "(it printed nothing)"; }
fail() {
  say "FAIL: $*"
  exit 1
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 PAPER_READER [SHOT_DIR]" >&2
  exit 2
fi
program=$1
command -v "$program" >/dev/null 2>&1 || fail "no program $program"
for tool in Xvfb xwininfo import identify timeout; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (see the top of $0)"
done
quit_with=${XVFB_SMOKE_QUIT:-$(command -v xdotool >/dev/null && echo key || echo term)}
case $quit_with in key | term) ;; *) fail "XVFB_SMOKE_QUIT is key or term, not $quit_with" ;; esac

started=$SECONDS
work=$(mktemp -d -t paper-reader-xvfb.XXXXXX)
shots=${2:-$(mktemp -d -t paper-reader-shot.XXXXXX)}
mkdir -p "$shots" "$work/cache" "$work/config" "$work/tmp"
mkdir -m 0700 "$work/runtime"
library=$work/library
xvfb_pid='' app_pid=''

cleanup() {
  local pid
  for pid in $app_pid $xvfb_pid; do
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# -displayfd: Xvfb picks a free display itself and writes its number once it accepts clients
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
  grep -q '^[0-9][0-9]*$' "$work/display" 2>/dev/null && break
  kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb exited: $(tail -n 3 "$work/xvfb.log")"
  sleep 0.1
done
display=":$(head -n 1 "$work/display")"
[ "$display" != ":" ] || fail "Xvfb gave no display number within 10 s"
say "Xvfb is on $display (1280x800x24) ok"

env -u QT_QPA_PLATFORM -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE -u READER_DATA_DIR \
  DISPLAY="$display" XDG_RUNTIME_DIR="$work/runtime" READER_CACHE_DIR="$work/cache" \
  XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" TMPDIR="$work/tmp" \
  "$program" --data-dir "$library" >"$work/app.log" 2>&1 &
app_pid=$!
say "started $program --data-dir $library (pid $app_pid)"

app_gone() {
  if kill -0 "$app_pid" 2>/dev/null; then return 1; fi
  local code=0
  wait "$app_pid" || code=$?
  app_pid=
  fail "the program exited ($code) $1: $(app_log)"
}

# the main window: titled so, and as big as a main window (a message box is smaller)
window=
deadline=$((SECONDS + PAINT_TIMEOUT))
while [ -z "$window" ]; do
  app_gone "before its window was mapped" || true
  window=$(xwininfo -display "$display" -root -tree 2>/dev/null |
    awk -v title="\"$WINDOW_TITLE\": (" '$1 ~ /^0x/ && index($0, $1 " " title) {
        for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+x[0-9]+[-+]/) {
          split($i, g, /[x+-]/)
          if (g[1] >= 640 && g[2] >= 400) { print $1; exit }
          break
        } }') || true
  [ -n "$window" ] && break
  [ $SECONDS -lt $deadline ] || fail "no \"$WINDOW_TITLE\" window within ${PAINT_TIMEOUT} s"
  sleep 0.25
done
say "window $window \"$WINDOW_TITLE\" is mapped ok"

# painted: the screen is no longer flat (the first frames can still be blank); then up to
# SETTLE_TIMEOUT more for two shots alike, so the picture shows the finished window
shot=$shots/xvfb-window.png
painted='' previous='' settle_deadline=0
while :; do
  app_gone "while its window was screenshotted" || true
  timeout 10 import -display "$display" -window root "$shot" 2>"$work/import.log" ||
    fail "import could not take a screenshot: $(tail -n 2 "$work/import.log")"
  read -r colours stddev signature < <(
    identify -format '%k %[fx:standard_deviation] %#\n' "$shot"
  )
  if [ -z "$painted" ] && awk -v c="$colours" -v s="$stddev" -v mc="$MIN_COLOURS" \
    -v ms="$MIN_STDDEV" 'BEGIN { exit !(c >= mc && s >= ms) }'; then
    painted=1 settle_deadline=$((SECONDS + SETTLE_TIMEOUT))
  fi
  if [ -n "$painted" ]; then
    if [ "$signature" = "$previous" ] || [ $SECONDS -ge $settle_deadline ]; then break; fi
  elif [ $SECONDS -ge $deadline ]; then
    fail "the window is blank after ${PAINT_TIMEOUT} s: $colours colours, deviation $stddev ($shot)"
  fi
  previous=$signature
  sleep 0.3
done
say "screenshot $shot: $colours colours, deviation $stddev ok"

if [ "$quit_with" = key ]; then
  DISPLAY=$display timeout 10 xdotool windowfocus --sync "$window" key --clearmodifiers ctrl+q ||
    fail "xdotool could not press Ctrl+Q in window $window"
  say "pressed Ctrl+Q in the window"
else
  kill -TERM "$app_pid"
  say "sent SIGTERM"
fi
deadline=$((SECONDS + QUIT_TIMEOUT))
while kill -0 "$app_pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do
  sleep 0.1
done
if kill -0 "$app_pid" 2>/dev/null; then
  fail "the program did not exit within ${QUIT_TIMEOUT} s of being asked"
fi
code=0
wait "$app_pid" || code=$?
app_pid=
[ "$code" -eq 0 ] || fail "the program exited $code: $(app_log)"
ls "$library"/devices/*/papers/000001.jsonl >/dev/null 2>&1 || fail "the library was not made in $library"
say "the program quit with 0 and left its library ok"

kill "$xvfb_pid"
wait "$xvfb_pid" 2>/dev/null || true
xvfb_pid=
say "Xvfb stopped; all steps held in $((SECONDS - started)) s"
