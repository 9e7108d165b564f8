// `aiperf profile -f cfg.yaml` against the mock: the run reflects the file's values, the command
// line wins where it repeats an option, and a bad file exits 2 with file:line:key and writes
// nothing. `aiperf config validate` exits 0 / 1 as AIPerf 0.13's; `config expand` lists a sweep's
// points; `config init` writes a template that `profile --config` accepts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;
namespace fs = std::filesystem;

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
}

struct Result {
  int exit_code;
  std::string out, err;
};

Result run_aiperf(const std::vector<std::string>& args, const std::string& logs, const std::string& name) {
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", args, logs, name);
  const auto code = p.wait(120);
  REQUIRE(code.has_value());
  return {*code, p.out(), p.err()};
}

std::string config_for(const std::string& url, const std::string& dir) {
  return R"(schemaVersion: "2.0"
randomSeed: 7
benchmark:
  model: filemodel
  endpoint:
    url: )" + url + R"(
    type: chat
    streaming: true
  dataset:
    type: synthetic
    entries: 20
    prompts:
      isl: 32
      osl: {mean: 8, stddev: 0}
  phases:
    type: concurrency
    concurrency: 2
    requests: 10
  artifacts:
    dir: )" + dir + R"(
  tokenizer:
    name: gpt2
)";
}

}  // namespace

TEST_CASE("config file: a profile run takes the file's values, the command line wins", "[e2e][config_file]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::MockServer mock({"--fast"}, tmp);
  const std::string cfg = tmp + "/cfg.yaml";
  write(cfg, config_for(mock.url(), tmp + "/from_file"));

  SECTION("file values alone") {
    const Result r = run_aiperf({"profile", "-f", cfg, "--ui", "none"}, tmp, "file_only");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    aiperf::test::ProfileRun run{r.exit_code, r.out, r.err, tmp + "/from_file"};
    const auto s = run.summary();
    CHECK(s["request_count"]["avg"].get<double>() == 10);
    CHECK(s["input_sequence_length"]["avg"].get<double>() == 32);
    CHECK(s["output_sequence_length"]["avg"].get<double>() == 8);
    CHECK(s.contains("time_to_first_token"));  // streaming: true
    const auto& ic = s["input_config"];
    // input_config as AIPerf 0.13 dumps it: what the file set.
    CHECK(ic["models"] == nlohmann::json::parse(R"({"items": [{"name": "filemodel"}]})"));
    CHECK(ic["phases"].back()["concurrency"] == 2);
    CHECK(ic["datasets"][0]["random_seed"] == 7);
    CHECK(run.records().size() == 10);
    // The command as typed, as the reference echoes it.
    CHECK(r.out.find("CLI Command: aiperf profile -f '" + cfg + "' --ui 'none'\n") != std::string::npos);
  }
  SECTION("command-line options override the file's") {
    // --artifact-dir (run_profile) beats artifacts.dir, --request-count beats requests,
    // --model-names (an alias) beats model.
    const aiperf::test::ProfileRun run = aiperf::test::run_profile(
        tmp + "/from_cli", {"--config", cfg, "--request-count", "6", "--model-names", "climodel", "--ui", "none"}, tmp,
        "override");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const auto s = run.summary();
    CHECK(s["request_count"]["avg"].get<double>() == 6);
    CHECK(s["input_config"]["models"]["items"][0]["name"] == "climodel");
    CHECK(s["input_config"]["phases"].back()["concurrency"] == 2);  // still the file's
    CHECK(run.records().size() == 6);
    CHECK_FALSE(fs::exists(tmp + "/from_file"));
  }
  SECTION("a sweep block runs one point per value, in the reference's folders") {
    write(tmp + "/sweep.yaml", config_for(mock.url(), tmp + "/swept") + "sweep:\n  type: grid\n  parameters:\n    concurrency: [1, 3]\n");
    const Result r = run_aiperf({"profile", "-f", tmp + "/sweep.yaml", "--request-count", "4", "--ui", "none"}, tmp, "sweep");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    for (int c : {1, 3}) {
      aiperf::test::ProfileRun point{0, "", "", tmp + "/swept/concurrency_" + std::to_string(c)};
      const auto s = point.summary();
      CHECK(s["request_count"]["avg"].get<double>() == 4);
      CHECK(s["input_config"]["phases"].back()["concurrency"] == c);
    }
    CHECK(fs::exists(tmp + "/swept/sweep_aggregate/profile_export_aiperf_sweep.json"));
    CHECK_FALSE(fs::exists(tmp + "/swept/concurrency_2"));
  }
}

