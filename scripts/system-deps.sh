#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only when missing.
# Nothing is needed yet beyond Python itself; later layers add to PACKAGES.
set -euo pipefail
PACKAGES=()
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
