#include "video_api.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "completion_format.h"
#include "form_data.h"
#include "time/clock.h"

namespace aiperf::mock {

namespace {

using nlohmann::ordered_json;

// An ISO BMFF file type box: the first bytes of an MP4 (what clients sniff), padded to 32 bytes.
std::string fake_mp4() {
  std::string mp4("\x00\x00\x00\x18" "ftypmp42" "\x00\x00\x00\x00" "mp42isom", 24);
  mp4 += std::string("\x00\x00\x00\x08" "free", 8);
  return mp4;
}

VideoReply error(int status, const std::string& message, std::string_view type) {
  return VideoReply{status, "application/json", error_body(message, type, status)};
}

struct BadField {
  std::string message;
};

// A submitted field as text: form values are text; JSON strings as they are, other JSON values
// as their JSON text (4 -> "4", true -> "true").
std::string as_text(const ordered_json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

bool parse_int(std::string_view s, int& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

VideoReply VideoJobs::submit(std::string_view content_type, std::string_view body) {
  // The body's fields as JSON, whichever way they came.
  ordered_json fields = ordered_json::object();
  if (auto boundary = form_boundary(content_type)) {
    auto parts = parse_form_data(body, *boundary);
    if (!parts) return error(400, "malformed multipart/form-data body", "invalid_request_error");
    for (const FormPart& part : *parts) fields[part.name] = part.value;
  } else {
    fields = ordered_json::parse(body, nullptr, false);
    if (fields.is_discarded() || !fields.is_object())
      return error(400, "body must be a JSON object or multipart/form-data", "invalid_request_error");
  }
  auto text = [&](const char* key, const char* fallback) {
    auto it = fields.find(key);
    return it == fields.end() || it->is_null() ? std::string(fallback) : as_text(*it);
  };
  if (text("prompt", "").empty()) return error(400, "prompt is required", "invalid_request_error");
  Job job;
  job.model = text("model", "sora-2");
  job.size = text("size", "1280x720");
  job.seconds = text("seconds", "4");
  int width = 0, height = 0, seconds = 0;
  const size_t x = job.size.find('x');
  if (x == std::string::npos || !parse_int(std::string_view(job.size).substr(0, x), width) ||
      !parse_int(std::string_view(job.size).substr(x + 1), height) || width <= 0 || height <= 0)
    return error(400, "size must be WIDTHxHEIGHT, e.g. 1280x720", "invalid_request_error");
  if (!parse_int(job.seconds, seconds) || seconds <= 0)
    return error(400, "seconds must be a positive integer", "invalid_request_error");
  if (!parse_int(text("mock_polls", "2"), job.polls_before_done) || job.polls_before_done < 0)
    return error(400, "mock_polls must be a non-negative integer", "invalid_request_error");
  const std::string fail = text("mock_fail", "false");
  if (fail != "true" && fail != "false" && fail != "True" && fail != "False")
    return error(400, "mock_fail must be true or false", "invalid_request_error");
  job.fail = fail == "true" || fail == "True";
  job.inference_time_s = seconds / 8.0;
  job.peak_memory_mb = static_cast<double>(width) * height / 1024.0;
  job.created_at = wall_now_ns() / 1'000'000'000;

  ordered_json answer;
  {
    std::lock_guard lock(mutex_);
    const std::string id = "video_" + std::to_string(next_id_++);
    answer = {{"id", id},          {"object", "video"}, {"status", "queued"},        {"progress", 0},
              {"model", job.model}, {"size", job.size},  {"seconds", job.seconds}, {"created_at", job.created_at}};
    jobs_.emplace(id, std::move(job));
    order_.push_back(id);
    while (order_.size() > kMaxJobs) {
      jobs_.erase(order_.front());
      order_.pop_front();
    }
  }
  return VideoReply{200, "application/json", answer.dump()};
}

VideoReply VideoJobs::get(std::string_view path) {
  constexpr std::string_view kPrefix = "/v1/videos/";
  if (!path.starts_with(kPrefix)) return error(404, "no route for " + std::string(path), "not_found_error");
  std::string_view id = path.substr(kPrefix.size());
  bool content = false;
  if (const size_t slash = id.find('/'); slash != std::string_view::npos) {
    if (id.substr(slash) != "/content") return error(404, "no route for " + std::string(path), "not_found_error");
    content = true;
    id = id.substr(0, slash);
  }
  std::lock_guard lock(mutex_);
  auto it = jobs_.find(std::string(id));
  if (it == jobs_.end()) return error(404, "no video job " + std::string(id), "not_found_error");
  Job& job = it->second;
  const bool done = job.polls > job.polls_before_done;
  if (content) {
    if (!done || job.fail) return error(404, "video " + std::string(id) + " is not ready", "not_found_error");
    return VideoReply{200, "video/mp4", fake_mp4()};
  }
  ++job.polls;
  ordered_json answer = {{"id", std::string(id)}, {"object", "video"}};
  if (job.polls <= job.polls_before_done) {
    answer["status"] = "in_progress";
    answer["progress"] = 100 * job.polls / (job.polls_before_done + 1);
  } else if (job.fail) {
    answer["status"] = "failed";
    answer["progress"] = 100 * job.polls_before_done / (job.polls_before_done + 1);
    answer["error"] = {{"code", "generation_failed"}, {"message", "mock video generation failed"}};
  } else {
    answer["status"] = "completed";
    answer["progress"] = 100;
  }
  answer["model"] = job.model;
  answer["size"] = job.size;
  answer["seconds"] = job.seconds;
  answer["created_at"] = job.created_at;
  if (answer["status"] == "completed") {
    answer["completed_at"] = wall_now_ns() / 1'000'000'000;
    answer["inference_time_s"] = job.inference_time_s;
    answer["peak_memory_mb"] = job.peak_memory_mb;
  }
  return VideoReply{200, "application/json", answer.dump()};
}

}  // namespace aiperf::mock
