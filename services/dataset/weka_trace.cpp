#include "weka_trace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "dataset_error.h"
#include "weka_trace_model.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A child timestamp this far before its subagent's spawn is relative to the spawn (older captures).
constexpr double kJoinEpsilonSeconds = 1e-6;

using Request = WekaRequest;
using Subagent = WekaSubagent;
using Trace = WekaTrace;

// ---- schema (AIPerf's WekaTrace pydantic models: extra keys forbidden) ----

void only_keys(const json& o, const std::string& at, std::initializer_list<const char*> allowed) {
  for (const auto& item : o.items()) {
    const std::string& key = item.key();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }))
      throw FieldError{at + key, "is not a field of the Weka trace schema (extra fields are not permitted)"};
  }
}

const json* get(const json& o, const std::string& at, const char* name, bool required) {
  auto it = o.find(name);
  if (it == o.end()) {
    if (required) throw FieldError{at + name, "is required"};
    return nullptr;
  }
  return &*it;
}

std::string str(const json& v, const std::string& name) {
  if (!v.is_string()) throw FieldError{name, "must be a string, got " + v.dump()};
  return v.get<std::string>();
}

// pydantic's lax int: an integer, or a float with no fraction.
int64_t integer(const json& v, const std::string& name) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9.0e18) return static_cast<int64_t>(d);
  }
  throw FieldError{name, "must be an integer, got " + v.dump()};
}

// A token count: 0 .. 2^32 - 1 (larger ones would overflow the block arithmetic).
int64_t token_count(const json& v, const std::string& name) {
  const int64_t n = integer(v, name);
  if (n < 0 || n > std::numeric_limits<uint32_t>::max())
    throw FieldError{name, "must be an integer from 0 to 4294967295, got " + std::to_string(n)};
  return n;
}

double number(const json& v, const std::string& name) {
  if (!v.is_number()) throw FieldError{name, "must be a number, got " + v.dump()};
  return v.get<double>();
}

std::optional<double> optional_number(const json* v, const std::string& name) {
  if (!v || v->is_null()) return std::nullopt;
  return number(*v, name);
}

std::vector<int64_t> integers(const json& v, const std::string& name) {
  if (!v.is_array()) throw FieldError{name, "must be a list of integers, got " + v.dump()};
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) out.push_back(integer(v[i], name + "[" + std::to_string(i) + "]"));
  return out;
}

void strings(const json& v, const std::string& name) {
  if (!v.is_array()) throw FieldError{name, "must be a list of strings, got " + v.dump()};
  for (size_t i = 0; i < v.size(); ++i) str(v[i], name + "[" + std::to_string(i) + "]");
}

// The alias ("in") or the field name ("input_length"): AIPerf's models accept both.
const json* aliased(const json& o, const std::string& at, const char* alias, const char* name) {
  if (auto it = o.find(alias); it != o.end()) return &*it;
  if (auto it = o.find(name); it != o.end()) return &*it;
  throw FieldError{at + alias, "is required"};
}

Request parse_call(const json& o, const std::string& at, const std::string& type) {
  if (type == "s")
    only_keys(o, at,
              {"t", "type", "model", "in", "input_length", "out", "output_length", "hash_ids", "input_types",
               "output_types", "stop", "api_time", "think_time", "ttft"});
  else
    only_keys(o, at,
              {"t", "type", "model", "in", "input_length", "out", "output_length", "hash_ids", "input_types",
               "output_types", "stop", "api_time", "think_time"});
  Request r;
  r.t = number(*get(o, at, "t", true), at + "t");
  if (!std::isfinite(r.t * 1000.0)) throw FieldError{at + "t", "must be a finite number of seconds"};
  r.model = str(*get(o, at, "model", true), at + "model");
  r.in = token_count(*aliased(o, at, "in", "input_length"), at + "in");
  r.out = integer(*aliased(o, at, "out", "output_length"), at + "out");
  if (const json* h = get(o, at, "hash_ids", false)) r.hash_ids = integers(*h, at + "hash_ids");
  if (const json* v = get(o, at, "input_types", false)) strings(*v, at + "input_types");
  if (const json* v = get(o, at, "output_types", false)) strings(*v, at + "output_types");
  if (const json* v = get(o, at, "stop", false)) str(*v, at + "stop");
  r.api_time = optional_number(get(o, at, "api_time", false), at + "api_time");
  r.think_time = optional_number(get(o, at, "think_time", false), at + "think_time");
  if (type == "s") optional_number(get(o, at, "ttft", false), at + "ttft");
  return r;
}

