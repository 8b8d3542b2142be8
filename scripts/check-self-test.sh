#!/usr/bin/env bash
# Checks the outputs of the action's self-test (.github/workflows/self-test.yml), given as
# environment variables. Expected values are those of the bundled samples (samples/README.md):
# decode 378.5 tok/s fused, 313.9 tok/s unfused, the unfused run failing on unfused-attention.
set -uo pipefail

failed=0
expect() { # NAME ACTUAL PATTERN (an extended regex the whole value must match)
  if [[ "$2" =~ ^($3)$ ]]; then echo "ok   $1 = $2"; else echo "::error::self-test: $1 is '$2', expected /^($3)\$/"; failed=1; fi
}

expect 'baseline verdict' "${BASE_VERDICT:-}" 'pass|warn'
expect 'baseline decode-tok-s' "${BASE_TOK_S:-}" '378\.[0-9]+'
expect 'baseline report-json' "$( [[ -s "${BASE_JSON:-}" ]] && echo present || echo "missing (${BASE_JSON:-})")" 'present'
expect 'head step outcome' "${HEAD_OUTCOME:-}" 'failure'
expect 'head verdict' "${HEAD_VERDICT:-}" 'fail'
expect 'head decode-tok-s' "${HEAD_TOK_S:-}" '313\.[0-9]+'
expect 'head findings' "${HEAD_FINDINGS:-}" '(.*,)?unfused-attention(,.*)?'
expect 'head report-json' "$( [[ -s "${HEAD_JSON:-}" ]] && echo present || echo "missing (${HEAD_JSON:-})")" 'present'
exit "$failed"
