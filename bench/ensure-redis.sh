#!/usr/bin/env bash
# The bench's BullMQ comparison (npm run bench -- --ramp) runs its own redis-server from Debian's
# packages: install it when the machine lacks it, quietly (apt's output shown only if it fails).
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
echo "redis-server not found: installing Debian's redis-server" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server; } >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
redis-server --version >&2
