#!/usr/bin/env bash
# The cluster tests (docs/cluster.md section 10) start their own nats-server and etcd processes on
# loopback. Installs Debian's nats-server, etcd-server and etcd-client when a binary is missing
# and apt-get can run as root; otherwise it says why and leaves those tests to skip themselves.
#
# nats-server comes from Debian 13 (trixie, 2.10), not from bookworm (2.9.10): with a stream
# leader's server paused and resumed, 2.9.10 kept entries that never reached a majority in its
# store and skipped the stream's own entries at those sequences, so that server's copy of the log
# differed from the others' for good, and consumers placed on it served that other log (README,
# "The write log"). Only nats-server is taken from trixie: the suite is added with priority 1, so
# apt never picks anything else from it.
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive
NATS_MIN=2.10

nats_version() {
  local bin
  bin="$(command -v nats-server || echo /usr/sbin/nats-server)"
  [ -x "$bin" ] || return 1
  "$bin" --version 2>/dev/null | sed -n 's/.*v\([0-9][0-9.]*\).*/\1/p'
}

nats_ok() {
  local v
  v="$(nats_version)" || return 1
  [ -n "$v" ] && [ "$(printf '%s\n%s\n' "$NATS_MIN" "$v" | sort -V | head -1)" = "$NATS_MIN" ]
}

can_apt() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}

missing=()
command -v etcd >/dev/null || missing+=(etcd-server)
command -v etcdctl >/dev/null || missing+=(etcd-client)

if [ "${#missing[@]}" != 0 ]; then
  if ! can_apt; then
    echo "install-engines: ${missing[*]} missing and apt-get is not usable here (not root or not Debian); the cluster tests will be skipped" >&2
  elif ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    echo "install-engines: apt-get could not install ${missing[*]}; the cluster tests will be skipped" >&2
  fi
fi

if ! nats_ok; then
  if ! can_apt; then
    echo "install-engines: nats-server ${NATS_MIN} or later is missing (found: $(nats_version || echo none)) and apt-get is not usable here; the cluster tests will be skipped or run on what is there" >&2
    exit 0
  fi
  cat > /etc/apt/sources.list.d/quiver-trixie.sources <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  cat > /etc/apt/preferences.d/quiver-trixie <<'EOF'
Package: *
Pin: release n=trixie
Pin-Priority: 1
EOF
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends nats-server/trixie; }; then
    echo "install-engines: apt-get could not install nats-server from trixie; the cluster tests will run on $(nats_version || echo none)" >&2
  fi
fi
exit 0
