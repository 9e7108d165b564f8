// The YAML config -> `aiperf profile` options translation (cli/config_file.h): which option each
// key of AIPerf 0.13's schema becomes, the command line winning over the file, and the errors
// naming file:line and the key path.
#include "config_file.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include <CLI/CLI.hpp>

#include "config_templates.h"

namespace cf = aiperf::cli::config_file;

namespace {

cf::EnvLookup env(std::map<std::string, std::string> vars = {}) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::vector<std::string> args_of(const std::string& yaml, const cf::EnvLookup& e = env()) {
  return cf::to_args(cf::translate_text(yaml, "cfg.yaml", e));
}

std::string error_of(const std::string& yaml, const cf::EnvLookup& e = env()) {
  try {
    cf::translate_text(yaml, "cfg.yaml", e);
  } catch (const cf::ConfigFileError& err) {
    return err.what();
  }
  return "(no error)";
}

const char* kMinimal = R"(schemaVersion: "2.0"
benchmark:
  model: m1
  endpoint:
    url: http://h:1
  dataset:
    type: synthetic
    entries: 100
    prompts:
      isl: 512
      osl: 128
  phases:
    type: concurrency
    concurrency: 8
    requests: 100
)";

}  // namespace

TEST_CASE("config file: the minimal template's keys become profile options in file order", "[config_file]") {
  CHECK(args_of(kMinimal) == std::vector<std::string>{"--model", "m1", "--url", "http://h:1", "--num-dataset-entries", "100",
                                                       "--isl", "512", "--osl", "128", "--concurrency", "8",
                                                       "--request-count", "100"});
}

TEST_CASE("config file: camelCase and snake_case, warmup + profiling, durations, env vars", "[config_file]") {
  const std::string yaml = R"(schemaVersion: "2.0"
randomSeed: 42
benchmark:
  model: ${MODEL:fallback}
  endpoint:
    urls: [http://a:1, http://b:2]
    type: completions
    streaming: true
    timeout: ${TIMEOUT}
    api_key: k
    headers: {X-One: "1"}
    extra: {ignore_eos: true, top_k: 5, stop: [a, "b"]}
  dataset:
    type: synthetic
    isl: {mean: 256, stddev: 50}
    osl: {mean: 128, stddev: 25.5}
  warmup:
    type: concurrency
    requests: 10
    concurrency: 2
  profiling:
    type: poisson
    duration: 2m
    rate: 20.0
    concurrency: 100
    gracePeriod: 30s
    rateRamp: {duration: 1h}
  artifacts:
    dir: /tmp/out
    sliceDuration: 1.5
  tokenizer: {name: gpt2}
multiRun:
  numRuns: 3
  setConsistentSeed: false
)";
  CHECK(args_of(yaml, env({{"TIMEOUT", "600.0"}})) ==
        std::vector<std::string>{"--random-seed", "42", "--model", "fallback", "--url", "http://a:1", "--url", "http://b:2",
                                 "--endpoint-type", "completions", "--streaming", "--request-timeout-seconds", "600.0",
                                 "--api-key", "k", "--header", "X-One:1", "--extra-inputs", R"({"ignore_eos":true})",
                                 "--extra-inputs", R"({"top_k":5})", "--extra-inputs", R"({"stop":["a","b"]})", "--isl",
                                 "256", "--isl-stddev", "50", "--osl", "128", "--osl-stddev", "25.5",
                                 "--warmup-request-count", "10", "--warmup-concurrency", "2", "--arrival-pattern",
                                 "poisson", "--benchmark-duration", "120", "--request-rate", "20.0", "--concurrency",
                                 "100", "--benchmark-grace-period", "30", "--request-rate-ramp-duration", "3600",
                                 "--artifact-dir", "/tmp/out", "--slice-duration", "1.5", "--tokenizer", "gpt2",
                                 "--num-profile-runs", "3", "--no-set-consistent-seed"});
}

