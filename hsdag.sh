#!/usr/bin/env bash
# hsdag launcher: builds the project on first use (or when sources changed), then runs the CLI.
# (The repository's hsdag/ module folder takes the plain name, hence the .sh.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cp_file="$root/bench/target/classpath.txt"
stamp="$root/bench/target/.hsdag-built"

needs_build() {
  [[ ! -f "$cp_file" || ! -f "$stamp" ]] && return 0
  # Rebuild when any source, resource or pom is newer than the last build.
  [[ -n "$(find "$root" -path "$root/*/target*" -prune -o -path "$root/runs" -prune -o \
      \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$stamp" -print -quit)" ]]
}

if needs_build; then
  command -v mvn >/dev/null || { echo "hsdag: Maven (mvn) is needed to build hsdag; install it (apt-get install maven)" >&2; exit 1; }
  echo "hsdag: building (first run or sources changed)..." >&2
  (cd "$root" && mvn -q -o -DskipTests install >/dev/null 2>&1) || (cd "$root" && mvn -q -DskipTests install >&2) \
    || { echo "hsdag: build failed; run 'mvn -DskipTests install' in $root to see why" >&2; exit 1; }
  touch "$stamp"
fi

cp="$root/bench/target/classes:$root/hsdag/target/classes:$root/coarsen/target/classes:$root/models/target/classes:$root/openvino-bridge/target/classes:$(cat "$cp_file")"
if [[ -n "${HSDAG_PRINT_CLASSPATH:-}" ]]; then
  echo "$cp"
  exit 0
fi
# -Xms64m: with the default initial heap (1/64 of RAM) the collector cycles through all of it and
# resident memory creeps up for thousands of policy steps; now the heap grows with what is live.
java_opts=(-Xms64m -Xmx4g -XX:MaxDirectMemorySize=1g -Djava.awt.headless=true -Dai.djl.offline=true
  -Dorg.slf4j.simpleLogger.log.ai.djl=warn -Dhsdag.home="$root")
[[ -n "${HSDAG_DEBUG:-}" ]] && java_opts+=(-Dhsdag.debug=true)
export DJL_OFFLINE=true
# Developer entry points: JMH micro-benchmarks and the plain benchmark mains in bench/.
if [[ "${1:-}" == "jmh" ]]; then
  shift
  exec java "${java_opts[@]}" -cp "$cp" org.openjdk.jmh.Main "$@"
elif [[ "${1:-}" == "run-class" ]]; then
  shift
  [[ $# -ge 1 ]] || { echo "hsdag: run-class needs a class name" >&2; exit 2; }
  main="$1"; shift
  exec java "${java_opts[@]}" ${HSDAG_JAVA_OPTS:-} -cp "$cp" "$main" "$@"
fi
# shellcheck disable=SC2086
exec java "${java_opts[@]}" ${HSDAG_JAVA_OPTS:-} -cp "$cp" org.hsdag.cli.Main "$@"