TEST_CASE("config file: a bad file exits 2 naming file:line:key and writes nothing", "[e2e][config_file]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string out = tmp + "/never";
  std::string text = config_for("http://127.0.0.1:9", out);
  text.replace(text.find("    concurrency: 2\n"), 19, "    concurrency: 0\n");
  write(tmp + "/bad.yaml", text);
  const Result r = run_aiperf({"profile", "-f", tmp + "/bad.yaml"}, tmp, "bad");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "Error: " + tmp + "/bad.yaml:17: benchmark.phases.concurrency: must be >= 1, got 0\n");
  CHECK_FALSE(fs::exists(out));

  // A value only the option validation refuses is blamed on the file's line too.
  std::string rate = config_for("http://127.0.0.1:9", out);
  rate.replace(rate.find("    type: chat\n"), 15, "    type: nonsense\n");
  write(tmp + "/type.yaml", rate);
  const Result t = run_aiperf({"profile", "-f", tmp + "/type.yaml"}, tmp, "type");
  CHECK(t.exit_code == 2);
  CHECK(t.err.find("--endpoint-type") != std::string::npos);
  CHECK(t.err.find("(set by " + tmp + "/type.yaml:7 (benchmark.endpoint.type))") != std::string::npos);
  CHECK_FALSE(fs::exists(out));

  const Result missing = run_aiperf({"profile", "--config", tmp + "/absent.yaml"}, tmp, "missing");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "Error: Configuration file not found: " + tmp + "/absent.yaml\n");
}

TEST_CASE("config validate / expand / init", "[e2e][config_file]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  write(tmp + "/good.yaml", config_for("http://127.0.0.1:9", tmp + "/x"));
  const Result ok = run_aiperf({"config", "validate", "--config-file", tmp + "/good.yaml"}, tmp, "validate_ok");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "Configuration valid: " + tmp + "/good.yaml\n");
  CHECK_FALSE(fs::exists(tmp + "/x"));

  write(tmp + "/bad.yaml", "benchmark:\n  model: m\n  endpoint: {url: http://h:1, bogus: 1}\n  dataset: {type: synthetic}\n");
  const Result bad = run_aiperf({"config", "validate", tmp + "/bad.yaml"}, tmp, "validate_bad");
  CHECK(bad.exit_code == 1);
  CHECK(bad.err == "Error: " + tmp + "/bad.yaml:3: benchmark.endpoint.bogus: unknown key (not in AIPerf 0.13's config schema)\n");

  const Result none = run_aiperf({"config", "validate", "--config-file", tmp + "/none.yaml"}, tmp, "validate_none");
  CHECK(none.exit_code == 1);

  write(tmp + "/sweep.yaml", config_for("http://127.0.0.1:9", tmp + "/x") +
                                 "sweep:\n  type: grid\n  parameters:\n    concurrency: [1, 4]\n    rate: [2.5, 5]\n");
  const Result text = run_aiperf({"config", "expand", "--config-file", tmp + "/sweep.yaml"}, tmp, "expand_text");
  CHECK(text.exit_code == 0);
  CHECK(text.out ==
        "Sweep type: GridSweep (4 variations)\n\n"
        "[0] dir=concurrency_1__rate_2.5  label=phases.profiling.concurrency=1, phases.profiling.rate=2.5\n"
        "[1] dir=concurrency_1__rate_5  label=phases.profiling.concurrency=1, phases.profiling.rate=5\n"
        "[2] dir=concurrency_4__rate_2.5  label=phases.profiling.concurrency=4, phases.profiling.rate=2.5\n"
        "[3] dir=concurrency_4__rate_5  label=phases.profiling.concurrency=4, phases.profiling.rate=5\n");
  const Result json = run_aiperf({"config", "expand", tmp + "/sweep.yaml", "-f", "json", "-i", "3"}, tmp, "expand_json");
  CHECK(json.exit_code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["sweep_type"] == "GridSweep");
  REQUIRE(doc["variations"].size() == 1);
  CHECK(doc["variations"][0]["dir_name"] == "concurrency_4__rate_5");  // the YAML's 5, as the reference
  CHECK(doc["variations"][0]["values"].dump() == R"({"phases.profiling.concurrency":4,"phases.profiling.rate":5})");
  CHECK(doc["variations"][0]["command"].get<std::string>().find("--concurrency 4") != std::string::npos);
  const Result range = run_aiperf({"config", "expand", tmp + "/sweep.yaml", "-i", "4"}, tmp, "expand_range");
  CHECK(range.exit_code == 1);
  CHECK(range.err == "Error: --index 4 out of range; sweep has 4 variation(s).\n");

  const Result init = run_aiperf({"config", "init", "-t", "minimal", "-m", "initmodel", "-u", "http://127.0.0.1:9", "-o",
                                  tmp + "/sub/min.yaml"},
                                 tmp, "init");
  CHECK(init.exit_code == 0);
  CHECK(init.out == "Wrote minimal template to " + tmp + "/sub/min.yaml\n");
  const std::string written = aiperf::test::read_file(tmp + "/sub/min.yaml");
  CHECK(written.find("\n  model: initmodel\n") != std::string::npos);
  const Result dry = run_aiperf({"profile", "-f", tmp + "/sub/min.yaml", "--tokenizer", "gpt2", "--dry-run"}, tmp, "init_dry");
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("artifacts/initmodel-openai-chat-concurrency8") != std::string::npos);
  const Result unknown = run_aiperf({"config", "init", "-t", "nope"}, tmp, "init_unknown");
  CHECK(unknown.exit_code == 1);
  const Result bare = run_aiperf({"config", "init"}, tmp, "init_bare");
  CHECK(bare.exit_code == 2);
  // The reference's listing, byte for byte for a category both have whole.
  const Result list = run_aiperf({"config", "init", "--list", "--category", "Getting Started"}, tmp, "init_list");
  CHECK(list.exit_code == 0);
  const std::string pad80 = std::string(80, ' ');
  auto row = [&](const std::string& text) { return text + pad80.substr(text.size()) + "\n"; };
  CHECK(list.out == row("                                Getting Started") +
                        row("Name                        Title                      Description") +
                        row("minimal                     Minimal Configuration      Bare minimum config using") +
                        row("                                                       shorthand forms -- the") +
                        row("                                                       fastest way to get") +
                        row("                                                       started.") +
                        row("warmup_profiling            Warmup + Profiling         Proper benchmark setup:") +
                        row("                            (Two-Phase)                warmup phase for") +
                        row("                                                       JIT/cache, then clean") +
                        row("                                                       profiling.") +
                        "\nUse 'aiperf config init --template <name>' to generate a template.\n");
}

