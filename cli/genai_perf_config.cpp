#include "genai_perf_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

namespace aiperf::cli::genai_perf {
namespace {

// One option of the profile command line a key stands for, and where the key is.
struct Word {
  std::string option;
  std::vector<std::string> values;
  std::string origin;  // FILE:LINE: key.path
};

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  ConfigRun read(const YAML::Node& root) {
    if (root.IsNull()) throw GenAiPerfOptionError(file_ + ": the file is empty");
    if (!root.IsMap()) throw GenAiPerfOptionError(at(root, "") + "the top level must be a mapping of keys");
    for (auto it = root.begin(); it != root.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      const YAML::Node v = it->second;  // a copy: a reference into the iterator's pair dangles (ASan)
      if (key == "model_name" || key == "model_names") {
        models(v, key);
      } else if (key == "analyze") {
        analyze(v);
      } else if (key == "process") {
        // A process input_path makes the file a process-export-files run (GenAI-Perf's rule).
        section(v, key, {{"input_path", [&](const YAML::Node& n, const std::string& p) {
                            if (!empty(n)) process_input_path_ = scalar(n, p);
                          }}});
      } else if (key == "endpoint") {
        endpoint(v);
      } else if (key == "perf_analyzer") {
        perf_analyzer(v);
      } else if (key == "input") {
        input(v);
      } else if (key == "output") {
        output(v);
      } else if (key == "tokenizer") {
        section(v, key, {{"name", option("--tokenizer")},
                         {"revision", option("--tokenizer-revision")},
                         {"trust_remote_code", flag("--tokenizer-trust-remote-code")}});
      } else {
        throw GenAiPerfOptionError(at(it->first, key) + key + " is not a valid top-level parameter");
      }
    }
    return finish();
  }

 private:
  using Handler = std::function<void(const YAML::Node&, const std::string&)>;

  std::string file_;
  std::vector<Word> words_;
  bool stability_integral_ = false;
  std::optional<Sweep> sweep_;
  std::optional<std::string> process_input_path_;

