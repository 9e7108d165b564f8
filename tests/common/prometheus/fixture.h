// Reads a recorded exporter page from tests/data/prometheus/.
#pragma once
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace aiperf::test {

inline std::string prometheus_fixture(const std::string& name) {
  const std::string path = std::string(AIPERF_TEST_DATA) + "/prometheus/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace aiperf::test
