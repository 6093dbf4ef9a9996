#!/usr/bin/env bash
# The cluster tests (CLUSTER.md section 10) start their own nats-server and etcd processes on
# loopback. Installs Debian's nats-server, etcd-server and etcd-client when a binary is missing
# and apt-get can run as root; otherwise it says why and leaves those tests to skip themselves.
set -uo pipefail
missing=()
command -v nats-server >/dev/null || [ -x /usr/sbin/nats-server ] || missing+=(nats-server)
command -v etcd >/dev/null || missing+=(etcd-server)
command -v etcdctl >/dev/null || missing+=(etcd-client)
if [ "${#missing[@]}" = 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-engines: ${missing[*]} missing and apt-get is not usable here (not root or not Debian); the cluster tests will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
  echo "install-engines: apt-get could not install ${missing[*]}; the cluster tests will be skipped" >&2
fi
exit 0
