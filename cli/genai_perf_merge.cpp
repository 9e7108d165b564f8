#include "genai_perf_merge.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {
namespace {

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

J read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MergeError("Error reading file '" + path.string() + "': cannot open it");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return J::parse(text.str());
  } catch (const J::exception& e) {
    throw MergeError("Error reading file '" + path.string() + "': " + e.what());
  }
}

// The keys a section of input_config must have for the merge to be named and measured.
const J& section(const J& config, const char* key, const fs::path& file) {
  if (!config.is_object() || !config.contains(key) || !config[key].is_object())
    throw MergeError("Invalid profile data in file '" + file.string() + "': input_config has no '" + key + "' section");
  return config[key];
}

// Python's " ".join(s) over a str: its characters (code points) separated by spaces.
std::string join_characters(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (i) out += ' ';
    out += s.substr(i, len);
    i += len;
  }
  return out;
}

bool sse_non_data_field(const std::string& m) {
  return m.rfind(':', 0) == 0 || m.rfind("event:", 0) == 0 || m.rfind("id:", 0) == 0 || m.rfind("retry:", 0) == 0;
}

// GenAI-Perf's repairs of an OpenAI request's SSE responses before measuring them: a response
// that does not start with "data: " is the tail of the one before (perf_analyzer split an event)
// and joins it up to its own next "data: "; an error event fails the whole merge.
void repair_sse(std::vector<std::string>& outputs) {
  for (size_t i = outputs.size(); i-- > 1;) {
    const std::string response = outputs[i];
    if (sse_non_data_field(response) || response.rfind("data: ", 0) == 0) continue;
    if (outputs[i - 1].find("data:") == std::string::npos)
      throw MergeError(
          "Detected a splintered SSE response but the previous response does not contain proper SSE "
          "prefix to continue the fix.");
    const size_t at = response.find("data: ");
    outputs[i - 1] += response.substr(0, at);
    outputs[i] = at == std::string::npos ? "" : response.substr(at);
  }
  for (const std::string& o : outputs) {
    const size_t first = o.find_first_not_of(" \t\n\r\f\v");
    const std::string body =
        first == std::string::npos ? "" : o.substr(first, o.find_last_not_of(" \t\n\r\f\v") - first + 1);
    size_t start = 0;
    while (start <= body.size()) {
      const size_t end = body.find("\n\n", start);
      const std::string event = body.substr(start, end == std::string::npos ? std::string::npos : end - start);
      std::string lower = event;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (event.rfind("event:", 0) == 0 && lower.find("error") != std::string::npos)
        throw MergeError("Detected an error event in the SSE response: " + event);
      if (end == std::string::npos) break;
      start = end + 2;
    }
  }
}

// A Triton request's prompt: perf_analyzer's text_input, or (our profile's layout) the
// text_input tensor of the KServe body it sent.
std::string triton_prompt(const J& request_inputs) {
  if (request_inputs.contains("text_input")) return request_inputs["text_input"].get<std::string>();
  const J body = J::parse(request_inputs.at("payload").get<std::string>());
  for (const J& input : body.at("inputs"))
    if (input.value("name", "") == "text_input") return input.at("data").at(0).get<std::string>();
  throw MergeError("request_inputs has no text_input");
}

std::string prompt_text(const J& payload, Format format, bool multimodal) {
  std::string text;
  if (format == Format::kChat) {
    const J& messages = payload.at("messages");
    if (multimodal) {
      // GenAI-Perf reads the first message's text parts.
      for (const J& part : messages.at(0).at("content"))
        if (part.value("type", "") == "text") text += (text.empty() ? "" : " ") + part.at("text").get<std::string>();
      return text;
    }
    for (size_t i = 0; i < messages.size(); ++i) text += (i ? " " : "") + messages[i].at("content").get<std::string>();
    return text;
  }
  const J& prompt = payload.at("prompt");
  if (prompt.is_string()) return join_characters(prompt.get<std::string>());
  for (size_t i = 0; i < prompt.size(); ++i) text += (i ? " " : "") + prompt[i].get<std::string>();
  return text;
}

}  // namespace

std::string python_str(const J& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return python_float(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_null()) return "None";
  return v.dump();
}

