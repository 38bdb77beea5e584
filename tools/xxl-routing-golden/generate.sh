#!/usr/bin/env bash
# Regenerates shared/domain/routing/fixtures/consistent-hash-golden.json with Java (17+).
# Usage: tools/xxl-routing-golden/generate.sh [output.json]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/shared/domain/routing/fixtures/consistent-hash-golden.json}"

build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

javac -encoding UTF-8 -d "$build" "$here/ConsistentHashGolden.java"
mkdir -p "$(dirname "$out")"
java -cp "$build" ConsistentHashGolden "$out.tmp"
mv "$out.tmp" "$out"
