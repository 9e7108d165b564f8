// Prompt shaping options (AIPerf 0.13 "Prompt", "ISL", "Prefix Prompt", "Cache Bust" and
// "Image Input" groups): --prompt-corpus, --random-range-ratio, --random-corpus-style,
// --system-prompt(-file), --cache-bust, --image-source(-sampling); their checks, with the
// reference's messages, in the reference's order.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "image_source.h"
#include "options.h"
#include "range_ratio.h"

namespace aiperf::cli {

namespace {

// The endpoint types that send a system message, and those that take a cache-bust marker
// (AIPerf's consumes_system_message / supports_cache_bust plugin metadata).
const std::vector<std::string> kSystemMessageEndpoints = {"chat", "chat_embeddings", "messages", "responses"};
const std::vector<std::string> kCacheBustEndpoints = {"chat", "messages", "responses"};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n\f\v") == std::string::npos; }

// --system-prompt / --system-prompt-file -> the resolved text (SystemPromptMixin's checks).
void resolve_system_prompt(ProfileOptions& o) {
  auto& ps = o.config.input.prompt_shaping;
  auto& raw = o.input.shaping;
  if (raw.system_prompt && raw.system_prompt_file)
    throw OptionError("system_prompt (--system-prompt) and system_prompt_file (--system-prompt-file) are mutually "
                      "exclusive; set exactly one.");
  if (raw.system_prompt) {
    if (blank(*raw.system_prompt))
      throw OptionError("system_prompt (--system-prompt) is empty or whitespace-only. Omit the option entirely to "
                        "run without a system prompt.");
    ps.system_prompt = *raw.system_prompt;
  } else if (raw.system_prompt_file) {
    namespace fs = std::filesystem;
    const std::string& path = *raw.system_prompt_file;
    std::error_code ec;
    std::ifstream f;
    if (fs::is_regular_file(path, ec) && !fs::is_symlink(path, ec)) f.open(path, std::ios::binary);
    if (!f.is_open())
      throw OptionError("system_prompt_file (--system-prompt-file) could not be read: " + path +
                        ". Expected a readable regular UTF-8 text file with no symlinked path component.");
    std::stringstream text;
    text << f.rdbuf();
    if (blank(text.str()))
      throw OptionError("system_prompt_file (--system-prompt-file) is empty or whitespace-only: " + path +
                        ". Omit the option entirely to run without a system prompt.");
    ps.system_prompt = text.str();
  }
  if (!ps.system_prompt) return;
  const auto& in = o.config.input;
  if (in.shared_system_prompt_length > 0)
    throw OptionError("--system-prompt/--system-prompt-file and --shared-system-prompt-length are mutually "
                      "exclusive: both fill the system message. Use the first for verbatim text, the second for "
                      "synthetic filler of a target token length.");
  if (in.prefix_pool_size > 0 || in.prefix_length > 0)
    throw OptionError("--system-prompt/--system-prompt-file and --num-prefix-prompts/--prefix-prompt-length are "
                      "mutually exclusive, matching --shared-system-prompt-length, which fills the same "
                      "system-message slot.");
  const std::string& type = o.config.endpoint.type;
  if (!contains(kSystemMessageEndpoints, type))
    throw OptionError("--system-prompt/--system-prompt-file is not supported by endpoint type '" + type +
                      "' (no system role), so the text would never reach the wire. Supported endpoint types: "
                      "chat, chat_embeddings, messages, responses.");
}

// --random-range-ratio: parsed for the style, then PromptConfig's checks in its order.
void resolve_range_ratio(ProfileOptions& o) {
  auto& ps = o.config.input.prompt_shaping;
  const auto& in = o.config.input;
  const auto& text = o.input.shaping.random_range_ratio;
  if (!text || text->empty()) return;
  std::pair<double, double> ratios;
  try {
    ratios = dataset::parse_range_ratio(*text, ps.random_corpus_style);
  } catch (const std::invalid_argument& e) {
    throw OptionError(std::string("Invalid --random-range-ratio value: ") + e.what());
  }
  if (!in.input_file.empty() || !in.public_dataset.empty())
    throw OptionError("--random-range-ratio is only supported with synthetic datasets; remove --input-file / "
                      "--public-dataset (use a synthetic dataset) to apply synthetic-only prompt shaping (ISL, prefix "
                      "prompts, multimodal generation, multi-turn conversation, etc).");
  if (!in.seq_dist.empty())
    throw OptionError("random_range_ratio cannot be combined with sequence_distribution; use one or the other.");
  if (!in.osl_mean)
    throw OptionError("--random-range-ratio requires --osl to be set explicitly. There is no safe default when a "
                      "ratio window is requested.");
  if (static_cast<long long>(in.isl_mean) < 1)
    throw OptionError("--random-range-ratio requires --isl >= 1, got " +
                      std::to_string(static_cast<long long>(in.isl_mean)) +
                      ". A zero-token input window has no prompt to scale.");
  if (static_cast<long long>(*in.osl_mean) < 1)
    throw OptionError("--random-range-ratio requires --osl >= 1, got " +
                      std::to_string(static_cast<long long>(*in.osl_mean)) +
                      ". A zero-token output window would request no generation.");
  try {
    dataset::check_range_ratio(ratios, ps.random_corpus_style);
  } catch (const std::invalid_argument& e) {
    throw OptionError(std::string("Invalid random_range_ratio value: ") + e.what());
  }
  if (in.isl_stddev != 0)
    throw OptionError("Invalid random_range_ratio value: --isl-stddev cannot be combined with --random-range-ratio; "
                      "the ratio window already controls ISL variance.");
  if (in.osl_stddev != 0)
    throw OptionError("Invalid random_range_ratio value: --osl-stddev cannot be combined with --random-range-ratio; "
                      "the ratio window already controls OSL variance.");
  ps.range_ratio_isl = ratios.first;
  ps.range_ratio_osl = ratios.second;
}

void check_cache_bust(const ProfileOptions& o) {
  const auto& ps = o.config.input.prompt_shaping;
  if (ps.cache_bust == config::CacheBust::kNone) return;
  const std::string& type = o.config.endpoint.type;
  if (!contains(kCacheBustEndpoints, type))
    throw OptionError("cache-bust is not supported by endpoint " + type +
                      "; select an endpoint whose plugin metadata sets supports_cache_bust=true");
  const auto& in = o.config.input;
  const bool synthetic = in.input_file.empty() && in.public_dataset.empty();
  if (ps.cache_bust == config::CacheBust::kWarmupIsolationSystem && synthetic && !ps.system_prompt &&
      in.shared_system_prompt_length == 0)
    throw OptionError(
        "cache_bust=warmup_isolation_system requires a shared system prompt, but no shared_system_length or "
        "verbatim system prompt is configured on the synthetic dataset. The marker would silently fall through to "
        "the user turn, making it indistinguishable from warmup_isolation_first_turn. Either set "
        "prefix_prompts.shared_system_length (--shared-system-prompt-length), pass "
        "--system-prompt/--system-prompt-file, or switch to cache_bust=warmup_isolation_first_turn.");
}

void resolve_image_source(ProfileOptions& o) {
  auto& ps = o.config.input.prompt_shaping;
  const auto& in = o.config.input;
  if (ps.image_source != "noise" && ps.image_source != "assets") {
    // A directory, indexed only when images are generated (as AIPerf's generator does).
    if (in.image_width_mean > 0 && in.image_height_mean > 0 && in.image_batch_size > 0) {
      try {
        dataset::list_source_images(ps.image_source);
      } catch (const std::invalid_argument& e) {
        throw OptionError(std::string("--image-source: ") + e.what());
      }
    }
    ps.image_source = std::filesystem::absolute(ps.image_source).string();  // services may run elsewhere
  }
  if (ps.image_source_sampling != config::ImageSourceSampling::kRandomWithReplacement && ps.image_source == "noise")
    throw OptionError("images.source_sampling requires image source 'assets' or a directory path unless it is "
                      "'random-with-replacement'; noise has no finite source pool");
}

}  // namespace

void add_prompt_shaping_options(CLI::App& app, ProfileOptions& o) {
  auto& ps = o.config.input.prompt_shaping;
  auto& raw = o.input.shaping;
  add_enum_option(app, "--prompt-corpus", ps.prompt_corpus,
                  "Corpus of synthetic prompts: sonnet (prose, default), coding (code, shell output, JSON, "
                  "tracebacks, diffs) or random (vocabulary ids)")
      ->transform(choice({"sonnet", "coding", "random"}))
      ->group("Prompt");
  const char* isl = "Input Sequence Length (ISL)";
  add_optional(app, "--random-range-ratio", raw.random_range_ratio,
               "ISL and OSL uniform in a window around --isl/--osl: a float r, or {\"input\": a, \"output\": b} "
               "(vllm style only); needs --osl")->group(isl);
  add_enum_option(app, "--random-corpus-style", ps.random_corpus_style,
                  "vllm: window [floor(m(1-r)), ceil(m(1+r))], non-special ids for --prompt-corpus random; sglang: "
                  "[max(1, int(m r)), m], every id")
      ->transform(choice({"vllm", "sglang"}))
      ->group(isl);
  const char* p = "Prefix Prompt";
  add_optional(app, "--system-prompt", raw.system_prompt,
               "Verbatim system prompt for every conversation (prepended to a dataset's own)")->group(p);
  add_optional(app, "--system-prompt-file", raw.system_prompt_file,
               "UTF-8 file holding the verbatim system prompt")->group(p);
  add_enum_option(app, "--cache-bust", ps.cache_bust,
                  "Per-session marker defeating prefix caching: none, system-prefix, system-suffix, "
                  "first-turn-prefix, first-turn-suffix, warmup-isolation-system, warmup-isolation-first-turn")
      ->transform(choice({"none", "system-prefix", "system-suffix", "first-turn-prefix", "first-turn-suffix",
                          "warmup-isolation-system", "warmup-isolation-first-turn"}))
      ->group("Cache Bust");
  const char* i = "Image Input";
  app.add_option("--image-source", ps.image_source,
                 "noise (random pixels, default), assets (four built-in pictures) or a directory of JPEG/PNG files")
      ->group(i);
  add_enum_option(app, "--image-source-sampling", ps.image_source_sampling,
                  "random-with-replacement, shuffle-cycle or sequential-cycle (assets or a directory only)")
      ->transform(choice({"random-with-replacement", "shuffle-cycle", "sequential-cycle"}))
      ->group(i);
}

void finalize_prompt_shaping_options(ProfileOptions& o) {
  resolve_system_prompt(o);
  resolve_range_ratio(o);
  check_cache_bust(o);
  resolve_image_source(o);
}

}  // namespace aiperf::cli
