#!/usr/bin/env bash
# Debian packages the test suite needs: chromium (browser tests), postgresql (the room on
# PostgreSQL), nginx and openssl (the room behind nginx with a self-signed certificate:
# tests/server/nginx_front.py; Debian's plain nginx package has the ssl, proxy, upstream and
# map modules built in, and none of nginx-light's or nginx-core's extra modules). Installed
# only when missing; without root or apt the suite skips nothing silently: the tests that
# need them fail with a message naming this script.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: please install ${missing[*]} (Debian packages)" >&2
    exit 0
fi
echo "system-deps: installing ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
