// The `input_config` block GenAI-Perf 0.0.16 echoes in profile_export_genai_perf.json: every
// option of the run in GenAI-Perf's own layout and spelling of its values.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {

namespace {
// --extra-inputs values as GenAI-Perf echoes them: name:value pairs with JSON-typed values, or a
// JSON object merged in.
nlohmann::ordered_json extra_json(const std::vector<std::string>& extra) {
  if (extra.empty()) return "";  // GenAI-Perf echoes an unset value (None) as ""
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const std::string& e : extra) {
    if (!e.empty() && e.front() == '{') {
      const auto j = nlohmann::ordered_json::parse(e, nullptr, false);
      if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = it.value();
      continue;
    }
    const size_t colon = e.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = e.substr(0, colon), value = e.substr(colon + 1);
    if (value == "true" || value == "false") {
      out[key] = value == "true";
    } else {
      try {
        size_t used = 0;
        const long long n = std::stoll(value, &used);
        if (used == value.size()) {
          out[key] = n;
          continue;
        }
        const double d = std::stod(value, &used);
        if (used == value.size()) {
          out[key] = d;
          continue;
        }
      } catch (const std::exception&) {}
      out[key] = value;
    }
  }
  return out;
}
}  // namespace

nlohmann::ordered_json input_config(const ProfileArgs& a) {
  using J = nlohmann::ordered_json;
  J stimulus = J::object();
  if (a.session_concurrency) stimulus["session_concurrency"] = *a.session_concurrency;
  else if (a.request_rate) stimulus["request_rate"] = *a.request_rate;
  else stimulus["concurrency"] = a.concurrency.value_or(1);
  // A float option echoes its value as given (2.0) once set, GenAI-Perf's int default otherwise.
  const auto given_float = [](const std::optional<double>& v, const J& unset) { return v ? J(*v) : unset; };
  J depths = J::array(), rates = J::array();
  for (const int64_t d : a.audio_depths) depths.push_back(d);
  // GenAI-Perf's default [16] is an int list; given rates are floats (argparse type=float).
  for (const double r : a.audio_sample_rates) {
    if (!a.audio_sample_rates_given || a.audio_sample_rates_integral) rates.push_back(static_cast<int64_t>(r));
    else rates.push_back(r);
  }
  J models = J::array();
  for (const std::string& m : a.models) models.push_back(m);
  J header = "";  // GenAI-Perf echoes the list given, "" without one
  if (!a.headers.empty()) header = J(a.headers);
  J goodput_json = "";
  if (!a.goodput.empty()) {
    goodput_json = J::object();
    for (const auto& [k, v] : a.goodput) goodput_json[k] = v;
  }
  return J{
      {"model_names", models},
      {"subcommand", "profile"},
      {"verbose", a.verbose},
      {"template_filename", "genai_perf_config.yaml"},
      {"analyze", {{"sweep_parameters", {{"concurrency", {{"min", 1}, {"max", 1024}}}}}}},
      {"endpoint",
       {{"model_selection_strategy", a.model_selection_strategy},
        {"backend", a.backend},
        {"custom", endpoint_path(a)},
        {"type", a.endpoint_type},
        {"streaming", a.streaming},
        {"server_metrics_urls", J::array({"http://localhost:9400/metrics"})},
        {"url", a.url.value_or("localhost:8001")},
        {"grpc_method", ""},
        {"service_kind", service_kind(a)},
        {"output_format", output_format(a)}}},
      {"perf_analyzer",
       {{"path", "perf_analyzer"},
        {"verbose", false},  // -v sets the top-level verbose only (GenAI-Perf 0.0.16 echoes so)
        {"stimulus", stimulus},
        {"stability_percentage", !a.stability_percentage           ? J(999)
                                 : a.stability_percentage_integral ? J(static_cast<int64_t>(*a.stability_percentage))
                                                                   : J(*a.stability_percentage)},
        // GenAI-Perf echoes the count only when given (perf_analyzer gets the derived one).
        {"measurement", a.measurement_interval
                            ? J{{"mode", "interval"}, {"num", *a.measurement_interval}}
                            : J{{"mode", "request_count"}, {"num", a.request_count ? J(*a.request_count) : J("")}}},
        {"warmup_request_count", a.warmup_request_count}}},
      {"input",
       {{"batch_size", a.batch_size_text},
        {"extra", extra_json(a.extra_inputs)},
        {"goodput", goodput_json},
        {"header", header},
        {"file", a.input_file},
        {"num_dataset_entries", a.num_dataset_entries},
        {"random_seed", a.random_seed},
        {"audio",
         {{"batch_size", a.batch_size_audio},
          {"length",
           {{"mean", given_float(a.audio_length_mean, 0)}, {"stddev", given_float(a.audio_length_stddev, 0)}}},
          {"format", a.audio_format},
          {"depths", depths},
          {"sample_rates", rates},
          {"num_channels", a.audio_num_channels}}},
        {"image",
         {{"width", {{"mean", a.image_width_mean}, {"stddev", a.image_width_stddev}}},
          {"height", {{"mean", a.image_height_mean}, {"stddev", a.image_height_stddev}}},
          {"batch_size", a.batch_size_image},
          {"format", a.image_format}}},
        {"output_tokens",
         {{"mean", a.output_tokens_mean ? J(*a.output_tokens_mean) : J("")},
          {"deterministic", a.output_tokens_deterministic},
          {"stddev", a.output_tokens_stddev}}},
        {"synthetic_tokens", {{"mean", a.synthetic_tokens_mean}, {"stddev", a.synthetic_tokens_stddev}}},
        {"prefix_prompt", {{"num", a.num_prefix_prompts}, {"length", a.prefix_prompt_length}}},
        {"sessions",
         {{"num", a.num_sessions},
          {"turns", {{"mean", a.session_turns_mean}, {"stddev", a.session_turns_stddev}}},
          {"turn_delay",
           {{"mean", a.session_turn_delay_mean},
            {"ratio", a.session_delay_ratio.value_or(1.0)},
            {"stddev", a.session_turn_delay_stddev}}}}},
        {"prompt_source", a.input_file.empty() ? "synthetic" : "file"},
        {"synthetic_files", J::array()},
        {"payload_file", ""}}},
      {"output",
       {{"artifact_directory", a.artifact_dir},
        {"checkpoint_directory", a.checkpoint_dir},
        {"profile_export_file", a.profile_export_file},
        {"generate_plots", a.generate_plots},
        {"enable_checkpointing", a.enable_checkpointing}}},
      {"tokenizer",
       {{"name", a.tokenizer.empty() ? a.models.front() : a.tokenizer},
        {"revision", a.tokenizer_revision},
        {"trust_remote_code", a.tokenizer_trust_remote_code},
        {"_enable_debug_logging", true}}},
      {"process", {{"input_path", "aggregated"}}},
  };
}

}  // namespace aiperf::cli::genai_perf
