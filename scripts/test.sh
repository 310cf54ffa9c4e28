#!/usr/bin/env bash
# Set up on a fresh machine and run every check: lint, types, JS tests, Python tests (units, the real
# Mastra server, JupyterLab in headless Chromium), ipywidgets 7.7, and the wheel installed in a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser

echo "==> js: typecheck + vitest"
(cd js && npm run --silent check)

echo "==> ruff, mypy, import-linter (the layers)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports

# pytest exits 5 when a selection holds no test: that is no failure here.
run_pytest() { .venv/bin/python -m pytest -p no:cacheprovider "$@" || [ $? = 5 ]; }

echo "==> pytest: units, properties, the real Mastra server, example notebooks"
run_pytest -m "not e2e" "$@"

# The package allows ipywidgets 7.7 (Colab ships it) as well as 8: the kernel-side tests of the widget
# layer again in a venv of their own. core/ and analysis/ import no ipywidgets (import-linter), so
# their tests would prove nothing more there; the example notebooks (2 min) run under 8 only.
echo "==> pytest: the widget layer with ipywidgets 7.7 (.venv-ipywidgets7/)"
started=$SECONDS
[ -x .venv-ipywidgets7/bin/python ] || python3 -m venv .venv-ipywidgets7
.venv-ipywidgets7/bin/python -m pip install -q --upgrade pip
SKIP_JUPYTER_BUILDER=1 .venv-ipywidgets7/bin/python -m pip install -q -e . "ipywidgets==7.7.*" --group test-kernel
.venv-ipywidgets7/bin/python -c "import ipywidgets as w; assert w.__version__.startswith('7.7.'), w.__version__"
.venv-ipywidgets7/bin/python -m pytest -p no:cacheprovider tests/test_packaging.py tests/test_view.py \
  tests/test_saved_headless.py tests/test_discoverable.py tests/test_recording.py tests/test_gallery.py
echo "==> ipywidgets 7.7: $((SECONDS - started)) s"

# In a process of its own: Playwright's sync API keeps an event loop that the asyncio tests must not meet.
# tests/e2e/test_wheel.py builds the wheel and runs it, installed in a fresh venv, in JupyterLab.
echo "==> pytest: end-to-end in JupyterLab with headless Chromium, the built wheel included"
run_pytest -m e2e "$@"
echo "==> all checks passed in ${SECONDS} s"
