#!/usr/bin/env bash
# Provisions an OpenVINO runtime and builds hsdag's native part (shim + JavaCPP JNI) against it.
#
#   provision.sh --classpath CP --out CLASSES_DIR [--python PY] [--mode auto|required|off]
#
# Where OpenVINO comes from, first match wins:
#   --python PY / $HSDAG_OPENVINO_PYTHON   the `openvino` pip package of that Python (a user's venv;
#                                          remembered for later builds until --python default)
#   $INTEL_OPENVINO_DIR                     an archive install loaded with setupvars.sh
#   otherwise                               the pinned wheel in hsdag's private venv (cache folder)
# The JNI library is cached by a hash of everything it is built from, so a rebuild of hsdag
# only copies it. --mode auto (default outside CI) warns and exits 0 when it cannot provision, so
# a machine without PyPI still builds the simulator; required (default when CI=true) fails.
set -euo pipefail

OPENVINO_PIN="2026.4.1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src_dir="$here/../src/main/cpp"
classpath="" out="" python_arg="" mode=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --classpath) classpath="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --python) python_arg="$2"; shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --mode=*) mode="${1#--mode=}"; shift ;;
    *) echo "provision.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -z "$mode" ]] && { [[ "${CI:-}" == "true" ]] && mode=required || mode=auto; }
case "$mode" in
  off) exit 0 ;;
  auto|required) ;;
  *) echo "provision.sh: --mode must be auto, required or off, not '$mode'" >&2; exit 2 ;;
esac
[[ -n "$classpath" && -n "$out" ]] || { echo "provision.sh: --classpath and --out are required" >&2; exit 2; }

cache_root="${HSDAG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hsdag}"
# `--python PY` is remembered, so later builds of hsdag keep using that Python's OpenVINO;
# `--python default` goes back to the private venv.
choice_file="$cache_root/openvino-python"
python="${python_arg:-${HSDAG_OPENVINO_PYTHON:-}}"
if [[ "$python_arg" == default ]]; then
  rm -f "$choice_file"
  python=""
elif [[ -z "$python" && -f "$choice_file" ]]; then
  python="$(cat "$choice_file")"
fi

# One line, then exit: 0 in auto mode (the simulator still works), 1 when required.
give_up() {
  if [[ "$mode" == required ]]; then
    echo "hsdag: cannot provision OpenVINO: $1" >&2
    exit 1
  fi
  echo "hsdag: OpenVINO not provisioned ($1); the openvino backend stays unavailable, the simulator works" >&2
  exit 0
}

# --- 1. find or install OpenVINO: include dir, libs dir, where it came from ---
if [[ -n "$python" ]]; then
  ov_pkg="$("$python" -c 'import openvino, os; print(os.path.dirname(openvino.__file__))' 2>/dev/null)" \
    || give_up "$python has no 'openvino' package (pip install openvino in that environment)"
  include="$ov_pkg/include" libs="$ov_pkg/libs" cmake_dir="$ov_pkg/cmake"
  source_desc="pip package of $python"
  # Remembered (from --python only) once it is known to have OpenVINO, so a typo does not stick to later builds.
  if [[ -n "$python_arg" ]]; then
    mkdir -p "$cache_root" && echo "$python" >"$choice_file"
  fi
elif [[ -n "${INTEL_OPENVINO_DIR:-}" && -f "$INTEL_OPENVINO_DIR/runtime/include/openvino/openvino.hpp" ]]; then
  include="$INTEL_OPENVINO_DIR/runtime/include" libs="$INTEL_OPENVINO_DIR/runtime/lib/intel64"
  cmake_dir="$INTEL_OPENVINO_DIR/runtime/cmake"
  source_desc="archive install at $INTEL_OPENVINO_DIR (setupvars.sh)"
else
  venv="$cache_root/openvino-$OPENVINO_PIN/venv"
  failed_marker="$cache_root/openvino-$OPENVINO_PIN/install-failed"
  # A build without PyPI should not wait for pip on every rebuild: after a failure, automatic builds
  # skip the install for a day; ./hsdag.sh openvino install (required) always tries again.
  if [[ "$mode" == auto && ! -f "$venv/.complete" && -n "$(find "$failed_marker" -mmin -1440 2>/dev/null)" ]]; then
    give_up "$(cat "$failed_marker"); ./hsdag.sh openvino install tries again"
  fi
  # .complete marks a venv whose pip install finished: an interrupted one is made again.
  if [[ ! -f "$venv/.complete" ]]; then
    command -v python3 >/dev/null || give_up "python3 is missing; install it (apt-get install python3 python3-venv)"
    python3 -c "import venv, ensurepip" 2>/dev/null \
      || give_up "python3 -m venv is unavailable; install it (apt-get install python3-venv)"
    echo "hsdag: installing openvino==$OPENVINO_PIN into $venv (once)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >/dev/null 2>&1 || give_up "python3 -m venv failed; install python3-venv"
    if ! log="$("$venv/bin/pip" install --disable-pip-version-check -q "openvino==$OPENVINO_PIN" 2>&1)"; then
      rm -rf "$venv"
      why="pip could not install openvino==$OPENVINO_PIN: is PyPI reachable? ($(echo "$log" | grep -m1 -iE 'error' | cut -c1-140))"
      mkdir -p "$(dirname "$failed_marker")" && echo "$why" >"$failed_marker"
      give_up "$why"
    fi
    rm -f "$failed_marker"
    touch "$venv/.complete"
  fi
  ov_pkg="$("$venv/bin/python" -c 'import openvino, os; print(os.path.dirname(openvino.__file__))' 2>/dev/null)" \
    || { rm -f "$venv/.complete"; give_up "the venv $venv is broken; run ./hsdag.sh openvino install to make it again"; }
  include="$ov_pkg/include" libs="$ov_pkg/libs" cmake_dir="$ov_pkg/cmake"
  python="$venv/bin/python"
  source_desc="pinned wheel openvino==$OPENVINO_PIN in hsdag's private venv $venv"