std::vector<ExportPair> find_export_pairs(const fs::path& input_dir) {
  std::vector<fs::path> subdirs;
  for (const auto& e : fs::directory_iterator(input_dir))
    if (e.is_directory()) subdirs.push_back(e.path());
  std::sort(subdirs.begin(), subdirs.end());
  std::vector<ExportPair> pairs;
  for (const fs::path& dir : subdirs) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    const auto gap =
        std::find_if(names.begin(), names.end(), [](const std::string& n) { return ends_with(n, "_genai_perf.json"); });
    if (gap == names.end()) continue;
    // `genai-perf profile` writes X.json beside X_genai_perf.json. GenAI-Perf itself takes the
    // first other .json the directory lists, which may be inputs.json (and then fails).
    const std::string twin = gap->substr(0, gap->size() - std::string("_genai_perf.json").size()) + ".json";
    auto pa = std::find(names.begin(), names.end(), twin);
    if (pa == names.end())
      pa = std::find_if(names.begin(), names.end(),
                        [](const std::string& n) { return n.find("_genai_perf") == std::string::npos; });
    if (pa == names.end()) continue;
    pairs.push_back({dir / *pa, dir / *gap});
  }
  return pairs;
}

MergedExports merge_exports(const std::vector<ExportPair>& pairs) {
  MergedExports m;
  m.pa = J{{"experiments", J::array()}, {"version", ""}, {"service_kind", ""}, {"endpoint", ""}};
  for (const ExportPair& p : pairs) {
    const J pa = read_json(p.pa_file);
    if (!pa.is_object() || !pa.contains("experiments") || !pa["experiments"].is_array() || pa["experiments"].empty())
      throw MergeError("Invalid profile data in file '" + p.pa_file.string() +
                       "': 'experiments' key is missing or empty");
    const J& experiment = pa["experiments"][0];
    if (!experiment.is_object() || !experiment.contains("requests") || !experiment["requests"].is_array())
      throw MergeError("Error reading file '" + p.pa_file.string() + "': 'requests'");
    if (m.pa["experiments"].empty()) {
      m.pa["version"] = pa.value("version", J(""));
      m.pa["service_kind"] = pa.value("service_kind", J(""));
      m.pa["endpoint"] = pa.value("endpoint", J(""));
      m.pa["experiments"].push_back(experiment);
    } else {
      J& requests = m.pa["experiments"][0]["requests"];
      for (const J& r : experiment["requests"]) requests.push_back(r);
    }
    const J gap = read_json(p.gap_file);
    if (!gap.is_object()) throw MergeError("Error reading file '" + p.gap_file.string() + "': not a JSON object");
    const auto avg = [&](const char* metric, std::vector<double>& into) {
      if (!gap.contains(metric)) return;
      const J& v = gap[metric];
      if (!v.is_object() || !v.contains("avg") || !v["avg"].is_number())
        throw MergeError("Error reading file '" + p.gap_file.string() + "': '" + metric + "' has no average");
      into.push_back(v["avg"].get<double>());
    };
    avg("request_throughput", m.request_throughputs);
    avg("output_token_throughput", m.output_token_throughputs);
    if (gap.contains("telemetry_stats") && gap["telemetry_stats"].is_object() && !gap["telemetry_stats"].empty())
      m.telemetry.push_back(gap["telemetry_stats"]);
    if (m.input_config.is_null() || m.input_config.empty()) {
      m.input_config = gap.value("input_config", J::object());
      for (const char* key : {"endpoint", "perf_analyzer", "input", "tokenizer"})
        (void)section(m.input_config, key, p.gap_file);
      if (!m.input_config.contains("model_names") || !m.input_config["model_names"].is_array() ||
          m.input_config["model_names"].empty() || !m.input_config["model_names"][0].is_string())
        throw MergeError("Invalid profile data in file '" + p.gap_file.string() + "': input_config has no model_names");
    }
  }
  return m;
}

Format merged_format(const J& pa) {
  const std::string kind = pa.value("service_kind", "");
  const std::string endpoint = pa.value("endpoint", "");
  if (kind == "triton") return Format::kKserve;
  if (kind != "openai")
    throw MergeError("service kind '" + kind +
                     "': process-export-files merges OpenAI chat and completions runs and Triton runs only "
                     "(not supported yet by aiperf's genai-perf front end)");
  if (endpoint == "v1/chat/completions") return Format::kChat;
  if (endpoint == "v1/completions") return Format::kCompletions;
  const J& requests = pa["experiments"][0]["requests"];
  if (endpoint.empty() || (endpoint.find("/generate") == std::string::npos && endpoint != "v1/embeddings" &&
                           endpoint != "v1/ranking" && endpoint != "v1/infer" && endpoint != "rerank")) {
    // GenAI-Perf looks at the first request's first response when the endpoint is a custom one.
    if (!requests.empty() && requests[0].contains("response_outputs") && !requests[0]["response_outputs"].empty()) {
      const std::string response = requests[0]["response_outputs"][0].value("response", "");
      if (response.find("chat.completion") != std::string::npos) return Format::kChat;
      if (response.find("text_completion") != std::string::npos) return Format::kCompletions;
    }
  }
  throw MergeError("endpoint '" + endpoint + "': GenAI-Perf 0.0.16 merges LLM (chat, completions) runs only");
}

