// The config walker's dataset side: a dataset's keys (synthetic, file, public), its prompt
// content (corpus, cache-bust, random range ratio), images, and the network-latency and
// rate-series blocks that, like them, check their values before handing options on.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config_keys.h"
#include "config_walker.h"

namespace aiperf::cli::config_file::detail {

void Walker::mean_stddev(const YAML::Node& v, const std::string& p, const std::string& mean_opt, const std::string& sd_opt,
                 bool integer_mean) {
  auto mean = [&](const YAML::Node& n, const std::string& np) {
    set(mean_opt, integer_mean ? integer_text(n, np, 1) : number_text(n, np, false), n, np);
  };
  if (v.IsScalar()) return mean(v, p);
  require_map(v, p);
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string np = join(p, it->first.Scalar());
    if (k == "mean") {
      mean(it->second, np);
    } else if (k == "stddev") {
      set(sd_opt, number_text(it->second, np, false), it->second, np);
    } else {
      unknown(it->first, np, k);
    }
  }
}

void Walker::dataset(const YAML::Node& d, const std::string& path) {
  require_map(d, path);
  saw_dataset_ = true;
  const YAML::Node type_node = d["type"];
  if (!type_node) fail(d, join(path, "type"), "field required (synthetic, file or public)");
  const std::string type = choice(type_node, join(path, "type"), {"synthetic", "file", "public"});
  for (auto it = d.begin(); it != d.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string k = snake(key);
    const std::string p = join(path, key);
    const YAML::Node v = it->second;
    if (null(v) || k == "type" || k == "name") continue;
    if (k == "entries") {
      set("--num-dataset-entries", integer_text(v, p, 1), v, p);
    } else if (k == "random_seed") {
      set("--random-seed", integer_text(v, p, 0), v, p);
    } else if (k == "sampling") {
      set("--dataset-sampling-strategy", choice(v, p, {"random", "sequential", "shuffle"}), v, p);
    } else if (k == "isl" && type == "synthetic") {
      mean_stddev(v, p, "--isl", "--isl-stddev", true);
    } else if (k == "osl") {
      mean_stddev(v, p, "--osl", "--osl-stddev", true);
    } else if (k == "prompts" && type == "synthetic") {
      prompts(v, p);
    } else if (k == "turns" && type == "synthetic") {
      mean_stddev(v, p, "--conversation-turn-mean", "--conversation-turn-stddev", true);
    } else if (k == "turn_delay" && type == "synthetic") {
      mean_stddev(v, p, "--conversation-turn-delay-mean", "--conversation-turn-delay-stddev", false);
    } else if (k == "turn_delay_ratio" && type == "synthetic") {
      set("--conversation-turn-delay-ratio", number_text(v, p, false), v, p);
    } else if (k == "prefix_prompts" && type == "synthetic") {
      require_map(v, p);
      const std::map<std::string, std::string> opts = {{"pool_size", "--prefix-prompt-pool-size"},
                                                       {"length", "--prefix-prompt-length"},
                                                       {"shared_system_length", "--shared-system-prompt-length"},
                                                       {"user_context_length", "--user-context-prompt-length"}};
      for (auto x = v.begin(); x != v.end(); ++x) {
        const auto o = opts.find(snake(x->first.Scalar()));
        if (o == opts.end()) unknown(x->first, join(p, x->first.Scalar()), snake(x->first.Scalar()));
        set(o->second, integer_text(x->second, join(p, x->first.Scalar()), 0), x->second, join(p, x->first.Scalar()));
      }
    } else if (k == "path" && type == "file") {
      set("--input-file", str(v, p), v, p);
    } else if (k == "format" && type == "file") {
      set("--custom-dataset-type", str(v, p), v, p);
    } else if (type == "file" && (k == "replay_speedup" || k == "max_idle_gap_cap_seconds" ||
                                  k == "trace_session_sample_ratio" || k == "inter_turn_delay_cap_seconds")) {
      // baseten_trace replay (FileDataset); the options check ranges and the format.
      set("--" + kebab(k), number_text(v, p, false), v, p);
    } else if (type == "file" && (k == "open_loop_replay" || k == "force_min_tokens")) {
      paired("--" + kebab(k), v, p);
    } else if (type == "file" && (k == "open_loop_strict" || k == "omit_kv_hints")) {
      if (boolean(v, p)) flag("--" + kebab(k), v, p);
    } else if (k == "dataset" && type == "public") {
      set("--public-dataset", str(v, p), v, p);
    } else if (k == "system_prompt") {
      set("--system-prompt", str(v, p), v, p);
    } else if (k == "system_prompt_file") {
      set("--system-prompt-file", str(v, p), v, p);
    } else if (k == "prompts") {
      // file / public: PromptSelectionConfig, the corpus only.
      require_map(v, p);
      for (auto x = v.begin(); x != v.end(); ++x) {
        const std::string xk = snake(x->first.Scalar());
        if (xk != "corpus") unknown(x->first, join(p, x->first.Scalar()), xk);
        if (!null(x->second)) prompt_corpus(x->second, join(p, x->first.Scalar()));
      }
    } else if (k == "cache_bust" && type != "synthetic") {
      cache_bust(v, p);
    } else if (k == "images" && type == "synthetic") {
      images(v, p);
    } else if (k == "video" && type == "synthetic") {
      video(v, p);
    } else {
      unknown(it->first, p, k);
    }
  }
  // PromptConfig: a ratio window has no default ISL or OSL to scale (the reference's words).
  if (range_ratio_) {
    for (const char* side : {"isl", "osl"}) {
      if (!find(std::string("--") + side))
        fail(range_ratio_->first, range_ratio_->second,
             std::string("--random-range-ratio requires --") + side +
                 " to be set explicitly. There is no safe default when a ratio window is requested.");
    }
  }
}