std::string type_of(const json& o, const std::string& at, bool subagent_allowed) {
  std::string type = str(*get(o, at, "type", true), at + "type");
  if (type != "n" && type != "s" && (!subagent_allowed || type != "subagent"))
    throw FieldError{at + "type",
                     std::string(subagent_allowed ? "must be 'n', 's' or 'subagent'" : "must be 'n' or 's'") +
                         ", got '" + type + "'"};
  return type;
}

std::optional<int64_t> optional_integer(const json* v, const std::string& name) {
  if (!v || v->is_null()) return std::nullopt;
  return integer(*v, name);
}

Subagent parse_subagent(const json& o, const std::string& at) {
  only_keys(o, at,
            {"t", "type", "agent_id", "subagent_type", "duration_ms", "total_tokens", "tool_use_count", "status",
             "requests", "models", "tool_tokens", "system_tokens"});
  Subagent s;
  s.t = number(*get(o, at, "t", true), at + "t");
  s.agent_id = str(*get(o, at, "agent_id", true), at + "agent_id");
  str(*get(o, at, "subagent_type", true), at + "subagent_type");
  str(*get(o, at, "status", true), at + "status");
  s.duration_ms = optional_integer(get(o, at, "duration_ms", false), at + "duration_ms");
  optional_integer(get(o, at, "total_tokens", false), at + "total_tokens");
  optional_integer(get(o, at, "tool_use_count", false), at + "tool_use_count");
  strings(*get(o, at, "models", true), at + "models");
  if (const json* v = get(o, at, "tool_tokens", false)) s.tool_tokens = token_count(*v, at + "tool_tokens");
  if (const json* v = get(o, at, "system_tokens", false)) s.system_tokens = token_count(*v, at + "system_tokens");
  const json& requests = *get(o, at, "requests", true);
  if (!requests.is_array()) throw FieldError{at + "requests", "must be a list"};
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string here = at + "requests[" + std::to_string(i) + "].";
    if (!requests[i].is_object()) throw FieldError{here.substr(0, here.size() - 1), "must be an object"};
    s.requests.push_back(parse_call(requests[i], here, type_of(requests[i], here, false)));
  }
  return s;
}

void add_model(Trace& t, const std::string& model) {
  if (std::find(t.models.begin(), t.models.end(), model) == t.models.end()) t.models.push_back(model);
}

Trace parse_trace(const json& o) {
  if (!o.is_object()) throw FieldError{"", "a Weka trace file holds one JSON object"};
  only_keys(o, "",
            {"id", "models", "block_size", "hash_id_scope", "tool_tokens", "system_tokens", "requests", "totals"});
  Trace t;
  t.id = str(*get(o, "", "id", true), "id");
  strings(*get(o, "", "models", true), "models");
  const int64_t bs = integer(*get(o, "", "block_size", true), "block_size");
  if (bs <= 0 || bs > std::numeric_limits<uint32_t>::max()) throw FieldError{"block_size", "must be > 0"};
  t.block_size = static_cast<uint32_t>(bs);
  const std::string scope = str(*get(o, "", "hash_id_scope", true), "hash_id_scope");
  if (scope != "local")
    throw FieldError{"hash_id_scope", "must be 'local' (hash ids scoped to one trace), got '" + scope + "'"};
  if (const json* v = get(o, "", "tool_tokens", false)) t.tool_tokens = token_count(*v, "tool_tokens");
  if (const json* v = get(o, "", "system_tokens", false)) t.system_tokens = token_count(*v, "system_tokens");
  if (const json* v = get(o, "", "totals", false); v && !v->is_null() && !v->is_object())
    throw FieldError{"totals", "must be an object or null"};
  const json& requests = *get(o, "", "requests", true);
  if (!requests.is_array()) throw FieldError{"requests", "must be a list"};
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string at = "requests[" + std::to_string(i) + "].";
    if (!requests[i].is_object()) throw FieldError{at.substr(0, at.size() - 1), "must be an object"};
    const std::string type = type_of(requests[i], at, true);
    if (type == "subagent") {
      Subagent s = parse_subagent(requests[i], at);
      s.outer = i;
      for (const auto& r : s.requests) add_model(t, r.model);
      t.subagents.push_back(std::move(s));
    } else {
      Request r = parse_call(requests[i], at, type);
      add_model(t, r.model);
      t.calls.emplace_back(i, std::move(r));
    }
  }
  // The main model is the first top-level call's, wherever a subagent used another before it.
  if (!t.calls.empty()) {
    auto it = std::find(t.models.begin(), t.models.end(), t.calls.front().second.model);
    std::rotate(t.models.begin(), it, it + 1);
  }
  return t;
}

