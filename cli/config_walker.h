// The config-file walker (internal to config_file.cpp and config_dataset.cpp): reads AIPerf
// 0.13's YAML schema v2 node by node and collects the profile options it means, failing with
// file:line: path: message on the first key it cannot take.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include <yaml-cpp/yaml.h>

#include "config_file.h"
#include "config_reader.h"

namespace aiperf::cli::config_file::detail {

class Walker : NodeReader {
 public:
  Walker(std::string file, const EnvLookup& env) : NodeReader(std::move(file), env) {}

  Translation run(const YAML::Node& root);

 private:
  Translation t_;
  int profiling_phases_ = 0;
  bool saw_endpoint_ = false, saw_dataset_ = false, saw_phase_ = false;
  std::optional<std::pair<YAML::Node, std::string>> range_ratio_;  // prompts.random_range_ratio, for its checks

  void unknown(const YAML::Node& key_node, const std::string& path, const std::string& k) const;

  Arg* find(const std::string& option);
  std::string origin(const YAML::Node& n, const std::string& path) const;
  // A single-valued option: a later key setting the same option replaces the earlier one.
  void set(const std::string& option, const std::string& value, const YAML::Node& n, const std::string& path);
  // A repeatable option (--url, --model, --header, --extra-inputs).
  void add(const std::string& option, const std::string& value, const YAML::Node& n, const std::string& path);
  void flag(const std::string& option, const YAML::Node& n, const std::string& path);
  // A boolean key for an option with a --no- form.
  void paired(const std::string& option, const YAML::Node& n, const std::string& path);

  // Body keys (`benchmark:` or, in the flat shape, the top level). False when not a body key.
  bool body_key(const YAML::Node& key_node, const YAML::Node& v, const std::string& key, const std::string& path);

  void body(const YAML::Node& b, const std::string& path);
  void check_body_complete(const YAML::Node& b, const std::string& path);

  void models(const YAML::Node& v, const std::string& p);

  void endpoint(const YAML::Node& e, const std::string& path);

  // isl / osl / turns / turnDelay: a number, or {mean, stddev}.
  void mean_stddev(const YAML::Node& v, const std::string& p, const std::string& mean_opt, const std::string& sd_opt,
                   bool integer_mean);

  void dataset(const YAML::Node& d, const std::string& path);

  void prompts(const YAML::Node& v, const std::string& path);

  void prompt_corpus(const YAML::Node& v, const std::string& p);

  // {target: ...}; the enum's underscores become the option's dashes.
  void cache_bust(const YAML::Node& v, const std::string& path);

  // ImageConfig. Its defaults differ from the command line's (batch_size 0, 512 x 512, jpeg):
  // a block without them still means what it means to the reference.
  void images(const YAML::Node& v, const std::string& path);

  // VideoConfig (and its audio block): each key to its --video-* option; batch_size defaults to
  // the schema's 0 (no clips), not the command line's 1.
  void video(const YAML::Node& v, const std::string& path);

  // NetworkLatencyConfig: nothing unless enabled; mean_ms (no probes) wins over ping_interval,
  // which the reference ignores then.
  void network_latency(const YAML::Node& v, const std::string& path);

  // RateSeriesConfig: a JSON file's path (`rate_series: f.json` or {path: f.json}), or points
  // (`rate_series: [...]` or {points: [...]}) checked here and handed to --request-rate-series
  // as JSON text, which the option reads like a file's.
  std::string rate_series(const YAML::Node& v, const std::string& path);

  // One phase. `kind`: "warmup" / "profiling" when the shape says so, else from name/kind/
  // excludeFromResults (a phase named "warmup" or excluded from results is the warmup).
  void phase(const YAML::Node& ph, const std::string& path, std::string kind);

  void artifacts(const YAML::Node& a, const std::string& path);

  void tokenizer(const YAML::Node& v, const std::string& path);

  void multi(const YAML::Node& m, const std::string& path);

  // A sweep parameter's path (bare-name sugar or dotted) -> the option that takes its list.
  std::string sweep_option(const YAML::Node& key_node, const std::string& raw_path, const std::string& p) const;

  void sweep_block(const YAML::Node& s, const std::string& path);
};

}  // namespace aiperf::cli::config_file::detail