TEST_CASE("config file: a phases list picks the warmup by name or excludeFromResults", "[config_file]") {
  const std::string yaml = R"(benchmark:
  models: {items: [{name: a}, {name: b}], strategy: random}
  endpoint: {url: "http://h:1"}
  datasets:
    - name: main
      type: file
      path: data.jsonl
      format: multi_turn
  phases:
    - name: w
      type: constant
      rate: 5
      duration: 10
      excludeFromResults: true
    - name: main
      type: gamma
      rate: 10
      smoothness: 2
      requests: 50
)";
  CHECK(args_of(yaml) == std::vector<std::string>{"--model-selection-strategy", "random", "--model", "a", "--model", "b",
                                                   "--url", "http://h:1", "--input-file", "data.jsonl",
                                                   "--custom-dataset-type", "multi_turn", "--warmup-arrival-pattern",
                                                   "constant", "--warmup-request-rate", "5", "--warmup-duration", "10", "--arrival-pattern", "gamma",
                                                   "--request-rate", "10", "--arrival-smoothness", "2",
                                                   "--request-count", "50"});
}

TEST_CASE("config file: a sweep block becomes comma lists on the swept options", "[config_file]") {
  const std::string yaml = std::string(kMinimal) + R"(sweep:
  type: zip
  iterationOrder: independent
  parameters:
    concurrency: [1, 2, 4]
    datasets.default.prompts.isl: [64, 128, 256]
)";
  const cf::Translation t = cf::translate_text(yaml, "cfg.yaml", env());
  CHECK(t.has_sweep);
  CHECK(t.sweep_type == aiperf::cli::sweep::SweepType::kZip);
  // The lists replace the body's values in place; the sweep's own options come after.
  CHECK(cf::to_args(t) == std::vector<std::string>{"--model", "m1", "--url", "http://h:1", "--num-dataset-entries", "100",
                                                    "--isl", "64,128,256", "--osl", "128", "--concurrency", "1,2,4",
                                                    "--request-count", "100", "--sweep-type", "zip",
                                                    "--parameter-sweep-mode", "independent"});
  // A one-value list stays a (one-point) sweep.
  const std::string one = std::string(kMinimal) + "sweep:\n  type: grid\n  parameters:\n    phases.profiling.rate: [5]\n";
  CHECK(args_of(one) == std::vector<std::string>{"--model", "m1", "--url", "http://h:1", "--num-dataset-entries", "100",
                                                  "--isl", "512", "--osl", "128", "--concurrency", "8", "--request-count",
                                                  "100", "--sweep-type", "grid", "--request-rate", "5,"});
}

TEST_CASE("config file: artifacts.auto_plot / plot_required, and a plot section implies auto_plot", "[config_file]") {
  const std::vector<std::string> base = args_of(kMinimal);
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> v = base;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  const std::string arts = std::string(kMinimal) + "  artifacts:\n    auto_plot: true\n    plot_required: true\n";
  CHECK(args_of(arts) == with({"--auto-plot", "--plot-required"}));
  // plot: (a path or a mapping) turns auto-plot on, with a warning that its choices are not applied ...
  const cf::Translation t = cf::translate_text(std::string(kMinimal) + "plot: my_plots.yaml\n", "cfg.yaml", env());
  CHECK(cf::to_args(t) == with({"--auto-plot"}));
  REQUIRE(t.warnings.size() == 1);
  CHECK(t.warnings[0].rfind("cfg.yaml:16: plot: its plot choices are not applied", 0) == 0);
  // ... unless artifacts.auto_plot says false explicitly (the reference's rule).
  const std::string off = std::string(kMinimal) + "  artifacts:\n    autoPlot: false\nplot: {visualization: {}}\n";
  CHECK(args_of(off) == with({"--no-auto-plot"}));
  CHECK(error_of(std::string(kMinimal) + "plot: [a, b]\n") ==
        "cfg.yaml:16: plot: must be null, a path string, or an inline mapping");
}

