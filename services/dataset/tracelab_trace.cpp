#include "tracelab_trace.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "dataset_error.h"

namespace aiperf::dataset {
// A named namespace around the anonymous one: unity builds merge every file's anonymous namespace.
namespace tracelab_impl {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// ---- reading (gzip or plain: zlib passes a file without the gzip magic through unchanged) ----

void for_each_line(const std::string& path, const std::function<void(const std::string&, size_t)>& fn) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw DatasetFileError(path + ": cannot open the input file");
  std::unique_ptr<gzFile_s, int (*)(gzFile)> guard(file, gzclose);
  std::string pending;
  size_t number = 0;
  auto emit = [&](std::string line) {
    ++number;
    if (number == 1 && line.rfind("\xef\xbb\xbf", 0) == 0) line.erase(0, 3);  // a UTF-8 BOM
    if (line.find_first_not_of(" \t\r\n") != std::string::npos) fn(line, number);
  };
  std::vector<char> buffer(1 << 16);
  for (;;) {
    const int n = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n < 0) {
      int code = 0;
      const char* message = gzerror(file, &code);
      throw DatasetFileError(path + ": cannot read the file: " + (message ? message : "gzip error"));
    }
    if (n == 0) break;
    pending.append(buffer.data(), static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
      emit(pending.substr(start, nl - start));
    pending.erase(0, start);
  }
  if (!pending.empty()) emit(std::move(pending));
}

// ---- field reading (Python's loose reads: `x or default`, int() of a number) ----

bool truthy(const json* v) {
  if (!v || v->is_null()) return false;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number()) return v->get<double>() != 0.0;
  if (v->is_string() || v->is_array() || v->is_object()) return !v->empty();
  return false;
}

const json* field(const json& o, const char* name) {
  auto it = o.find(name);
  return it == o.end() ? nullptr : &*it;
}

// int(row.get(name) or 0): a number (truncated toward zero) or a boolean.
int64_t int_or_zero(const json& o, const char* name) {
  const json* v = field(o, name);
  if (!truthy(v)) return 0;
  if (v->is_boolean()) return 1;
  if (v->is_number_integer()) return v->get<int64_t>();
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::isfinite(d) && std::abs(d) < 9.0e18) return static_cast<int64_t>(d);
  }
  throw FieldError{name, "must be a number, got " + v->dump()};
}

std::string string_or(const json& o, const char* name, const std::string& fallback) {
  const json* v = field(o, name);
  if (!truthy(v)) return fallback;
  if (!v->is_string()) throw FieldError{name, "must be a string, got " + v->dump()};
  return v->get<std::string>();
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// ISO-8601 (YYYY-MM-DD[(T| )HH[:MM[:SS[.fraction]]]][Z|+HH:MM|-HH:MM]) -> POSIX seconds, a naive
// time read as UTC; the fraction keeps 6 digits, as Python's datetime does.
double parse_ts(const json& v, const std::string& name) {
  if (!v.is_string()) throw FieldError{name, "must be an ISO-8601 time string, got " + v.dump()};
  const std::string s = v.get<std::string>();
  const auto bad = [&]() { return FieldError{name, "is not an ISO-8601 time: '" + s + "'"}; };
  size_t i = 0;
  auto digits = [&](size_t count) {
    if (i + count > s.size()) throw bad();
    int64_t value = 0;
    for (size_t k = 0; k < count; ++k, ++i) {
      if (s[i] < '0' || s[i] > '9') throw bad();
      value = value * 10 + (s[i] - '0');
    }
    return value;
  };
  auto expect = [&](char c) {
    if (i >= s.size() || s[i] != c) throw bad();
    ++i;
  };
  const int64_t year = digits(4);
  expect('-');
  const int64_t month = digits(2);
  expect('-');
  const int64_t day = digits(2);
  if (month < 1 || month > 12 || day < 1 || day > 31) throw bad();
  int64_t hour = 0, minute = 0, second = 0, micros = 0, offset_minutes = 0;
  if (i < s.size() && (s[i] == 'T' || s[i] == ' ')) {
    ++i;
    hour = digits(2);
    if (i < s.size() && s[i] == ':') {
      ++i;
      minute = digits(2);
      if (i < s.size() && s[i] == ':') {
        ++i;
        second = digits(2);
        if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
          ++i;
          size_t count = 0;
          for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++count)
            if (count < 6) micros = micros * 10 + (s[i] - '0');
          if (count == 0) throw bad();
          for (size_t k = count; k < 6; ++k) micros *= 10;
        }
      }
    }
    if (hour > 23 || minute > 59 || second > 59) throw bad();
  }
  if (i < s.size()) {
    if (s[i] == 'Z') {
      ++i;
    } else if (s[i] == '+' || s[i] == '-') {
      const int64_t sign = s[i] == '-' ? -1 : 1;
      ++i;
      const int64_t oh = digits(2);
      int64_t om = 0;
      if (i < s.size() && s[i] == ':') ++i;
      if (i < s.size()) om = digits(2);
      offset_minutes = sign * (oh * 60 + om);
    }
  }
  if (i != s.size()) throw bad();
  const int64_t seconds =
      days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  // Python: timedelta.total_seconds() = whole microseconds / 10**6.
  return static_cast<double>(seconds * 1000000 + micros) / 1e6;
}

