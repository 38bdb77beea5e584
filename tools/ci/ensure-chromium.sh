#!/usr/bin/env bash
# The console's browser tests drive Debian's Chromium through playwright-core (no browser download
# at install time): install it when the machine lacks it.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "chromium not found: installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
