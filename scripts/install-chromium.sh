#!/usr/bin/env bash
# Headless Chromium for the dashboard's browser test, from the distribution's packages.
# Idempotent: does nothing when a chromium binary is already on PATH. Non-interactive.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  echo "chromium already installed: $(chromium --version 2>/dev/null || echo 'version unknown')"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: no apt-get here; install Chromium yourself (the browser test looks for 'chromium' on PATH or \$CHROMIUM)" >&2
  exit 1
fi

# Root runs apt-get directly; anyone else goes through sudo (CI runners allow it without a password).
run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

export DEBIAN_FRONTEND=noninteractive
run_as_root apt-get update -qq
run_as_root apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
chromium --version
