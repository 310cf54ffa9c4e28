#!/usr/bin/env bash
# Set up everything the project needs on a fresh machine; safe to run again.
#   bash scripts/setup.sh            # Python venv (.venv/), the widget bundle, the test Mastra server
#   bash scripts/setup.sh --browser  # ... and Debian's Chromium for the end-to-end tests
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ " $* " == *" --browser "* ]] && [ ! -x /usr/bin/chromium ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "==> installing Debian's chromium"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

echo "==> Python venv in .venv/"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip

echo "==> widget bundle (js/ -> mastra_notebook/static/)"
(cd js && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)

echo "==> mastra_notebook, its test tools and its checks (dependency groups: pip >= 25.1)"
SKIP_JUPYTER_BUILDER=1 .venv/bin/python -m pip install -q -e . --group test --group dev

echo "==> the bundled Mastra server (server/)"
(cd server && npm ci --no-audit --no-fund --loglevel=error)