TEST_CASE("config file: errors name file:line and the key path", "[config_file]") {
  std::string bad = kMinimal;
  bad.replace(bad.find("    url: http://h:1\n"), 20, "    url: http://h:1\n    bogus: 3\n");
  CHECK(error_of(bad) == "cfg.yaml:6: benchmark.endpoint.bogus: unknown key (not in AIPerf 0.13's config schema)");

  std::string neg = kMinimal;
  neg.replace(neg.find("concurrency: 8"), 14, "concurrency: -3");
  CHECK(error_of(neg) == "cfg.yaml:14: benchmark.phases.concurrency: must be >= 1, got -3");

  std::string word = kMinimal;
  word.replace(word.find("requests: 100"), 13, "requests: abc");
  CHECK(error_of(word) == "cfg.yaml:15: benchmark.phases.requests: expected an integer, got 'abc'");

  std::string stream = kMinimal;
  stream.replace(stream.find("    url: http://h:1\n"), 20, "    url: http://h:1\n    streaming: yes please\n");
  CHECK(error_of(stream) == "cfg.yaml:6: benchmark.endpoint.streaming: expected true or false, got 'yes please'");

  CHECK(error_of("benchmark:\n  model: [a\n").rfind("cfg.yaml:3: invalid YAML syntax: ", 0) == 0);
  CHECK(error_of("benchmark:\n  model: m\n  endpoint: {url: x}\n") ==
        "cfg.yaml:2: benchmark.datasets: field required (dataset: or datasets:)");
  CHECK(error_of("benchmark:\n  model: ${NOPE}\n") ==
        "cfg.yaml:2: benchmark.model: environment variable NOPE is not set (and has no ${NOPE:default})");
  CHECK(error_of(std::string(kMinimal) + "  gpuTelemetry: {enabled: true}\n") ==
        "cfg.yaml:16: benchmark.gpuTelemetry: an AIPerf 0.13 key that aiperf (C++) does not support in config files");
  CHECK(error_of(std::string(kMinimal) + "sweep:\n  parameters:\n    concurrency: [1, 2]\n") ==
        "cfg.yaml:17: sweep.type: field required (grid or zip)");
  CHECK(error_of(std::string(kMinimal) + "sweep:\n  type: grid\n  parameters:\n    endpoint.timeout: [1, 2]\n")
            .rfind("cfg.yaml:19: sweep.parameters.endpoint.timeout: sweep parameter not supported", 0) == 0);
  std::string endless = kMinimal;
  endless.replace(endless.find("    requests: 100\n"), 18, "");
  CHECK(error_of(endless) ==
        "cfg.yaml:13: benchmark.phases: Phase 'profiling': at least one of 'requests', 'duration', or 'sessions' must be "
        "specified");
  CHECK(error_of("benchmark:\n  endpoint: {url: x}\n  dataset: {type: synthetic}\n") ==
        "cfg.yaml:2: benchmark.phases: field required (phases:, or warmup: / profiling:)");
  CHECK(error_of("schemaVersion: \"1.0\"\n") == "cfg.yaml:1: schemaVersion: unsupported schema version '1.0' (expected \"2.0\")");
  CHECK_THROWS_WITH(cf::translate_file("/nonexistent/x.yaml", env()), "Configuration file not found: /nonexistent/x.yaml");
}

TEST_CASE("config file: the command line wins over the file, by any of an option's names", "[config_file]") {
  CLI::App app;
  std::string model, concurrency, rate;
  std::vector<std::string> urls;
  bool streaming = false;
  app.add_option("-m,--model,--model-names", model);
  app.add_option("--concurrency", concurrency);
  app.add_option("--request-rate", rate);
  app.add_option("-u,--url", urls);
  app.add_flag("--streaming", streaming);
  cf::Translation t = cf::translate_text(
      "benchmark:\n  model: a\n  endpoint: {urls: [http://x:1, http://y:2], streaming: true}\n  dataset: {type: synthetic}\n"
      "  phases: {type: poisson, rate: 5, concurrency: 8, requests: 3}\n",
      "cfg.yaml", env());
  const std::vector<std::string> merged = cf::merge(t, {"--model-names", "b", "-u=http://z:3", "--concurrency=2"}, app);
  CHECK(merged == std::vector<std::string>{"--streaming", "--arrival-pattern", "poisson", "--request-rate", "5",
                                           "--request-count", "3", "--model-names", "b", "-u=http://z:3", "--concurrency=2"});
  // Only what the file still sets is blamed on it.
  CHECK(cf::annotate("--request-rate: must be > 0", t) == "--request-rate: must be > 0 (set by cfg.yaml:5 (benchmark.phases.rate))");
  CHECK(cf::annotate("--concurrency: must be >= 1", t) == "--concurrency: must be >= 1");
  CHECK(cf::annotate("--request-rate-ramp-duration: bad", t) == "--request-rate-ramp-duration: bad");
}