void Walker::prompts(const YAML::Node& v, const std::string& path) {
  require_map(v, path);
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node x = it->second;
    if (null(x)) continue;
    if (k == "isl") {
      mean_stddev(x, p, "--isl", "--isl-stddev", true);
    } else if (k == "osl") {
      mean_stddev(x, p, "--osl", "--osl-stddev", true);
    } else if (k == "block_size") {
      set("--isl-block-size", integer_text(x, p, 1), x, p);
    } else if (k == "batch_size") {
      set("--batch-size", integer_text(x, p, 1), x, p);
    } else if (k == "corpus") {
      prompt_corpus(x, p);
    } else if (k == "cache_bust") {
      cache_bust(x, p);
    } else if (k == "random_range_ratio") {
      range_ratio_.emplace(x, p);
      // A number for both, or {input: a, output: b} as the JSON object the option takes.
      if (x.IsMap()) {
        set("--random-range-ratio", to_json(x, p).dump(), x, p);
      } else {
        set("--random-range-ratio", number_text(x, p, false), x, p);
      }
    } else if (k == "random_corpus_style") {
      set("--random-corpus-style", choice(x, p, {"vllm", "sglang"}), x, p);
    } else {
      unknown(it->first, p, k);
    }
  }
}

void Walker::prompt_corpus(const YAML::Node& v, const std::string& p) {
  set("--prompt-corpus", choice(v, p, {"sonnet", "coding", "random"}), v, p);
}

void Walker::cache_bust(const YAML::Node& v, const std::string& path) {
  require_map(v, path);
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    if (k != "target") unknown(it->first, p, k);
    if (null(it->second)) continue;
    std::string target = choice(it->second, p,
                                {"none", "system_prefix", "system_suffix", "first_turn_prefix", "first_turn_suffix",
                                 "warmup_isolation_system", "warmup_isolation_first_turn"});
    std::replace(target.begin(), target.end(), '_', '-');
    set("--cache-bust", target, it->second, p);
  }
}

void Walker::images(const YAML::Node& v, const std::string& path) {
  require_map(v, path);
  std::string batch = "0", format = "jpeg";
  const YAML::Node* batch_node = &v;
  const YAML::Node* format_node = &v;
  std::optional<YAML::Node> batch_holder, format_holder;
  bool width = false, height = false;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node x = it->second;
    if (null(x)) continue;
    if (k == "batch_size") {
      batch = integer_text(x, p, 0);
      batch_holder.emplace(x);
      batch_node = &*batch_holder;
    } else if (k == "width") {
      mean_stddev(x, p, "--image-width-mean", "--image-width-stddev", false);
      width = true;
    } else if (k == "height") {
      mean_stddev(x, p, "--image-height-mean", "--image-height-stddev", false);
      height = true;
    } else if (k == "format") {
      format = choice(x, p, {"png", "jpeg", "random"});
      format_holder.emplace(x);
      format_node = &*format_holder;
    } else if (k == "source") {
      std::string source = str(x, p);
      std::string lower = source;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      set("--image-source", lower == "noise" || lower == "assets" ? lower : source, x, p);
    } else if (k == "source_sampling") {
      std::string s = choice(x, p, {"random_with_replacement", "shuffle_cycle", "sequential_cycle"});
      std::replace(s.begin(), s.end(), '_', '-');
      set("--image-source-sampling", s, x, p);
    } else {
      unknown(it->first, p, k);
    }
  }
  set("--image-batch-size", batch, *batch_node, join(path, "batch_size"));
  if (!width) set("--image-width-mean", "512", v, join(path, "width"));
  if (!height) set("--image-height-mean", "512", v, join(path, "height"));
  set("--image-format", format, *format_node, join(path, "format"));
}

