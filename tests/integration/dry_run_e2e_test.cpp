// `aiperf profile --dry-run` (ours): the options are parsed and validated exactly as for a run,
// then nothing is started and nothing is written; an invalid option still exits 2 with the
// message a real run prints.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `aiperf profile <args>` with `cwd` as working directory; its output is captured in `logs`.
Result profile(const std::string& cwd, const std::string& logs, const std::vector<std::string>& args,
               const std::string& name) {
  std::string cmd = "cd " + quote(cwd) + " && exec " + quote(std::string(AIPERF_BIN_DIR) + "/aiperf") + " profile";
  for (const auto& a : args) cmd += " " + quote(a);
  Process p("/bin/sh", {"-c", cmd}, logs, name);
  auto code = p.wait(60);
  REQUIRE(code.has_value());
  return {*code, p.out(), p.err()};
}

// stderr without the log lines' timestamps ("2026-01-01 12:00:00.123 - ").
std::string untimed(const std::string& err) {
  static const std::regex stamp(R"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} - )");
  return std::regex_replace(err, stamp, "");
}

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(e.path().string());
  return out;
}

const std::vector<std::string> kBase{"--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2"};

}  // namespace

TEST_CASE("dry run: validates, prints, starts nothing and writes nothing", "[e2e][dry-run]") {
  const std::string cwd = aiperf::test::make_temp_dir();
  const std::string logs = aiperf::test::make_temp_dir();
  // The default artifact directory (relative to the working directory) and an explicit one.
  Result def = profile(cwd, logs, with(kBase, {"--concurrency", "4", "--request-count", "20", "--dry-run"}), "default");
  INFO(def.err);
  REQUIRE(def.exit_code == 0);
  CHECK(def.out.find("options valid") != std::string::npos);
  CHECK(def.out.find("artifacts/m-openai-chat-concurrency4") != std::string::npos);

  Result expl = profile(cwd, logs,
                        with(kBase, {"--artifact-dir", cwd + "/out/run1", "--streaming", "--request-rate", "5",
                                     "--export-level", "raw", "--dry-run"}),
                        "explicit");
  INFO(expl.err);
  REQUIRE(expl.exit_code == 0);
  CHECK(expl.out.find(cwd + "/out/run1") != std::string::npos);

  // Nothing under the working directory: no artifacts/, no out/, no logs/aiperf.log.
  CHECK(entries(cwd).empty());
}

TEST_CASE("dry run: rejects what a run rejects, with the same message", "[e2e][dry-run]") {
  const std::string cwd = aiperf::test::make_temp_dir();
  const std::string logs = aiperf::test::make_temp_dir();
  { std::ofstream(logs + "/a-file") << "x"; }
  const std::vector<std::vector<std::string>> invalid{
      {"--bogus-option", "1"},                                 // unknown option
      {"--export-level", "everything"},                        // choice value not listed
      {"--concurrency", "0"},                                  // out of range
      {"--concurrency", "many"},                               // not a number
      {"--benchmark-grace-period", "5"},                       // needs --benchmark-duration
      {"--request-count", "5", "--conversation-num", "5"},     // mutually exclusive
      {"--tokenizer", cwd + "/no-such-tokenizer-dir"},         // resolved before anything starts
      {"--artifact-dir", logs + "/a-file/run"},                 // cannot be created: a file is in the way
  };
  int i = 0;
  for (const auto& bad : invalid) {
    const std::string name = "bad" + std::to_string(i++);
    // The base's --tokenizer gpt2 goes last, unless the case gives its own.
    std::vector<std::string> args = bad;
    if (bad.front() != "--tokenizer") args = with(args, {"--tokenizer", "gpt2"});
    args = with({"--model", "m", "--url", "http://127.0.0.1:9"}, args);
    Result dry = profile(cwd, logs, with(args, {"--dry-run"}), name + "-dry");
    Result real = profile(cwd, logs, args, name + "-real");
    INFO(bad.front() << "\n--dry-run stderr: " << dry.err << "\nreal stderr: " << real.err);
    CHECK(dry.exit_code == 2);
    CHECK(real.exit_code == 2);
    CHECK(dry.out.find("options valid") == std::string::npos);
    CHECK(!dry.err.empty());
    CHECK(untimed(dry.err) == untimed(real.err));
  }
  // Neither the dry runs nor the rejected real runs wrote anything.
  CHECK(entries(cwd).empty());
}
