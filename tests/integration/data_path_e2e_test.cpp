// The raw-results path on one host: every worker sends straight to every record processor
// (no controller hop), and each credit still yields exactly one record.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;

TEST_CASE("raw records from 2 workers reach all 3 record processors, one record per credit", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const auto run = aiperf::test::run_profile(
      tmp + "/artifacts",
      {"--tokenizer", "gpt2", "--model", "m", "--url", mock.url(), "--streaming", "--isl", "8", "--osl", "4",
       "--extra-inputs", "ignore_eos:true", "--concurrency", "8", "--request-count", "400", "--workers-max", "2",
       "--record-processors", "3"},
      tmp);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> ids;
  std::map<std::string, int> by_processor;
  std::set<std::string> workers;
  for (const auto& r : run.records()) {
    ids.insert(r["metadata"]["x_request_id"].get<std::string>());
    ++by_processor[r["metadata"]["record_processor_id"].get<std::string>()];
    workers.insert(r["metadata"]["worker_id"].get<std::string>());
  }
  CHECK(ids.size() == 400);
  CHECK(workers.size() == 2);
  // Each worker's 200 records take at least 4 batches of at most 64, dealt round-robin over
  // its three connections, so every processor gets some.
  CHECK(by_processor.size() == 3);
  CHECK(run.summary()["request_count"]["avg"] == 400);
  CHECK(run.summary()["output_sequence_length"]["avg"] == 4);
}
