#!/usr/bin/env bash
# The peers seatmap-bench measures SeatMap against, when asked for (make
# bench-peers): skia-python and resvg-cli from PyPI in a virtual environment
# at .build/bench-venv, and Debian's chromium for the SVG screenshot. The
# bench skips (and says so) any peer that is missing. Never part of the product.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q chromium python3-venv
fi
[ -x .build/bench-venv/bin/python ] || python3 -m venv .build/bench-venv
.build/bench-venv/bin/pip install -q --disable-pip-version-check skia-python resvg-cli
echo "bench peers ready: .build/bench-venv (skia-python, resvg), $(command -v chromium)"
