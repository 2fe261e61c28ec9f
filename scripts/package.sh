#!/usr/bin/env bash
# Builds the Debian package attention-lab_<version>_<arch>.deb from a clean build folder
# (default build-deb/, or the folder given as the first argument) and leaves it there.
# The build is for any CPU of the architecture (no -march=native), without tests and
# benchmarks; its dependencies are found by dpkg-shlibdeps. Extra arguments after the folder
# go to CMake. Install the result with: sudo apt-get install ./build-deb/attention-lab_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build-deb}"
[ $# -gt 0 ] && shift
case "$build" in
    "" | / | . | ..)
        echo "package: error: '$build' cannot be the build folder: it is emptied first" >&2
        exit 2
        ;;
esac

scripts/setup.sh
for tool in cmake ninja cpack dpkg-shlibdeps dpkg-deb gzip; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "package: error: $tool is missing (scripts/setup.sh installs it)" >&2
        exit 1
    fi
done

jobs=$(nproc 2>/dev/null || echo 2)
rm -rf -- "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNLAB_NATIVE=OFF \
    -DATTNLAB_TESTS=OFF -DATTNLAB_BENCH=OFF "$@" >/dev/null
ninja -C "$build" -j"$jobs"
(cd "$build" && cpack -G DEB)

deb=$(ls "$build"/attention-lab_*.deb)
echo
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
echo
echo "package: wrote $deb ($(du -h "$deb" | cut -f1)); install it with"
echo "  sudo apt-get install ./$deb"
