#!/bin/sh
# same_output.sh REF [RXC] - is rxc's output the same as commit REF's?
#
# Builds REF's rxc in a scratch worktree, then runs `rxc opt`, `rxc plan`
# and `rxc compile` of both binaries on every sample and test module
# (every .py under samples/ and tests/ that `rxc check` of REF accepts, and
# every .onnx there) and compares stdout, stderr, exit status and the
# written files byte for byte.  Prints one line per difference and exits
# 1 when there is one.  RXC defaults to build/rxc.  Refactorings that must
# not change behaviour (issue 17) name the commit before them.
#
# NEW_SET (environment): configuration settings, separated by blanks,
# given as --set to the new rxc only, to compare across a commit that
# changed a default.  `[opt] kernels` became true in the commit after
# 10c42ed (issue 35): against a REF before it, every module with a
# float32 matmul or conv2d differs (kernel calls instead of loops) unless
# NEW_SET=opt.kernels=false.
set -u
ref=${1:?usage: same_output.sh REF [RXC]}
new=${2:-build/rxc}
root=$(pwd)
[ -x "$new" ] || { echo "same_output: $new is not built" >&2; exit 2; }
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
new_set=
for kv in ${NEW_SET:-}; do new_set="$new_set --set $kv"; done
sha=$(git rev-parse --verify -q "$ref^{commit}") || { echo "same_output: no commit $ref" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/ref" >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM
git worktree add -q --detach "$tmp/ref" "$sha" || exit 2
(cd "$tmp/ref" && make -s -j2 build/rxc >/dev/null) || { echo "same_output: $ref does not build" >&2; exit 2; }
old=$tmp/ref/build/rxc

# run BIN OUT CMD FILE...: one command's stdout, stderr, status and files
run() {
  bin=$1 out=$2; shift 2
  mkdir -p "$out"
  (cd "$root" && "$bin" "$@" >"$out/stdout" 2>"$out/stderr"; echo $? >"$out/status")
}

files=$(find samples tests -name '*.py' -o -name '*.onnx' | grep -v '/tools/\|/unit/\|/gen/\|/fuzz/' | sort)
n=0 diffs=0
for f in $files; do
  case $f in
  *.py) "$old" check "$f" >/dev/null 2>&1 || continue ;;
  esac
  n=$((n + 1))
  params=
  [ -f "${f%.*}.npz" ] && params="--params ${f%.*}.npz"
  key=$(echo "$f" | tr '/' '_')
  for side in old new; do
    eval bin=\$$side
    sets=
    [ "$side" = new ] && sets=$new_set
    d=$tmp/$side/$key
    run "$bin" "$d/opt" opt "$f" $sets
    run "$bin" "$d/plan" plan "$f" --format json $sets
    rm -rf "$tmp/w"
    run "$bin" "$d/compile" compile "$f" -o "$tmp/w" --name m $params $sets
    [ -d "$tmp/w" ] && mv "$tmp/w" "$d/compile/files"
  done
  if ! diff -r "$tmp/old/$key" "$tmp/new/$key" >/dev/null; then
    echo "DIFFERS: $f"
    diff -r "$tmp/old/$key" "$tmp/new/$key" | head -5
    diffs=$((diffs + 1))
  fi
done
echo "same_output: $n modules, opt/plan/compile against $ref ($sha)${new_set:+ (new:$new_set)}: $diffs differ"
# 193 modules when written: fewer than 150 means the folders were not found
[ "$n" -ge 150 ] || { echo "same_output: FAIL: only $n modules compared, expected at least 150"; exit 1; }
[ "$diffs" -eq 0 ]
