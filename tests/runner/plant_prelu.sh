#!/bin/sh
# plant_prelu.sh - rxc with a planted bug, for tests/runner/check_runner_ops.sh:
# forwards every command to the real rxc ($RXC_REAL, default build/rxc),
# except `rxc run FILE ...` in the interpreter (no --via, or --via interp)
# on a module calling R.nn.prelu,
# which says what rxc says for a kernel not written yet and exits 1, as if
# the interpreter's prelu kernel were missing.  No rebuild needed.
real=${RXC_REAL:-build/rxc}
if [ "$1" = run ]; then
  via=interp prev=
  for a in "$@"; do [ "$prev" = --via ] && via=$a; prev=$a; done
  if [ "$via" = interp ] && [ -f "$2" ] && grep -q 'R\.nn\.prelu(' "$2"; then
    echo "$2: error: R.nn.prelu: the interpreter's kernel is not implemented yet" >&2
    exit 1
  fi
fi
exec "$real" "$@"