  std::string at(const YAML::Node& n, const std::string& path) const {
    const int line = n.Mark().line;
    return file_ + (line >= 0 ? ":" + std::to_string(line + 1) : "") + ": " + (path.empty() ? "" : path + ": ");
  }
  [[noreturn]] void refuse(const YAML::Node& n, const std::string& path, const std::string& why) const {
    throw GenAiPerfOptionError(at(n, path) + why);
  }
  static bool empty(const YAML::Node& n) {
    return !n.IsDefined() || n.IsNull() || (n.IsScalar() && n.Scalar().empty());
  }
  std::string scalar(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) refuse(n, path, "expected a single value");
    return n.Scalar();
  }
  bool boolean(const YAML::Node& n, const std::string& path) const {
    bool b = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b)) refuse(n, path, "expected True or False, got '" + (n.IsScalar() ? n.Scalar() : std::string("a collection")) + "'");
    return b;
  }
  void add(const std::string& option, std::vector<std::string> values, const YAML::Node& n, const std::string& path) {
    words_.push_back({option, std::move(values), at(n, path)});
  }

  // A mapping of known keys; any other key is an error naming the section.
  void section(const YAML::Node& node, const std::string& path, const std::map<std::string, Handler>& keys) {
    if (empty(node)) return;
    if (!node.IsMap()) refuse(node, path, "expected a mapping of keys");
    const std::string leaf = path.substr(path.rfind('.') + 1);
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      const auto h = keys.find(key);
      if (h == keys.end()) refuse(it->first, path + "." + key, key + " is not a valid " + leaf + " parameter");
      h->second(it->second, path + "." + key);
    }
  }

  Handler option(const std::string& opt) {
    return [this, opt](const YAML::Node& n, const std::string& p) {
      if (!empty(n)) add(opt, {scalar(n, p)}, n, p);
    };
  }
  Handler flag(const std::string& opt) {
    return [this, opt](const YAML::Node& n, const std::string& p) {
      if (!empty(n) && boolean(n, p)) add(opt, {}, n, p);
    };
  }
  // A list of values: a YAML sequence, a comma-separated string or one value (GenAI-Perf's
  // _parse_int_list).
  Handler list_option(const std::string& opt) {
    return [this, opt](const YAML::Node& n, const std::string& p) {
      if (empty(n)) return;
      std::vector<std::string> values;
      if (n.IsSequence()) {
        for (const auto& x : n) values.push_back(scalar(x, p));
      } else {
        const std::string v = scalar(n, p);
        size_t start = 0;
        while (start <= v.size()) {
          size_t comma = v.find(',', start);
          if (comma == std::string::npos) comma = v.size();
          std::string item = v.substr(start, comma - start);
          item.erase(0, item.find_first_not_of(" \t"));
          item.erase(item.find_last_not_of(" \t") + 1);
          if (!item.empty()) values.push_back(item);
          start = comma + 1;
        }
      }
      if (!values.empty()) add(opt, values, n, p);
    };
  }
  // An enum's value, any case (GenAI-Perf upper-cases it into its enum).
  Handler lower_option(const std::string& opt) {
    return [this, opt](const YAML::Node& n, const std::string& p) {
      if (empty(n)) return;
      std::string v = scalar(n, p);
      for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      add(opt, {v}, n, p);
    };
  }
  // A setting the front end cannot honour: accepted at GenAI-Perf's default, else refused with
  // the reason the option `opt` is refused on the command line.
  Handler fixed(const std::string& opt, const std::string& default_value) {
    return [this, opt, default_value](const YAML::Node& n, const std::string& p) {
      if (empty(n)) return;
      std::string v;
      if (n.IsSequence() && n.size() == 1 && n[0].IsScalar())
        v = n[0].Scalar();
      else if (n.IsScalar())
        v = n.Scalar();
      bool b = false;
      const bool default_is_bool = default_value == "false";
      if (default_is_bool && n.IsScalar() && YAML::convert<bool>::decode(n, b) && !b) return;
      if (!default_is_bool && v == default_value) return;
      // Numbers: 1.0 equals 1.
      try {
        size_t u1 = 0, u2 = 0;
        if (!v.empty() && std::stod(v, &u1) == std::stod(default_value, &u2) && u1 == v.size() && u2 == default_value.size()) return;
      } catch (const std::exception&) {
      }
      refuse(n, p, "not supported yet by aiperf's genai-perf front end (" + opt + ": " + unsupported_reason(opt) +
                       "); leave it at GenAI-Perf's default");
    };
  }

  void models(const YAML::Node& v, const std::string& key) {
    std::vector<std::string> names;
    if (v.IsSequence()) {
      for (const auto& m : v) names.push_back(scalar(m, key));
    } else if (v.IsScalar()) {
      // A comma-separated string, each name stripped.
      std::string s = v.Scalar();
      size_t start = 0;
      while (start <= s.size()) {
        size_t comma = s.find(',', start);
        if (comma == std::string::npos) comma = s.size();
        std::string name = s.substr(start, comma - start);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty()) names.push_back(name);
        start = comma + 1;
      }
    } else if (!empty(v)) {
      refuse(v, key, "model_names must be a string or list");
    }
    if (!names.empty()) add("--model", names, v, key);
  }

  void analyze(const YAML::Node& v) {
    if (empty(v)) return;
    if (!v.IsMap()) refuse(v, "analyze", "expected a mapping of sweep types");
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string type = it->first.as<std::string>();
      const std::string path = "analyze." + type;
      if (!sweepable(type)) refuse(it->first, path, type + " is not a valid analyze parameter");
      if (sweep_) refuse(it->first, path, "sweeping more than one parameter is not supported yet by aiperf's genai-perf front end");
      const YAML::Node r = it->second;  // a copy (as above)
      if (!r.IsMap()) refuse(r, path, "expected start, stop and optionally step");
      std::map<std::string, int64_t> got;
      for (auto k = r.begin(); k != r.end(); ++k) {
        const std::string name = k->first.as<std::string>();
        if (name != "start" && name != "stop" && name != "step")
          refuse(k->first, path + "." + name, name + " is not a valid range key (start, stop, step)");
        int64_t n = 0;
        if (!k->second.IsScalar() || !YAML::convert<int64_t>::decode(k->second, n))
          refuse(k->second, path + "." + name, "expected an integer");
        got[name] = n;
      }
      // GenAI-Perf's defaults for an absent start/stop.
      static const std::map<std::string, std::pair<int64_t, int64_t>> kDefaults = {
          {"concurrency", {1, 1024}}, {"request_rate", {16, 8192}}, {"num_dataset_entries", {100, 1000}},
          {"input_sequence_length", {100, 1000}}};
      const auto d = kDefaults.at(type);
      try {
        sweep_ = sweep_from_range(type, got.count("start") ? got["start"] : d.first, got.count("stop") ? got["stop"] : d.second,
                                  got.count("step") ? std::optional<int64_t>(got["step"]) : std::nullopt);
      } catch (const GenAiPerfOptionError& e) {
        refuse(r, path, e.what());
      }
    }
  }

  void endpoint(const YAML::Node& v) {
    section(v, "endpoint",
            {{"model_selection_strategy", option("--model-selection-strategy")},
             // The template's tensorrtllm is accepted as "unset": GenAI-Perf 0.0.16 refuses its own
             // template for every OpenAI type because of it (backend is for Triton kserve only).
             {"backend", [this](const YAML::Node& n, const std::string& p) {
                if (!empty(n) && scalar(n, p) != "tensorrtllm") add("--backend", {scalar(n, p)}, n, p);
              }},
             {"custom", option("--endpoint")},
             {"type", option("--endpoint-type")},
             {"streaming", flag("--streaming")},
             {"server_metrics_url", fixed("--server-metrics-url", "http://localhost:9400/metrics")},
             {"server_metrics_urls", fixed("--server-metrics-url", "http://localhost:9400/metrics")},
             {"url", option("--url")},
             {"grpc_method", fixed("--grpc-method", "")}});
  }

  void perf_analyzer(const YAML::Node& v) {
    section(v, "perf_analyzer",
            {// Our engine replaces perf_analyzer: its path has no use.
             {"path", [](const YAML::Node&, const std::string&) {}},
             {"verbose", flag("--verbose")},
             {"stimulus", [this](const YAML::Node& n, const std::string& p) { stimulus(n, p); }},
             // The template's 999 is GenAI-Perf's default (left unset, so input_config echoes 999).
             {"stability_percentage", [this](const YAML::Node& n, const std::string& p) {
                if (empty(n) || scalar(n, p) == "999") return;
                add("--stability-percentage", {scalar(n, p)}, n, p);
                int64_t whole = 0;
                stability_integral_ = YAML::convert<int64_t>::decode(n, whole);
              }},
             {"measurement_interval", fixed("--measurement-interval", "")},
             {"warmup_request_count", option("--warmup-request-count")},
             {"measurement", [this](const YAML::Node& n, const std::string& p) {
                std::string mode = "request_count";
                if (n.IsMap() && n["mode"] && !empty(n["mode"])) mode = scalar(n["mode"], p + ".mode");
                for (char& c : mode) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                // interval: num is --measurement-interval, GenAI-Perf's 10000 ms when unset.
                const bool interval = mode == "interval";
                section(n, p,
                        {{"mode", [this, mode](const YAML::Node& m, const std::string& mp) {
                            if (mode != "interval" && mode != "request_count")
                              refuse(m, mp, mode + " is not a valid perf_analyzer_measurement mode");
                          }},
                         {"num", option(interval ? "--measurement-interval" : "--request-count")}});
                if (interval && (!n["num"] || empty(n["num"]))) add("--measurement-interval", {"10000"}, n, p + ".num");
              }}});
  }

  void stimulus(const YAML::Node& n, const std::string& p) {
    if (empty(n)) return;
    if (!n.IsMap()) refuse(n, p, "give the load as {concurrency: N} or {request_rate: R}");
    if (n.size() != 1) refuse(n, p, "give one load: {concurrency: N} or {request_rate: R}");
    const std::string kind = n.begin()->first.as<std::string>();
    const YAML::Node value = n.begin()->second;  // a copy (a reference into the iterator dangles)
    if (kind == "concurrency")
      add("--concurrency", {scalar(value, p + ".concurrency")}, value, p + ".concurrency");
    else if (kind == "request_rate")
      add("--request-rate", {scalar(value, p + ".request_rate")}, value, p + ".request_rate");
    else if (kind == "session_concurrency")
      add("--session-concurrency", {scalar(value, p + ".session_concurrency")}, value, p + ".session_concurrency");
    else if (kind == "fixed_schedule")
      refuse(n, p, "not supported yet by aiperf's genai-perf front end (--fixed-schedule: fixed schedule)");
    else
      refuse(n, p, kind + " is not a valid stimulus (concurrency, request_rate)");
  }

  void input(const YAML::Node& v) {
    const auto mean_stddev = [this](const std::string& mean_opt, const std::string& stddev_opt) -> Handler {
      return [this, mean_opt, stddev_opt](const YAML::Node& n, const std::string& p) {
        section(n, p, {{"mean", option(mean_opt)}, {"stddev", option(stddev_opt)}});
      };
    };
    section(
        v, "input",
        {{"batch_size", option("--batch-size-text")},
         {"extra",
          [this](const YAML::Node& n, const std::string& p) {
            if (empty(n)) return;
            if (!n.IsMap()) refuse(n, p, "expected a mapping of request body fields");
            // One JSON object: --extra-inputs takes it whole, values keep their types.
            add("--extra-inputs", {to_json(n).dump()}, n, p);
          }},
         {"goodput",
          [this](const YAML::Node& n, const std::string& p) {
            if (empty(n)) return;
            if (!n.IsMap()) refuse(n, p, "expected a mapping of metric: target");
            std::vector<std::string> items;
            for (auto it = n.begin(); it != n.end(); ++it) {
              double d = 0;
              if (!it->second.IsScalar() || !YAML::convert<double>::decode(it->second, d))
                refuse(it->second, p + "." + it->first.as<std::string>(), "Goodput values must be integers or floats");
              items.push_back(it->first.as<std::string>() + ":" + it->second.Scalar());
            }
            add("--goodput", items, n, p);
          }},
         {"header",
          [this](const YAML::Node& n, const std::string& p) {
            if (empty(n)) return;
            if (n.IsSequence())
              for (const auto& h : n) add("--header", {scalar(h, p)}, h, p);
            else
              add("--header", {scalar(n, p)}, n, p);
          }},
         {"file", option("--input-file")},
         {"num_dataset_entries", option("--num-dataset-entries")},
         {"random_seed", option("--random-seed")},
         {"audio",
          [this, mean_stddev](const YAML::Node& n, const std::string& p) {
            section(n, p,
                    {{"batch_size", option("--batch-size-audio")},
                     {"format", lower_option("--audio-format")},
                     {"depths", list_option("--audio-depths")},
                     {"sample_rates", list_option("--audio-sample-rates")},
                     {"num_channels", option("--audio-num-channels")},
                     {"length", mean_stddev("--audio-length-mean", "--audio-length-stddev")}});
          }},
         {"image",
          [this, mean_stddev](const YAML::Node& n, const std::string& p) {
            section(n, p,
                    {{"batch_size", option("--batch-size-image")},
                     {"format", lower_option("--image-format")},
                     {"width", mean_stddev("--image-width-mean", "--image-width-stddev")},
                     {"height", mean_stddev("--image-height-mean", "--image-height-stddev")}});
          }},
         {"output_tokens",
          [this](const YAML::Node& n, const std::string& p) {
            section(n, p,
                    {{"mean", option("--output-tokens-mean")},
                     {"deterministic", flag("--output-tokens-mean-deterministic")},
                     {"stddev", option("--output-tokens-stddev")}});
          }},
         {"synthetic_tokens",
          [this](const YAML::Node& n, const std::string& p) {
            section(n, p,
                    {{"mean", option("--synthetic-input-tokens-mean")},
                     {"stddev", option("--synthetic-input-tokens-stddev")}});
          }},
         {"prefix_prompt",
          [this](const YAML::Node& n, const std::string& p) {
            section(n, p, {{"num", option("--num-prefix-prompts")}, {"length", option("--prefix-prompt-length")}});
          }},
         {"sessions", [this](const YAML::Node& n, const std::string& p) {
            section(n, p,
                    {{"num", option("--num-sessions")},
                     {"turns",
                      [this](const YAML::Node& t, const std::string& tp) {
                        section(
                            t, tp,
                            {{"mean", option("--session-turns-mean")}, {"stddev", option("--session-turns-stddev")}});
                      }},
                     {"turn_delay", [this](const YAML::Node& t, const std::string& tp) {
                        section(t, tp,
                                {{"mean", option("--session-turn-delay-mean")},
                                 {"ratio", option("--session-delay-ratio")},
                                 {"stddev", option("--session-turn-delay-stddev")}});
                      }}});
          }}});
  }

  void output(const YAML::Node& v) {
    section(v, "output",
            {{"artifact_directory", option("--artifact-dir")},
             {"checkpoint_directory", option("--checkpoint-dir")},
             {"profile_export_file", option("--profile-export-file")},
             {"generate_plots", flag("--generate-plots")},
             {"enable_checkpointing", flag("--enable-checkpointing")}});
  }

  static nlohmann::ordered_json to_json(const YAML::Node& n) {
    if (n.IsMap()) {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      for (auto it = n.begin(); it != n.end(); ++it) o[it->first.as<std::string>()] = to_json(it->second);
      return o;
    }
    if (n.IsSequence()) {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (const auto& x : n) a.push_back(to_json(x));
      return a;
    }
    if (n.IsNull()) return nullptr;
    // Plain scalars take YAML's types; quoted ones stay strings.
    const std::string& s = n.Scalar();
    if (n.Tag() == "?") {
      int64_t i = 0;
      double d = 0;
      bool b = false;
      if (YAML::convert<int64_t>::decode(n, i)) return i;
      if (YAML::convert<double>::decode(n, d)) return d;
      if (YAML::convert<bool>::decode(n, b)) return b;
    }
    return s;
  }

  // Each key checked alone first (its error names its line), then the whole command line
  // (conflicts between keys name the file).
  ConfigRun finish() {
    ConfigRun run;
    // backend is checked with the file's endpoint type (GenAI-Perf's default kserve when unset).
    std::string type = "kserve";
    for (const Word& w : words_) {
      if (w.option == "--endpoint-type" && w.values.size() == 1) type = w.values.front();
    }
    for (const Word& w : words_) {
      const bool typed = w.option == "--backend" || w.option == "--batch-size-text";  // checked with the type
      std::vector<std::string> alone{"-m", "x", "--endpoint-type", typed ? type : "chat"};
      if (w.values.size() == 1) {
        alone.push_back(w.option + "=" + w.values.front());
      } else {
        alone.push_back(w.option);
        alone.insert(alone.end(), w.values.begin(), w.values.end());
      }
      try {
        parse_profile_args(alone);
      } catch (const GenAiPerfOptionError& e) {
        throw GenAiPerfOptionError(w.origin + e.what());
      }
      // "--opt=value": a value starting with '-' stays a value.
      if (w.values.size() == 1) {
        run.words.push_back(w.option + "=" + w.values.front());
      } else {
        run.words.push_back(w.option);
        run.words.insert(run.words.end(), w.values.begin(), w.values.end());
      }
    }
    run.sweep = sweep_;
    run.process_input_path = process_input_path_;
    run.stability_percentage_integral = stability_integral_;
    run.audio_sample_rates_integral =
        std::any_of(words_.begin(), words_.end(), [](const Word& w) { return w.option == "--audio-sample-rates"; });
    return run;
  }
};

}  // namespace

ConfigRun read_config(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw GenAiPerfOptionError("argument --file/-f: cannot read '" + path + "'");
  } catch (const YAML::Exception& e) {
    throw GenAiPerfOptionError(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  return Reader(path).read(root);
}

}  // namespace aiperf::cli::genai_perf
