#!/usr/bin/env bash
# Set up everything the project needs on a fresh machine; safe to run again: each install runs only
# when what it is made from changed (scripts/installs.sh).
#   bash scripts/setup.sh            # Python venv (.venv/), the widget bundle, the test Mastra server
#   bash scripts/setup.sh --browser  # ... and Debian's Chromium for the end-to-end tests
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/installs.sh

if [[ " $* " == *" --browser "* ]] && [ ! -x /usr/bin/chromium ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "==> installing Debian's chromium"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

echo "==> widget bundle (js/ -> mastra_notebook/static/)"
widget_bundle

echo "==> mastra_notebook, its test tools and its checks, in .venv/"
venv_packages pip pip_install --upgrade pip  # dependency groups need pip >= 25.1
venv_packages setup pip_install -e . --group test --group dev

echo "==> the bundled Mastra server (server/)"
node_packages server
