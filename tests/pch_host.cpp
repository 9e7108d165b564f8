// Compiled only to build the tests' shared precompiled headers (tests/CMakeLists.txt).