TEST_CASE("config file: --config / -f are taken off the command line", "[config_file]") {
  std::vector<std::string> a{"--url", "u", "-f", "c.yaml", "--concurrency", "2"};
  CHECK(cf::take_config_option(a) == std::optional<std::string>("c.yaml"));
  CHECK(a == std::vector<std::string>{"--url", "u", "--concurrency", "2"});
  std::vector<std::string> b{"--config=x.yaml"};
  CHECK(cf::take_config_option(b) == std::optional<std::string>("x.yaml"));
  CHECK(b.empty());
  std::vector<std::string> c{"--url", "u"};
  CHECK_FALSE(cf::take_config_option(c).has_value());
  std::vector<std::string> twice{"-f", "a", "--config", "b"};
  CHECK_THROWS_WITH(cf::take_config_option(twice), "--config: given more than once");
}

TEST_CASE("config templates: every template translates; overrides keep comments", "[config_file]") {
  REQUIRE(aiperf::cli::config_templates::all().size() == 5);
  for (const auto& t : aiperf::cli::config_templates::all()) {
    INFO(t.name);
    CHECK_NOTHROW(cf::translate_text(t.body, t.name + ".yaml", env()));
  }
  const auto* minimal = aiperf::cli::config_templates::find("minimal");
  REQUIRE(minimal != nullptr);
  const std::string out = aiperf::cli::config_templates::apply_overrides(minimal->body, "mymodel", "http://x:1");
  CHECK(out.find("\n  model: mymodel\n") != std::string::npos);
  CHECK(out.find("\n    url: http://x:1            # the path follows") != std::string::npos);
  CHECK(args_of(out)[1] == "mymodel");
  CHECK(aiperf::cli::config_templates::find("nope") == nullptr);
}

TEST_CASE("config file: swept values keep the YAML's typing in point names, as the reference", "[config_file]") {
  const std::string yaml = std::string(kMinimal) + "sweep:\n  type: grid\n  parameters:\n    rate: [2.5, 5]\n    concurrency: [3]\n";
  const cf::Translation t = cf::translate_text(yaml, "cfg.yaml", env());
  CHECK(nlohmann::json(t.sweep_values.at("--request-rate")).dump() == "[2.5,5]");
  std::vector<std::string> argv{"aiperf", "profile"};
  const std::vector<std::string> words = cf::to_args(t);
  argv.insert(argv.end(), words.begin(), words.end());
  // On a command line "3," is the plain value 3; from a sweep block it is a sweep of one value.
  CHECK(aiperf::cli::sweep::extract_lists(argv).parameters.size() == 1);
  aiperf::cli::sweep::Extracted lists = aiperf::cli::sweep::extract_lists(argv, cf::swept_options(t));
  REQUIRE(lists.parameters.size() == 2);
  // The command line's typing: a float option's 5 is 5.0.
  CHECK(aiperf::cli::sweep::expand(lists.parameters, aiperf::cli::sweep::SweepType::kGrid)[1].dir_name ==
        "concurrency_3__rate_5.0");
  cf::retype_sweep(t, lists);
  const auto points = aiperf::cli::sweep::expand(lists.parameters, aiperf::cli::sweep::SweepType::kGrid);
  REQUIRE(points.size() == 2);
  CHECK(points[0].dir_name == "concurrency_3__rate_2.5");
  CHECK(points[1].dir_name == "concurrency_3__rate_5");
  CHECK(points[1].label == "phases.profiling.concurrency=3, phases.profiling.rate=5");

  // A dataset path keeps the file's spelling (the command line's --isl is datasets.main.prompts.isl.mean).
  const cf::Translation d = cf::translate_text(
      std::string(kMinimal) + "sweep:\n  type: grid\n  parameters:\n    datasets.default.prompts.isl: [128, 512]\n",
      "cfg.yaml", env());
  std::vector<std::string> dargv{"aiperf", "profile"};
  const std::vector<std::string> dwords = cf::to_args(d);
  dargv.insert(dargv.end(), dwords.begin(), dwords.end());
  aiperf::cli::sweep::Extracted dlists = aiperf::cli::sweep::extract_lists(dargv, cf::swept_options(d));
  cf::retype_sweep(d, dlists);
  const auto dpoints = aiperf::cli::sweep::expand(dlists.parameters, aiperf::cli::sweep::SweepType::kGrid);
  REQUIRE(dpoints.size() == 2);
  CHECK(dpoints[1].dir_name == "isl_512");
  CHECK(dpoints[1].label == "datasets.default.prompts.isl=512");
}

