#!/usr/bin/env bash
# npm run bench drives REST with wrk and gRPC with h2load (Debian's nghttp2-client) when they are
# on PATH: C load generators that need a small fraction of the CPU per request of autocannon and
# grpc-js (0.17-0.6 ms per search here, as much as the server), which matters when generator and
# server share 2 cores. Installs what is missing when apt-get can run as root; otherwise says why,
# and the bench falls back to autocannon (REST) and a grpc-js child (gRPC).
set -uo pipefail
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v h2load >/dev/null || missing+=(nghttp2-client)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-load-tools: ${missing[*]} missing and apt-get is not usable here (not root or not Debian); the bench uses autocannon for REST without wrk, grpc-js for gRPC without h2load" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get install -y -qq --no-install-recommends "${missing[@]}" || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; }; then
  echo "install-load-tools: apt-get could not install ${missing[*]}; the bench falls back to autocannon (REST) / grpc-js (gRPC) for what is missing" >&2
fi
exit 0
