#!/bin/sh
# check_runner_ops.sh - tests/ops/run_ops.py can fail (issue 33).
#
# Plants a bug without rebuilding: plant_prelu.sh, used as RXC, makes the
# interpreter say R.nn.prelu is "not implemented" (what a missing kernel
# prints).  Then, on the prelu cases:
#  1. the run must exit 1 and name each unlisted skip, while the compiled
#     halves still run and pass against numpy;
#  2. with a skips file listing those skips it passes (exit 0);
#  3. REQUIRE_ALL=1 fails it again, listed or not;
#  4. the real rxc with that file fails: the listed skips no longer happen.
# Usage: sh tests/runner/check_runner_ops.sh [RXC]  (default build/rxc)
set -u
RXC_REAL=${1:-${RXC:-build/rxc}}
export RXC_REAL
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ops() { /usr/bin/python3 tests/ops/run_ops.py -k prelu -j 2 > "$work/out" 2>&1; echo $?; }
bad=0
fail() { echo "check-runner-ops: FAIL: $*"; sed 's/^/  | /' "$work/out" | tail -20; bad=1; }

status=$(RXC=$here/plant_prelu.sh OPS_SKIPS=/dev/null ops)
[ "$status" = 1 ] || fail "planted prelu bug: run_ops.py exited $status, not 1"
grep -q '^FAIL prelu \[direct\]: skipped, and .* does not allow it' "$work/out" ||
  fail "planted prelu bug: no FAIL line for prelu [direct]"
grep -q '^FAIL prelu_run_err_alpha \[interp\]: skipped' "$work/out" ||
  fail "planted prelu bug: no FAIL line for prelu_run_err_alpha [interp]"
grep -q '^FAIL .*\[compiled\]' "$work/out" && fail "planted prelu bug: a compiled half failed"
passed=$(sed -n 's/^ops: \([0-9]*\) passed.*/\1/p' "$work/out")
[ "${passed:-0}" -ge 20 ] || fail "planted prelu bug: only ${passed:-0} halves passed (compiled halves not run?)"

# the skips the planted bug causes, as a skips file
sed -n 's/^FAIL \([a-z0-9_]*\) \[\([a-z_]*\)\]: skipped.*/\1 \2 planted: interpreter prelu/p' \
  "$work/out" > "$work/skips.txt"
n=$(wc -l < "$work/skips.txt")
[ "$n" -ge 10 ] || fail "expected at least 10 skips from the planted bug, found $n"
status=$(RXC=$here/plant_prelu.sh OPS_SKIPS=$work/skips.txt ops)
[ "$status" = 0 ] || fail "planted bug with its skips listed: exited $status, not 0"
status=$(REQUIRE_ALL=1 RXC=$here/plant_prelu.sh OPS_SKIPS=$work/skips.txt ops)
[ "$status" = 1 ] || fail "REQUIRE_ALL=1 with the skips listed: exited $status, not 1"
status=$(RXC=$RXC_REAL OPS_SKIPS=$work/skips.txt ops)
[ "$status" = 1 ] || fail "listed skips that no longer happen: exited $status, not 1"
grep -q 'no longer skips' "$work/out" || fail "listed skips that no longer happen: not reported"

[ $bad = 0 ] && echo "check-runner-ops: ok (a planted prelu bug fails run_ops.py; $n skips, listed, pass; REQUIRE_ALL=1 and stale listings fail)"
exit $bad
