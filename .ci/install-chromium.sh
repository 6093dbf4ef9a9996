#!/usr/bin/env bash
# The dashboard test drives Debian's chromium through playwright-core (which downloads no browser).
# Installs it when /usr/bin/chromium is missing and apt-get can run as root; otherwise it says why
# and leaves the test to skip itself with that reason.
set -uo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-chromium: /usr/bin/chromium missing and apt-get is not usable here (not root or not Debian); the dashboard browser test will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; }; then
  echo "install-chromium: apt-get could not install chromium; the dashboard browser test will be skipped" >&2
fi
exit 0
