#!/usr/bin/env bash
# Set up on a fresh machine and run every check: lint, types, JS tests, Python tests (units, the real
# Mastra server, JupyterLab in headless Chromium), ipywidgets 7.7, and the wheel installed in a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
source scripts/installs.sh

# phase NAME: a heading with the seconds since the start and the time the phase before it took, so a
# slow step shows in the log; `phase_times` lists every phase's time at the end (as does a failure).
phase_names=() phase_starts=()
phase() {
  local last=$((${#phase_starts[@]} - 1))
  local took=""
  [ "$last" -ge 0 ] && took=" (the phase before: $((SECONDS - phase_starts[last])) s)"
  phase_names+=("$*") phase_starts+=("$SECONDS")
  echo "==> [${SECONDS} s] $*$took"
}
phase_times() {
  local i end
  echo "==> time by phase (a background job's own time is in its output heading):"
  for i in "${!phase_names[@]}"; do
    end=${phase_starts[i + 1]:-$SECONDS}
    printf '%6s s  %s\n' "$((end - phase_starts[i]))" "${phase_names[i]}"
  done
}

# in_background NAME TITLE COMMAND...: COMMAND runs beside what follows, its output kept aside;
# `finish NAME` waits for it, prints that output, and fails the test command if it failed.
logs=$(mktemp -d)
trap 'rc=$?; phase_times; rm -rf "$logs"; exit $rc' EXIT
declare -A jobs=() titles=()
in_background() {
  local name=$1 title=$2
  shift 2
  phase "$title: in the background, its output below when it ends"
  local began=$SECONDS
  ( status=0; "$@" || status=$?; echo "==> $title took $((SECONDS - began)) s"; exit $status ) >"$logs/$name" 2>&1 &
  jobs[$name]=$!
  titles[$name]=$title
}
finish() {
  local name=$1 status=0
  wait "${jobs[$name]}" || status=$?
  phase "${titles[$name]}: its output"
  cat "$logs/$name"
  [ "$status" = 0 ] || { echo "==> ${titles[$name]} failed (exit $status)"; exit 1; }
}

# The package allows ipywidgets 7.7 (Colab ships it) as well as 8: the kernel-side tests of the widget
# layer again in a venv of their own. core/ and analysis/ import no ipywidgets (import-linter), so
# their tests would prove nothing more there; the example notebooks (2 min) run under 8 only.
ipywidgets7() {
  venv_install .venv-ipywidgets7 -e . "ipywidgets==7.7.*" --group test-kernel
  .venv-ipywidgets7/bin/python -c "import ipywidgets as w; assert w.__version__.startswith('7.7.'), w.__version__"
  .venv-ipywidgets7/bin/python -m pytest -p no:cacheprovider tests/test_packaging.py tests/test_view.py \
    tests/test_saved_headless.py tests/test_discoverable.py tests/test_recording.py tests/test_gallery.py
}
js_checks() { cd js && npm run --silent check; }
# A real OTLP receiver: MLflow (~90 packages; lighter than Phoenix's ~150) in a venv of its own, so the
# main venv stays light; tests/test_otel_receiver.py (main venv) starts it, exports a run to it and reads it back.
otel_receiver() {
  venv_install .venv-otel mlflow
  MN_OTEL_VENV=.venv-otel .venv/bin/python -m pytest -p no:cacheprovider tests/test_otel_receiver.py
}

# Its install waits on the network, and the JS checks run in node: both beside the Python checks.
in_background ipywidgets7 "pytest: the widget layer with ipywidgets 7.7 (.venv-ipywidgets7/)" ipywidgets7
in_background js "js: typecheck + vitest" js_checks
in_background otel "pytest: OpenTelemetry to a real receiver, MLflow (.venv-otel/)" otel_receiver
in_background demo "the demo's environment (.venv-demo/: what scripts/demo.sh installs), for the examples" \
  venv_install .venv-demo "${DEMO_PACKAGES[@]}"

phase "ruff, mypy, import-linter (the layers)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports

finish demo  # the examples run in it (tests/server/test_examples.py starts their kernel there)

# pytest exits 5 when a selection holds no test: that is no failure here.
run_pytest() { .venv/bin/python -m pytest -p no:cacheprovider "$@" || [ $? = 5 ]; }

# --durations=30: the 30 slowest tests (setup, call and teardown apart) are listed after each run.
# -n 2 (pytest-xdist): the units and server tests on both cores, each worker with its own Mastra server
# (tests/server/conftest.py).
phase "pytest: units, properties, the real Mastra server, example notebooks (2 workers)"
MN_DEMO_VENV=.venv-demo run_pytest -m "not e2e" -n 2 --durations=30 "$@"

finish js
finish ipywidgets7
finish otel

# In a process of its own: Playwright's sync API keeps an event loop that the asyncio tests must not meet.
# tests/e2e/test_wheel.py builds the wheel and runs it, installed in a fresh venv, in JupyterLab.
phase "pytest: end-to-end in JupyterLab with headless Chromium, the built wheel included"
# Screenshots are opt-in (`--screenshots`, passed on by "$@"): by default only a failed test's page is shot.
# -n 2 --dist loadfile: a page mostly waits on its kernel, so two workers (each with its own JupyterLab,
# Chromium and Mastra server) keep both cores busy; a module stays on one worker, so the notebook its
# tests share is opened once.
run_pytest -m e2e -n 2 --dist loadfile --durations=30 "$@"
phase "done"
echo "==> all checks passed in ${SECONDS} s"