// Python's round(x, 6): the correctly rounded 6-decimal value.
double round6(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", x);
  return std::strtod(text, nullptr);
}

// ---- rows and sessions ----

struct Event {
  std::string type;
  std::optional<double> ts;
};

struct Tool {
  std::string name;
  std::optional<double> emitted, result;
  std::optional<double> latency_ms;
};

struct Row {
  size_t line = 0;
  double round_index = 0;
  std::string user, project;  // as JSON text ("null" when absent): the join compares them
  std::string provider, model;
  int64_t input_total = 0, prefix = 0, output = 0, reasoning = 0;
  std::vector<Event> events;
  std::vector<Tool> tools;
};

struct Session {
  std::string id;
  std::vector<Row> rows;
};

std::optional<double> optional_ts(const json& o, const char* key, const std::string& at) {
  const json* v = field(o, key);
  if (!truthy(v)) return std::nullopt;
  return parse_ts(*v, at + key);
}

Row parse_row(const json& o, size_t line) {
  Row r;
  r.line = line;
  if (const json* v = field(o, "round_index"); truthy(v)) {
    if (!v->is_number()) throw FieldError{"round_index", "must be a number, got " + v->dump()};
    r.round_index = v->get<double>();
  }
  const json* user = field(o, "user");
  const json* project = field(o, "project");
  r.user = user ? user->dump() : "null";
  r.project = project ? project->dump() : "null";
  if (const json* v = field(o, "provider"); v && v->is_string()) r.provider = v->get<std::string>();
  r.model = string_or(o, "model", "unknown");
  r.input_total = int_or_zero(o, "input_tokens_total");
  r.prefix = int_or_zero(o, "prefix_tokens");
  r.output = int_or_zero(o, "output_tokens");
  r.reasoning = int_or_zero(o, "reasoning_output_tokens");
  if (r.input_total > std::numeric_limits<uint32_t>::max())
    throw FieldError{"input_tokens_total", "must be at most 4294967295, got " + std::to_string(r.input_total)};
  if (const json* events = field(o, "timing_events"); truthy(events)) {
    if (!events->is_array()) throw FieldError{"timing_events", "must be a list, got " + events->dump()};
    for (size_t i = 0; i < events->size(); ++i) {
      const std::string at = "timing_events[" + std::to_string(i) + "].";
      const json& e = (*events)[i];
      if (!e.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
      Event ev;
      if (const json* t = field(e, "event_type"); t && t->is_string()) ev.type = t->get<std::string>();
      ev.ts = optional_ts(e, "timestamp", at);
      r.events.push_back(std::move(ev));
    }
  }
  if (const json* tools = field(o, "tools"); truthy(tools)) {
    if (!tools->is_array()) throw FieldError{"tools", "must be a list, got " + tools->dump()};
    for (size_t i = 0; i < tools->size(); ++i) {
      const std::string at = "tools[" + std::to_string(i) + "].";
      const json& t = (*tools)[i];
      if (!t.is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
      Tool tool;
      if (const json* n = field(t, "tool_name"); n && n->is_string()) tool.name = n->get<std::string>();
      tool.emitted = optional_ts(t, "emitted_at", at);
      tool.result = optional_ts(t, "result_at", at);
      if (const json* l = field(t, "tool_wall_latency_ms"); l && !l->is_null()) {
        if (!l->is_number()) throw FieldError{at + "tool_wall_latency_ms", "must be a number, got " + l->dump()};
        tool.latency_ms = l->get<double>();
      }
      r.tools.push_back(std::move(tool));
    }
  }
  return r;
}

std::vector<Session> read_sessions(const std::string& path) {
  std::vector<Session> sessions;
  std::map<std::string, size_t> index;
  for_each_line(path, [&](const std::string& text, size_t line) {
    const std::string where = path + ":" + std::to_string(line) + ": ";
    json row;
    try {
      row = json::parse(text);
    } catch (const json::exception& e) {
      throw DatasetFileError(where + "invalid JSON: " + e.what());
    }
    // AIPerf skips rows that are not objects or carry no session_id.
    if (!row.is_object() || !truthy(field(row, "session_id"))) return;
    if (!row["session_id"].is_string())
      throw DatasetFileError(where + "field 'session_id': must be a string, got " + row["session_id"].dump());
    const std::string sid = row["session_id"].get<std::string>();
    try {
      Row parsed = parse_row(row, line);
      auto [it, fresh] = index.emplace(sid, sessions.size());
      if (fresh) sessions.push_back({sid, {}});
      sessions[it->second].rows.push_back(std::move(parsed));
    } catch (const FieldError& e) {
      throw DatasetFileError(where + "field '" + e.field + "': " + e.message);
    }
  });
  if (sessions.empty())
    throw DatasetFileError("No TraceLab sessions found in '" + path + "'. Every row must carry a 'session_id'.");
  return sessions;
}

// ---- timing ----

bool is_input(const std::string& t) { return t == "user_message" || t == "tool_result"; }
bool is_output(const std::string& t) { return t == "text" || t == "reasoning" || t == "tool_call"; }

struct Timed {
  double submitted = 0;
  std::optional<double> api;
  const Row* row = nullptr;
};

// Submission is the latest input event (the request waited for every parallel tool result), else
// the first output event; api_time spans to the last output event.
std::optional<Timed> round_timing(const Row& row) {
  std::optional<double> last_in, first_out, last_out;
  for (const Event& e : row.events) {
    if (!e.ts) continue;
    if (is_input(e.type)) last_in = std::max(last_in.value_or(*e.ts), *e.ts);
    if (is_output(e.type)) {
      first_out = std::min(first_out.value_or(*e.ts), *e.ts);
      last_out = std::max(last_out.value_or(*e.ts), *e.ts);
    }
  }
  if (!last_in && !first_out) return std::nullopt;
  Timed t;
  t.submitted = last_in ? *last_in : *first_out;
  if (last_out) t.api = std::max(*last_out - t.submitted, 0.0);
  t.row = &row;
  return t;
}

// Rounds with a time, by submission, then round_index, then file order.
std::vector<Timed> order_rounds(const std::vector<Row>& rows) {
  std::vector<Timed> timed;
  for (const Row& row : rows)
    if (auto t = round_timing(row)) timed.push_back(*t);
  std::stable_sort(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) {
    if (a.submitted != b.submitted) return a.submitted < b.submitted;
    return a.row->round_index < b.row->round_index;
  });
  return timed;
}

std::optional<std::pair<double, double>> session_span(const std::vector<Row>& rows) {
  std::optional<double> lo, hi;
  auto add = [&](const std::optional<double>& t) {
    if (!t) return;
    lo = std::min(lo.value_or(*t), *t);
    hi = std::max(hi.value_or(*t), *t);
  };
  for (const Row& row : rows) {
    for (const Event& e : row.events) add(e.ts);
    for (const Tool& t : row.tools) {
      add(t.emitted);
      add(t.result);
    }
  }
  if (!lo) return std::nullopt;
  return std::make_pair(*lo, *hi);
}

// ---- subagent join (timing containment) ----

struct Window {
  double start = 0, end = 0;
  size_t parent = 0;  // session index
  int64_t duration_ms = 0;
};

std::vector<Window> spawn_windows(const std::vector<Session>& sessions, const TracelabOptions& opt) {
  std::vector<Window> windows;
  for (size_t s = 0; s < sessions.size(); ++s) {
    const auto& rows = sessions[s].rows;
    if (rows.front().provider == "codex") {
      // Codex spawns asynchronously and its handles are stripped: one coarse window per session.
      if (!opt.join_codex) continue;
      std::optional<double> first_spawn, last_wait;
      for (const Row& row : rows)
        for (const Tool& t : row.tools) {
          if (t.name == "spawn_agent" && t.emitted)
            first_spawn = std::min(first_spawn.value_or(*t.emitted), *t.emitted);
          else if (t.name == "wait_agent" && t.result) last_wait = std::max(last_wait.value_or(*t.result), *t.result);
        }
      if (first_spawn && last_wait && *last_wait > *first_spawn)
        windows.push_back({*first_spawn, *last_wait, s, static_cast<int64_t>((*last_wait - *first_spawn) * 1000)});
      continue;
    }
    for (const Row& row : rows)
      for (const Tool& t : row.tools) {
        if (t.name != "Agent" && t.name != "Task") continue;
        if (!t.latency_ms || *t.latency_ms < static_cast<double>(opt.min_spawn_ms)) continue;
        if (!t.emitted || !t.result) continue;
        windows.push_back({*t.emitted, *t.result, s, static_cast<int64_t>(*t.latency_ms)});
      }
  }
  return windows;
}

struct Link {
  size_t child = 0;
  Window window;
};

// Each session joins the tightest window of another session with its user and project that
// contains its whole span (ties: earlier start, then parent id).
std::vector<Link> join_links(const std::vector<Session>& sessions, const TracelabOptions& opt) {
  std::vector<std::optional<std::pair<double, double>>> spans;
  spans.reserve(sessions.size());
  for (const Session& s : sessions) spans.push_back(session_span(s.rows));
  const auto windows = spawn_windows(sessions, opt);
  auto same_ident = [&](size_t a, size_t b) {
    const Row& x = sessions[a].rows.front();
    const Row& y = sessions[b].rows.front();
    return x.user == y.user && x.project == y.project;
  };
  std::vector<Link> links;
  for (size_t c = 0; c < sessions.size(); ++c) {
    if (!spans[c]) continue;
    const auto [cstart, cend] = *spans[c];
    const Window* best = nullptr;
    for (const Window& w : windows) {
      if (w.parent == c || !spans[w.parent] || !same_ident(w.parent, c)) continue;
      if (cstart < w.start || cend > w.end) continue;
      const auto key = [&](const Window& x) {
        return std::make_tuple(x.end - x.start, x.start, sessions[x.parent].id);
      };
      if (!best || key(w) < key(*best)) best = &w;
    }
    if (best) links.push_back({c, *best});
  }
  return links;
}

// ---- conversion to Weka traces ----

class Minter {
 public:
  std::vector<int64_t> take(int64_t count) {
    std::vector<int64_t> ids;
    for (int64_t k = 0; k < count; ++k) ids.push_back(next_++);
    return ids;
  }

 private:
  int64_t next_ = 1;
};

// Each round keeps the previous round's first prefix / block_size ids and mints the rest of its
// floor(input / block_size) blocks.
std::vector<std::vector<int64_t>> synthesize_hash_ids(const std::vector<Timed>& timed, uint32_t block_size,
                                                      Minter& minter) {
  std::vector<std::vector<int64_t>> out;
  std::vector<int64_t> prev;
  for (const Timed& t : timed) {
    const int64_t total = std::max<int64_t>(t.row->input_total, 0);
    const int64_t prefix = std::min(std::max<int64_t>(t.row->prefix, 0), total);
    const int64_t blocks = total / block_size;
    const int64_t reuse =
        std::min({prefix / static_cast<int64_t>(block_size), static_cast<int64_t>(prev.size()), blocks});
    std::vector<int64_t> ids(prev.begin(), prev.begin() + reuse);
    for (int64_t id : minter.take(blocks - reuse)) ids.push_back(id);
    out.push_back(ids);
    prev = std::move(ids);
  }
  return out;
}

std::vector<WekaRequest> build_requests(const std::vector<Timed>& timed, const std::vector<std::vector<int64_t>>& hash,
                                        double t0) {
  std::vector<WekaRequest> requests;
  std::optional<double> prev_end;
  for (size_t k = 0; k < timed.size(); ++k) {
    const Timed& item = timed[k];
    const double t = item.submitted - t0;
    WekaRequest r;
    r.t = round6(t);
    r.model = item.row->model;
    r.in = std::max<int64_t>(item.row->input_total, 1);
    r.out = std::max<int64_t>(item.row->output + item.row->reasoning, 1);
    r.hash_ids = hash[k];
    if (item.api) r.api_time = round6(*item.api);
    if (prev_end) r.think_time = round6(std::max(t - *prev_end, 0.0));
    requests.push_back(std::move(r));
    prev_end = t + item.api.value_or(0.0);
  }
  return requests;
}

std::string safe_id(const std::string& id) {
  std::string out;
  bool in_run = false;
  for (char c : id) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    if (ok) out += c;
    else if (!in_run) out += '_';
    in_run = !ok;
  }
  return out.substr(0, 150);
}

