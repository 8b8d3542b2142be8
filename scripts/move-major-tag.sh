#!/usr/bin/env bash
# Point the major tag (v1) at a release tag (v1.4.2), so `uses: profile-gate/profile-gate@v1` gets the
# release. Run by .github/workflows/release.yml; `--push` pushes the moved tag to origin.
# Usage: scripts/move-major-tag.sh vMAJOR.MINOR.PATCH [--push]
set -euo pipefail

tag="${1:-}"
if [[ ! "$tag" =~ ^v([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "move-major-tag: '$tag' is not a release tag vMAJOR.MINOR.PATCH (a pre-release does not move the major tag)" >&2
  exit 2
fi
major="v${BASH_REMATCH[1]}"
commit="$(git rev-parse --verify --quiet "refs/tags/$tag^{commit}")" || {
  echo "move-major-tag: no tag $tag in this repository" >&2
  exit 2
}
git tag --force --annotate "$major" --message "$major: $tag" "$commit"
echo "moved $major to $tag ($commit)"
if [[ "${2:-}" == "--push" ]]; then
  git push --force origin "refs/tags/$major"
fi
