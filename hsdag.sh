#!/usr/bin/env bash
# hsdag launcher: builds the project on first use (or when sources changed), then runs the CLI.
# (The repository's hsdag/ module folder takes the plain name, hence the .sh.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cp_file="$root/bench/target/classpath.txt"
stamp="$root/bench/target/.hsdag-built"

# Any source, resource or pom newer than file $1.
sources_newer_than() {
  [[ -n "$(find "$root" -path "$root/*/target*" -prune -o -path "$root/runs" -prune -o \
      \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$1" -print -quit)" ]]
}

# Rebuild when sources changed since the last build: the launcher's, or a `mvn package`/`install` of the user's
# (the build rewrites classpath.txt every time, so it is a stamp of its own).
needs_build() {
  [[ ! -f "$cp_file" ]] && return 0
  sources_newer_than "$cp_file" || return 1
  [[ ! -f "$stamp" ]] || sources_newer_than "$stamp"
}

# `mvn install` with one line per module built, so a first build of several minutes shows where it is;
# offline first (no registry needed once the dependencies are here), online when something is missing.
build_quietly() {
  local log rc
  log="$(mktemp)"
  for mode in -o ""; do
    (cd "$root" && mvn -B $mode -DskipTests "$@" install 2>&1 | tee "$log" \
        | sed -un 's|^\[INFO\] Building hsdag \([a-z-]*\)[: ].* \(\[[0-9]*/[0-9]*\]\)$|hsdag:   building \1 \2|p' >&2)
    rc=$?
    [[ $rc -eq 0 ]] && { rm -f "$log"; return 0; }
    [[ -n "$mode" ]] && grep -q "offline" "$log" && { echo "hsdag: fetching what the build needs..." >&2; continue; }
    break
  done
  grep -E '^\[ERROR\]' "$log" | head -20 >&2
  rm -f "$log"
  return 1
}

# `./hsdag.sh install [DIR]`: a `hsdag` command in DIR (default ~/.local/bin) and bash completion.
if [[ "${1:-}" == "install" ]]; then
  bin_dir="${2:-$HOME/.local/bin}"
  completion_dir="${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions"
  mkdir -p "$bin_dir" "$completion_dir" || { echo "hsdag: cannot create $bin_dir or $completion_dir" >&2; exit 1; }
  printf '#!/usr/bin/env bash\n# Installed by %s install\nHSDAG_COMMAND=hsdag exec %q "$@"\n' \
    "$root/hsdag.sh" "$root/hsdag.sh" > "$bin_dir/hsdag.tmp" && chmod +x "$bin_dir/hsdag.tmp" \
    && mv "$bin_dir/hsdag.tmp" "$bin_dir/hsdag" || { echo "hsdag: cannot write $bin_dir/hsdag" >&2; exit 1; }
  "$root/hsdag.sh" generate-completion > "$completion_dir/hsdag.tmp" && mv "$completion_dir/hsdag.tmp" "$completion_dir/hsdag" \
    || { echo "hsdag: cannot write the completion script $completion_dir/hsdag" >&2; exit 1; }
  echo "installed: $bin_dir/hsdag (runs $root/hsdag.sh)"
  # That folder is read only by the bash-completion package's loader: say so, and give the line that works without it.
  echo "installed: bash completion $completion_dir/hsdag"
  echo "  new shells load it through the bash-completion package (apt-get install bash-completion); without that package,"
  echo "  add this line to ~/.bashrc: source $(printf %q "$completion_dir/hsdag")   (zsh: autoload bashcompinit && bashcompinit first)"
  case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) echo "note: $bin_dir is not on your PATH; add it: export PATH=\"$bin_dir:\$PATH\"" ;;
  esac
  exit 0
fi

# `./hsdag.sh openvino install [--python PY|default]`: the OpenVINO runtime and the native backend.
if [[ "${1:-}" == "openvino" && "${2:-}" == "install" ]]; then
  shift 2
  command -v mvn >/dev/null || { echo "hsdag: Maven (mvn) is needed to build hsdag; install it (apt-get install maven)" >&2; exit 1; }
  build_quietly -Dhsdag.openvino=off \
    || { echo "hsdag: build failed; run 'mvn -DskipTests install' in $root to see why" >&2; exit 1; }
  touch "$stamp"
  bash "$root/openvino-bridge/native/provision.sh" --mode required "$@" --out "$root/openvino-bridge/target/classes" \
    --classpath "$root/openvino-bridge/target/classes:$root/core/target/classes:$(cat "$cp_file")" || exit 1
  # The native library joins the module's jar too, so runs keep starting from jars (see module_jar below).
  for j in "$root"/openvino-bridge/target/openvino-bridge-*.jar; do
    [[ -f "$j" && "$j" != *-tests.jar ]] && command -v jar >/dev/null \
      && (cd "$root/openvino-bridge/target/classes" && jar uf "$j" org/hsdag/openvino/internal) || true
  done
  exec "$0" devices --backend openvino
