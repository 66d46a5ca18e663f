#!/usr/bin/env bash
# Installs the system packages Faultline needs, only those that are missing.
# Idempotent: a second run installs nothing and does not touch the network.
#
#   scripts/install-system-packages.sh          packages to build and run
#   scripts/install-system-packages.sh --test   also what the tests need
#   scripts/install-system-packages.sh --bench  also what make bench needs
set -euo pipefail

packages=(libsqlite3-dev libpq-dev pkg-config liblttng-ust-dev lttng-tools babeltrace2 libcurl4)
case "${1:-}" in
    --test) packages+=(chromium python3-jsonschema libxml2-utils prometheus prometheus-pushgateway postgresql valgrind binutils) ;;
    --bench) packages+=(valgrind binutils) ;;
esac

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

if ! command -v apt-get >/dev/null; then
    echo "install-system-packages: missing ${missing[*]} and apt-get is not available; install them by hand" >&2
    exit 1
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    sudo=(sudo)
fi

echo "install-system-packages: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
