#!/usr/bin/env bash
# What the browser tests need (make test-browser): Debian's chromium and
# chromium-driver, and Selenium from PyPI in a virtual environment at
# .build/browser-venv (a test-side tool: the product never imports it).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(chromium chromium-driver python3-venv)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: these Debian packages are missing: ${missing[*]} (run as root or install them)" >&2; exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
venv=.build/browser-venv
# axe-core for the accessibility checks: the axe.min.js (4.12.1) that the
# axe-playwright-python 0.1.8 wheel ships, pinned (Playwright itself is not needed).
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import selenium, axe_playwright_python" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "selenium>=4.10,<5"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps "axe-playwright-python==0.1.8"
fi
# Schemathesis for make test-api (the service against its OpenAPI document).
if [ ! -x "$venv/bin/st" ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis>=4,<5"
fi