fi
[[ -f "$include/openvino/openvino.hpp" ]] || give_up "no OpenVINO C++ headers under $include"
# The wheel ships only a versioned libopenvino.so.<NNNN>; an archive also has the plain name.
libopenvino="$(cd "$libs" && ls libopenvino.so.[0-9]* 2>/dev/null | grep -E '^libopenvino\.so\.[0-9]+$' | head -1 || true)"
[[ -n "$libopenvino" ]] || libopenvino="$(cd "$libs" && ls libopenvino.so 2>/dev/null || true)"
[[ -n "$libopenvino" ]] || give_up "no libopenvino.so in $libs"
# The C++ string ABI OpenVINO was built with, as its CMake config records it.
abi="$(sed -n 's/^set(OpenVINO_GLIBCXX_USE_CXX11_ABI "\([01]\)")/\1/p' "$cmake_dir/OpenVINOConfig.cmake" 2>/dev/null | head -1)"
version="$(sed -n 's/.*OPENVINO_VERSION_MAJOR \([0-9]*\).*/\1/p;s/.*OPENVINO_VERSION_MINOR \([0-9]*\).*/\1/p;s/.*OPENVINO_VERSION_PATCH \([0-9]*\).*/\1/p' \
  "$include/openvino/core/version.hpp" | paste -sd.)"

# --- 2. build the JNI library, or take it from the cache ---
command -v g++ >/dev/null || give_up "g++ is missing; install it (apt-get install g++)"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
platform="$("$java_bin" -cp "$classpath" org.bytedeco.javacpp.tools.Builder -print platform 2>/dev/null | tail -1 || true)"
[[ -n "$platform" ]] || give_up "JavaCPP is not on the class path given to provision.sh"
shim_class="$out/org/hsdag/openvino/internal/OvShim.class"
[[ -f "$shim_class" ]] || give_up "compile the Java sources first (no $shim_class)"
key="$( { cat "$src_dir/hsdag_ov_shim.h" "$src_dir/hsdag_ov_shim.cpp" "$shim_class";
          echo "$include $libs $libopenvino $abi $platform"; } | sha256sum | cut -c1-16)"
jni_dir="$cache_root/jni/$key"
jni_lib="$jni_dir/libjniOvShim.so"
if [[ ! -f "$jni_lib" ]]; then
  echo "hsdag: building the OpenVINO shim against $source_desc" >&2
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  "$java_bin" -cp "$classpath" org.bytedeco.javacpp.tools.Builder -nocompile -d "$work" \
    org.hsdag.openvino.internal.OvShim >"$work/builder.log" 2>&1 \
    || give_up "JavaCPP could not generate the JNI code ($(tail -1 "$work/builder.log"))"
  java_home="$(dirname "$(dirname "$(readlink -f "$(command -v "$java_bin")")")")"
  abi_flag=()
  [[ -n "$abi" ]] && abi_flag=("-D_GLIBCXX_USE_CXX11_ABI=$abi")
  if ! g++ -std=c++17 -O2 -fPIC -shared "${abi_flag[@]}" \
      -I"$java_home/include" -I"$java_home/include/linux" -I"$src_dir" -I"$include" \
      "$work/jnijavacpp.cpp" "$work/jniOvShim.cpp" -o "$work/libjniOvShim.so" \
      -L"$libs" "-l:$libopenvino" -ldl -Wl,-rpath,"$libs" -Wl,--no-undefined >"$work/gcc.log" 2>&1; then
    give_up "the shim does not compile against $source_desc ($(grep -m1 -E 'error' "$work/gcc.log" | cut -c1-200))"
  fi
  mkdir -p "$jni_dir"
  mv "$work/libjniOvShim.so" "$jni_lib.tmp" && mv "$jni_lib.tmp" "$jni_lib"
fi

# --- 3. put it where JavaCPP's Loader looks, with a record of what it was built against ---
target_dir="$out/org/hsdag/openvino/internal/$platform"
mkdir -p "$target_dir"
cp "$jni_lib" "$target_dir/libjniOvShim.so.tmp" && mv "$target_dir/libjniOvShim.so.tmp" "$target_dir/libjniOvShim.so"
record="$target_dir/openvino-runtime.properties"
{
  echo "# Written by openvino-bridge/native/provision.sh: the OpenVINO the JNI library was built against."
  echo "version=$version"
  echo "source=$source_desc"
  echo "libs=$libs"
  echo "python=$python"
} >"$record.tmp" && mv "$record.tmp" "$record"
echo "hsdag: OpenVINO $version ready ($source_desc)" >&2
