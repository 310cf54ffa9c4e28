#!/usr/bin/env bash
# The main job: JupyterLab on the example notebook, streaming from the bundled Mastra server.
# No API key and no server of your own: the server's agents run on a scripted model.
#   bash scripts/demo.sh [JupyterLab options]
# It installs only what it runs: the package (editable, with its widget bundle; with pandas and scipy,
# which the examples' tables and intervals use) and JupyterLab in
# .venv/, and the server's node packages; each only when what it is made from changed since the last
# time (scripts/installs.sh), so a second start goes straight to starting.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/installs.sh

# The installs, the server's launcher and JupyterLab, each in a process group of its own: stopped as a
# whole. The launcher stops the server however it is stopped itself.
groups=()
stop_all() {
  for group in "${groups[@]}"; do kill -TERM -- "-$group" 2>/dev/null || true; done
  wait
}
trap stop_all EXIT  # however this script ends: Ctrl+C, SIGTERM, a failed step, or JupyterLab quitting
trap 'exit 130' INT
trap 'exit 143' TERM

# start_job COMMAND...: COMMAND in the background, in a process group of its own; its pid in $job.
start_job() { set -m; "$@" & job=$!; set +m; groups+=("$job"); }

# MASTRA_DEMO_SETUP=0: set up already (tests/e2e/test_demo.py runs after the test command's own setup)
setup=${MASTRA_DEMO_SETUP:-1}
installing=()
if [ "$setup" != 0 ]; then
  echo "==> installing what changed: python (.venv/), bundle (js/ -> mastra_notebook/static/), server (server/node_modules/)"
  start_job prefixed python venv_packages demo quick_install "${DEMO_PACKAGES[@]}"
  installing+=("$job")
  start_job prefixed bundle widget_bundle
  installing+=("$job")
fi

# The server (its node packages first) starts alongside, on a port chosen now so that JupyterLab's
# kernels know its URL from their start. Its log (stderr) is shown here, each line prefixed with
# "mastra | " (by a sed that outlives a SIGTERM to read the server's last lines); its stdout is its
# URL once it is ready.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
serve() {
  [ "$setup" = 0 ] || prefixed server node_packages server >&2
  exec python3 server/launch.py "$port" 2> >(trap '' TERM; exec sed -u 's/^/mastra | /' >&2)
}
set -m
coproc SERVER { serve; }
set +m
groups+=("$SERVER_PID")
export MASTRA_BASE_URL="http://127.0.0.1:$port"
for job in "${installing[@]}"; do
  wait "$job" || { echo "==> an install failed: its output is above"; exit 1; }
done

# Only the demo's extensions: voila's and notebook's (the test command installs them) stay off.
export JUPYTER_CONFIG_PATH="$PWD/scripts/demo-jupyter${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
root_flag=()
[ "$(id -u)" = 0 ] && root_flag=(--ServerApp.allow_root=True)  # JupyterLab refuses root otherwise

# The notebooks run in a copy (.demo/, git-ignored): what they write and how they are saved stays out
# of examples/. A copy made before is kept, with whatever you changed in it.
mkdir -p .demo
cp -rn examples/. .demo/
start_job bash -c 'cd .demo && exec ../.venv/bin/jupyter lab "$@"' lab "${root_flag[@]}" quickstart.ipynb "$@"
lab=$job

read -r -u "${SERVER[0]}" url || { echo "==> the Mastra server did not start: its log is above ('mastra | ')"; exit 1; }
echo "==> Mastra server at $url (its log: the lines 'mastra | ')"
wait "$lab"