Trace read_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw DatasetFileError(path + ": cannot read the file");
  std::stringstream buffer;
  buffer << f.rdbuf();
  json doc;
  try {
    doc = json::parse(buffer.str());
  } catch (const json::exception& e) {  // parse errors, number overflow
    throw DatasetFileError(path + ": invalid JSON: " + e.what());
  }
  try {
    Trace t = parse_trace(doc);
    t.file = path;
    return t;
  } catch (const FieldError& e) {
    throw DatasetFileError(path + ": " + (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message);
  }
}

std::vector<std::string> trace_files(const std::string& path) {
  if (!fs::is_directory(path)) return {path};
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(path))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// ---- timing ----

double subagent_absolute_t(const Subagent& s, const Request& r) {
  return r.t + kJoinEpsilonSeconds < s.t ? s.t + r.t : r.t;
}

// The idle gap before a turn: start-to-start minus the previous call's server time, at least 0.
double end_to_start_ms(double start_to_start_ms, const std::optional<double>& prev_api) {
  const double api_ms = prev_api && std::isfinite(*prev_api) ? *prev_api * 1000.0 : 0.0;
  return std::max(0.0, start_to_start_ms - api_ms);
}

// --trace-idle-gap-cap-seconds: gaps between consecutive request starts of one trace longer than
// the cap keep only the cap; later times shift left by what was cut.
class IdleGapWarp {
 public:
  IdleGapWarp(std::vector<double> starts, double cap) {
    std::sort(starts.begin(), starts.end());
    double shift = 0;
    for (size_t i = 1; i < starts.size(); ++i) {
      const double gap = starts[i] - starts[i - 1];
      if (gap > cap) {
        gaps_.push_back({starts[i - 1], starts[i], shift, cap, gap - cap});
        shift += gap - cap;
      }
    }
  }
  double map(double t) const {
    double shift = 0;
    for (const Gap& g : gaps_) {
      if (t < g.start) return t - g.shift_before;
      if (t < g.end) return t - g.start <= g.cap ? t - g.shift_before : g.start - g.shift_before + g.cap;
      shift = g.shift_before + g.excess;
    }
    return t - shift;
  }

 private:
  struct Gap {
    double start, end, shift_before, cap, excess;
  };
  std::vector<Gap> gaps_;
};

struct Stream {  // one conversation to emit
  std::string session_id;
  std::vector<Request> requests;
  int64_t tool_tokens = 0, system_tokens = 0;
  bool child = false;
};