TEST_CASE("config file: a list on the command line replaces the file's sweep list", "[config_file]") {
  CLI::App app;
  std::string rate, concurrency;
  app.add_option("--request-rate", rate);
  app.add_option("--concurrency", concurrency);
  cf::Translation t = cf::translate_text(
      std::string(kMinimal) + "sweep:\n  type: grid\n  parameters:\n    rate: [2.5, 5]\n    concurrency: [3]\n", "cfg.yaml", env());
  const std::vector<std::string> merged = cf::merge(t, {"--request-rate", "1,2"}, app);
  CHECK(cf::swept_options(t) == std::vector<std::string>{"--concurrency"});
  std::vector<std::string> argv{"aiperf", "profile"};
  argv.insert(argv.end(), merged.begin(), merged.end());
  aiperf::cli::sweep::Extracted lists = aiperf::cli::sweep::extract_lists(argv, cf::swept_options(t));
  cf::retype_sweep(t, lists);
  const auto points = aiperf::cli::sweep::expand(lists.parameters, aiperf::cli::sweep::SweepType::kGrid);
  REQUIRE(points.size() == 2);
  CHECK(points[0].dir_name == "concurrency_3__rate_1.0");  // the command line's list, its typing
  CHECK(points[1].dir_name == "concurrency_3__rate_2.0");
}

