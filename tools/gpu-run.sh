#!/bin/sh
# The prepared run for a lent GPU machine (a bare image: torch, maybe torchvision, no docs packages).
# From the repository root on that machine:
#   tools/gpu-run.sh OUT [SECONDS]
# In this order of value, within SECONDS of measuring (default 420: with slow captures the run still
# ends inside a device's 600-s limit on one command):
#   1. the machine's peaks (for the share-of-peak column), unless fresh;
#   2. the ResNet-50 recipe comparison (the best-recipe page), with three quarters of the budget: the
#      modes that no longer fit are recorded as skipped, and the next run measures them (and keeps
#      what this one measured);
#   3. the snippets marked `# requires: cuda`, keeping a capture of each symptom they reproduce;
#   4. the rest of the gpu profile, with what is left.
# After each step it packs the records and captures it wrote into OUT/evc-gpu-records.tar: one plain file,
# because a device tool brings back flat files only (records whose every mode was skipped are left
# out). In your checkout: tar -xf evc-gpu-records.tar -C measurements
# EVC_GPU_DRY=1 prints the plans (measure --dry-run) and the snippets' needs, measuring nothing;
# EVC_GPU_REHEARSE=1 runs every step with `--device cpu`. On a CPU, set both, or REHEARSE alone with
# SECONDS about 40 (at GPU sizes a CPU needs minutes a mode: the budget skips them).
set -eu
usage="usage: tools/gpu-run.sh OUT [SECONDS]"
out=${1:?$usage}
budget=${2:-420}
case $budget in
  '' | *[!0-9]*) echo "gpu-run: SECONDS must be a whole number of seconds, not '$budget' ($usage)" >&2; exit 2 ;;
esac
mkdir -p "$out" "${EVC_MEASUREMENTS:-measurements}"
out=$(cd "$out" && pwd)
root=$(cd "${EVC_MEASUREMENTS:-measurements}" && pwd)
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}
export PYTHONPATH="src${PYTHONPATH:+:$PYTHONPATH}" EVC_MEASUREMENTS="$root"
device="" peaks_on=None dry=""
if [ -n "${EVC_GPU_REHEARSE:-}" ]; then device="--device cpu" peaks_on="'cpu'"; fi
if [ -n "${EVC_GPU_DRY:-}" ]; then dry="--dry-run"; fi
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
start=$(date +%s)
say() { echo "gpu-run: $*" >&2; }
pack() {  # after every step: a run stopped by the device's time limit still brings back what it measured
  "$py" tools/gpu_steps.py pack "$root" "$stamp" "$out"
}

say "versions and machine"
"$py" -c 'import json; from eager_vs_compiled import machine as m
print(json.dumps({"machine": m.describe(), "versions": m.versions()}, indent=1))'
if command -v nvidia-smi >/dev/null; then nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv || true; fi

if [ -z "$dry" ]; then
  say "1. machine peaks"
  "$py" -c "from eager_vs_compiled import peaks; r = peaks.ensure(device_type=$peaks_on)
print('matmul TFLOP/s:', r['matmul_tflops'], '| copy GB/s:', round(r['copy_gb_s']))" || say "the peaks failed (going on)"
fi

say "2. ResNet-50 recipes ($((budget * 3 / 4)) s)"
# shellcheck disable=SC2086  # $device and $dry are zero or more words
"$py" -m eager_vs_compiled measure --profile gpu $device $dry -w resnet50_infer_recipes \
  --budget $((budget * 3 / 4)) || say "the recipes' run failed (going on)"
pack

say "3. captures of the snippets that need a GPU"
"$py" tools/gpu_steps.py captures $dry || say "the captures failed (going on)"
pack

rest=$((budget - ($(date +%s) - start)))
say "4. the rest of the gpu profile (${rest} s)"
if [ "$rest" -gt 30 ]; then
  # shellcheck disable=SC2086
  "$py" -m eager_vs_compiled measure --profile gpu $device $dry --budget "$rest" || say "the profile run failed"
fi

say "5. packing what this run wrote"
pack
say "done in $(($(date +%s) - start)) s"
