#!/usr/bin/env bash
# Checks gpuad as users get it, outside the build tree:
#   1. `cmake --install` into a temporary prefix, then the standalone
#      examples/ project configured against that prefix alone
#      (find_package(gpuad CONFIG)), built, and its tests run (ctest);
#   2. with --deb: the Debian package built by CPack, its contents listed,
#      installed with apt (`dpkg -i` with its dependencies), and examples/
#      built and run again against the installed /usr files only.
# Needs a built tree (tools/build.sh).  --deb installs into /usr: for CI
# machines and containers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${GPUAD_BUILD_DIR:-$root/build}"
deb=0
[ "${1:-}" = --deb ] && deb=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Configure, build and test examples/ against whatever gpuad the given
# CMake arguments find (never the build tree: it exports no package).
build_examples() {
  local dir=$1
  shift
  cmake -S "$root/examples" -B "$dir" -G Ninja "$@" >"$dir.configure.log" ||
    { cat "$dir.configure.log"; return 1; }
  grep 'gpuad [0-9]' "$dir.configure.log"
  cmake --build "$dir" -j2
  ctest --test-dir "$dir" --output-on-failure
}

echo "== install into a temporary prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
(cd "$work/prefix" && find . -type f | sort)
echo "== examples/ against the temporary prefix"
build_examples "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix"

if [ $deb = 1 ]; then
  echo "== the Debian package"
  (cd "$build" && cpack -G DEB >/dev/null)
  pkg=$(ls "$build"/package/gpuad_*_amd64.deb)
  echo "$pkg"
  dpkg-deb --info "$pkg" | sed -n 's/^ *\(Package\|Version\|Architecture\|Depends\):/  \1:/p'
  dpkg-deb --contents "$pkg"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
  echo "== examples/ against the installed package (/usr)"
  build_examples "$work/examples-deb"
fi
