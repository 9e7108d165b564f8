// speed-bench-report's pure part on hand-written run directories: vLLM's counters (which the
// mock does not serve; the e2e test covers SGLang's gauges), the column families, the CSV.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "speed_bench_report.h"

namespace sb = aiperf::cli::speed_bench;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json counter(double total) { return {{"type", "counter"}, {"series", {{{"stats", {{"total", total}}}}}}}; }

// A run directory whose input_config names `selector` and whose server exposes vLLM's counters.
std::string vllm_run(const fs::path& root, const std::string& name, const std::string& selector) {
  const fs::path dir = root / name;
  fs::create_directories(dir);
  std::ofstream(dir / "profile_export_aiperf.json") << json{
      {"input_config",
       {{"models", {{"items", {{{"name", "vm"}}}}}}, {"datasets", {{{"name", "main"}, {"dataset", selector}}}}}},
      {"output_token_throughput", {{"avg", 123.456}}}}.dump();
  std::ofstream(dir / "server_metrics_export.json") << json{{"metrics",
                                                             {{"vllm:spec_decode_num_accepted_tokens", counter(30)},
                                                              {"vllm:spec_decode_num_drafts", counter(20)},
                                                              {"vllm:spec_decode_num_draft_tokens", counter(60)}}}}
                                                           .dump();
  return dir.string();
}

}  // namespace

TEST_CASE("speed-bench-report: vLLM's counters give length accepted/drafts + 1 and rate accepted/draft tokens") {
  const fs::path root = fs::temp_directory_path() / ("sbr_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  const std::vector<std::string> dirs = {vllm_run(root, "a", "spec_al_mbpp"), vllm_run(root, "b", "spec_al_gsm8k")};
  std::ostringstream err;
  const sb::Matrix length = sb::build_report(dirs, "accept_length", err);
  CHECK(err.str().empty());
  CHECK(length.at("vm").at("mbpp") == 30.0 / 20.0 + 1.0);
  CHECK(*sb::build_report(dirs, "accept_rate", err).at("vm").at("gsm8k") == 0.5);
  CHECK(*sb::build_report(dirs, "throughput", err).at("vm").at("gsm8k") == 123.456);
  // spec_al benchmarks in the reference's order (math, chat, code), not alphabetical.
  CHECK(sb::detect_columns(length) == std::vector<std::string>{"gsm8k", "mbpp"});
  CHECK(sb::format_csv(length, sb::detect_columns(length)) == "Model,gsm8k,mbpp,Overall\r\nvm,2.50,2.50,2.50\r\n");
  // The parent directory finds both runs, sorted.
  CHECK(sb::find_run_dirs({root.string()}, err) == dirs);
  fs::remove_all(root);
}

TEST_CASE("speed-bench-report: categories of no single family are sorted; a model with a comma is quoted") {
  sb::Matrix m;
  m["a,b"]["zeta"] = 1.0;
  m["a,b"]["coding"] = std::nullopt;
  const auto cols = sb::detect_columns(m);
  CHECK(cols == std::vector<std::string>{"coding", "zeta"});
  CHECK(sb::format_csv(m, cols) == "Model,coding,zeta,Overall\r\n\"a,b\",,1.00,1.00\r\n");
}
