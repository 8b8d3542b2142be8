#!/usr/bin/env bash
# Rebuild dist/ and fail when it differs from what is committed (the action runs the committed bundle).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build >/dev/null
if ! git diff --quiet --ignore-space-at-eol -- dist || [ -n "$(git status --porcelain --untracked-files=all -- dist)" ]; then
  echo "dist/ is stale: run 'npm run build' and commit dist/." >&2
  git status --short -- dist >&2
  exit 1
fi
echo "dist/ is fresh."