void Walker::video(const YAML::Node& v, const std::string& path) {
  require_map(v, path);
  std::string batch = "0";  // the schema's default, unlike the command line's 1
  std::optional<YAML::Node> batch_node;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node x = it->second;
    if (null(x)) continue;
    if (k == "batch_size") {
      batch = integer_text(x, p, 0);
      batch_node.emplace(x);
    } else if (k == "duration") {
      set("--video-duration", number_text(x, p, true), x, p);
    } else if (k == "fps" || k == "width" || k == "height") {
      set("--video-" + k, integer_text(x, p, 1), x, p);
    } else if (k == "synth_type") {
      set("--video-synth-type", choice(x, p, {"moving_shapes", "grid_clock", "noise"}), x, p);
    } else if (k == "format") {
      set("--video-format", choice(x, p, {"mp4", "webm"}), x, p);
    } else if (k == "codec") {
      set("--video-codec", str(x, p), x, p);
    } else if (k == "audio") {
      require_map(x, p);
      for (auto a = x.begin(); a != x.end(); ++a) {
        const std::string ak = snake(a->first.Scalar());
        const std::string ap = join(p, a->first.Scalar());
        const YAML::Node y = a->second;
        if (null(y)) continue;
        if (ak == "sample_rate") {
          set("--video-audio-sample-rate", number_text(y, ap, true), y, ap);  // kHz
        } else if (ak == "channels") {
          set("--video-audio-num-channels", integer_text(y, ap, 0), y, ap);
        } else if (ak == "codec") {
          set("--video-audio-codec", choice(y, ap, {"aac", "libvorbis", "libopus"}), y, ap);
        } else if (ak == "depth") {
          set("--video-audio-depth", choice(y, ap, {"8", "16", "24", "32"}), y, ap);
        } else {
          unknown(a->first, ap, ak);
        }
      }
    } else {
      unknown(it->first, p, k);
    }
  }
  set("--video-batch-size", batch, batch_node ? *batch_node : v, join(path, "batch_size"));
}

void Walker::network_latency(const YAML::Node& v, const std::string& path) {
  require_map(v, path);
  bool enabled = false;
  std::optional<std::pair<std::string, YAML::Node>> interval, mean;
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string k = snake(it->first.Scalar());
    const std::string p = join(path, it->first.Scalar());
    const YAML::Node x = it->second;
    if (k == "enabled") {
      if (!null(x)) enabled = boolean(x, p);
    } else if (k == "ping_interval") {
      if (!null(x)) interval.emplace(number_text(x, p, true), x);
    } else if (k == "mean_ms") {
      if (!null(x)) mean.emplace(number_text(x, p, false), x);
    } else {
      unknown(it->first, p, k);
    }
  }
  if (!enabled) return;
  if (mean) {
    set("--network-latency-mean", mean->first, mean->second, join(path, "mean_ms"));
    return;
  }
  flag("--network-latency-automatic", v, join(path, "enabled"));
  if (interval) set("--network-latency-ping-interval", interval->first, interval->second, join(path, "ping_interval"));
}

std::string Walker::rate_series(const YAML::Node& v, const std::string& path) {
  if (v.IsScalar()) return str(v, path);
  std::optional<YAML::Node> points;
  std::string points_path = path;
  if (v.IsMap()) {
    std::optional<std::string> file;
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string k = snake(it->first.Scalar());
      const std::string p = join(path, it->first.Scalar());
      if (null(it->second)) continue;
      if (k == "path") {
        file = str(it->second, p);
      } else if (k == "points") {
        points.emplace(it->second);
        points_path = p;
      } else {
        unknown(it->first, p, k);
      }
    }
    if (file && points && points->size() > 0)
      fail(v, path, "rate_series.path and rate_series.points are mutually exclusive");
    if (file) return *file;
    if (!points) points.emplace(YAML::Node(YAML::NodeType::Sequence));
  } else if (v.IsSequence()) {
    points.emplace(v);
  } else {
    fail(v, path, "expected a JSON file path, a list of {time_s, qps} points, or {path: ...} / {points: [...]}");
  }
  if (!points->IsSequence()) fail(*points, points_path, "expected a list of {time_s, qps} points");
  nlohmann::json out = nlohmann::json::array();
  double previous = 0;
  for (size_t i = 0; i < points->size(); ++i) {
    const YAML::Node pt = (*points)[i];
    const std::string pp = points_path + "[" + std::to_string(i) + "]";
    require_map(pt, pp);
    for (auto it = pt.begin(); it != pt.end(); ++it) {
      const std::string k = it->first.Scalar();
      if (k != "time_s" && k != "qps") fail(it->first, join(pp, k), "Extra inputs are not permitted");
    }
    if (!pt["time_s"]) fail(pt, join(pp, "time_s"), "field required");
    if (!pt["qps"]) fail(pt, join(pp, "qps"), "field required");
    const double t = std::stod(number_text(pt["time_s"], join(pp, "time_s"), false));
    const double q = std::stod(number_text(pt["qps"], join(pp, "qps"), true));
    if (i > 0 && t <= previous)
      fail(pt, join(pp, "time_s"), "Request-rate series time_s values must be strictly increasing");
    previous = t;
    out.push_back(nlohmann::json{{"time_s", t}, {"qps", q}});
  }
  if (out.size() < 2) fail(*points, points_path, "Request-rate series requires at least two points");
  return out.dump();
}

}  // namespace aiperf::cli::config_file::detail
