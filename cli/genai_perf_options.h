// `genai-perf profile` (GenAI-Perf 0.0.16) command line: parsed as GenAI-Perf's argparse parser
// does (long options, unique prefixes, `--opt=value`, `-mVALUE`, multi-value options), then
// mapped onto `aiperf profile` arguments so the run goes through our one engine. Options we
// cannot honour yet are refused by name (GenAiPerfOptionError), never ignored.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::genai_perf {

class GenAiPerfOptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every value of a `genai-perf profile` command line, with GenAI-Perf's defaults.
struct ProfileArgs {
  std::vector<std::string> models;
  std::string model_selection_strategy = "round_robin";
  // Audio and image inputs (GenAI-Perf's defaults). Generated for every synthetic row, but only
  // the multimodal and vision types put them in the request; images need width and height > 0,
  // audio a length > 0. Floats keep whether they were given (echoed 2.0, the default 0).
  int64_t batch_size_audio = 1;
  std::optional<double> audio_length_mean;
  std::optional<double> audio_length_stddev;
  std::string audio_format = "wav";
  std::vector<int64_t> audio_depths{16};
  std::vector<double> audio_sample_rates{16};  // kHz
  bool audio_sample_rates_given = false;       // echoed as floats then (16.0), the default as [16]
  bool audio_sample_rates_integral = false;    // a config file's rates: echoed as integers
  int64_t audio_num_channels = 1;
  int64_t batch_size_image = 1;
  int64_t image_width_mean = 0;
  int64_t image_width_stddev = 0;
  int64_t image_height_mean = 0;
  int64_t image_height_stddev = 0;
  std::string image_format = "png";
  // Sessions: --num-sessions multi-turn conversations, run by perf_analyzer's session
  // concurrency mode (--session-concurrency: that many sessions at a time, each once, the
  // history sent with every turn). --session-delay-ratio scales payload files' delays only.
  int64_t num_sessions = 0;
  std::optional<int64_t> session_concurrency;
  int64_t session_turns_mean = 1;
  int64_t session_turns_stddev = 0;
  int64_t session_turn_delay_mean = 0;
  int64_t session_turn_delay_stddev = 0;
  std::optional<double> session_delay_ratio;
  std::string backend = "tensorrtllm";
  std::string endpoint_type = "kserve";  // GenAI-Perf's default: Triton over gRPC
  std::string custom_endpoint;           // --endpoint; empty: the type's default path
  bool streaming = false;
  bool generate_plots = false;  // --generate-plots: GenAI-Perf's five plots in <artifacts>/plots
  std::optional<std::string> url;
  std::optional<int64_t> concurrency;
  std::optional<double> request_rate;
  std::optional<int64_t> request_count;
  // perf_analyzer's time windows (genai_perf_windows.h): --measurement-interval in ms (unset, as
  // GenAI-Perf leaves it, when 0) and --stability-percentage (unset when 0: GenAI-Perf's 999).
  std::optional<int64_t> measurement_interval;
  std::optional<double> stability_percentage;
  bool stability_percentage_integral = false;  // echoed as an integer (a config file's integer)
  int64_t num_dataset_entries = 100;
  int64_t synthetic_tokens_mean = 550;
  int64_t synthetic_tokens_stddev = 0;
  std::optional<int64_t> output_tokens_mean;
  int64_t output_tokens_stddev = 0;
  bool output_tokens_deterministic = false;
  int64_t random_seed = 0;
  int64_t warmup_request_count = 0;
  int64_t batch_size_text = 1;
  bool batch_size_text_set = false;
  int64_t num_prefix_prompts = 0;
  int64_t prefix_prompt_length = 100;
  std::vector<std::pair<std::string, double>> goodput;  // SLO name -> ms or per-second target, as given
  std::string input_file;  // a JSONL file of {"text": ...} lines (empty: synthetic prompts)
  std::vector<std::string> extra_inputs;
  std::vector<std::string> headers;
  std::string tokenizer;  // empty: the model name (GenAI-Perf's and our default)
  std::string tokenizer_revision = "main";
  bool tokenizer_trust_remote_code = false;
  std::string artifact_dir = "artifacts";
  std::string checkpoint_dir = "checkpoint";
  // --enable-checkpointing: runs already in <checkpoint_dir>/checkpoint.json are not run again
  // (genai_perf_checkpoint.h).
  bool enable_checkpointing = false;
  std::string profile_export_file = "profile_export.json";
  bool verbose = false;
  bool help = false;
  bool dry_run = false;  // ours (not GenAI-Perf's): check the mapped run as `aiperf profile --dry-run`
  // `analyze` only (genai_perf_analyze.h turns them into the sweep): as given.
  std::string sweep_type;
  std::string sweep_range;
  std::string sweep_list;
};