void check_load_level(const J& pa, const J& input_config) {
  const J& stimulus = input_config["perf_analyzer"].value("stimulus", J::object());
  std::string mode, level;
  if (stimulus.contains("session_concurrency") || stimulus.contains("fixed_schedule")) {
    mode = "request_rate", level = "0.0";
  } else if (stimulus.contains("concurrency")) {
    mode = "concurrency", level = python_str(stimulus["concurrency"]);
  } else if (stimulus.contains("request_rate")) {
    mode = "request_rate", level = python_str(stimulus["request_rate"]);
  } else {
    throw MergeError("Cannot determine infer_mode/load_level");
  }
  const J& experiment = pa["experiments"][0].value("experiment", J::object());
  if (python_str(experiment.value("mode", J(""))) != mode || python_str(experiment.value("value", J(""))) != level)
    throw MergeError("Profile with " + mode + "=" + level + " does not exist.");
}

std::vector<PaRequest> merged_requests(const J& pa, Format format,
                                       const std::function<int64_t(const std::string&)>& count_tokens) {
  std::vector<PaRequest> out;
  const J& requests = pa["experiments"][0]["requests"];
  // GenAI-Perf decides chat vs multimodal once, from the first request's payload.
  const std::string first_payload =
      requests.empty() ? "" : requests[0].value("request_inputs", J::object()).value("payload", "");
  const bool multimodal = format == Format::kChat && (first_payload.find("image_url") != std::string::npos ||
                                                      first_payload.find("input_audio") != std::string::npos);
  for (size_t i = 0; i < requests.size(); ++i) {
    const J& r = requests[i];
    try {
      PaRequest q;
      q.timestamp = r.at("timestamp").get<int64_t>();
      q.response_timestamps = r.at("response_timestamps").get<std::vector<int64_t>>();
      std::string output;
      if (format == Format::kKserve) {
        // Triton: every response's text_output, empty ones too (GenAI-Perf drops none).
        for (const J& o : r.at("response_outputs")) {
          q.response_outputs.push_back(o.at("text_output").get<std::string>());
          output += q.response_outputs.back();
        }
        q.input_tokens = count_tokens(triton_prompt(r.at("request_inputs")));
      } else {
        q.payload = r.at("request_inputs").at("payload").get<std::string>();
        for (const J& o : r.at("response_outputs")) q.response_outputs.push_back(o.at("response").get<std::string>());
        repair_sse(q.response_outputs);
        for (const std::string& o : q.response_outputs) output += response_text(o, format);
        q.input_tokens = count_tokens(prompt_text(J::parse(q.payload), format, multimodal));
      }
      q.output_tokens = count_tokens(output);
      out.push_back(std::move(q));
    } catch (const J::exception& e) {
      throw MergeError("merged request " + std::to_string(i) + " (timestamp " +
                       (r.contains("timestamp") ? r["timestamp"].dump() : "?") + "): " + e.what());
    }
  }
  return out;
}

J merged_statistics(const std::vector<PaRequest>& requests, Format format, const MergedExports& merged) {
  Goodput goodput;
  const J& g = merged.input_config["input"].value("goodput", J(""));
  if (g.is_object())
    for (auto it = g.begin(); it != g.end(); ++it)
      if (it.value().is_number()) goodput.emplace_back(it.key(), it.value().get<double>());
  J stats = compute_statistics(requests, format, goodput, format != Format::kKserve);
  // Python's sum(): left to right from 0 (an empty list sums to 0).
  const auto sum = [](const std::vector<double>& v) {
    double s = 0;
    for (const double x : v) s += x;
    return s;
  };
  if (stats.contains("request_throughput")) stats["request_throughput"]["avg"] = sum(merged.request_throughputs);
  if (stats.contains("output_token_throughput"))
    stats["output_token_throughput"]["avg"] = sum(merged.output_token_throughputs);
  return stats;
}

