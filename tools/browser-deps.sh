#!/usr/bin/env bash
# Make sure the browser tests can run: Debian's Chromium headless shell (Playwright never downloads
# a browser here) and the Noto CJK fonts (without them Chinese text renders as boxes and the layout tests
# measure the wrong glyphs); and Debian's nodejs, which runs the calculator's script against the
# Python cost model (tests/test_costmodel_js.py). Installs them when missing and running as root, as a fresh CI
# machine does; otherwise stops with the one command that installs them.
# The headless shell is the browser Playwright itself runs headless: the same Blink as Debian's
# `chromium` without the desktop browser around it, and a fifth less CPU for the same browser tests
# (tests/browser/test_reader.py alone: 377 -> 303 CPU-s). `make bench` passes `chromium`
# (package and binary) for Lighthouse, which measures the full browser.
set -euo pipefail

if [ $# -gt 0 ]; then
  package="$1" chromium="/usr/bin/$1"
else
  package=chromium-headless-shell chromium="${CHROMIUM:-/usr/bin/chromium-headless-shell}"
fi
have_chromium() { [ -x "$chromium" ]; }
# Not `fc-list | grep -q`: with pipefail, grep quitting early makes fc-list fail on SIGPIPE.
have_fonts() { command -v fc-list >/dev/null 2>&1 && [[ "$(fc-list : family 2>/dev/null)" == *"Noto Sans CJK"* ]]; }

have_node() { command -v node >/dev/null 2>&1 || command -v nodejs >/dev/null 2>&1; }

if have_chromium && have_fonts && have_node; then
  exit 0
fi
install="apt-get update && apt-get install -y --no-install-recommends $package fonts-noto-cjk nodejs"
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "the browser tests need Debian's $package and fonts-noto-cjk, and the calculator's nodejs; install them with: sudo sh -c '$install'" >&2
  exit 1
fi
echo "installing Debian's $package, fonts-noto-cjk and nodejs for the browser and calculator tests" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$package" fonts-noto-cjk nodejs >/dev/null
if ! have_chromium; then
  echo "installed $package, but $chromium is still missing: unset CHROMIUM or point it at the browser" >&2
  exit 1
fi
if ! have_node; then
  echo "installed nodejs, but node is still missing from PATH" >&2
  exit 1
fi
have_fonts