fi

if needs_build; then
  command -v mvn >/dev/null || { echo "hsdag: Maven (mvn) is needed to build hsdag; install it (apt-get install maven)" >&2; exit 1; }
  echo "hsdag: building (first run or sources changed)..." >&2
  build_quietly || { echo "hsdag: build failed; run 'mvn -DskipTests install' in $root to see why" >&2; exit 1; }
  touch "$stamp"
fi

# The modules' jars when every one is at least as new as its class folder (a `mvn compile` since the last
# package leaves a jar stale: then the class folders, as they are; HSDAG_CLASS_FOLDERS=1 asks for them). Jars let
# the JVM map a class-data archive (AppCDS), which it refuses for a class path with class folders.
modules=(bench cluster hsdag coarsen models openvino-bridge sim core)
module_jar() {
  local m="$1" j jar=""
  for j in "$root/$m/target/$m"-*.jar; do
    [[ -f "$j" && "$j" != *-tests.jar && "$j" != *-sources.jar && "$j" != *-javadoc.jar ]] || continue
    [[ -z "$jar" || "$j" -nt "$jar" ]] && jar="$j"
  done
  [[ -n "$jar" && -z "$(find "$root/$m/target/classes" -newer "$jar" -print -quit 2>/dev/null)" ]] && echo "$jar"
}
jars=()
for m in "${modules[@]}"; do
  [[ -z "${HSDAG_CLASS_FOLDERS:-}" ]] && j="$(module_jar "$m")" || { jars=(); break; }
  jars+=("$j")
done
if [[ ${#jars[@]} -eq ${#modules[@]} ]]; then
  cp="$(IFS=:; echo "${jars[*]}"):$(cat "$cp_file")"
else
  cp=""
  for m in "${modules[@]}"; do cp+="$root/$m/target/classes:"; done
  cp+="$(cat "$cp_file")"
fi
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
# How the user runs hsdag, for the commands hsdag prints ("continue with: ...", "next: ...").
export HSDAG_COMMAND="${HSDAG_COMMAND:-$0}"
# Class-data archives (AppCDS) for this JVM and the runtime child, named by a key of every class path jar and
# the java binary (size, time), so a rebuild or another JDK names new ones. The JVM checks an archive itself and
# silently starts without one that is missing, stale or damaged (-Xlog:cds*=off keeps its notes off stdout).
# The first `tune` without an archive writes it at exit to a file of its own, renamed into place: concurrent
# first runs each write a whole one. The runtime child writes its own the same way (RuntimeChild).
cds_dir="$root/bench/target/cds"
if [[ ${#jars[@]} -gt 0 ]] && mkdir -p "$cds_dir" 2>/dev/null && [[ -w "$cds_dir" ]]; then
  IFS=: read -r -a cp_entries <<< "$cp"
  # A class path entry that is missing (the JVM skips it) must not end the launcher.
  key="$( { stat -L -c '%n %s %Y' "${cp_entries[@]}" "$(command -v java)" 2>/dev/null || true; } | cksum | cut -d' ' -f1)"
  archive="$cds_dir/main-$key.jsa"
  java_opts+=(-Xshare:auto -Xlog:cds*=off -Dhsdag.runtime.child.cds="$cds_dir/child-$key.jsa")
  command_name=""
  for a in "$@"; do [[ "$a" == -* ]] || { command_name="$a"; break; }; done
  if [[ -f "$archive" ]]; then
    java_opts+=(-XX:SharedArchiveFile="$archive")
  elif [[ "$command_name" == "tune" && ! -e "$cds_dir/main-$key.none" ]]; then
    # Older builds' archives go; so do parts of first runs that were killed.
    find "$cds_dir" -maxdepth 1 -type f ! -name "*-$key.*" -delete 2>/dev/null || true
    for f in "$cds_dir"/*.part.*; do
      [[ -f "$f" ]] && ! kill -0 "${f##*.}" 2>/dev/null && rm -f "$f"
    done
    part="$archive.part.$$"
    status=0
    # Not exec: the launcher moves the archive into place after the JVM wrote it at exit.
    # shellcheck disable=SC2086
    java "${java_opts[@]}" -XX:ArchiveClassesAtExit="$part" ${HSDAG_JAVA_OPTS:-} -cp "$cp" org.hsdag.cli.Main "$@" \
      || status=$?
    # Kept only from a tune that succeeded (one refused at once would archive few classes); a JVM that ended
    # normally without writing one cannot, so this build does not try again.
    if [[ $status -eq 0 && -s "$part" ]]; then
      mv -f "$part" "$archive" || true
    elif [[ $status -lt 128 && ! -s "$part" ]]; then
      : > "$cds_dir/main-$key.none" || true
    fi
    rm -f "$part"
    exit "$status"
  fi
fi
# shellcheck disable=SC2086
exec java "${java_opts[@]}" ${HSDAG_JAVA_OPTS:-} -cp "$cp" org.hsdag.cli.Main "$@"