// Appends the trace's root conversation (`roots`) or its subagents' (AIPerf lists every root
// first, then the children trace by trace: the order sequential sampling follows).
void emit_trace(const Trace& trace, const config::InputConfig& in, bool roots, CustomDataset& out) {
  const auto& opts = in.agentic_trace;
  Stream root{trace.id, {}, trace.tool_tokens, trace.system_tokens, false};
  std::vector<size_t> kept_outer;
  for (const auto& [outer, r] : trace.calls) {
    const double t_ms = r.t * 1000.0;  // the fixed-schedule window selects on recorded ms
    if (in.fixed_schedule_start_offset && t_ms < static_cast<double>(*in.fixed_schedule_start_offset)) continue;
    if (in.fixed_schedule_end_offset && t_ms > static_cast<double>(*in.fixed_schedule_end_offset)) continue;
    root.requests.push_back(r);
    kept_outer.push_back(outer);
  }
  std::vector<Stream> streams;
  std::set<std::string> agent_ids;
  for (const Subagent& s : trace.subagents) {
    // A subagent needs a kept top-level call before it to be spawned from; AIPerf drops it otherwise.
    if (std::none_of(kept_outer.begin(), kept_outer.end(), [&](size_t o) { return o < s.outer; })) continue;
    if (!agent_ids.insert(s.agent_id).second)
      throw DatasetFileError(trace.file + ": trace '" + trace.id + "': duplicate subagent agent_id '" + s.agent_id +
                             "' among retained subagents. Each emitted subagent in a trace must have a unique "
                             "agent_id.");
    Stream child{trace.id + "::sa:" + s.agent_id, {}, s.tool_tokens, s.system_tokens, true};
    std::vector<std::pair<size_t, Request>> ordered;
    for (size_t i = 0; i < s.requests.size(); ++i) {
      Request r = s.requests[i];
      r.t = subagent_absolute_t(s, r);
      ordered.emplace_back(i, std::move(r));
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const auto& a, const auto& b) { return a.second.t < b.second.t; });
    for (auto& [_, r] : ordered) child.requests.push_back(std::move(r));
    streams.push_back(std::move(child));
  }
  if (root.requests.empty()) return;  // nothing of this trace falls in the window
  streams.insert(streams.begin(), std::move(root));

  std::optional<IdleGapWarp> warp;
  if (opts.trace_idle_gap_cap_seconds) {
    std::vector<double> starts;
    for (const Stream& s : streams)
      for (const Request& r : s.requests) starts.push_back(r.t);
    warp.emplace(std::move(starts), *opts.trace_idle_gap_cap_seconds);
  }
  // The per-turn cap yields to the per-trace idle-gap cap, as in AIPerf.
  const std::optional<double> cap_ms =
      warp ? std::nullopt
           : (in.trace_replay.inter_turn_delay_cap_seconds
                  ? std::optional<double>(*in.trace_replay.inter_turn_delay_cap_seconds * 1000.0)
                  : std::nullopt);

  for (const Stream& s : streams) {
    if (s.child == roots) continue;
    if (s.requests.empty()) continue;  // a subagent that recorded no call sends nothing
    const size_t conv_index = out.conversations.size();
    proto::Conversation conv;
    conv.set_session_id(s.session_id);
    conv.set_self_contained_turns(true);  // each turn carries its whole context
    WekaReconstructor recon(trace.block_size);
    std::vector<std::pair<std::vector<int64_t>, int64_t>> plan;
    for (const Request& r : s.requests) plan.emplace_back(r.hash_ids, r.in);
    const auto caps = weka_asst_block_caps(plan, trace.block_size);
    for (size_t k = 0; k < s.requests.size(); ++k) {
      const Request& r = s.requests[k];
      const std::string seed = s.session_id + ":turn_" + std::to_string(k) + ":partial_tail";
      try {
        if (k == 0) recon.init_turn_0(r.hash_ids, r.in, s.tool_tokens, s.system_tokens, seed);
        else recon.advance_turn(s.requests[k - 1].hash_ids, s.requests[k - 1].out, r.hash_ids, r.in, seed, caps[k]);
      } catch (const std::invalid_argument& e) {
        throw DatasetFileError(trace.file + ": trace '" + trace.id + "', session '" + s.session_id + "': " + e.what());
      }
      proto::Turn& turn = *conv.add_turns();
      turn.set_model(r.model);
      turn.set_max_tokens(std::max<int64_t>(r.out, 1));
      if (!opts.ignore_trace_delays) {
        const double t = warp ? warp->map(r.t) : r.t;
        turn.set_timestamp_ms(t * 1000.0);
        if (k > 0) {
          const Request& prev = s.requests[k - 1];
          std::optional<double> delay;
          if (warp) delay = end_to_start_ms((t - warp->map(prev.t)) * 1000.0, prev.api_time);
          else if (opts.use_think_time_only && r.think_time) delay = *r.think_time * 1000.0;
          else delay = end_to_start_ms((r.t - prev.t) * 1000.0, prev.api_time);
          if (!std::isfinite(*delay)) delay.reset();
          if (delay && cap_ms) delay = std::min(*delay, *cap_ms);
          // A negative delay (corrupt think_time) would send in the past: 0.
          if (delay) turn.set_delay_ms(std::max(*delay, 0.0));
        }
      }
      out.weka_pending.push_back({conv_index, static_cast<int>(k), trace.id, trace.block_size, recon.segments()});
    }
    out.conversations.push_back(std::move(conv));
    out.trace_models.push_back(trace.models);
  }
}

}  // namespace

int64_t weka_peak_context(const WekaTrace& t) {
  int64_t peak = 0;
  for (const auto& [_, r] : t.calls) peak = std::max(peak, r.in + std::max<int64_t>(r.out, 1));
  for (const auto& s : t.subagents)
    for (const auto& r : s.requests) peak = std::max(peak, r.in + std::max<int64_t>(r.out, 1));
  return peak;
}

