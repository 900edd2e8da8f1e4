#!/usr/bin/env bash
# Installs what SeatMap needs from Debian when it is missing: Cairo, Pango and
# libpng headers, pkg-config, fontconfig and the fonts the themes use (and
# poppler-utils, whose pdftotext the tests use to read PDF text back, and
# pngcheck, which checks every kind of PNG SeatMap writes), and libmicrohttpd
# for `seatmap serve`; libpq for the PostgreSQL store, and PostgreSQL's server
# and nginx, which the tests start (scripts/with-postgres.sh, make test-cluster);
# Node.js, whose built-in test runner runs the picker script's tests (`node --test Picker/`).
# apt-get when root, sudo otherwise; a clear message when neither works.
set -euo pipefail

packages=(pkg-config libcairo2-dev libpango1.0-dev libharfbuzz-dev libpng-dev zlib1g-dev libsqlite3-dev libmicrohttpd-dev libpq-dev postgresql nginx fontconfig fonts-wqy-microhei fonts-noto-core libxml2 poppler-utils pngcheck curl zsh fish nodejs)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "error: these Debian packages are missing: ${missing[*]}" >&2
  echo "       run as root, or install them yourself: apt-get install ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fc-cache -f >/dev/null 2>&1 || true