// Parses the words after `profile`. Throws GenAiPerfOptionError naming the option for an unknown
// or ambiguous option, a missing or malformed value, a conflict GenAI-Perf refuses, or an option
// (or endpoint type) this front end does not support yet.
// `analyze` also takes --sweep-type/--sweep-range/--sweep-list (kept as given in ProfileArgs).
ProfileArgs parse_profile_args(const std::vector<std::string>& words, bool analyze = false);

// Why the front end refuses `option` (canonical long spelling, e.g. "--audio-format"): "audio
// inputs", ...; "" when it is supported (or unknown).
std::string unsupported_reason(const std::string& option);

// "openai" for the endpoint types we run (chat, completions, embeddings, multimodal, vision),
// "triton" for kserve.
std::string service_kind(const ProfileArgs& a);
// Why perf_analyzer (as GenAI-Perf 0.0.16 drives it) would refuse this run after GenAI-Perf wrote
// inputs.json, in its words; "" when it would not. Sessions: --num-sessions without
// --session-concurrency, fewer sessions than the session concurrency, session concurrency with
// kserve or a type without chat messages. The command line itself is valid (GenAI-Perf accepts it).
std::string perf_analyzer_refusal(const ProfileArgs& a);
// multimodal and vision: chat requests whose content lists the text, images and audio.
bool multimodal(const ProfileArgs& a);
// GenAI-Perf's output_format name of the endpoint type ("openai_chat_completions", ...).
std::string output_format(const ProfileArgs& a);
// The endpoint path GenAI-Perf sends to: --endpoint, else the type's OpenAI path.
std::string endpoint_path(const ProfileArgs& a);
// The request count GenAI-Perf asks perf_analyzer for: --request-count, else
// max(10, 2 * concurrency).
int64_t request_count(const ProfileArgs& a);
// GenAI-Perf's artifact directory: <artifact-dir>/<model>-<service kind>-<type>-<load>, the
// model's '/' turned into '_' (a second model adds "_multi"), load "concurrency<N>" or
// "request_rate<R>" (R printed as Python prints a float: 5.0, 2.5).
std::string artifact_directory(const ProfileArgs& a);
// Where perf_analyzer's profile export goes: <artifact directory>/<--profile-export-file>.
std::string profile_export_path(const ProfileArgs& a);
// The `aiperf profile` arguments (without "profile") of the same run: our engine writes its
// files (raw records included) into `artifact_dir`, which the front end then turns into
// GenAI-Perf's files.
std::vector<std::string> to_aiperf_args(const ProfileArgs& a, const std::string& artifact_dir);
// GenAI-Perf's `input_config` block of profile_export_genai_perf.json for this command line.
nlohmann::ordered_json input_config(const ProfileArgs& a);
// Python's str(float): 5.0, 2.5, 0.1.
std::string python_float(double v);

// The usage text of `genai-perf profile --help`: every option, and which are not supported yet.
std::string profile_help();
// Its "options:" part onwards (analyze's and config's help list the same options).
std::string profile_options_help();

}  // namespace aiperf::cli::genai_perf