struct Entry {  // one item of a trace's request array
  WekaRequest call;
  std::optional<WekaSubagent> subagent;
};

// A parent session (plus the children joined to it) -> a trace; nullopt without a timed round.
std::optional<WekaTrace> build_trace(const std::string& file, const Session& session,
                                     const std::vector<std::pair<const Session*, Window>>& children,
                                     const TracelabOptions& opt, std::set<std::string>& placed) {
  const auto timed = order_rounds(session.rows);
  if (timed.empty()) return std::nullopt;
  const double t0 = timed.front().submitted;
  Minter minter;  // one id namespace for the parent and its children (hash_id_scope local)
  const auto requests = build_requests(timed, synthesize_hash_ids(timed, opt.block_size, minter), t0);

  std::map<size_t, std::vector<WekaSubagent>> pending;  // parent request index -> subagents after it
  for (const auto& [child, window] : children) {
    const auto ctimed = order_rounds(child->rows);
    if (ctimed.empty()) continue;
    auto inner = build_requests(ctimed, synthesize_hash_ids(ctimed, opt.block_size, minter), t0);
    const double entry_t = window.start - t0;
    for (auto& r : inner)
      if (r.t < entry_t) r.t = round6(entry_t);
    inner.front().think_time.reset();  // a gap measured from nothing
    WekaSubagent sub;
    sub.t = round6(entry_t);
    sub.agent_id = safe_id(child->id);
    sub.duration_ms = window.duration_ms;
    sub.requests = std::move(inner);
    // After the last parent request at or before the spawn (keeps the array monotonic in t).
    std::optional<size_t> anchor;
    for (size_t i = 0; i < requests.size(); ++i)
      if (requests[i].t <= sub.t) anchor = i;
    if (!anchor) continue;
    pending[*anchor].push_back(std::move(sub));
    placed.insert(child->id);
  }

  WekaTrace trace;
  trace.file = file;
  trace.id = safe_id(session.id);
  trace.block_size = opt.block_size;
  size_t outer = 0;
  auto add_model = [&](const std::string& m) {
    if (std::find(trace.models.begin(), trace.models.end(), m) == trace.models.end()) trace.models.push_back(m);
  };
  for (size_t i = 0; i < requests.size(); ++i) {
    add_model(requests[i].model);
    trace.calls.emplace_back(outer++, requests[i]);
    auto it = pending.find(i);
    if (it == pending.end()) continue;
    std::stable_sort(it->second.begin(), it->second.end(),
                     [](const WekaSubagent& a, const WekaSubagent& b) { return a.t < b.t; });
    for (auto& sub : it->second) {
      sub.outer = outer++;
      for (const auto& r : sub.requests) add_model(r.model);
      trace.subagents.push_back(std::move(sub));
    }
  }
  // The main model is the first call's (a child may have used another before it).
  auto main = std::find(trace.models.begin(), trace.models.end(), trace.calls.front().second.model);
  std::rotate(trace.models.begin(), main, main + 1);
  return trace;
}

}  // namespace

