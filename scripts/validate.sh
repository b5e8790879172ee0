#!/usr/bin/env bash
# Formats the code with the toolchain's swift-format (settings in .swift-format) and fails when that
# changed anything, so unformatted code is caught before review.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format format --in-place --recursive Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources \
    Fuzz/Package.swift Fuzz/Sources
git diff --exit-code -- Package.swift Sources Tests Benchmarks Fuzz || {
    echo "swift-format changed the files above: review and commit the result." >&2
    exit 1
}
