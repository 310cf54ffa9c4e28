#!/usr/bin/env bash
# Set up on a fresh machine and run every check: lint, types, JS tests, Python tests (units, the real
# Mastra server, JupyterLab in headless Chromium), and a wheel installed into a clean venv.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser

echo "==> js: typecheck + vitest"
(cd js && npm run --silent check)

echo "==> ruff, mypy"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy

echo "==> pytest (units, server integration, end-to-end)"
.venv/bin/python -m pytest -p no:cacheprovider "$@"

echo "==> wheel: built, bundle inside, imports from a clean venv"
bash scripts/check-wheel.sh
echo "==> all checks passed in ${SECONDS} s"
