#include "endpoints/video_generation.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "endpoints/usage_json.h"

namespace aiperf::endpoints {

namespace {

// Python's repr of a decoded JSON value (str(dict) in AIPerf's messages): single-quoted strings,
// True/False/None. Strings with a single quote are double-quoted, as Python does.
template <class Json>
void python_repr(const Json& v, std::string& out) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: out += "None"; return;
    case nlohmann::json::value_t::boolean: out += v.template get<bool>() ? "True" : "False"; return;
    case nlohmann::json::value_t::string: {
      const std::string& s = v.template get_ref<const std::string&>();
      const char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
      out += q;
      for (char c : s) {
        if (c == q || c == '\\') out += '\\';
        out += c;
      }
      out += q;
      return;
    }
    case nlohmann::json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : v) {
        if (!first) out += ", ";
        first = false;
        python_repr(item, out);
      }
      out += ']';
      return;
    }
    case nlohmann::json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : v.items()) {
        if (!first) out += ", ";
        first = false;
        python_repr(Json(key), out);
        out += ": ";
        python_repr(item, out);
      }
      out += '}';
      return;
    }
    default: out += v.dump(); return;  // numbers
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The body as a JSON object, or AIPerf's "Invalid JSON in video <context> response" error.
std::variant<nlohmann::ordered_json, VideoJobError> read_object(std::string_view body, int status,
                                                                std::string_view context) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    const std::string snippet = body.empty() ? "<empty>" : std::string(body.substr(0, 200));
    return VideoJobError{500, "VideoGenerationError",
                         "Invalid JSON in video " + std::string(context) + " response (status " +
                             std::to_string(status) + "): " + snippet};
  }
  return j;
}

std::optional<double> number_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

nlohmann::ordered_json video_generation_payload(const std::vector<const proto::Turn*>& turns,
                                                const std::string& model, const nlohmann::json* extra_inputs) {
  if (turns.empty()) throw std::invalid_argument("Video generation endpoint requires at least one turn.");
  const proto::Turn& turn = *turns.back();
  if (turn.texts().empty() || turn.texts(0).contents().empty())
    throw std::invalid_argument("Video generation endpoint requires a text prompt.");
  nlohmann::ordered_json payload;
  payload["prompt"] = turn.texts(0).contents(0);
  payload["model"] = model;
  if (extra_inputs && extra_inputs->is_object()) {
    for (const auto& [key, value] : extra_inputs->items()) payload[key] = value;
  }
  return payload;
}

void extract_video_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out) {
  if (!j.is_object() || j.empty()) return;
  read_usage_member(j, out);
  if (!out.video_inference_time_s) out.video_inference_time_s = number_field(j, "inference_time_s");
  if (!out.video_peak_memory_mb) out.video_peak_memory_mb = number_field(j, "peak_memory_mb");
  out.responses.push_back(metrics::ContentResponse{perf_ns, "", ""});
}

std::variant<std::string, VideoJobError> read_video_submit(std::string_view body, int status) {
  auto parsed = read_object(body, status, "submit");
  if (auto* error = std::get_if<VideoJobError>(&parsed)) return std::move(*error);
  const auto& j = std::get<nlohmann::ordered_json>(parsed);
  auto id = j.find("id");
  // Python truthiness: a missing, null, empty, zero or false id is no id.
  const bool has_id = id != j.end() && !id->is_null() && !(id->is_string() && id->get_ref<const std::string&>().empty()) &&
                      !(id->is_boolean() && !id->get<bool>()) && !(id->is_number() && id->get<double>() == 0);
  if (!has_id) {
    std::string repr;
    python_repr(j, repr);  // in the server's key order, as Python's dict
    return VideoJobError{500, "VideoGenerationError", "No job ID returned: " + repr};
  }
  return id->is_string() ? id->get<std::string>() : id->dump();
}

std::variant<VideoPoll, VideoJobError> read_video_poll(std::string_view body, int status) {
  auto parsed = read_object(body, status, "poll");
  if (auto* error = std::get_if<VideoJobError>(&parsed)) return std::move(*error);
  const auto& j = std::get<nlohmann::ordered_json>(parsed);
  auto it = j.find("status");
  const std::string state = it != j.end() && it->is_string() ? lower(it->get_ref<const std::string&>()) : "";
  VideoPoll poll;
  if (state == "completed") {
    poll.state = VideoPoll::State::kCompleted;
    auto url = j.find("url");
    if (url != j.end() && url->is_string()) poll.url = url->get<std::string>();
    return poll;
  }
  if (state == "failed") {
    std::string message = "Unknown error";
    if (auto error = j.find("error"); error != j.end()) {
      if (error->is_object()) {
        auto m = error->find("message");
        if (m != error->end()) {
          message.clear();
          if (m->is_string()) message = m->get<std::string>();
          else python_repr(*m, message);
        }
      } else if (error->is_string()) {
        message = error->get<std::string>();
      } else {
        message.clear();
        python_repr(*error, message);
      }
    }
    return VideoJobError{500, "VideoGenerationError", "Video generation failed: " + message};
  }
  return poll;
}

std::string video_poll_url(const std::string& submit_url, const std::string& job_id) {
  const size_t query = submit_url.find('?');
  std::string base = submit_url.substr(0, query);
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string url = base + "/" + job_id;
  if (query != std::string::npos) url += submit_url.substr(query);
  return url;
}

std::string video_content_url(const std::string& poll_url, const std::string& job_url) {
  if (!job_url.empty()) return job_url;
  const size_t query = poll_url.find('?');
  if (query == std::string::npos) return poll_url + "/content";
  return poll_url.substr(0, query) + "/content" + poll_url.substr(query);
}

VideoJobError video_timeout_error(double timeout_seconds) {
  // Python prints a float with the shortest round-tripping digits and at least one decimal.
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, timeout_seconds);
  std::string text(buf, ec == std::errc() ? end : buf);
  if (std::isfinite(timeout_seconds) && text.find_first_of(".e") == std::string::npos) text += ".0";
  return VideoJobError{504, "TimeoutError", "Video generation timed out after " + text + "s"};
}

std::optional<VideoJobError> check_video_download(std::string_view content_type, const std::string& job_id) {
  const std::string type = lower(content_type.substr(0, content_type.find(';')));
  auto starts = [&](std::string_view p) { return type.rfind(p, 0) == 0; };
  if (starts("video/") || starts("image/") || starts("audio/") || type == "application/octet-stream")
    return std::nullopt;
  return VideoJobError{500, "VideoDownloadError", "No content returned for video " + job_id};
}

}  // namespace aiperf::endpoints
