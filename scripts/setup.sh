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

# The three installs wait mostly on the network and on disk, not on each other: they run side by side,
# each line prefixed with its name; the first to fail fails the setup once all have ended.
echo "==> installing what changed: bundle (js/ -> mastra_notebook/static/), python (.venv/: the package, its test tools and checks), server (server/node_modules/)"
python_packages() { venv_packages setup quick_install -e . --group test --group dev; }
installs=()
prefixed bundle widget_bundle & installs+=($!)
prefixed python python_packages & installs+=($!)
prefixed server node_packages server & installs+=($!)
failed=0
for job in "${installs[@]}"; do wait "$job" || failed=1; done
[ "$failed" = 0 ] || { echo "==> an install failed: its output is above"; exit 1; }
