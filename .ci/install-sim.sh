#!/usr/bin/env bash
# Installs the InfiniBand fabric simulator (ibsim + libumad2sim), OpenSM and
# infiniband-diags from Debian packages, so that sample-fabrics/tools/capture.sh
# can capture real ibnetdiscover/iblinkinfo/perfquery/ibqueryerrors output.
#
# Idempotent: does nothing when all packages are already installed.
# Uses sudo only when not running as root.
set -euo pipefail

PKGS=(ibsim-utils libumad2sim0 opensm infiniband-diags)

# Whether a package is installed. Not `dpkg -s | grep -q` under pipefail: grep -q stops reading at its match, and
# dpkg, still writing a long description (prometheus: 6 KB), dies of SIGPIPE, which fails the pipe. Under load
# that said "not installed" for an installed package 393 times in 500 and failed a fresh machine's install.
installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing=()
for p in "${PKGS[@]}"; do
    if ! installed "$p"; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-sim: all packages already installed: ${PKGS[*]}"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "install-sim: not root and sudo not available; cannot install: ${missing[*]}" >&2
        exit 1
    fi
fi

echo "install-sim: installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
# Install the full set so that versions stay consistent with each other.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${PKGS[@]}"

for p in "${PKGS[@]}"; do
    installed "$p" || {
        echo "install-sim: package $p still not installed" >&2
        exit 1
    }
done
echo "install-sim: done"
