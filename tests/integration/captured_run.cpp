// Runs against a mock that records every request (declared in process.h).
#include <catch2/catch.hpp>

#include "process.h"

namespace aiperf::test {

CapturedRun run_captured(const std::vector<std::string>& args, std::vector<std::string> mock_args) {
  const std::string tmp = make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  mock_args.insert(mock_args.end(), {"--record-requests", rec});
  MockServer mock(mock_args, tmp);
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--url", mock.url(), "--concurrency", "1",
                                "--random-seed", "5"};
  full.insert(full.end(), args.begin(), args.end());
  CapturedRun run{run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120), {}};
  for (const auto& l : read_lines(rec)) {
    nlohmann::json j = nlohmann::json::parse(l);
    run.requests.push_back({j["path"].get<std::string>(), j["body"]});
  }
  return run;
}

void check_clean(const CapturedRun& run, size_t requests) {
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.requests.size() == requests);
  const auto records = run.records();
  CHECK(records.size() == requests);
  for (const auto& r : records) CHECK_FALSE(r.contains("error"));
  CHECK(run.summary()["request_count"]["avg"] == requests);
}

ProfileRun run_named(const std::string& tmp, const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m"};
  full.insert(full.end(), args.begin(), args.end());
  return run_profile(tmp + "/" + name, full, tmp, name, 120);
}

std::vector<nlohmann::json> recorded_bodies(const std::string& file) {
  std::vector<nlohmann::json> out;
  for (const auto& l : read_lines(file)) out.push_back(nlohmann::json::parse(l)["body"]);
  return out;
}

}  // namespace aiperf::test
