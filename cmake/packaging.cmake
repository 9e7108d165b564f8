# Installation layout and the Debian package (`cpack -G DEB` in the build directory).
#
# Layout under the prefix (/usr in the .deb): bin/aiperf, bin/aiperf-mock-server,
# lib/aiperf/libaiperf_spm.so, share/aiperf/tokenizers/gpt2 and share/aiperf/tokenizers/
# {o200k_base,cl100k_base,r50k_base}.tiktoken (o200k_base is --tokenizer builtin). The binaries find the
# SentencePiece shim and the bundled tokenizer relative to their own location
# (<bin>/../lib/aiperf, <bin>/../share/aiperf), so the tree works under any prefix, including
# a `dpkg -x` into a scratch directory. The shim and the bundled tokenizer are installed by
# common/tokenizer/CMakeLists.txt next to their targets; this file installs the executables.
include_guard(GLOBAL)

install(TARGETS aiperf aiperf-mock-server RUNTIME DESTINATION bin)

set(CPACK_PACKAGE_NAME aiperf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "aiperf-cpp")
set(CPACK_PACKAGE_CONTACT "aiperf-cpp maintainers <aiperf-cpp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Native, AIPerf-compatible benchmark for LLM inference servers (aiperf, aiperf-mock-server)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# RelWithDebInfo binaries are mostly debug info; the package ships them stripped.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# Depends is computed by dpkg-shlibdeps from the ELF files actually packaged (binaries and the
# dlopen()ed shim, which pulls in libsentencepiece0), so it cannot drift from what they link.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# HTTPS endpoints and Hub downloads verify certificates against the system store.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ca-certificates")
# --video-* runs the ffmpeg command-line tool (a run without it refuses video options, exit 2).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ffmpeg")

include(CPack)
