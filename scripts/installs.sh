# Sourced by setup.sh and demo.sh (from the repository root): each install runs only when what it is
# made from changed since it last succeeded. Its stamp, the hash of those inputs, lives next to what it
# installs (in node_modules/ or .venv/), so deleting that deletes the stamp too.

export SKIP_JUPYTER_BUILDER=1  # the package's build leaves the bundle to widget_bundle

# stamped STAMP KEY COMMAND...: run COMMAND unless STAMP holds KEY, then record KEY in STAMP.
stamped() {
  local stamp=$1 key=$2 started=$SECONDS
  shift 2
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
    echo "up to date"
    return
  fi
  "$@" || return  # no stamp for a failed install (and set -e is off under `||` or `if`)
  echo "$key" >"$stamp"
  echo "done in $((SECONDS - started)) s"
}

# inputs_key WORD... -- FILE...: one hash of the words (tool versions, options) and the files' contents.
inputs_key() {
  local words=()
  while [ "$1" != -- ]; do words+=("$1"); shift; done
  shift
  { printf '%s\n' "${words[@]}"; cat "$@"; } | sha256sum | cut -c1-64
}

npm_ci() { (cd "$1" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error); }

# node_packages DIR: `npm ci` in DIR, unless DIR/node_modules came from this lockfile and this node.
node_packages() {
  local key
  key=$(inputs_key "$(node --version)" -- "$1/package-lock.json")
  stamped "$1/node_modules/.mastra-notebook-inputs" "$key" npm_ci "$1"
}

# widget_bundle: js/ -> mastra_notebook/static/ (esbuild), unless built from these sources already.
widget_bundle() {
  node_packages js
  local key sources stamp=js/node_modules/.mastra-notebook-bundle
  mapfile -t sources < <(find js/src -type f | sort)
  key=$(inputs_key "$(node --version)" -- js/package.json js/package-lock.json js/tsconfig.json js/build.mjs \
    "${sources[@]}")
  for built in widget.js transcript.js grid.js review.js; do [ -f "mastra_notebook/static/$built" ] || rm -f "$stamp"; done
  stamped "$stamp" "$key" npm run --prefix js --silent build
}

# venv_packages NAME COMMAND...: run COMMAND (an install into .venv/, made if missing) unless it ran
# already with this Python and these project files. The package is installed editable: its own
# sources are read where they are, so only its metadata (pyproject.toml, the version) counts.
venv_packages() {
  local name=$1 key
  shift
  [ -x .venv/bin/python ] || python3 -m venv .venv
  key=$(inputs_key "$(.venv/bin/python --version)" "$@" -- pyproject.toml js/package.json)
  stamped ".venv/.mastra-notebook-$name" "$key" "$@"
}

pip_install() { .venv/bin/python -m pip install -q "$@"; }

# What scripts/demo.sh installs, and nothing more: the package with the extras its examples use, and
# JupyterLab. scripts/test.sh installs the same into .venv-demo/ and runs the examples there.
DEMO_PACKAGES=(-e ".[pandas,stats]" "jupyterlab>=4.2")

# quick_install ARGS...: `pip install ARGS` into .venv/, through uv: seconds, where pip takes one or
# two minutes for JupyterLab on a busy machine (it reads every release of each of ~90 packages).
quick_install() { venv_install .venv "$@"; }

# venv_install VENV ARGS...: `pip install ARGS` into the venv VENV (made if missing), through uv. uv is
# taken from PATH, else installed into .venv/; the venv's pip does it if uv cannot be had or fails.
venv_install() {
  local venv=$1 uv
  shift
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  uv=$(command -v uv || echo .venv/bin/uv)
  if [ -x "$uv" ] || pip_install uv; then
    # compiled now, as pip does: where PYTHONDONTWRITEBYTECODE is set (this machine), every process
    # (each kernel, each server) would compile every module it imports, each time, otherwise
    "$uv" pip install --quiet --compile-bytecode --python "$venv/bin/python" "$@" && return
    echo "uv failed: pip instead"
  fi
  "$venv/bin/python" -m pip install -q --upgrade pip  # pip >= 25.1 reads dependency groups
  "$venv/bin/python" -m pip install -q "$@"
}

# prefixed NAME COMMAND...: each line COMMAND writes, prefixed with "NAME | ".
prefixed() { local name=$1; shift; "$@" 2>&1 | sed -u "s/^/$name | /"; }
