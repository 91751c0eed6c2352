#!/usr/bin/env bash
# Installs (from Debian's packages, when missing) Chromium and its chromedriver for the
# viewer's browser test (api/tests/viewer.rs), and Selenium (PyPI, pinned) that drives them.
# Needs root (or sudo). About 25 s with a warm package index.
set -euo pipefail
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "installing chromium and chromium-driver (Debian packages)…" >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >&2 \
    || { $sudo_cmd apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >&2; }
fi
python3 -m pip install --quiet --disable-pip-version-check -r "$(dirname "$0")/../api/tests/browser/requirements.txt"
/usr/bin/chromium --version
