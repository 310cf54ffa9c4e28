#!/usr/bin/env bash
# The main job: JupyterLab on the example notebook, streaming from the bundled Mastra server.
# No API key and no server of your own: the server's agents run on a scripted model.
set -euo pipefail
cd "$(dirname "$0")/.."
# MASTRA_DEMO_SETUP=0: set up already (tests/e2e/test_demo.py runs after the test command's own setup)
[ "${MASTRA_DEMO_SETUP:-1}" = 0 ] || bash scripts/setup.sh
.venv/bin/python -m pip install -q jupyterlab

log=$(mktemp)
.venv/bin/python server/launch.py >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1 || true)
  [ -n "$url" ] && break
  kill -0 $server 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.5
done
[ -n "${url:-}" ] || { echo "the Mastra server did not start"; cat "$log"; exit 1; }
echo "==> Mastra server at $url"
export MASTRA_BASE_URL="$url"
root_flag=()
[ "$(id -u)" = 0 ] && root_flag=(--ServerApp.allow_root=True)  # JupyterLab refuses root otherwise

# The notebooks run in a copy (.demo/, git-ignored): what they write and how they are saved stays out
# of examples/. A copy made before is kept, with whatever you changed in it.
mkdir -p .demo
cp -rn examples/. .demo/
(cd .demo && exec ../.venv/bin/jupyter lab "${root_flag[@]}" quickstart.ipynb "$@") &
lab=$!
trap 'kill $lab $server 2>/dev/null || true' EXIT  # however this script ends: Ctrl+C, SIGTERM, or JupyterLab quitting
trap 'exit 130' INT
trap 'exit 143' TERM
wait $lab
