#!/usr/bin/env bash
# Installs the real servers and tools the integration tests start: Debian's Prometheus (and promtool,
# for OpenMetrics backfill), VictoriaMetrics, lldpd (LLDP in network namespaces) and kubectl (the
# capture script's tests run it against a stand-in API server).
#
# Idempotent: does nothing when everything is already there. Uses sudo only when not root.
set -euo pipefail

PKGS=(prometheus victoria-metrics lldpd iproute2)
# Whether a package is installed. Not `dpkg -s | grep -q` under pipefail: grep -q stops reading at its match, and
# dpkg, still writing a long description (prometheus: 6 KB), dies of SIGPIPE, which fails the pipe. Under load
# that said "not installed" for an installed package 393 times in 500 and failed a fresh machine's install.
installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=()
for p in "${PKGS[@]}"; do
    installed "$p" || missing+=("$p")
done
# kubectl may come from another package (kubernetes.io's 'kubectl'); Debian's is kubernetes-client.
command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client)

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-tools: all present: ${PKGS[*]} kubectl"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-tools: not root and no sudo; cannot install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
fi
echo "install-tools: installing ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
# The packages start their daemons where an init system runs; tests start their own on loopback.
for p in "${PKGS[@]}"; do
    installed "$p" || { echo "install-tools: $p still not installed" >&2; exit 1; }
done
command -v kubectl >/dev/null 2>&1 || { echo "install-tools: kubectl still missing" >&2; exit 1; }
echo "install-tools: done"
