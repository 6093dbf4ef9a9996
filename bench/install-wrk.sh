#!/usr/bin/env bash
# npm run bench drives REST with wrk when it is on PATH: a C load generator that needs a small
# fraction of autocannon's CPU per request (autocannon used 0.17-0.35 ms per search here, as much
# as the server), which matters when generator and server share 2 cores. Installs Debian's wrk
# when it is missing and apt-get can run as root; otherwise says why, and the bench uses autocannon.
set -uo pipefail
if command -v wrk >/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-wrk: wrk missing and apt-get is not usable here (not root or not Debian); the bench uses autocannon" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get install -y -qq --no-install-recommends wrk || { apt-get update -qq && apt-get install -y -qq --no-install-recommends wrk; }; }; then
  echo "install-wrk: apt-get could not install wrk; the bench uses autocannon" >&2
fi
exit 0
