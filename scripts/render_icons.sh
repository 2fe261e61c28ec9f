#!/usr/bin/env bash
# Renders the app icon resources/icons/attention-lab.svg to the PNG sizes of the hicolor icon
# theme (resources/icons/hicolor/NxN/apps/attention-lab.png), which are committed so that a build
# needs no SVG renderer. Run it after changing the SVG. Needs rsvg-convert (librsvg2-bin).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
svg="$here/resources/icons/attention-lab.svg"
if ! command -v rsvg-convert >/dev/null 2>&1; then
    echo "render_icons: error: rsvg-convert is missing: apt-get install librsvg2-bin" >&2
    exit 1
fi
for size in 16 22 24 32 48 64 128 256 512; do
    dir="$here/resources/icons/hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    rsvg-convert --width "$size" --height "$size" --output "$dir/attention-lab.png" "$svg"
done
echo "render_icons: wrote resources/icons/hicolor/NxN/apps/attention-lab.png for N = 16 to 512" >&2
