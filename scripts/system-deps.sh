#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, only when missing.
# postgresql: the store tests run against a real, throwaway PostgreSQL server
# (scripts/with-postgres.sh starts one).
# chromium: the browser tests (tests/web/browser/); Playwright drives Debian's build
# through executable_path, `playwright install` is never run. fonts-liberation: text in the
# screenshots (apt installs no recommended packages here). poppler-utils: pdftoppm, to render
# the score sheet PDF as pictures for a person to look at (tests/sheet/test_sheet.py).
# fonts-noto-cjk: Japanese text in the screenshots and in the Japanese score sheet PDF.
# haproxy: `haproxy -c` checks deploy/haproxy.cfg (tests/test_deploy_files.py), and the
# cluster tests run it as the load balancer; iproute2: `ip netns`, the cluster tests' hosts
# (tests/cluster/: hosts as network namespaces on this machine).
set -euo pipefail
PACKAGES=(postgresql chromium fonts-liberation fonts-noto-cjk poppler-utils haproxy iproute2)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