void emit_weka_traces(const std::vector<WekaTrace>& traces, const config::InputConfig& in, CustomDataset& out) {
  for (const Trace& t : traces) emit_trace(t, in, /*roots=*/true, out);
  for (const Trace& t : traces) emit_trace(t, in, /*roots=*/false, out);
}

bool is_weka_trace_path(const std::string& path) {
  try {
    std::string file = path;
    if (fs::is_directory(path)) {
      const auto files = trace_files(path);
      if (files.empty()) return false;
      file = files.front();
    }
    if (fs::path(file).extension() != ".json" || !fs::is_regular_file(file)) return false;
    read_trace(file);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

namespace {

// --max-context-length, then the conversations (shared by files and HuggingFace rows).
void filter_and_emit(std::vector<Trace> traces, const config::InputConfig& in, const std::string& source,
                     CustomDataset& out) {
  // --max-context-length: whole traces whose recorded peak (in + max(out, 1)) exceeds it are dropped.
  if (const auto max_ctx = in.agentic_trace.max_context_length) {
    int64_t smallest = std::numeric_limits<int64_t>::max();
    const size_t scanned = traces.size();
    std::vector<Trace> kept;
    for (auto& t : traces) {
      const int64_t peak = weka_peak_context(t);
      smallest = std::min(smallest, peak);
      if (peak <= static_cast<int64_t>(*max_ctx)) kept.push_back(std::move(t));
    }
    if (kept.empty())
      throw DatasetFileError("No eligible traces in " + source + " after filter-then-cap (scanned " +
                             std::to_string(scanned) + ", --max-context-length=" + std::to_string(*max_ctx) +
                             ", --num-dataset-entries=None). Smallest trace requires " + std::to_string(smallest) +
                             " tokens; raise --max-context-length to at least that (e.g. --max-context-length " +
                             std::to_string(smallest) + ") to admit any trace.");
    traces = std::move(kept);
  }
  emit_weka_traces(traces, in, out);
  out.default_sampling = "sequential";
}

}  // namespace

void load_weka_trace(const config::InputConfig& in, CustomDataset& out) {
  const auto files = trace_files(in.input_file);
  if (files.empty()) throw DatasetFileError(in.input_file + ": no *.json Weka trace files in the directory");
  std::map<std::string, std::string> seen;  // trace id -> file
  std::vector<Trace> traces;
  for (const auto& file : files) {
    Trace t = read_trace(file);
    if (auto [it, fresh] = seen.emplace(t.id, file); !fresh)
      throw DatasetFileError("duplicate trace id '" + t.id + "' in directory: '" + file +
                             "' conflicts with a prior file ('" + it->second + "')");
    traces.push_back(std::move(t));
  }
  filter_and_emit(std::move(traces), in, "weka_trace", out);
}

void load_weka_trace_rows(const std::vector<json>& rows, const std::string& source, const config::InputConfig& in,
                          CustomDataset& out) {
  std::set<std::string> seen;
  std::vector<Trace> traces;
  for (size_t i = 0; i < rows.size(); ++i) {
    try {
      Trace t = parse_trace(rows[i]);
      t.file = source + " row " + std::to_string(i);
      if (!seen.insert(t.id).second)
        throw DatasetFileError("Duplicate trace id '" + t.id + "' at row " + std::to_string(i) + " of " + source);
      traces.push_back(std::move(t));
    } catch (const FieldError& e) {
      throw DatasetFileError("Row " + std::to_string(i) + " of " + source + " failed WekaTrace validation: " +
                             (e.field.empty() ? "" : "field '" + e.field + "': ") + e.message);
    }
  }
  if (traces.empty()) throw DatasetFileError(source + ": no Weka trace rows");
  filter_and_emit(std::move(traces), in, source, out);
}

void map_weka_models(CustomDataset& dataset, const std::vector<std::string>& model_names) {
  if (model_names.empty()) return;
  for (size_t c = 0; c < dataset.conversations.size() && c < dataset.trace_models.size(); ++c) {
    const auto& order = dataset.trace_models[c];
    for (auto& turn : *dataset.conversations[c].mutable_turns()) {
      const auto it = std::find(order.begin(), order.end(), turn.model());
      const size_t rank = it == order.end() ? 0 : static_cast<size_t>(it - order.begin());
      turn.set_model(model_names[rank % model_names.size()]);
    }
  }
}

}  // namespace aiperf::dataset
