#include "genai_perf_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include "genai_perf_windows.h"

namespace aiperf::cli::genai_perf {
namespace {

// How many values an option takes, as GenAI-Perf's argparse declares it.
enum class Arity { kFlag, kOne, kOneOrMore, kAny };

// One option of `genai-perf profile --help`. `unsupported` says why this front end refuses it
// for now (empty: supported).
struct Spec {
  std::vector<std::string> names;  // first is the canonical long name
  Arity arity;
  std::string unsupported;
  bool analyze_only = false;  // `analyze` (and `config`) take it, `profile` does not
};

const std::string kLater = "not supported yet by aiperf's genai-perf front end";

const std::vector<Spec>& specs() {
  static const std::vector<Spec> s = {
      // Audio Input, Image Input: sent by the multimodal and vision types.
      {{"--audio-length-mean"}, Arity::kOne, ""},
      {{"--audio-length-stddev"}, Arity::kOne, ""},
      {{"--audio-format"}, Arity::kOne, ""},
      {{"--audio-depths"}, Arity::kAny, ""},
      {{"--audio-sample-rates"}, Arity::kAny, ""},
      {{"--audio-num-channels"}, Arity::kOne, ""},
      {{"--image-width-mean"}, Arity::kOne, ""},
      {{"--image-width-stddev"}, Arity::kOne, ""},
      {{"--image-height-mean"}, Arity::kOne, ""},
      {{"--image-height-stddev"}, Arity::kOne, ""},
      {{"--image-format"}, Arity::kOne, ""},
      {{"--batch-size-audio"}, Arity::kOne, ""},
      {{"--batch-size-image"}, Arity::kOne, ""},
      // Endpoint
      {{"--model", "-m"}, Arity::kOneOrMore, ""},
      {{"--model-selection-strategy"}, Arity::kOne, ""},
      {{"--backend"}, Arity::kOne, ""},
      {{"--endpoint"}, Arity::kOne, ""},
      {{"--endpoint-type"}, Arity::kOne, ""},
      {{"--server-metrics-url", "--server-metrics-urls"}, Arity::kOneOrMore, "Triton/DCGM telemetry"},
      {{"--streaming"}, Arity::kFlag, ""},
      {{"--url", "-u"}, Arity::kOne, ""},
      // Input
      {{"--batch-size-text", "--batch-size", "-b"}, Arity::kOne, ""},
      {{"--extra-inputs"}, Arity::kOne, ""},
      {{"--goodput", "-g"}, Arity::kOneOrMore, ""},
      {{"--header", "-H"}, Arity::kOne, ""},
      {{"--input-file"}, Arity::kOne, ""},
      {{"--num-dataset-entries", "--num-prompts"}, Arity::kOne, ""},
      {{"--num-prefix-prompts"}, Arity::kOne, ""},
      {{"--output-tokens-mean", "--osl"}, Arity::kOne, ""},
      {{"--output-tokens-mean-deterministic"}, Arity::kFlag, ""},
      {{"--output-tokens-stddev"}, Arity::kOne, ""},
      {{"--random-seed"}, Arity::kOne, ""},
      {{"--grpc-method"}, Arity::kOne, "dynamic gRPC"},
      {{"--synthetic-input-tokens-mean", "--isl"}, Arity::kOne, ""},
      {{"--synthetic-input-tokens-stddev"}, Arity::kOne, ""},
      {{"--prefix-prompt-length"}, Arity::kOne, ""},
      {{"--warmup-request-count", "--num-warmup-requests"}, Arity::kOne, ""},
      // Other
      {{"--verbose", "-v"}, Arity::kFlag, ""},
      // Output
      {{"--artifact-dir"}, Arity::kOne, ""},
      {{"--checkpoint-dir"}, Arity::kOne, ""},
      {{"--generate-plots"}, Arity::kFlag, ""},
      {{"--enable-checkpointing"}, Arity::kFlag, ""},
      {{"--profile-export-file"}, Arity::kOne, ""},
      // Profiling
      {{"--concurrency"}, Arity::kOne, ""},
      {{"--measurement-interval", "-p"}, Arity::kOne, ""},
      {{"--request-count", "--num-requests"}, Arity::kOne, ""},
      {{"--request-rate"}, Arity::kOne, ""},
      {{"--fixed-schedule"}, Arity::kOne, "fixed schedule"},
      {{"--stability-percentage", "-s"}, Arity::kOne, ""},
      // Session
      {{"--num-sessions"}, Arity::kOne, ""},
      {{"--session-concurrency"}, Arity::kOne, ""},
      {{"--session-delay-ratio"}, Arity::kOne, ""},
      {{"--session-turn-delay-mean"}, Arity::kOne, ""},
      {{"--session-turn-delay-stddev"}, Arity::kOne, ""},
      {{"--session-turns-mean"}, Arity::kOne, ""},
      {{"--session-turns-stddev"}, Arity::kOne, ""},
      // Tokenizer
      {{"--tokenizer"}, Arity::kOne, ""},
      {{"--tokenizer-revision"}, Arity::kOne, ""},
      {{"--tokenizer-trust-remote-code"}, Arity::kFlag, ""},
      {{"--help", "-h"}, Arity::kFlag, ""},
      {{"--dry-run"}, Arity::kFlag, ""},  // ours: validate only (listed last in --help)
      // Analyze (genai_perf_analyze.h)
      {{"--sweep-type"}, Arity::kOne, "", true},
      {{"--sweep-range"}, Arity::kOne, "", true},
      {{"--sweep-list"}, Arity::kOne, "", true},
  };
  return s;
}

const std::vector<std::string> kEndpointTypes = {
    "chat",   "completions", "dynamic_grpc", "embeddings", "huggingface_generate", "image_retrieval",    "nvclip",
    "rankings", "multimodal", "generate",     "kserve",     "template",             "tensorrtllm_engine", "vision"};
const std::vector<std::string> kSupportedTypes = {"chat",   "completions", "embeddings",
                                                  "kserve", "multimodal",  "vision"};

// The spec an option word names: exact spelling, else a unique prefix of a long spelling
// (argparse's allow_abbrev).
const Spec& find_spec(const std::string& word, bool analyze) {
  for (const Spec& s : specs())
    for (const std::string& n : s.names)
      if (n == word && (analyze || !s.analyze_only)) return s;
  std::vector<const Spec*> hits;
  std::vector<std::string> spellings;
  if (word.rfind("--", 0) == 0) {
    for (const Spec& s : specs())
      for (const std::string& n : s.names)
        if (n.rfind("--", 0) == 0 && n.rfind(word, 0) == 0 && (analyze || !s.analyze_only)) {
          if (std::find(hits.begin(), hits.end(), &s) == hits.end()) hits.push_back(&s);
          spellings.push_back(n);
        }
  }
  if (hits.size() == 1) return *hits.front();
  if (hits.size() > 1) {
    std::string list;
    for (const std::string& n : spellings) list += (list.empty() ? "" : ", ") + n;
    throw GenAiPerfOptionError("ambiguous option: " + word + " could match " + list);
  }
  throw GenAiPerfOptionError("unrecognized arguments: " + word);
}

int64_t to_int(const std::string& option, const std::string& v) {
  try {
    size_t used = 0;
    const long long n = std::stoll(v, &used);
    if (used == v.size()) return n;
  } catch (const std::exception&) {
  }
  throw GenAiPerfOptionError("argument " + option + ": invalid int value: '" + v + "'");
}

double to_float(const std::string& option, const std::string& v) {
  try {
    size_t used = 0;
    const double d = std::stod(v, &used);
    if (used == v.size()) return d;
  } catch (const std::exception&) {
  }
  throw GenAiPerfOptionError("argument " + option + ": invalid float value: '" + v + "'");
}

bool is_option_word(const std::string& w) {
  // argparse treats "-5" as a value when no option looks like a negative number.
  if (w.size() < 2 || w[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

int64_t positive(const std::string& option, int64_t v) {
  if (v <= 0) throw GenAiPerfOptionError("argument " + option + ": must be a positive integer, got " + std::to_string(v));
  return v;
}

int64_t non_negative(const std::string& option, int64_t v) {
  if (v < 0) throw GenAiPerfOptionError("argument " + option + ": must be non-negative, got " + std::to_string(v));
  return v;
}

// GenAI-Perf's config bound check ("User Config: -1 exceeds lower bounds ({'lower': 0})"), the
// value printed as Python prints it (an int, or a float: -1.0).
void at_least(const std::string& option, double v, double lower, bool is_float) {
  if (v >= lower) return;
  const std::string shown = is_float ? python_float(v) : std::to_string(static_cast<int64_t>(v));
  throw GenAiPerfOptionError("argument " + option + ": User Config: " + shown +
                             " exceeds lower bounds ({'lower': " + std::to_string(static_cast<int64_t>(lower)) + "})");
}

// argparse's choices check for a string option.
const std::string& one_of(const std::string& option, const std::string& v, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "'" : ", '") + c + "'";
  throw GenAiPerfOptionError("argument " + option + ": invalid choice: '" + v + "' (choose from " + list + ")");
}

// What GenAI-Perf's synthetic audio generator refuses, checked up front (it fails on the first
// clip it makes): a mean under 0.1 s, a bit depth other than 8/16/24/32, an MP3 sample rate MP3
// does not have.
void check_audio(const ProfileArgs& a) {
  const double mean = a.audio_length_mean.value_or(0);
  if (mean <= 0) return;
  if (mean < 0.1)
    throw GenAiPerfOptionError("--audio-length-mean: Mean value (" + python_float(mean) +
                               ") must be greater than min_value (0.1)");
  for (const double khz : a.audio_sample_rates) {
    const auto hz = static_cast<int64_t>(khz * 1000);
    static const int64_t kMp3[] = {8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000};
    if (a.audio_format == "mp3" && std::find(std::begin(kMp3), std::end(kMp3), hz) == std::end(kMp3))
      throw GenAiPerfOptionError(
          "--audio-sample-rates: MP3 format only supports the following sample rates (in Hz): "
          "[8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]. Got " +
          std::to_string(hz) + " Hz. Please choose a supported rate from the list.");
  }
  for (const int64_t d : a.audio_depths)
    if (d != 8 && d != 16 && d != 24 && d != 32)
      throw GenAiPerfOptionError("--audio-depths: Unsupported bit depth: " + std::to_string(d) +
                                 ". Supported bit depths are: [8, 16, 24, 32]");
}

}  // namespace

std::string python_float(double v) {
  // Python's repr: the shortest digits that round-trip; fixed notation for exponents in
  // [-4, 16), scientific otherwise; ".0" on integral values.
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string s(buf, sci.ptr);
  const size_t e = s.find('e');
  const int exponent = e == std::string::npos ? 0 : std::stoi(s.substr(e + 1));
  if (exponent < -4 || exponent >= 16) return s;
  auto fixed = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  std::string f(buf, fixed.ptr);
  if (f.find_first_of(".n") == std::string::npos) f += ".0";
  return f;
}

std::string unsupported_reason(const std::string& option) {
  for (const Spec& s : specs())
    if (s.names.front() == option) return s.unsupported;
  return "";
}

ProfileArgs parse_profile_args(const std::vector<std::string>& words, bool analyze) {
  ProfileArgs a;
  std::vector<std::string> refused;
  std::map<std::string, std::vector<std::string>> seen;  // canonical name -> values (last wins)
  std::vector<std::string> order;
  bool measurement_interval = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (!is_option_word(w)) throw GenAiPerfOptionError("unrecognized arguments: " + w);
    std::string name = w;
    std::optional<std::string> inline_value;
    if (w.rfind("--", 0) == 0) {
      if (const size_t eq = w.find('='); eq != std::string::npos) {
        name = w.substr(0, eq);
        inline_value = w.substr(eq + 1);
      }
    } else if (w.size() > 2) {  // -mVALUE
      name = w.substr(0, 2);
      inline_value = w.substr(2);
    }
    const Spec& spec = find_spec(name, analyze);
    const std::string& canonical = spec.names.front();
    std::vector<std::string> values;
    if (spec.arity == Arity::kFlag) {
      if (inline_value) throw GenAiPerfOptionError("argument " + canonical + ": ignored explicit argument '" + *inline_value + "'");
    } else if (inline_value) {
      values.push_back(*inline_value);
    } else {
      while (i + 1 < words.size() && !is_option_word(words[i + 1])) {
        values.push_back(words[++i]);
        if (spec.arity == Arity::kOne) break;
      }
      if (values.empty() && spec.arity != Arity::kAny)
        throw GenAiPerfOptionError("argument " + canonical + ": expected " +
                                   (spec.arity == Arity::kOne ? "one argument" : "at least one argument"));
    }
    if (canonical == "--measurement-interval") measurement_interval = true;
    if (!spec.unsupported.empty()) {
      if (std::find(refused.begin(), refused.end(), canonical) == refused.end()) refused.push_back(canonical);
      continue;
    }
    if (canonical == "--help") {
      a.help = true;
      continue;
    }
    if (canonical == "--dry-run") {
      a.dry_run = true;
      continue;
    }
    // Repeatable options accumulate (argparse action="append").
    if (canonical == "--extra-inputs") {
      a.extra_inputs.push_back(values.front());
      continue;
    }
    if (canonical == "--header") {
      a.headers.push_back(values.front());
      continue;
    }
    if (!seen.count(canonical)) order.push_back(canonical);
    seen[canonical] = values;
  }
  if (a.help) return a;
  if (measurement_interval && seen.count("--request-count"))
    throw GenAiPerfOptionError("argument --request-count/--num-requests: not allowed with argument "
                               "--measurement-interval/-p");
  if (!refused.empty()) {
    std::string list;
    for (const std::string& n : refused)
      for (const Spec& s : specs())
        if (s.names.front() == n) list += (list.empty() ? "" : ", ") + n + " (" + s.unsupported + ")";
    throw GenAiPerfOptionError(kLater + ": " + list + "; see docs/user-guide.md, \"Coming from GenAI-Perf\"");
  }
  const auto one = [&](const std::string& n) { return seen.at(n).front(); };
  for (const std::string& n : order) {
    if (n == "--model") {
      a.models = seen.at(n);
    } else if (n == "--model-selection-strategy") {
      a.model_selection_strategy = one(n);
      if (a.model_selection_strategy != "round_robin" && a.model_selection_strategy != "random")
        throw GenAiPerfOptionError("argument --model-selection-strategy: invalid choice: '" + one(n) +
                                   "' (choose from 'round_robin', 'random')");
    } else if (n == "--backend") {
      a.backend = one(n);
      if (a.backend != "tensorrtllm" && a.backend != "vllm")
        throw GenAiPerfOptionError("argument --backend: invalid choice: '" + one(n) +
                                   "' (choose from 'tensorrtllm', 'vllm')");
    } else if (n == "--goodput") {
      for (const std::string& item : seen.at(n)) {
        const size_t colon = item.find(':');
        double target = 0;
        bool ok = colon != std::string::npos && item.find(':', colon + 1) == std::string::npos;
        if (ok) {
          try {
            size_t used = 0;
            const std::string v = item.substr(colon + 1);
            target = std::stod(v, &used);
            ok = used == v.size();
          } catch (const std::exception&) {
            ok = false;
          }
        }
        if (!ok)
          throw GenAiPerfOptionError("argument --goodput/-g: Invalid format found for goodput constraints. The expected "
                                     "format is 'key:value' pairs. The key should be a service level objective name "
                                     "(e.g. request_latency). The value should be a number representing either "
                                     "milliseconds or a throughput value per second.");
        if (target < 0)
          throw GenAiPerfOptionError("--goodput: Invalid value found, " + item.substr(0, colon) + ": " +
                                     python_float(target) + ". The goodput constraint value should be non-negative.");
        const std::string key = item.substr(0, colon);
        auto it = std::find_if(a.goodput.begin(), a.goodput.end(), [&](const auto& g) { return g.first == key; });
        if (it == a.goodput.end())
          a.goodput.emplace_back(key, target);
        else
          it->second = target;
      }
    } else if (n == "--input-file") {
      a.input_file = one(n);
      if (a.input_file.rfind("synthetic:", 0) == 0 || a.input_file.rfind("payload:", 0) == 0)
        throw GenAiPerfOptionError(kLater + ": --input-file " + a.input_file.substr(0, a.input_file.find(':') + 1) +
                                   " (synthetic file sets and payload traces); see docs/user-guide.md, \"Coming from GenAI-Perf\"");
      std::error_code ec;
      if (!std::filesystem::exists(a.input_file, ec))
        throw GenAiPerfOptionError("argument --input-file: '" + a.input_file + "' is not a valid file or directory");
      if (std::filesystem::is_directory(a.input_file, ec))
        throw GenAiPerfOptionError(kLater + ": --input-file " + a.input_file +
                                   " (a directory of JSONL files; give one file); see docs/user-guide.md, \"Coming from GenAI-Perf\"");
    } else if (n == "--endpoint") {
      a.custom_endpoint = one(n);
    } else if (n == "--endpoint-type") {
      a.endpoint_type = one(n);
      if (std::find(kEndpointTypes.begin(), kEndpointTypes.end(), a.endpoint_type) == kEndpointTypes.end())
        throw GenAiPerfOptionError("argument --endpoint-type: invalid choice: '" + one(n) + "'");
    } else if (n == "--streaming") {
      a.streaming = true;
    } else if (n == "--generate-plots") {
      a.generate_plots = true;
    } else if (n == "--url") {
      a.url = one(n);
    } else if (n == "--batch-size-text") {
      a.batch_size_text = positive("--batch-size-text", to_int(n, one(n)));
      a.batch_size_text_set = true;
    } else if (n == "--num-dataset-entries") {
      a.num_dataset_entries = positive("--num-dataset-entries", to_int(n, one(n)));
    } else if (n == "--num-prefix-prompts") {
      a.num_prefix_prompts = non_negative(n, to_int(n, one(n)));
    } else if (n == "--output-tokens-mean") {
      a.output_tokens_mean = positive(n, to_int(n, one(n)));
    } else if (n == "--output-tokens-mean-deterministic") {
      a.output_tokens_deterministic = true;
    } else if (n == "--output-tokens-stddev") {
      a.output_tokens_stddev = non_negative(n, to_int(n, one(n)));
    } else if (n == "--random-seed") {
      a.random_seed = to_int(n, one(n));
    } else if (n == "--synthetic-input-tokens-mean") {
      a.synthetic_tokens_mean = positive(n, to_int(n, one(n)));
    } else if (n == "--synthetic-input-tokens-stddev") {
      a.synthetic_tokens_stddev = non_negative(n, to_int(n, one(n)));
    } else if (n == "--prefix-prompt-length") {
      a.prefix_prompt_length = positive(n, to_int(n, one(n)));
    } else if (n == "--warmup-request-count") {
      a.warmup_request_count = non_negative(n, to_int(n, one(n)));
    } else if (n == "--verbose") {
      a.verbose = true;
    } else if (n == "--artifact-dir") {
      a.artifact_dir = one(n);
    } else if (n == "--checkpoint-dir") {
      a.checkpoint_dir = one(n);
    } else if (n == "--enable-checkpointing") {
      a.enable_checkpointing = true;
    } else if (n == "--profile-export-file") {
      a.profile_export_file = one(n);
      // GenAI-Perf: a file name only (it goes in the artifact directory).
      if (a.profile_export_file.find('/') != std::string::npos)
        throw GenAiPerfOptionError("argument --profile-export-file: Please use artifact_directory option to define "
                                   "intermediary paths to the profile_export_file.");
    } else if (n == "--concurrency") {
      a.concurrency = positive(n, to_int(n, one(n)));
    } else if (n == "--request-count") {
      a.request_count = positive(n, to_int(n, one(n)));
    } else if (n == "--measurement-interval") {
      // GenAI-Perf: 0 leaves the option unset (request-count mode); its config's bound is >= 0.
      const std::string opt = "argument --measurement-interval/-p: ";
      int64_t v = 0;
      try {
        v = to_int(n, one(n));
      } catch (const GenAiPerfOptionError&) {
        throw GenAiPerfOptionError(opt + "invalid int value: '" + one(n) + "'");
      }
      if (v < 0) throw GenAiPerfOptionError(opt + "User Config: " + std::to_string(v) + " exceeds lower bounds ({'lower': 0})");
      if (v > 0) a.measurement_interval = v;
    } else if (n == "--stability-percentage") {
      // GenAI-Perf: 0 leaves the default (999); its config's bounds are [1, 999].
      const std::string opt = "argument -s/--stability-percentage: ";
      double v = 0;
      try {
        v = to_float(n, one(n));
      } catch (const GenAiPerfOptionError&) {
        throw GenAiPerfOptionError(opt + "invalid float value: '" + one(n) + "'");
      }
      if (v != 0 && (v < 1 || v > 999))
        throw GenAiPerfOptionError(opt + "User Config: " + python_float(v) + " exceeds " + (v < 1 ? "lower" : "upper") +
                                   " bounds ({'lower': 1, 'upper': 999})");
      if (v != 0) a.stability_percentage = v;
    } else if (n == "--request-rate") {
      a.request_rate = to_float(n, one(n));
      if (!(*a.request_rate > 0)) throw GenAiPerfOptionError("argument --request-rate: must be greater than 0");
    } else if (n == "--audio-length-mean" || n == "--audio-length-stddev") {
      const double v = to_float(n, one(n));
      at_least(n, v, 0, true);
      if (v != 0) (n == "--audio-length-mean" ? a.audio_length_mean : a.audio_length_stddev) = v;
    } else if (n == "--audio-format") {
      a.audio_format = one_of(n, one(n), {"wav", "mp3"});
    } else if (n == "--audio-depths") {
      std::vector<int64_t> depths;  // none given: GenAI-Perf keeps its default [16]
      for (const std::string& v : seen.at(n)) depths.push_back(to_int(n, v));
      for (const int64_t d : depths) at_least(n, static_cast<double>(d), 1, false);
      if (!depths.empty()) a.audio_depths = depths;
    } else if (n == "--audio-sample-rates") {
      std::vector<double> rates;
      for (const std::string& v : seen.at(n)) rates.push_back(to_float(n, v));
      for (const double r : rates) at_least(n, r, 1, true);
      if (!rates.empty()) {
        a.audio_sample_rates = rates;
        a.audio_sample_rates_given = true;
      }
    } else if (n == "--audio-num-channels") {
      const int64_t v = to_int(n, one(n));
      if (v != 1 && v != 2)
        throw GenAiPerfOptionError("argument --audio-num-channels: invalid choice: " + std::to_string(v) +
                                   " (choose from 1, 2)");
      a.audio_num_channels = v;
    } else if (n == "--batch-size-audio" || n == "--batch-size-image") {
      const int64_t v = to_int(n, one(n));
      at_least(n, static_cast<double>(v), 0, false);
      if (v != 0) (n == "--batch-size-audio" ? a.batch_size_audio : a.batch_size_image) = v;  // 0: the default 1
    } else if (n == "--image-width-mean" || n == "--image-width-stddev" || n == "--image-height-mean" ||
               n == "--image-height-stddev") {
      const int64_t v = to_int(n, one(n));
      at_least(n, static_cast<double>(v), 0, false);
      (n == "--image-width-mean"     ? a.image_width_mean
       : n == "--image-width-stddev" ? a.image_width_stddev
       : n == "--image-height-mean"  ? a.image_height_mean
                                     : a.image_height_stddev) = v;
    } else if (n == "--image-format") {
      a.image_format = one_of(n, one(n), {"png", "jpeg"});
    } else if (n == "--num-sessions") {
      a.num_sessions = to_int(n, one(n));
      at_least(n, static_cast<double>(a.num_sessions), 0, false);
    } else if (n == "--session-concurrency") {
      const int64_t v = to_int(n, one(n));
      if (v != 0) a.session_concurrency = positive(n, v);  // 0: unset, as GenAI-Perf reads it
    } else if (n == "--session-turns-mean" || n == "--session-turns-stddev" || n == "--session-turn-delay-mean" ||
               n == "--session-turn-delay-stddev") {
      const int64_t v = to_int(n, one(n));
      at_least(n, static_cast<double>(v), 0, false);
      if (v == 0) continue;  // GenAI-Perf keeps its default for a 0
      (n == "--session-turns-mean"        ? a.session_turns_mean
       : n == "--session-turns-stddev"    ? a.session_turns_stddev
       : n == "--session-turn-delay-mean" ? a.session_turn_delay_mean
                                          : a.session_turn_delay_stddev) = v;
    } else if (n == "--session-delay-ratio") {
      const double v = to_float(n, one(n));
      at_least(n, v, 0, true);
      if (v != 0) a.session_delay_ratio = v;
    } else if (n == "--tokenizer") {
      a.tokenizer = one(n);
    } else if (n == "--tokenizer-revision") {
      a.tokenizer_revision = one(n);
    } else if (n == "--tokenizer-trust-remote-code") {
      a.tokenizer_trust_remote_code = true;
    } else if (n == "--sweep-type") {
      a.sweep_type = one(n);
      static const char* const kChoices[] = {"batch_size", "concurrency", "num_dataset_entries",
                                             "input_sequence_length", "request_rate"};
      if (std::none_of(std::begin(kChoices), std::end(kChoices), [&](const char* c) { return a.sweep_type == c; }))
        throw GenAiPerfOptionError("argument --sweep-type: invalid choice: '" + one(n) +
                                   "' (choose from 'batch_size', 'concurrency', 'num_dataset_entries', "
                                   "'input_sequence_length', 'request_rate')");
    } else if (n == "--sweep-range") {
      a.sweep_range = one(n);
    } else if (n == "--sweep-list") {
      a.sweep_list = one(n);
    }
  }
  if (a.models.empty()) throw GenAiPerfOptionError("the following arguments are required: -m/--model");
  if (a.concurrency && a.request_rate)
    throw GenAiPerfOptionError("--concurrency and --request-rate cannot be used together (choose one load)");
  if (std::find(kSupportedTypes.begin(), kSupportedTypes.end(), a.endpoint_type) == kSupportedTypes.end())
    throw GenAiPerfOptionError("--endpoint-type " + a.endpoint_type +
                               (seen.count("--endpoint-type") ? "" : " (GenAI-Perf's default)") + ": " + kLater +
                               "; supported: chat, completions, embeddings, kserve, multimodal, vision");
  if (a.streaming && a.endpoint_type == "embeddings")
    throw GenAiPerfOptionError("--streaming: the embeddings endpoint type does not support streaming");
  if (a.generate_plots && a.endpoint_type == "embeddings")
    throw GenAiPerfOptionError(
        "User Config: generate_plots is not supported with the OutputFormat.OPENAI_EMBEDDINGS "
        "output format");
  // GenAI-Perf's own combination checks (its config's), in its order.
  if (seen.count("--backend") && a.endpoint_type != "kserve")
    throw GenAiPerfOptionError("argument --backend: The backend should only be used with the following combination: "
                               "'service_kind: triton' & 'type: kserve'");
  // vLLM's backend takes the limit in sampling_parameters; its deterministic min_tokens is not
  // written there yet.
  if (a.endpoint_type == "kserve" && a.backend == "vllm" && a.output_tokens_deterministic && a.output_tokens_mean)
    throw GenAiPerfOptionError("--output-tokens-mean-deterministic with --backend vllm: " + kLater +
                               " (min_tokens in sampling_parameters); it is supported with tensorrtllm");
  if (a.output_tokens_deterministic && a.endpoint_type != "kserve")
    throw GenAiPerfOptionError("argument --output-tokens-mean-deterministic: only supported with Triton or "
                               "TensorRT-LLM Engine service kinds");
  if (a.output_tokens_stddev > 0 && !a.output_tokens_mean)
    throw GenAiPerfOptionError("argument --output-tokens-stddev: If output tokens stddev is set, mean must also be set");
  // GenAI-Perf's chat converter (chat, multimodal, vision) takes one text per request.
  if ((a.endpoint_type == "chat" || multimodal(a) || a.endpoint_type == "kserve") && a.batch_size_text != 1)
    throw GenAiPerfOptionError("--batch-size-text: The --batch-size-text flag is not supported for " +
                               output_format(a) + ".");
  // Synthetic single-turn rows carry the clips (session rows and file prompts do not).
  if (a.input_file.empty() && a.num_sessions == 0) check_audio(a);
  return a;
}

std::string profile_help() {
  return "usage: genai-perf profile -m MODEL [MODEL ...] --endpoint-type {chat,completions,embeddings} [options]\n\n"
         "GenAI-Perf 0.0.16's `profile` command line, run by aiperf's engine; writes GenAI-Perf's files\n"
         "(profile_export.json, profile_export_genai_perf.json/.csv, inputs.json) under\n"
         "<artifact-dir>/<model>-openai-<endpoint-type>-<load>/.\n\n" +
         profile_options_help();
}

std::string profile_options_help() {
  std::ostringstream o;
  o << "options:\n";
  for (const Spec& s : specs()) {
    if (!s.unsupported.empty() || s.analyze_only) continue;  // analyze_help() lists its own
    std::string names;
    for (const std::string& n : s.names) names += (names.empty() ? "" : ", ") + n;
    o << "  " << names;
    // Choice values we take, listed as CLI11 lists them (tests/compat/options.py reads them).
    if (s.names.front() == "--endpoint-type") o << " TEXT:{chat,completions,embeddings,kserve,multimodal,vision}";
    if (s.names.front() == "--audio-format") o << " TEXT:{wav,mp3}";
    if (s.names.front() == "--audio-num-channels") o << " INT:{1,2}";
    if (s.names.front() == "--image-format") o << " TEXT:{png,jpeg}";
    if (s.names.front() == "--backend") o << " TEXT:{tensorrtllm,vllm}";
    if (s.names.front() == "--model-selection-strategy") o << " TEXT:{round_robin,random}";
    if (s.names.front() == "--dry-run") o << "   ours: check the options as `aiperf profile --dry-run`, run nothing";
    o << "\n";
  }
  o << "\nnot supported yet (refused with exit 2; see docs/user-guide.md, \"Coming from GenAI-Perf\"):\n";
  for (const Spec& s : specs())
    if (!s.unsupported.empty()) o << "  refused: " << s.names.front() << " (" << s.unsupported << ")\n";
  return o.str();
}

}  // namespace aiperf::cli::genai_perf
