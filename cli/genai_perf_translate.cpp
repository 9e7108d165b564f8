// GenAI-Perf's command line turned into what runs it: perf_analyzer's refusals, the output
// format, endpoint path and artifact names GenAI-Perf derives, and the `aiperf profile` arguments
// of our engine (genai_perf_options.h). Parsing stays in genai_perf_options.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "genai_perf_options.h"
#include "genai_perf_windows.h"

namespace aiperf::cli::genai_perf {

std::string perf_analyzer_refusal(const ProfileArgs& a) {
  // Sessions run only in perf_analyzer's session concurrency mode, which refuses what follows
  // (its messages).
  if (a.session_concurrency) {
    if (a.endpoint_type == "kserve") return "Session concurrency mode is only supported with OpenAI service kind.";
    if (a.endpoint_type != "chat" && !multimodal(a))
      return "Request body must be an object and it must have a 'messages' field that is an array. (perf_analyzer's "
             "session concurrency mode sends chat conversations: --endpoint-type chat, multimodal or vision)";
    if (a.num_sessions < *a.session_concurrency)
      return "The input data file contains " + std::to_string(a.num_sessions) +
             " unique session IDs, which is fewer than the required session concurrency level of " +
             std::to_string(*a.session_concurrency) +
             ". Please add more unique session IDs to the file or lower the session concurrency level." +
             (a.num_sessions == 0 ? " (GenAI-Perf writes sessions for --num-sessions N)" : "");
  } else if (a.num_sessions > 0) {
    return "Failed to init manager inputs: The input or output 'session_id' is not found in the model "
           "configuration (perf_analyzer takes GenAI-Perf's session rows only in its session concurrency mode: add "
           "--session-concurrency N)";
  }
  return "";
}

bool multimodal(const ProfileArgs& a) { return a.endpoint_type == "multimodal" || a.endpoint_type == "vision"; }

std::string output_format(const ProfileArgs& a) {
  if (a.endpoint_type == "chat") return "openai_chat_completions";
  if (multimodal(a)) return "openai_multimodal";
  if (a.endpoint_type == "completions") return "openai_completions";
  if (a.endpoint_type == "kserve") return a.backend;
  return "openai_embeddings";
}

// GenAI-Perf 0.0.16 derives it from the endpoint type: kserve is Triton's.
std::string service_kind(const ProfileArgs& a) { return a.endpoint_type == "kserve" ? "triton" : "openai"; }

std::string endpoint_path(const ProfileArgs& a) {
  if (!a.custom_endpoint.empty()) return a.custom_endpoint;
  if (a.endpoint_type == "kserve") return "";  // gRPC: no path
  if (a.endpoint_type == "chat" || multimodal(a)) return "v1/chat/completions";
  if (a.endpoint_type == "completions") return "v1/completions";
  return "v1/embeddings";
}

int64_t request_count(const ProfileArgs& a) {
  if (a.request_count) return *a.request_count;
  return std::max<int64_t>(10, 2 * (a.request_rate ? 0 : a.concurrency.value_or(1)));
}

std::string artifact_directory(const ProfileArgs& a) {
  std::string model = a.models.front() + (a.models.size() > 1 ? "_multi" : "");
  std::replace(model.begin(), model.end(), '/', '_');
  // GenAI-Perf names a Triton run by its backend: m-triton-tensorrtllm-concurrency1.
  std::string name =
      model + "-" + service_kind(a) + "-" + (a.endpoint_type == "kserve" ? a.backend : a.endpoint_type) + "-";
  // The load: the session concurrency wins over the others, as in GenAI-Perf's stimulus.
  name += a.session_concurrency ? "session_concurrency" + std::to_string(*a.session_concurrency)
          : a.request_rate      ? "request_rate" + python_float(*a.request_rate)
                                : "concurrency" + std::to_string(a.concurrency.value_or(1));
  std::string dir = a.artifact_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir + "/" + name;
}

std::string profile_export_path(const ProfileArgs& a) {
  if (!a.profile_export_file.empty() && a.profile_export_file.front() == '/') return a.profile_export_file;
  return artifact_directory(a) + "/" + a.profile_export_file;
}

std::vector<std::string> to_aiperf_args(const ProfileArgs& a, const std::string& artifact_dir) {
  std::vector<std::string> v;
  for (const std::string& m : a.models) v.insert(v.end(), {"--model", m});
  if (a.models.size() > 1) v.insert(v.end(), {"--model-selection-strategy", a.model_selection_strategy});
  // multimodal and vision are chat requests whose content lists the text, images and audio.
  v.insert(v.end(), {"--endpoint-type", multimodal(a) ? "chat" : a.endpoint_type, "--genai-perf-payloads"});
  if (a.endpoint_type == "kserve" && a.backend == "vllm") v.push_back("--kserve-vllm");  // vLLM's tensors
  if (multimodal(a)) v.push_back("--chat-content-parts");  // a lone text as a one-part list too
  if (!a.custom_endpoint.empty()) v.insert(v.end(), {"--endpoint", a.custom_endpoint});
  if (a.streaming) v.push_back("--streaming");
  // perf_analyzer's default server: HTTP, or gRPC (Triton's port 8001) for kserve, which our
  // profile sends over gRPC (a URL without a scheme becomes grpc://).
  v.insert(v.end(), {"--url", a.url.value_or(a.endpoint_type == "kserve" ? "localhost:8001" : "localhost:8000")});
  // A session run perf_analyzer refuses (perf_analyzer_refusal) is mapped as an ordinary one: it
  // only reaches --dry-run.
  const bool sessions = a.session_concurrency && perf_analyzer_refusal(a).empty();
  if (sessions) {
    // perf_analyzer's session concurrency mode: every session once, at most N at a time, each
    // turn after the previous one's answer and delay, with the conversation so far. It takes
    // no request count and runs no warmup.
    const std::string n = std::to_string(a.num_sessions);
    v.insert(v.end(),
             {"--concurrency", std::to_string(*a.session_concurrency), "--conversation-num", n, "--num-dataset-entries",
              n, "--dataset-sampling-strategy", "sequential", "--session-turns-mean",
              std::to_string(a.session_turns_mean), "--session-turns-stddev", std::to_string(a.session_turns_stddev),
              "--session-turn-delay-mean", std::to_string(a.session_turn_delay_mean), "--session-turn-delay-stddev",
              std::to_string(a.session_turn_delay_stddev)});
  } else if (a.request_rate) {
    // perf_analyzer's --request-rate-range sends at a constant interval.
    v.insert(v.end(), {"--request-rate", python_float(*a.request_rate), "--arrival-pattern", "constant"});
  } else {
    v.insert(v.end(), {"--concurrency", std::to_string(a.concurrency.value_or(1))});
  }
  if (sessions) {
    // (sessions: no count, no windows)
  } else if (a.measurement_interval) {
    // Time windows: one continuous load that the front end stops once its windows are stable
    // (genai_perf_windows.h); the duration only bounds the run should it never be stopped.
    const WindowPlan plan{*a.measurement_interval};
    const double cap_s = static_cast<double>(plan.max_trials * plan.window_ns()) / 1e9 + 10;
    v.insert(v.end(), {"--benchmark-duration", python_float(cap_s)});
  } else {
    v.insert(v.end(), {"--request-count", std::to_string(request_count(a))});
  }
  if (a.warmup_request_count > 0 && !sessions)
    v.insert(v.end(), {"--warmup-request-count", std::to_string(a.warmup_request_count)});
  if (!a.input_file.empty()) {
    // One request per line, in file order, cycling (perf_analyzer walks its input data so).
    v.insert(v.end(), {"--input-file", a.input_file, "--custom-dataset-type", "single_turn",
                       "--dataset-sampling-strategy", "sequential"});
  } else {
    if (!sessions) v.insert(v.end(), {"--num-dataset-entries", std::to_string(a.num_dataset_entries)});
    v.insert(v.end(), {"--synthetic-input-tokens-mean", std::to_string(a.synthetic_tokens_mean),
                       "--synthetic-input-tokens-stddev", std::to_string(a.synthetic_tokens_stddev)});
    // GenAI-Perf makes images and clips for every single-turn synthetic row, but only the
    // multimodal converter sends them (chat sends the text alone): they go to the engine then.
    if (multimodal(a) && a.num_sessions == 0) {
      if (a.image_width_mean > 0 && a.image_height_mean > 0)
        v.insert(v.end(),
                 {"--image-width-mean", std::to_string(a.image_width_mean), "--image-width-stddev",
                  std::to_string(a.image_width_stddev), "--image-height-mean", std::to_string(a.image_height_mean),
                  "--image-height-stddev", std::to_string(a.image_height_stddev), "--image-format", a.image_format,
                  "--batch-size-image", std::to_string(a.batch_size_image)});
      if (a.audio_length_mean.value_or(0) > 0) {
        std::string depths, rates;
        for (const int64_t d : a.audio_depths) depths += (depths.empty() ? "" : ",") + std::to_string(d);
        for (const double r : a.audio_sample_rates) rates += (rates.empty() ? "" : ",") + python_float(r);
        v.insert(v.end(),
                 {"--audio-length-mean", python_float(*a.audio_length_mean), "--audio-length-stddev",
                  python_float(a.audio_length_stddev.value_or(0)), "--audio-format", a.audio_format, "--audio-depths",
                  depths, "--audio-sample-rates", rates, "--audio-num-channels", std::to_string(a.audio_num_channels),
                  "--batch-size-audio", std::to_string(a.batch_size_audio)});
      }
    }
  }
  if (a.output_tokens_mean) {
    v.insert(v.end(), {"--output-tokens-mean", std::to_string(*a.output_tokens_mean), "--output-tokens-stddev",
                       std::to_string(a.output_tokens_stddev)});
    // GenAI-Perf asks chat for max_tokens (AIPerf: max_completion_tokens).
    if (a.endpoint_type == "chat" || multimodal(a)) v.push_back("--use-legacy-max-tokens");
    // --output-tokens-mean-deterministic: TensorRT-LLM's min_length tensor, as GenAI-Perf sends it.
    if (a.output_tokens_deterministic)
      v.insert(v.end(), {"--extra-inputs", "min_length:" + std::to_string(*a.output_tokens_mean)});
  }
  if (a.num_prefix_prompts > 0)
    v.insert(v.end(), {"--num-prefix-prompts", std::to_string(a.num_prefix_prompts), "--prefix-prompt-length",
                       std::to_string(a.prefix_prompt_length)});
  if (a.batch_size_text_set) v.insert(v.end(), {"--batch-size-text", std::to_string(a.batch_size_text)});
  v.insert(v.end(), {"--random-seed", std::to_string(a.random_seed)});
  for (const std::string& e : a.extra_inputs) v.insert(v.end(), {"--extra-inputs", e});
  for (const std::string& h : a.headers) v.insert(v.end(), {"--header", h});
  if (!a.tokenizer.empty()) v.insert(v.end(), {"--tokenizer", a.tokenizer});
  if (a.tokenizer_revision != "main") v.insert(v.end(), {"--tokenizer-revision", a.tokenizer_revision});
  if (a.tokenizer_trust_remote_code) v.push_back("--tokenizer-trust-remote-code");
  if (a.verbose) v.push_back("--verbose");
  v.insert(v.end(), {"--artifact-dir", artifact_dir, "--export-level", "raw", "--ui", "none"});
  return v;
}

}  // namespace aiperf::cli::genai_perf
