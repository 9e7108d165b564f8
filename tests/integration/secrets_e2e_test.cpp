// End-to-end: credentials given to a run reach the server and nothing else. Every file of the
// artifact directory (inputs, records, raw export, summaries, log) and the console output are
// searched for the secret values; the raw export shows the headers were sent, redacted.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kSecrets{"SECRETVALUE123", "SECRETVALUE456", "SECRETVALUE789"};

aiperf::test::ProfileRun profile(const std::string& tmp, const MockServer& mock, std::vector<std::string> args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat",
                                "--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "5",
                                "--output-tokens-mean", "3", "--extra-inputs", "ignore_eos:true", "--random-seed", "1"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp);
}

// Relative paths of every regular file under dir.
std::set<std::string> files_under(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.insert(fs::relative(e.path(), dir).string());
  }
  return out;
}

// "<file>: <secret>" (printed by CHECK on failure) for every secret found in any file under dir or in the console output.
std::vector<std::string> leaks(const aiperf::test::ProfileRun& run) {
  std::vector<std::string> found;
  for (const std::string& rel : files_under(run.dir)) {
    const std::string text = read_file(run.dir + "/" + rel);
    for (const std::string& s : kSecrets) {
      if (text.find(s) != std::string::npos) found.push_back(rel + ": " + s);
    }
  }
  for (const std::string& s : kSecrets) {
    if (run.out.find(s) != std::string::npos) found.push_back("stdout: " + s);
    if (run.err.find(s) != std::string::npos) found.push_back("stderr: " + s);
  }
  return found;
}

}  // namespace

TEST_CASE("secrets: --api-key and -H Authorization appear in no artifact, log or console line", "[e2e][secrets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  auto run = profile(tmp, mock,
                     {"--export-level", "raw", "--log-level", "DEBUG", "--api-key", "SECRETVALUE123", "-H",
                      "Authorization:Bearer SECRETVALUE456"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // Every kind of file a raw-level run writes is there to be searched (others, e.g. server
  // metrics exports, are searched too).
  const std::set<std::string> files = files_under(run.dir);
  for (const char* f : {"inputs.json", "profile_export.jsonl", "profile_export_raw.jsonl",
                        "profile_export_aiperf.json", "profile_export_aiperf.csv", "logs/aiperf.log"}) {
    CHECK(files.count(f) == 1);
  }
  CHECK(leaks(run) == std::vector<std::string>{});

  // The headers were sent (the trace records what went on the wire) and are exported redacted.
  const std::vector<json> raw = run.lines("profile_export_raw.jsonl");
  REQUIRE(raw.size() == 5);
  for (const json& r : raw) CHECK(r["request_headers"]["Authorization"] == "<redacted>");
  CHECK(run.out.find("--api-key '<redacted>' -H 'Authorization:<redacted>'") != std::string::npos);
  CHECK(run.summary()["request_count"]["avg"] == 5);
}

TEST_CASE("secrets: the --api-key=KEY and --header=JSON spellings are masked too", "[e2e][secrets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  auto run = profile(tmp, mock,
                     {"--export-level", "raw", "--api-key=SECRETVALUE123",
                      R"(--header={"X-Api-Key": "SECRETVALUE789", "X-Trace": "visible-value"})"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(leaks(run) == std::vector<std::string>{});
  const std::vector<json> raw = run.lines("profile_export_raw.jsonl");
  REQUIRE(raw.size() == 5);
  for (const json& r : raw) {
    CHECK(r["request_headers"]["Authorization"] == "<redacted>");
    CHECK(r["request_headers"]["X-Api-Key"] == "<redacted>");
    CHECK(r["request_headers"]["X-Trace"] == "visible-value");  // only credentials are masked
  }
  CHECK(run.out.find("--api-key=<redacted>") != std::string::npos);
}
