#!/usr/bin/env bash
# Build the wheel, check it carries the widget bundle, and import it from a clean venv.
#   bash scripts/check-wheel.sh        # in a temporary folder, removed after
#   bash scripts/check-wheel.sh DIR [PACKAGE...]  # keeps DIR/dist/*.whl and DIR/venv, with the PACKAGEs
#                                      # too (tests/e2e/test_wheel.py runs that venv's JupyterLab)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
if [ -n "${1:-}" ]; then
  mkdir -p "$1"
  out=$(cd "$1" && pwd)
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
source scripts/installs.sh
# the build's isolated environment through uv when .venv/ has it (seconds, where pip takes tens)
installer=(); .venv/bin/python -c "import uv" 2>/dev/null && installer=(--installer uv)
# (the build hook builds the bundle if it is missing: SKIP_JUPYTER_BUILDER from installs.sh is not for it)
env -u SKIP_JUPYTER_BUILDER .venv/bin/python -m build --wheel "${installer[@]}" --outdir "$out/dist" . >"$out/build.log" 2>&1 || {
  cat "$out/build.log"
  exit 1
}
wheel=$(ls "$out"/dist/*.whl)
.venv/bin/python - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for needed in (
    "mastra_notebook/static/widget.js",
    "mastra_notebook/static/widget.css",
    "mastra_notebook/static/transcript.js",
    "mastra_notebook/static/grid.js",
    "mastra_notebook/static/review.js",
    "mastra_notebook/py.typed",
):
    assert needed in names, f"{needed} missing from the wheel"
print(f"wheel ok: {len(names)} files, bundle included")
PY
venv_install "$out/venv" "$wheel" "${@:2}"  # and the packages named after DIR
(cd "$out" && "$out/venv/bin/python" -c "
import mastra_notebook as mn
result = mn.collect(b'{\"type\":\"text-delta\",\"payload\":{\"id\":\"t\",\"text\":\"ok\"}}\n')
assert result.text == 'ok', result
from pathlib import Path
assert (Path(mn.__file__).parent / 'static' / 'widget.js').stat().st_size > 10_000
mn.StreamView()  # the widget loads its bundle
assert 'mastra-notebook-transcript' in result._repr_html_()  # the renderers run in the kernel's engine
import json
from importlib.metadata import version
js = json.load(open('$repo/js/package.json'))['version']
assert version('mastra-notebook') == mn.__version__ == js, (version('mastra-notebook'), mn.__version__, js)  # one source
assert Path(mn.__file__).is_relative_to('$out/venv'), mn.__file__  # the installed package, not the tree
print('clean-venv import ok', mn.__version__)
")
