#include "metrics/json_number.h"

#include <catch2/catch.hpp>

using aiperf::metrics::append_json_float;

namespace {
std::string f(double v) {
  std::string s;
  append_json_float(s, v);
  return s;
}
}  // namespace

TEST_CASE("floats print like ryu (orjson / pydantic-core)") {
  CHECK(f(255.886568) == "255.886568");
  CHECK(f(550.0) == "550.0");
  CHECK(f(0.2) == "0.2");
  CHECK(f(-3.5) == "-3.5");
  CHECK(f(0.0) == "0.0");
  CHECK(f(0.0001) == "0.0001");
  CHECK(f(0.00001) == "0.00001");
  CHECK(f(0.000001) == "1e-6");
  CHECK(f(1.5e-7) == "1.5e-7");
  CHECK(f(1e15) == "1000000000000000.0");
  CHECK(f(1e16) == "1e16");
  CHECK(f(1.7598132075329004e18) == "1.7598132075329004e18");
  CHECK(f(0.1 + 0.2) == "0.30000000000000004");
  CHECK(f(1.0 / 0.0) == "null");
}
