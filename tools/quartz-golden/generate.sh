#!/usr/bin/env bash
# Regenerates shared/domain/schedule/fixtures/quartz-golden.json from the real Quartz 2.3.2
# (Debian's libquartz2-java). Needs a JDK (javac) and, if the package is missing, root for apt-get.
# Tests never run this: they read the committed JSON.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$repo/shared/domain/schedule/fixtures/quartz-golden.json"
jar=/usr/share/java/quartz2.jar

if [ ! -f "$jar" ]; then
  echo "installing libquartz2-java (Quartz 2.3.2)..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libquartz2-java >/dev/null
fi

build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

javac -d "$build" -cp "$jar" "$here/QuartzGolden.java"
# Quartz reads the JVM default zone and locale in a few places (MAX_YEAR, the 'W' helper calendar):
# pin them so the output does not depend on the machine.
java -Duser.timezone=UTC -Duser.language=en -Duser.country=US -cp "$build:$jar" QuartzGolden >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out" >&2
