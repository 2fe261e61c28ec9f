#!/usr/bin/env bash
# Sets up, builds and starts the Attention Lab studio on its built-in default sentence.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "run: error: no display (DISPLAY is not set). Start it from a desktop session," >&2
    echo "     or on a server inside a virtual one: xvfb-run -a scripts/run.sh" >&2
    exit 1
fi
exec build/app/attention-lab "$@"
