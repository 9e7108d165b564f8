#include "sse/sse_parser.h"

#include <cstring>
#include <utility>

namespace aiperf::sse {

namespace {

// First CR or LF in [p, end), or end. memchr is vectorised; data lines are long.
const char* find_line_end(const char* p, const char* end) {
  const auto* lf = static_cast<const char*>(std::memchr(p, '\n', end - p));
  const char* limit = lf ? lf : end;
  const auto* cr = static_cast<const char*>(std::memchr(p, '\r', limit - p));
  return cr ? cr : limit;
}

}  // namespace

namespace {

SseParser::Sink append_to(std::vector<SseEvent>& out) {
  return [&out](SseEvent& e) { out.push_back(std::move(e)); };
}

}  // namespace

void SseParser::feed(std::string_view bytes, int64_t perf_ns, std::vector<SseEvent>& out) {
  feed(bytes, perf_ns, append_to(out));
}

void SseParser::finish(int64_t perf_ns, std::vector<SseEvent>& out) { finish(perf_ns, append_to(out)); }

void SseParser::feed(std::string_view bytes, int64_t perf_ns, const Sink& sink) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  // A CR ended the previous chunk: an LF opening this one belongs to that same line end.
  if (last_was_cr_ && p != end) {
    if (*p == '\n') ++p;
    last_was_cr_ = false;
  }
  while (p != end) {
    const char* eol = find_line_end(p, end);
    if (eol == end) {
      line_.append(p, end);  // partial line: carried to the next chunk
      return;
    }
    // Blank line = nothing carried over and nothing before the line end.
    const bool blank = line_.empty() && eol == p;
    if (line_.empty()) {
      process_line(std::string_view(p, eol - p));  // whole line inside this chunk: no copy
    } else {
      line_.append(p, eol);
      process_line(line_);
      line_.clear();
    }
    p = eol + 1;
    if (*eol == '\r') {
      if (p == end) {
        last_was_cr_ = true;
      } else if (*p == '\n') {
        ++p;
      }
    }
    if (blank) dispatch(perf_ns, sink);
  }
}

void SseParser::finish(int64_t perf_ns, const Sink& sink) {
  if (!line_.empty()) {
    process_line(line_);
    line_.clear();
  }
  last_was_cr_ = false;
  dispatch(perf_ns, sink);
}

void SseParser::process_line(std::string_view line) {
  if (line.empty()) return;  // blank line: the caller dispatches
  if (line.front() == ':') {
    if (pending_.comment.empty()) {
      line.remove_prefix(1);
      if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
      pending_.comment.assign(line);
    }
    pending_any_ = true;
    return;
  }
  std::string_view field = line;
  std::string_view value;
  if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (pending_.has_data) {
      pending_.data.push_back('\n');
      pending_.data.append(value);
    } else {
      pending_.data.assign(value);
      pending_.has_data = true;
    }
  } else if (field == "event") {
    pending_.event.assign(value);
  } else if (field == "id") {
    pending_.id.assign(value);
  } else if (field != "retry") {
    return;  // unknown fields are ignored (WHATWG) and do not make an event
  }
  pending_any_ = true;
}

void SseParser::dispatch(int64_t perf_ns, const Sink& sink) {
  if (!pending_any_) return;
  pending_.perf_ns = perf_ns;
  sink(pending_);
  // Cleared, not replaced: strings the sink did not take keep their capacity.
  pending_.data.clear();
  pending_.event.clear();
  pending_.id.clear();
  pending_.comment.clear();
  pending_.has_data = false;
  pending_any_ = false;
}

}  // namespace aiperf::sse
