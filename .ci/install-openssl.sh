#!/usr/bin/env bash
# The TLS test (test/main/tls.workers.test.ts) makes its certificates with Debian's openssl.
# Installs it when missing and apt-get can run as root; otherwise it says why and the test skips.
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive
command -v openssl >/dev/null && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-openssl: openssl missing and apt-get is not usable here (not root or not Debian); the TLS test will be skipped" >&2
  exit 0
fi
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends openssl; }; then
  echo "install-openssl: apt-get could not install openssl; the TLS test will be skipped" >&2
fi
exit 0
