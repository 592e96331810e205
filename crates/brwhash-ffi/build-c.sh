#!/bin/sh
# Builds the brwhash C library (release) and installs it with its header and pkg-config file:
#
#   <libdir>/libbrwhash_ffi.a, <libdir>/libbrwhash_ffi.so (.dylib on macOS)
#   <includedir>/brwhash.h
#   <libdir>/pkgconfig/brwhash.pc
#
# Usage: crates/brwhash-ffi/build-c.sh [--prefix DIR] [--libdir DIR] [--includedir DIR]
#                                      [--destdir DIR] [--static-only] [--no-install]
#   --prefix      install prefix (default: <repo>/target/brwhash-c, no root needed;
#                 e.g. /usr/local for a system-wide install)
#   --libdir      default <prefix>/lib
#   --includedir  default <prefix>/include
#   --destdir     staging root prepended to every path written (for packaging); the .pc
#                 file still names the final paths
#   --static-only install only the static library (then `pkg-config --static --libs brwhash`
#                 links it statically; with both installed, -lbrwhash_ffi finds the shared one)
#   --no-install  only build, and print the native libraries a static link needs
#
# Then: export PKG_CONFIG_PATH=<libdir>/pkgconfig
#       cc prog.c $(pkg-config --cflags --libs brwhash)            (shared library)
#       cc prog.c $(pkg-config --cflags --libs --static brwhash)   (after --static-only)
set -eu

crate_dir=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$crate_dir/../.." && pwd)
prefix="$repo/target/brwhash-c"
libdir=""
includedir=""
destdir=""
install=1
static_only=0

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --libdir) libdir=$2; shift 2 ;;
        --libdir=*) libdir=${1#*=}; shift ;;
        --includedir) includedir=$2; shift 2 ;;
        --includedir=*) includedir=${1#*=}; shift ;;
        --destdir) destdir=$2; shift 2 ;;
        --destdir=*) destdir=${1#*=}; shift ;;
        --static-only) static_only=1; shift ;;
        --no-install) install=0; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "build-c.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
done
libdir=${libdir:-$prefix/lib}
includedir=${includedir:-$prefix/include}

cd "$repo"
cargo=${CARGO:-cargo}

# One release build of every crate type (cdylib, staticlib, rlib); rustc prints the system
# libraries the static library needs while linking it.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$cargo" rustc --release --locked -p brwhash-ffi --lib -- --print native-static-libs \
        >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
libs_private=$(sed -n 's/.*native-static-libs: //p' "$log" | tail -n 1)
# (Cargo replays the note when the library is already up to date.)
[ -n "$libs_private" ] || { echo "build-c.sh: rustc printed no native-static-libs" >&2; exit 1; }

target_dir=$("$cargo" metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
release="$target_dir/release"
case "$(uname -s)" in
    Darwin) shared=libbrwhash_ffi.dylib ;;
    *) shared=libbrwhash_ffi.so ;;
esac
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -n 1)

echo "built: $release/libbrwhash_ffi.a $release/$shared"
echo "native libraries for static linking: $libs_private"
[ "$install" = 1 ] || exit 0

mkdir -p "$destdir$libdir/pkgconfig" "$destdir$includedir"
cp "$release/libbrwhash_ffi.a" "$destdir$libdir/"
chmod 644 "$destdir$libdir/libbrwhash_ffi.a"
if [ "$static_only" = 0 ]; then
    cp "$release/$shared" "$destdir$libdir/"
    chmod 755 "$destdir$libdir/$shared"
else
    rm -f "$destdir$libdir/$shared"
fi
cp "$crate_dir/include/brwhash.h" "$destdir$includedir/"
chmod 644 "$destdir$includedir/brwhash.h"
# Paths under the prefix are written relative to ${prefix}.
case "$libdir" in "$prefix"/*) pc_libdir="\${prefix}${libdir#"$prefix"}" ;; *) pc_libdir=$libdir ;; esac
case "$includedir" in
    "$prefix"/*) pc_includedir="\${prefix}${includedir#"$prefix"}" ;;
    *) pc_includedir=$includedir ;;
esac
# | as the sed delimiter: paths have slashes; escape & and | in the values.
esc() { printf '%s' "$1" | sed 's/[&|\\]/\\&/g'; }
sed -e "s|@PREFIX@|$(esc "$prefix")|" \
    -e "s|@LIBDIR@|$(esc "$pc_libdir")|" \
    -e "s|@INCLUDEDIR@|$(esc "$pc_includedir")|" \
    -e "s|@VERSION@|$(esc "$version")|" \
    -e "s|@LIBS_PRIVATE@|$(esc "$libs_private")|" \
    "$crate_dir/brwhash.pc.in" >"$destdir$libdir/pkgconfig/brwhash.pc"
chmod 644 "$destdir$libdir/pkgconfig/brwhash.pc"

echo "installed into $destdir$prefix:"
echo "  $libdir/libbrwhash_ffi.a"
[ "$static_only" = 1 ] || echo "  $libdir/$shared"
echo "  $includedir/brwhash.h"
echo "  $libdir/pkgconfig/brwhash.pc"
echo "use: PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs brwhash"
