#!/usr/bin/env bash
# Set up on a fresh machine and run every check: lint, types, JS tests, Python tests (units, the real
# Mastra server, JupyterLab in headless Chromium), ipywidgets 7.7, and the wheel installed in a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
source scripts/installs.sh

# phase NAME: a heading with the seconds since the start, so a slow step shows in the log.
phase() { echo "==> [${SECONDS} s] $*"; }

# The package allows ipywidgets 7.7 (Colab ships it) as well as 8: the kernel-side tests of the widget
# layer again in a venv of their own. core/ and analysis/ import no ipywidgets (import-linter), so
# their tests would prove nothing more there; the example notebooks (2 min) run under 8 only.
# Its install waits on the network: it runs beside the checks below, its output shown at the end.
ipywidgets7() {
  venv_install .venv-ipywidgets7 -e . "ipywidgets==7.7.*" --group test-kernel
  .venv-ipywidgets7/bin/python -c "import ipywidgets as w; assert w.__version__.startswith('7.7.'), w.__version__"
  .venv-ipywidgets7/bin/python -m pytest -p no:cacheprovider tests/test_packaging.py tests/test_view.py \
    tests/test_saved_headless.py tests/test_discoverable.py tests/test_recording.py tests/test_gallery.py
}
ipywidgets7_log=$(mktemp)
trap 'rm -f "$ipywidgets7_log"' EXIT
phase "pytest: the widget layer with ipywidgets 7.7 (.venv-ipywidgets7/), in the background"
(set -e; ipywidgets7) >"$ipywidgets7_log" 2>&1 &
ipywidgets7_job=$!

phase "js: typecheck + vitest"
(cd js && npm run --silent check)

phase "ruff, mypy, import-linter (the layers)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports

# pytest exits 5 when a selection holds no test: that is no failure here.
run_pytest() { .venv/bin/python -m pytest -p no:cacheprovider "$@" || [ $? = 5 ]; }

phase "pytest: units, properties, the real Mastra server, example notebooks"
run_pytest -m "not e2e" "$@"

phase "pytest: the widget layer with ipywidgets 7.7: its output"
ipywidgets7_status=0
wait "$ipywidgets7_job" || ipywidgets7_status=$?
cat "$ipywidgets7_log"
[ "$ipywidgets7_status" = 0 ] || { echo "==> ipywidgets 7.7 failed (exit $ipywidgets7_status)"; exit 1; }

# In a process of its own: Playwright's sync API keeps an event loop that the asyncio tests must not meet.
# tests/e2e/test_wheel.py builds the wheel and runs it, installed in a fresh venv, in JupyterLab.
phase "pytest: end-to-end in JupyterLab with headless Chromium, the built wheel included"
run_pytest -m e2e "$@"
echo "==> all checks passed in ${SECONDS} s"
