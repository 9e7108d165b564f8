// known_counter_totals (server_counters.h): the window increase of llama.cpp's, vLLM's and
// SGLang's token and time counters, summed over series, from --server-metrics scrapes.
#include <catch2/catch.hpp>

#include "server_counters.h"

using namespace aiperf::telemetry;

namespace {

constexpr int64_t kS = 1'000'000'000;
const std::string kUrl = "http://127.0.0.1:8080/metrics";

std::string llama_page(int prompt, int cached, double prompt_s, int predicted, double predicted_s) {
  return "# TYPE llamacpp:prompt_tokens_total counter\nllamacpp:prompt_tokens_total " + std::to_string(prompt) +
         "\n# TYPE llamacpp:prompt_tokens_cached_total counter\nllamacpp:prompt_tokens_cached_total " +
         std::to_string(cached) + "\n# TYPE llamacpp:prompt_seconds_total counter\nllamacpp:prompt_seconds_total " +
         std::to_string(prompt_s) + "\n# TYPE llamacpp:tokens_predicted_total counter\nllamacpp:tokens_predicted_total " +
         std::to_string(predicted) +
         "\n# TYPE llamacpp:tokens_predicted_seconds_total counter\nllamacpp:tokens_predicted_seconds_total " +
         std::to_string(predicted_s) + "\n# TYPE llamacpp:requests_processing gauge\nllamacpp:requests_processing 1\n";
}

}  // namespace

TEST_CASE("server counters: llama.cpp's increase over the window, cached tokens added to the prompt") {
  ServerMetrics m("");
  REQUIRE(m.add_scrape(kUrl, 0, 0, 1, llama_page(11, 0, 0.5, 7, 0.25)));         // baseline before the window
  REQUIRE(m.add_scrape(kUrl, 2 * kS, 0, 1, llama_page(31, 4, 1.0, 17, 0.75)));
  REQUIRE(m.add_scrape(kUrl, 4 * kS, 0, 1, llama_page(51, 6, 1.5, 27, 1.25)));
  const auto t = known_counter_totals(m.series(), 1 * kS, 5 * kS);
  REQUIRE(t);
  CHECK(t->family == "llamacpp");
  CHECK(*t->prompt_tokens == 46);  // (51 - 11) processed + 6 cached
  CHECK(*t->cached_prompt_tokens == 6);
  CHECK(*t->generation_tokens == 20);
  CHECK(*t->prompt_seconds == Approx(1.0).epsilon(1e-12));
  CHECK(*t->generation_seconds == Approx(1.0).epsilon(1e-12));
  CHECK_FALSE(t->requests);  // llama.cpp counts no finished requests
}

TEST_CASE("server counters: vLLM names summed over label sets and endpoints") {
  ServerMetrics m("");
  auto page = [](int a, int b, int gen) {
    return "# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total{model_name=\"a\"} " + std::to_string(a) +
           "\nvllm:prompt_tokens_total{model_name=\"b\"} " + std::to_string(b) +
           "\n# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total " + std::to_string(gen) +
           "\n# TYPE vllm:request_success_total counter\nvllm:request_success_total{finished_reason=\"length\"} " +
           std::to_string(gen / 5) + "\n";
  };
  REQUIRE(m.add_scrape(kUrl, 0, 0, 1, page(0, 0, 0)));
  REQUIRE(m.add_scrape(kUrl, 3 * kS, 0, 1, page(100, 20, 50)));
  REQUIRE(m.add_scrape("http://other:8000/metrics", 0, 0, 1, page(5, 0, 5)));
  REQUIRE(m.add_scrape("http://other:8000/metrics", 3 * kS, 0, 1, page(15, 0, 10)));
  const auto t = known_counter_totals(m.series(), 1 * kS, 4 * kS);
  REQUIRE(t);
  CHECK(t->family == "vllm");
  CHECK(*t->prompt_tokens == 130);
  CHECK(*t->generation_tokens == 55);
  CHECK(*t->requests == 11);  // (50 - 0) / 5 + (10 - 5) / 5
  CHECK_FALSE(t->cached_prompt_tokens);
  CHECK_FALSE(t->prompt_seconds);
}

TEST_CASE("server counters: none from a server of unknown names") {
  ServerMetrics m("");
  REQUIRE(m.add_scrape(kUrl, 0, 0, 1, "# TYPE req_total counter\nreq_total 3\n"));
  REQUIRE(m.add_scrape(kUrl, kS, 0, 1, "# TYPE req_total counter\nreq_total 5\n"));
  CHECK_FALSE(known_counter_totals(m.series(), 0, 2 * kS));
}