// This session's keys in a file: the dataset's system prompt and images (the schema's jpeg
// default, not the command line's png), an inline rate_series, a failed_request_threshold and
// network_latency's fixed mean, each seen in what the run writes.
TEST_CASE("config file: system prompt, images, rate_series and network_latency reach the run", "[e2e][config_file]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::MockServer mock({"--fast"}, tmp);
  std::string text = config_for(mock.url(), tmp + "/run");
  auto swap = [](std::string& in, const std::string& from, const std::string& to) {
    REQUIRE(in.find(from) != std::string::npos);
    in.replace(in.find(from), from.size(), to);
  };
  swap(text, "    entries: 20\n",
       "    entries: 20\n    systemPrompt: You are terse.\n"
       "    images: {batchSize: 1, width: 16, height: 8, source: assets, sourceSampling: sequential-cycle}\n");
  // 10/s, then 50/s from 0.25 s (the series is sampled every 100 ms): constant arrivals 100 ms
  // apart, then 20 ms apart.
  swap(text, "    type: concurrency\n    concurrency: 2\n",
       "    type: constant\n    failedRequestThreshold: 1\n    rateSeries:\n"
       "      - {time_s: 0, qps: 10}\n      - {time_s: 0.25, qps: 10}\n      - {time_s: 0.251, qps: 50}\n"
       "      - {time_s: 9, qps: 50}\n");
  text += "  networkLatency: {enabled: true, meanMs: 5}\n";
  write(tmp + "/cfg.yaml", text);
  const Result r = run_aiperf({"profile", "-f", tmp + "/cfg.yaml", "--ui", "none"}, tmp, "new_keys");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  aiperf::test::ProfileRun run{r.exit_code, r.out, r.err, tmp + "/run"};

  const auto inputs = run.inputs();
  REQUIRE(inputs["data"].size() >= 4);
  std::set<std::string> pictures;
  for (const auto& entry : inputs["data"]) {
    const auto& messages = entry["payloads"][0]["messages"];
    CHECK(messages[0] == nlohmann::json{{"role", "system"}, {"content", "You are terse."}});
    for (const auto& part : messages[1]["content"]) {
      if (part["type"] != "image_url") continue;
      const std::string url = part["image_url"]["url"];
      CHECK(url.rfind("data:image/jpeg;base64,", 0) == 0);
      pictures.insert(url);
    }
  }
  CHECK(pictures.size() == 4);  // the four built-in assets, in turn

  std::vector<int64_t> t;
  for (const auto& rec : run.records()) t.push_back(rec["metadata"]["intended_start_ns"].get<int64_t>());
  REQUIRE(t.size() == 10);
  std::sort(t.begin(), t.end());
  CHECK(t[1] - t[0] == 100'000'000);
  CHECK(t[9] - t[8] == 20'000'000);

  const auto s = run.summary();
  CHECK(s["network_rtt"]["avg"].get<double>() == 5.0);
  CHECK(s.contains("network_adjusted_request_latency"));
  CHECK_FALSE(fs::exists(tmp + "/run/profile_export_network_latency.jsonl"));  // a fixed mean: no probes
  CHECK(s["was_cancelled"] == false);

  // A series the reference refuses: exit 2, file:line:key, nothing written.
  std::string bad = text;
  swap(bad, "      - {time_s: 0.25, qps: 10}\n", "      - {time_s: 0, qps: 10}\n");
  swap(bad, tmp + "/run", tmp + "/never");
  write(tmp + "/bad.yaml", bad);
  const Result b = run_aiperf({"profile", "-f", tmp + "/bad.yaml"}, tmp, "bad_series");
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("bad.yaml:22: benchmark.phases.rateSeries[1].time_s: Request-rate series time_s values must be "
                   "strictly increasing\n") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/never"));
}