// This session's options in the reference's schema: the dataset's system prompt, corpus,
// cache bust, range ratio and images; a phase's rate_series and failed_request_threshold;
// network_latency.
namespace {

// kMinimal with `extra` lines after `      osl: 128` (the prompts block) and `phase` lines after
// the phase's `requests: 100`, and `tail` appended to the benchmark body.
std::string with(const std::string& prompts, const std::string& phase, const std::string& tail = "",
                 const std::string& dataset = "") {
  std::string y = kMinimal;
  y.replace(y.find("      osl: 128\n"), 15, "      osl: 128\n" + prompts);
  y.replace(y.find("    entries: 100\n"), 17, "    entries: 100\n" + dataset);
  y.replace(y.find("    requests: 100\n"), 18, "    requests: 100\n" + phase);
  return y + tail;
}

const std::vector<std::string> kHead = {"--model", "m1", "--url", "http://h:1", "--num-dataset-entries", "100"};

std::vector<std::string> head_plus(std::vector<std::string> rest) {
  std::vector<std::string> out = kHead;
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace

TEST_CASE("config file: system prompt, corpus, cache bust and range ratio become the prompt options", "[config_file]") {
  CHECK(args_of(with("      corpus: Coding\n      cacheBust: {target: system-prefix}\n"
                     "      randomRangeRatio: 0.25\n      randomCorpusStyle: sglang\n",
                     "", "", "    systemPrompt: Be terse.\n")) ==
        head_plus({"--system-prompt", "Be terse.", "--isl", "512", "--osl", "128", "--prompt-corpus", "coding",
                   "--cache-bust", "system-prefix", "--random-range-ratio", "0.25", "--random-corpus-style", "sglang",
                   "--concurrency", "8", "--request-count", "100"}));
  // {input, output} is the JSON object --random-range-ratio takes; a file's system prompt.
  CHECK(args_of(with("      random_range_ratio: {input: 0.3, output: 0.5}\n", "", "",
                     "    system_prompt_file: /p/sp.txt\n")) ==
        head_plus({"--system-prompt-file", "/p/sp.txt", "--isl", "512", "--osl", "128", "--random-range-ratio",
                   R"({"input":0.3,"output":0.5})", "--concurrency", "8", "--request-count", "100"}));
  // A file dataset: cache_bust at the dataset level, prompts.corpus only.
  CHECK(args_of("benchmark:\n  endpoint: {url: u}\n  dataset:\n    type: file\n    path: t.jsonl\n"
                "    cacheBust: {target: first_turn_suffix}\n    prompts: {corpus: sonnet}\n"
                "    systemPrompt: S\n  phases: {type: concurrency, concurrency: 1, requests: 2}\n") ==
        std::vector<std::string>{"--url", "u", "--input-file", "t.jsonl", "--cache-bust", "first-turn-suffix",
                                 "--prompt-corpus", "sonnet", "--system-prompt", "S", "--concurrency", "1",
                                 "--request-count", "2"});
  CHECK(error_of(with("      corpus: poems\n", "")) ==
        "cfg.yaml:12: benchmark.dataset.prompts.corpus: 'poems' is not one of: sonnet, coding, random");
  CHECK(error_of(with("      cache_bust: {target: everywhere}\n", "")).rfind(
            "cfg.yaml:12: benchmark.dataset.prompts.cache_bust.target: 'everywhere' is not one of: none, system_prefix", 0) == 0);
  CHECK(error_of(with("      cache_bust: {where: none}\n", "")) ==
        "cfg.yaml:12: benchmark.dataset.prompts.cache_bust.where: unknown key (not in AIPerf 0.13's config schema)");
  CHECK(error_of(with("      random_range_ratio: -1\n", "")) ==
        "cfg.yaml:12: benchmark.dataset.prompts.random_range_ratio: must be >= 0, got -1");
  std::string no_osl = with("      randomRangeRatio: 0.5\n", "");
  no_osl.replace(no_osl.find("      osl: 128\n"), 15, "");
  CHECK(error_of(no_osl) == "cfg.yaml:11: benchmark.dataset.prompts.randomRangeRatio: --random-range-ratio requires "
                            "--osl to be set explicitly. There is no safe default when a ratio window is requested.");
  CHECK(error_of("benchmark:\n  endpoint: {url: u}\n  dataset:\n    type: file\n    path: t.jsonl\n"
                 "    prompts: {isl: 5}\n  phases: {type: concurrency, concurrency: 1, requests: 2}\n") ==
        "cfg.yaml:6: benchmark.dataset.prompts.isl: unknown key (not in AIPerf 0.13's config schema)");
}

TEST_CASE("config file: a video block gives its --video-* options, batch size 0 by default", "[config_file]") {
  // clang-format off
  CHECK(args_of(with("", "", "", "    video:\n      width: 64\n      height: 48\n      fps: 2\n      duration: 0.5\n"
                                 "      synthType: grid_clock\n      format: MP4\n      codec: libvpx\n"
                                 "      audio: {sampleRate: 16, channels: 1, codec: libopus, depth: 24}\n")) ==
        head_plus({"--video-width", "64", "--video-height", "48", "--video-fps", "2", "--video-duration", "0.5",
                   "--video-synth-type", "grid_clock", "--video-format", "mp4", "--video-codec", "libvpx",
                   "--video-audio-sample-rate", "16", "--video-audio-num-channels", "1", "--video-audio-codec",
                   "libopus", "--video-audio-depth", "24", "--video-batch-size", "0", "--isl", "512", "--osl", "128",
                   "--concurrency", "8", "--request-count", "100"}));
  // clang-format on
  CHECK(args_of(with("", "", "", "    video: {batch_size: 2, width: 8, height: 8}\n")) ==
        head_plus({"--video-width", "8", "--video-height", "8", "--video-batch-size", "2", "--isl", "512", "--osl",
                   "128", "--concurrency", "8", "--request-count", "100"}));
  CHECK(error_of(with("", "", "", "    video: {synth_type: spiral}\n")) ==
        "cfg.yaml:9: benchmark.dataset.video.synth_type: 'spiral' is not one of: moving_shapes, grid_clock, noise");
  CHECK(error_of(with("", "", "", "    video: {fps: 0}\n")) ==
        "cfg.yaml:9: benchmark.dataset.video.fps: must be >= 1, got 0");
}

TEST_CASE("config file: an images block gives every image option, with the schema's defaults", "[config_file]") {
  CHECK(args_of(with("", "", "", "    images:\n      batchSize: 2\n      width: {mean: 64, stddev: 8}\n"
                                 "      source: assets\n      sourceSampling: shuffle_cycle\n")) ==
        head_plus({"--image-width-mean", "64", "--image-width-stddev", "8", "--image-source", "assets",
                   "--image-source-sampling", "shuffle-cycle", "--image-batch-size", "2", "--image-height-mean", "512",
                   "--image-format", "jpeg", "--isl", "512", "--osl", "128", "--concurrency", "8", "--request-count",
                   "100"}));
  // A directory keeps its spelling; batch_size defaults to 0 (no images), as the reference.
  CHECK(args_of(with("", "", "", "    images: {source: ./Pics, format: PNG, height: 32, width: 16}\n")) ==
        head_plus({"--image-source", "./Pics", "--image-height-mean", "32", "--image-width-mean", "16",
                   "--image-batch-size", "0", "--image-format", "png", "--isl", "512", "--osl", "128",
                   "--concurrency", "8", "--request-count", "100"}));
  CHECK(error_of(with("", "", "", "    images: {source_sampling: forwards}\n")) ==
        "cfg.yaml:9: benchmark.dataset.images.source_sampling: 'forwards' is not one of: random_with_replacement, "
        "shuffle_cycle, sequential_cycle");
  CHECK(error_of(with("", "", "", "    images: {batch_size: -1}\n")) ==
        "cfg.yaml:9: benchmark.dataset.images.batch_size: must be >= 0, got -1");
}

TEST_CASE("config file: a phase's rate_series and failed_request_threshold", "[config_file]") {
  const std::string head = "benchmark:\n  endpoint: {url: u}\n  dataset: {type: synthetic}\n  phases:\n"
                           "    type: poisson\n    requests: 10\n";
  // Inline points: checked here, then handed over as JSON text.
  CHECK(args_of(head + "    failedRequestThreshold: 0.25\n    rateSeries:\n      - {time_s: 0, qps: 2}\n"
                       "      - {time_s: 5.5, qps: 4}\n") ==
        std::vector<std::string>{"--url", "u", "--arrival-pattern", "poisson", "--request-count", "10",
                                 "--failed-request-threshold", "0.25", "--request-rate-series",
                                 R"([{"qps":2.0,"time_s":0.0},{"qps":4.0,"time_s":5.5}])"});
  // {points: [...]}, a bare path, {path: ...}.
  CHECK(args_of(head + "    rate_series: {points: [{time_s: 1, qps: 1}, {time_s: 2, qps: 3}]}\n").back() ==
        R"([{"qps":1.0,"time_s":1.0},{"qps":3.0,"time_s":2.0}])");
  CHECK(args_of(head + "    rate_series: series.json\n").back() == "series.json");
  CHECK(args_of(head + "    rate_series: {path: s.json}\n").back() == "s.json");
  // The reference's checks, with its words.
  CHECK(error_of(head) == "cfg.yaml:5: benchmark.phases: rate-controlled phases require rate or rate_series");
  CHECK(error_of(head + "    rate: 2\n    rate_series: s.json\n") ==
        "cfg.yaml:5: benchmark.phases: rate and rate_series are mutually exclusive");
  CHECK(error_of(head + "    rate_series: [{time_s: 0, qps: 2}]\n") ==
        "cfg.yaml:7: benchmark.phases.rate_series: Request-rate series requires at least two points");
  CHECK(error_of(head + "    rate_series: [{time_s: 3, qps: 2}, {time_s: 3, qps: 1}]\n") ==
        "cfg.yaml:7: benchmark.phases.rate_series[1].time_s: Request-rate series time_s values must be strictly increasing");
  CHECK(error_of(head + "    rate_series: [{time_s: 0, qps: 0}, {time_s: 3, qps: 1}]\n") ==
        "cfg.yaml:7: benchmark.phases.rate_series[0].qps: must be > 0, got 0");
  CHECK(error_of(head + "    rate_series: [{time_s: 0, qps: 1, burst: 2}, {time_s: 3, qps: 1}]\n") ==
        "cfg.yaml:7: benchmark.phases.rate_series[0].burst: Extra inputs are not permitted");
  CHECK(error_of(head + "    rate_series: {path: s.json, points: [{time_s: 0, qps: 1}]}\n") ==
        "cfg.yaml:7: benchmark.phases.rate_series: rate_series.path and rate_series.points are mutually exclusive");
  CHECK(error_of(head + "    failed_request_threshold: 1.5\n    rate: 1\n") ==
        "cfg.yaml:7: benchmark.phases.failed_request_threshold: must be <= 1, got 1.5");
  CHECK(error_of("benchmark:\n  endpoint: {url: u}\n  dataset: {type: synthetic}\n  phases:\n"
                 "    type: user_centric\n    users: 2\n    requests: 10\n    rate_series: s.json\n") ==
        "cfg.yaml:8: benchmark.phases.rate_series: user-centric phases do not support rate_series");
  CHECK(error_of("benchmark:\n  endpoint: {url: u}\n  dataset: {type: synthetic}\n  phases:\n"
                 "    type: concurrency\n    concurrency: 2\n    requests: 10\n    rate_series: s.json\n") ==
        "cfg.yaml:8: benchmark.phases.rate_series: unknown key (not in AIPerf 0.13's config schema)");
  // A warmup's threshold counts for nothing in the reference: said, not applied.
  const cf::Translation t = cf::translate_text(
      "benchmark:\n  endpoint: {url: u}\n  dataset: {type: synthetic}\n  warmup:\n    type: concurrency\n"
      "    concurrency: 1\n    requests: 2\n    failed_request_threshold: 0.5\n"
      "  profiling: {type: concurrency, concurrency: 1, requests: 2}\n",
      "cfg.yaml", env());
  CHECK(cf::to_args(t) == std::vector<std::string>{"--url", "u", "--warmup-concurrency", "1", "--warmup-request-count",
                                                    "2", "--concurrency", "1", "--request-count", "2"});
  CHECK(t.warnings == std::vector<std::string>{
                          "cfg.yaml:8: benchmark.warmup.failed_request_threshold: ignored (only profiling-phase records "
                          "count toward the threshold)"});
}

TEST_CASE("config file: network_latency becomes the Network Latency options", "[config_file]") {
  CHECK(args_of(std::string(kMinimal) + "  networkLatency: {enabled: true, pingInterval: 0.5}\n") ==
        head_plus({"--isl", "512", "--osl", "128", "--concurrency", "8", "--request-count", "100",
                   "--network-latency-automatic", "--network-latency-ping-interval", "0.5"}));
  // mean_ms: no probes, the interval ignored (as the reference).
  CHECK(args_of(std::string(kMinimal) + "  network_latency: {enabled: true, mean_ms: 1.5, ping_interval: 2}\n") ==
        head_plus({"--isl", "512", "--osl", "128", "--concurrency", "8", "--request-count", "100",
                   "--network-latency-mean", "1.5"}));
  // Not enabled: nothing, whatever else it says.
  CHECK(args_of(std::string(kMinimal) + "  network_latency: {mean_ms: 3}\n") ==
        head_plus({"--isl", "512", "--osl", "128", "--concurrency", "8", "--request-count", "100"}));
  CHECK(error_of(std::string(kMinimal) + "  network_latency: {enabled: true, ping_interval: 0}\n") ==
        "cfg.yaml:16: benchmark.network_latency.ping_interval: must be > 0, got 0");
  CHECK(error_of(std::string(kMinimal) + "  network_latency: {enabled: true, mean_ms: -1}\n") ==
        "cfg.yaml:16: benchmark.network_latency.mean_ms: must be >= 0, got -1");
  CHECK(error_of(std::string(kMinimal) + "  network_latency: {enabled: true, probes: 3}\n") ==
        "cfg.yaml:16: benchmark.network_latency.probes: unknown key (not in AIPerf 0.13's config schema)");
}

TEST_CASE("config templates: multimodal_vision's images block becomes the image options", "[config_file]") {
  const auto* t = aiperf::cli::config_templates::find("multimodal_vision");
  REQUIRE(t != nullptr);
  const std::vector<std::string> a = cf::to_args(cf::translate_text(t->body, "multimodal_vision.yaml", env()));
  auto value_of = [&](const std::string& option) {
    const auto it = std::find(a.begin(), a.end(), option);
    return it == a.end() || it + 1 == a.end() ? std::string("(absent)") : *(it + 1);
  };
  CHECK(value_of("--image-batch-size") == "1");
  CHECK(value_of("--image-width-mean") == "512");
  CHECK(value_of("--image-height-mean") == "512");
  CHECK(value_of("--image-format") == "jpeg");
  CHECK(value_of("--arrival-pattern") == "poisson");
  CHECK(value_of("--request-rate") == "10.0");
  CHECK(value_of("--warmup-request-count") == "20");
}