TracelabOptions options_of(const config::InputConfig& in) {
  TracelabOptions opt;
  if (in.isl_block_size) opt.block_size = *in.isl_block_size;
  opt.join_subagents = in.agentic_trace.tracelab_subagent_join;
  opt.join_codex = in.agentic_trace.tracelab_codex_subagent_join;
  opt.min_spawn_ms = static_cast<int64_t>(in.agentic_trace.tracelab_min_spawn_ms);
  return opt;
}

bool is_tracelab(const std::string& path) {
  try {
    const std::string name = fs::path(path).filename().string();
    auto ends = [&](const char* suffix) {
      const std::string s(suffix);
      return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    if (!fs::is_regular_file(path) || !(ends(".jsonl") || ends(".gz"))) return false;
    bool found = false;
    struct Stop {};
    try {
      for_each_line(path, [&](const std::string& text, size_t) {
        const json row = json::parse(text);
        found = row.is_object();
        for (const char* key : {"session_id", "round_index", "input_tokens_total", "prefix_tokens",
                                "newly_append_tokens", "timing_events"})
          found = found && row.contains(key);
        throw Stop{};
      });
    } catch (const Stop&) {}
    return found;
  } catch (const std::exception&) {
    return false;
  }
}

uint64_t count_rows(const std::string& path) {
  uint64_t rows = 0;
  try {
    for_each_line(path, [&](const std::string&, size_t) { ++rows; });
  } catch (const DatasetFileError&) {  // unreadable: the loader reports it
  }
  return rows;
}

std::vector<WekaTrace> read_traces(const std::string& path, const TracelabOptions& opt) {
  if (opt.block_size == 0) throw DatasetFileError("TraceLab block size must be positive, got 0.");
  const auto sessions = read_sessions(path);

  // Children grouped under root parents (a grandchild stays a trace of its own).
  std::map<size_t, std::vector<std::pair<const Session*, Window>>> children;
  std::set<std::string> nested;
  if (opt.join_subagents) {
    const auto links = join_links(sessions, opt);
    std::set<size_t> linked;
    for (const Link& l : links) linked.insert(l.child);
    for (const Link& l : links) {
      if (linked.count(l.window.parent)) continue;
      children[l.window.parent].emplace_back(&sessions[l.child], l.window);
      nested.insert(sessions[l.child].id);
    }
  }

  std::vector<WekaTrace> traces;
  std::set<std::string> ids, placed;
  auto add = [&](std::optional<WekaTrace> trace, const Session& s) {
    if (!trace) return;
    if (!ids.insert(trace->id).second)
      throw DatasetFileError(path + ":" + std::to_string(s.rows.front().line) + ": duplicate TraceLab trace id '" +
                             trace->id + "': session '" + s.id + "' collides with an earlier session.");
    traces.push_back(std::move(*trace));
  };
  static const std::vector<std::pair<const Session*, Window>> none;
  for (size_t s = 0; s < sessions.size(); ++s) {
    if (nested.count(sessions[s].id)) continue;
    const auto it = children.find(s);
    add(build_trace(path, sessions[s], it == children.end() ? none : it->second, opt, placed), sessions[s]);
  }
  // Children that could not be placed in their parent replay on their own.
  for (const Session& s : sessions)
    if (nested.count(s.id) && !placed.count(s.id)) add(build_trace(path, s, none, opt, placed), s);
  return traces;
}

}  // namespace tracelab_impl

