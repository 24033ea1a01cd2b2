#!/usr/bin/env bash
# Provisions the headless browser the live view's browser test drives: Debian's chromium and
# chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver).
#
#   provision.sh [--mode auto|required|off]
#
# Present already: nothing to do (two `command -v`). Missing: installs them with apt-get when run as
# root (CI is). --mode auto (default outside CI) says why in one line and exits 0, so the browser
# test skips; required (default when CI=true) fails the build instead.
set -euo pipefail

mode=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mode) mode="$2"; shift 2 ;;
    --mode=*) mode="${1#--mode=}"; shift ;;
    *) echo "browser provision.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -z "$mode" ]] && { [[ "${CI:-}" == "true" ]] && mode=required || mode=auto; }
case "$mode" in
  off) exit 0 ;;
  auto|required) ;;
  *) echo "browser provision.sh: --mode must be auto, required or off, not '$mode'" >&2; exit 2 ;;
esac

have() { [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; }
have && exit 0

give_up() {
  if [[ "$mode" == required ]]; then
    echo "hsdag: cannot provision the test browser: $1" >&2
    exit 1
  fi
  echo "hsdag: test browser not provisioned ($1); the live view's browser test is skipped" >&2
  exit 0
}

cache_root="${HSDAG_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hsdag}"
failed_marker="$cache_root/browser-install-failed"
# A build that cannot install should not retry apt-get on every test run: auto waits a day.
if [[ "$mode" == auto && -n "$(find "$failed_marker" -mmin -1440 2>/dev/null)" ]]; then
  give_up "$(cat "$failed_marker")"
fi
command -v apt-get >/dev/null || give_up "no apt-get here; install chromium and its chromedriver as /usr/bin/chromium, /usr/bin/chromedriver"
[[ "$(id -u)" == 0 ]] || give_up "not root; run: sudo apt-get install -y chromium chromium-driver"

echo "hsdag: installing chromium and chromium-driver for the browser test (once)" >&2
export DEBIAN_FRONTEND=noninteractive
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The package lists of a fresh machine may be empty or stale: update once, then install.
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-driver; } >"$log" 2>&1; then
  why="apt-get could not install chromium chromium-driver ($(grep -m1 -E '^E:' "$log" | cut -c1-160))"
  mkdir -p "$cache_root" && echo "$why" >"$failed_marker"
  give_up "$why"
fi
rm -f "$failed_marker"
have || give_up "apt-get installed chromium but /usr/bin/chromium or /usr/bin/chromedriver is missing"
echo "hsdag: $(/usr/bin/chromium --version 2>/dev/null | head -1) ready for the browser test" >&2
