#!/usr/bin/env bash
# The .deb from `cpack -G DEB`: named and versioned after the project, Depends lists the
# runtime Debian libraries, and once unpacked into a scratch root (dpkg -x, no root needed)
# the binaries run from there and find the bundled tokenizer and the SentencePiece shim
# relative to themselves, not in the build tree.
# Usage: deb_package_test.sh BUILD_DIR VERSION SPM_MODEL
set -euo pipefail
build_dir=$1
version=$2
spm_model=$3

work=$(mktemp -d /tmp/aiperf-deb-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Package into the scratch dir so the build tree keeps no package files.
cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB"; }
shopt -s nullglob
debs=("$work"/pkg/aiperf_"$version"_*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one aiperf_${version}_*.deb, found: $(ls "$work/pkg")"
deb=${debs[0]}

[ "$(dpkg-deb -f "$deb" Package)" = aiperf ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Package names alone, one a line: "libzmq5 (>= 4.2.0), libc6" -> "libzmq5" "libc6".
names=$(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/ *(.*//')
for lib in libc6 libstdc++6 libzmq5 libprotobuf32 libssl3 libpcre2-8-0 libutf8proc2 libsentencepiece0; do
  grep -qxF "$lib" <<<"$names" || fail "Depends lacks $lib"
done

root="$work/root"
dpkg -x "$deb" "$root"
for f in usr/bin/aiperf usr/bin/aiperf-mock-server usr/lib/aiperf/libaiperf_spm.so \
         usr/share/aiperf/tokenizers/gpt2/tokenizer.json; do
  [ -f "$root/$f" ] || fail "package lacks /$f"
done

out=$("$root/usr/bin/aiperf" --version)
[ "$out" = "aiperf $version" ] || fail "aiperf --version printed '$out'"
"$root/usr/bin/aiperf-mock-server" --help >/dev/null || fail "aiperf-mock-server --help"

# Bundled GPT-2 from <root>/usr/share: "hello world" is [31373, 995] in GPT-2's vocabulary.
ids=$(echo '{"text":"hello world"}' | "$root/usr/bin/aiperf" tokenize --tokenizer gpt2)
[ "$ids" = '{"ids":[31373,995]}' ] || fail "gpt2 tokenize from the package printed '$ids'"

# SentencePiece through the packaged shim: the dynamic loader must open it from <root>/usr/lib
# (LD_DEBUG=files names every file it loads), and the ids must equal the build tree's.
spm_ids=$(echo '{"text":"hello world"}' | LD_DEBUG=files "$root/usr/bin/aiperf" tokenize --tokenizer "$spm_model" \
  2>"$work/ld.log")
grep -q "file=$root/usr/bin/../lib/aiperf/libaiperf_spm.so " "$work/ld.log" ||
  fail "the shim was not loaded from the package: $(grep -m3 libaiperf_spm "$work/ld.log" || true)"
ref_ids=$(echo '{"text":"hello world"}' | "$build_dir/bin/aiperf" tokenize --tokenizer "$spm_model")
[ -n "$ref_ids" ] && [ "$spm_ids" = "$ref_ids" ] || fail "spm ids '$spm_ids' != build tree '$ref_ids'"

echo "deb ok: $(basename "$deb")"
