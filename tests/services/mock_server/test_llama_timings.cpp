// The mock's --timings (llama_timings.h): llama.cpp's `timings` object from the latency model.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "llama_timings.h"

using namespace aiperf::mock;

TEST_CASE("mock timings: prefill is the TTFT and decode the ITL of the tokens after the first") {
  CHECK(llama_timings_json(4, 5, 20.0, 2.5) ==
        R"({"cache_n":0,"prompt_n":4,"prompt_ms":20,"prompt_per_token_ms":5,"prompt_per_second":200,)"
        R"("predicted_n":5,"predicted_ms":10,"predicted_per_token_ms":2.5,"predicted_per_second":400})");
}

TEST_CASE("mock timings: zero divisors give 0 as llama.cpp does") {
  const auto j = nlohmann::json::parse(llama_timings_json(0, 1, 0.0, 3.0));
  CHECK(j["prompt_per_token_ms"] == 0);
  CHECK(j["prompt_per_second"] == 0);
  CHECK(j["predicted_ms"] == 0);
  CHECK(j["predicted_per_token_ms"] == 0);
  CHECK(j["predicted_per_second"] == 0);
  CHECK(j["predicted_n"] == 1);
}