J session_statistics(const J& pa, const std::vector<PaRequest>& requests, Format format) {
  const J& records = pa["experiments"][0]["requests"];
  std::vector<std::pair<std::string, std::vector<PaRequest>>> sessions;
  for (size_t i = 0; i < requests.size() && i < records.size(); ++i) {
    const J& inputs = records[i].value("request_inputs", J::object());
    if (!inputs.contains("session_id")) continue;
    // A request without content is skipped before GenAI-Perf looks at its session.
    const PaRequest& r = requests[i];
    bool content = false;
    for (const std::string& o : r.response_outputs)
      content = content || format == Format::kKserve || !response_text(o, format).empty();
    if (!content) continue;
    const std::string id = python_str(inputs["session_id"]);
    auto it = std::find_if(sessions.begin(), sessions.end(), [&](const auto& s) { return s.first == id; });
    if (it == sessions.end()) it = sessions.insert(sessions.end(), {id, {}});
    it->second.push_back(r);
  }
  if (sessions.empty()) return J();
  J out = J::object();
  for (const auto& s : sessions) out[s.first] = compute_statistics(s.second, format, {}, format != Format::kKserve);
  return out;
}

J process_input_config(const J& first, const ProcessArgs& a) {
  J out = J::object();
  out["model_names"] = first["model_names"];
  out["subcommand"] = "process";
  out["verbose"] = a.verbose;
  out["template_filename"] = "genai_perf_config.yaml";
  // The merge's own analyze section, at its defaults (the runs' is not read).
  out["analyze"] = J{{"sweep_parameters", {{"concurrency", {{"min", 1}, {"max", 1024}}}}}};
  // GenAI-Perf parses the run's endpoint section into a fresh one: every key in its own order,
  // at its default when the run's file leaves it out (a hand-edited file without backend).
  J endpoint{{"model_selection_strategy", "round_robin"},
             {"backend", "tensorrtllm"},
             {"custom", ""},
             {"type", "kserve"},
             {"streaming", false},
             {"server_metrics_urls", J::array({"http://localhost:9400/metrics"})},
             {"url", "localhost:8001"},
             {"grpc_method", ""},
             {"service_kind", "triton"},
             {"output_format", nullptr}};
  for (auto it = first["endpoint"].begin(); it != first["endpoint"].end(); ++it) endpoint[it.key()] = it.value();
  out["endpoint"] = endpoint;
  out["perf_analyzer"] = first["perf_analyzer"];
  out["input"] = first["input"];
  out["output"] = J{{"artifact_directory", python_path(a.artifact_dir)},
                    {"checkpoint_directory", python_path(a.checkpoint_dir)},
                    {"profile_export_file", python_path(a.profile_export_file)},
                    {"generate_plots", a.generate_plots},
                    {"enable_checkpointing", a.enable_checkpointing}};
  out["tokenizer"] = first["tokenizer"];
  out["process"] = J{{"input_path", python_path(a.input_path)}};
  return out;
}

std::string process_artifact_directory(const J& first, const ProcessArgs& a) {
  const J& models = first["model_names"];
  std::string model = models[0].get<std::string>() + (models.size() > 1 ? "_multi" : "");
  std::replace(model.begin(), model.end(), '/', '_');
  const J& endpoint = first["endpoint"];
  const std::string kind = endpoint.value("service_kind", "");
  std::string name = model + "-";
  if (kind == "triton")  // named by its backend, GenAI-Perf's default when the run's file has none
    name += kind + "-" + endpoint.value("backend", "tensorrtllm");
  else if (kind == "tensorrtllm_engine") name += kind;
  else name += kind + "-" + endpoint.value("type", "");
  const J& stimulus = first["perf_analyzer"].value("stimulus", J::object());
  const bool payload = first["input"].value("prompt_source", "") == "payload";
  if (payload && !stimulus.contains("session_concurrency") && !stimulus.contains("fixed_schedule")) {
    // GenAI-Perf names a payload run by model and endpoint only.
  } else if (stimulus.contains("concurrency")) {
    name += "-concurrency" + python_str(stimulus["concurrency"]);
  } else if (stimulus.contains("request_rate")) {
    name += "-request_rate" + python_str(stimulus["request_rate"]);
  } else if (stimulus.contains("session_concurrency")) {
    name += "-session_concurrency" + python_str(stimulus["session_concurrency"]);
  } else if (stimulus.contains("fixed_schedule")) {
    name += "-fixed_schedule";
  }
  const std::string dir = python_path(a.artifact_dir);
  return dir == "/" ? "/" + name : dir + "/" + name;
}

}  // namespace aiperf::cli::genai_perf