TracelabOptions tracelab_options(const config::InputConfig& in) { return tracelab_impl::options_of(in); }

bool is_tracelab_file(const std::string& path) { return tracelab_impl::is_tracelab(path); }

uint64_t count_tracelab_rows(const std::string& path) { return tracelab_impl::count_rows(path); }

std::vector<WekaTrace> read_tracelab_traces(const std::string& path, const TracelabOptions& options) {
  return tracelab_impl::read_traces(path, options);
}

void load_tracelab(const config::InputConfig& in, CustomDataset& out) {
  auto traces = read_tracelab_traces(in.input_file, tracelab_options(in));
  // --max-context-length: whole traces whose recorded peak (in + max(out, 1)) exceeds it are dropped.
  if (const auto max_ctx = in.agentic_trace.max_context_length) {
    int64_t smallest = std::numeric_limits<int64_t>::max();
    const size_t scanned = traces.size();
    std::vector<WekaTrace> kept;
    for (auto& t : traces) {
      const int64_t peak = weka_peak_context(t);
      smallest = std::min(smallest, peak);
      if (peak <= static_cast<int64_t>(*max_ctx)) kept.push_back(std::move(t));
    }
    if (kept.empty())
      throw DatasetFileError("No eligible traces in " + in.input_file + " after filter-then-cap (scanned " +
                             std::to_string(scanned) + ", --max-context-length=" + std::to_string(*max_ctx) +
                             ", --num-dataset-entries=None). Smallest trace requires " + std::to_string(smallest) +
                             " tokens; raise --max-context-length to at least that (e.g. --max-context-length " +
                             std::to_string(smallest) + ") to admit any trace.");
    traces = std::move(kept);
  }
  emit_weka_traces(traces, in, out);
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
