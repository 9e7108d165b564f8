// Reading a test's fixture or output file whole, in one place for every test.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace aiperf::test {

// The bytes of `path`, or "" when it cannot be opened (the caller's checks then fail on content).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace aiperf::test
