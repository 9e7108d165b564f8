#include "baseten_trace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "arrow_ipc.h"
#include "dataset_error.h"
#include "jsonl_lines.h"
#include "parquet/parquet_reader.h"
#include "util/uuid.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kProvided = "provided_session_id";
constexpr const char* kPoorMan = "poor_man_session_id";

// One row as AIPerf's BasetenTrace model validates it.
struct Row {
  int64_t start_ms = 0;  // timestamp_start_unix_ms
  std::string prompt;
  int64_t output_tokens = 0;
  std::vector<int64_t> hashes;
  std::optional<int64_t> block_size, duration_e2e_ms;
  std::optional<std::string> provided, poor_man;  // session ids as strings (str(value))
  double timestamp = 0;                           // normalized, then speedup-scaled, replay ms
  std::optional<double> delay;                    // closed-loop think time, ms
  bool timed = true;                              // false: continuation turn replayed by delay
};

const json* optional_field(const json& row, const char* name) {
  auto it = row.find(name);
  return it == row.end() || it->is_null() ? nullptr : &*it;
}

const json& required_field(const json& row, const char* name) {
  const json* v = optional_field(row, name);
  if (!v) throw FieldError{name, "is required"};
  return *v;
}

Row parse_row(const json& row, const config::TraceReplayConfig& replay) {
  Row r;
  r.start_ms = integer_field(required_field(row, "timestamp_start_unix_ms"), "timestamp_start_unix_ms", 0);
  const json& prompt = required_field(row, "prompt");
  if (!prompt.is_string()) throw FieldError{"prompt", "must be a string, got " + prompt.dump()};
  r.prompt = prompt.get<std::string>();
  integer_field(required_field(row, "input_tokens"), "input_tokens", 0);
  r.output_tokens = integer_field(required_field(row, "output_tokens"), "output_tokens", 0);
  // AIPerf does not read the KV-hint columns at all under --omit-kv-hints.
  if (!replay.omit_kv_hints) {
    if (const json* h = optional_field(row, "total_hashes")) {
      if (!h->is_array()) throw FieldError{"total_hashes", "must be a list of integers >= 0, got " + h->dump()};
      for (const json& id : *h) r.hashes.push_back(integer_field(id, "total_hashes", 0));
    }
    if (const json* b = optional_field(row, "block_size")) r.block_size = integer_field(*b, "block_size", 1);
  }
  if (const json* d = optional_field(row, "duration_e2e_ms")) r.duration_e2e_ms = integer_field(*d, "duration_e2e_ms", 0);
  if (const json* p = optional_field(row, kProvided)) {
    if (p->is_string()) r.provided = p->get<std::string>();
    else r.provided = std::to_string(integer_field(*p, kProvided, 0));
  }
  if (const json* p = optional_field(row, kPoorMan)) r.poor_man = std::to_string(integer_field(*p, kPoorMan, 0));
  return r;
}

// AIPerf's session column: `preferred` (AIPERF_DATASET_BASETEN_SESSION_COLUMN, default
// provided_session_id) when the file has it, else the other one, else none (every row its own session).
std::optional<std::string> session_column(const std::set<std::string>& columns, const std::string& choice) {
  const std::string preferred = choice == kPoorMan ? kPoorMan : kProvided;
  const std::string fallback = preferred == kProvided ? kPoorMan : kProvided;
  if (columns.count(preferred)) return preferred;
  if (columns.count(fallback)) return fallback;
  return std::nullopt;
}

const std::optional<std::string>& session_of(const Row& r, const std::string& column) {
  return column == kProvided ? r.provided : r.poor_man;
}

double uniform(std::mt19937_64& rng) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng); }

// --trace-session-sample-ratio: whole sessions kept with probability `ratio`, drawn in order of
// (first timestamp, id); at least one session survives. Rows without a session id are each
// drawn at the same ratio, in file order. Returns the kept row indices.
std::vector<size_t> sample_rows(const std::vector<Row>& rows, const std::string& column, double ratio,
                                std::mt19937_64& rng) {
  std::map<std::string, int64_t> first;
  for (const Row& r : rows)
    if (const auto& sid = session_of(r, column)) {
      auto [it, fresh] = first.emplace(*sid, r.start_ms);
      if (!fresh) it->second = std::min(it->second, r.start_ms);
    }
  std::vector<std::pair<int64_t, std::string>> sessions;
  for (const auto& [sid, ts] : first) sessions.emplace_back(ts, sid);
  std::sort(sessions.begin(), sessions.end());
  std::set<std::string> kept;
  for (const auto& s : sessions)
    if (uniform(rng) < ratio) kept.insert(s.second);
  if (kept.empty() && !sessions.empty())
    kept.insert(sessions[std::uniform_int_distribution<size_t>(0, sessions.size() - 1)(rng)].second);
  // Rows without a session id are drawn after every session, each in file order.
  std::vector<size_t> out;
  for (size_t i = 0; i < rows.size(); ++i)
    if (const auto& sid = session_of(rows[i], column); sid && kept.count(*sid)) out.push_back(i);
  std::vector<size_t> result;
  size_t next = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (session_of(rows[i], column)) {
      if (next < out.size() && out[next] == i) result.push_back(out[next++]);
    } else if (uniform(rng) < ratio) {
      result.push_back(i);
    }
  }
  return result;
}

void apply_idle_gap_cap(std::vector<Row*>& timed, double cap_ms) {
  std::vector<double> ts;
  for (const Row* r : timed) ts.push_back(r->timestamp);
  const auto reflowed = reflow_idle_gaps(ts, cap_ms);
  for (size_t i = 0; i < timed.size(); ++i) timed[i]->timestamp = static_cast<double>(reflowed[i]);
}

std::string body_of(const Row& r, const config::TraceReplayConfig& replay) {
  ordered_json body = ordered_json::object();
  if (replay.force_min_tokens) body["min_tokens"] = std::max<int64_t>(1, r.output_tokens);
  if (!replay.omit_kv_hints) {
    if (!r.hashes.empty()) body["hash_ids"] = r.hashes;
    if (r.block_size) body["block_size"] = *r.block_size;
  }
  return body.empty() ? std::string() : body.dump();
}

}  // namespace

namespace {
std::string lower_dot_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}
}  // namespace

bool is_columnar_trace_file(const std::string& path) {
  const std::string ext = lower_dot_extension(path);
  return ext == ".arrow" || ext == ".ipc";
}

bool is_parquet_file(const std::string& path) { return lower_dot_extension(path) == ".parquet"; }

namespace {
// The rows of a Parquet trace, projected to the columns AIPerf 0.13 reads (its
// _projected_trace_columns: the KV-hint columns only without --omit-kv-hints).
std::vector<json> read_parquet_trace(const std::string& path, const config::TraceReplayConfig& replay) {
  parquet::ReadOptions options;
  options.columns = {"timestamp_start_unix_ms", "prompt",          "input_tokens",
                     "output_tokens",           "duration_e2e_ms", "duration_ttft_ms",
                     "cached_tokens_reference", kProvided,         kPoorMan};
  if (!replay.omit_kv_hints) {
    options.columns.emplace_back("total_hashes");
    options.columns.emplace_back("block_size");
  }
  try {
    return parquet::read_parquet_rows(path, options);
  } catch (const parquet::ParquetError& e) {
    throw DatasetFileError(e.what());
  }
}
}  // namespace

std::vector<int64_t> reflow_idle_gaps(const std::vector<double>& timestamps_ms, std::optional<double> cap_ms) {
  std::vector<int64_t> values;
  for (double t : timestamps_ms) values.push_back(static_cast<int64_t>(t));  // Python int(): truncation
  if (!cap_ms || values.size() <= 1) return values;
  const auto cap = static_cast<int64_t>(std::ceil(*cap_ms));
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<int64_t> out(values.size());
  int64_t prev_old = values[order[0]], prev_new = prev_old;
  out[order[0]] = prev_old;
  for (size_t k = 1; k < order.size(); ++k) {
    const size_t i = order[k];
    prev_new += std::min(values[i] - prev_old, cap);
    out[i] = prev_new;
    prev_old = values[i];
  }
  return out;
}

double baseten_think_time_ms(int64_t gap_ms, int64_t prior_e2e_ms, double speedup, std::optional<double> cap_seconds) {
  const double gap = static_cast<double>(std::max<int64_t>(0, gap_ms));
  double delay = std::max(0.0, gap - static_cast<double>(prior_e2e_ms) / speedup);
  if (cap_seconds) delay = std::min(delay, *cap_seconds * 1000.0);
  return delay;
}

void load_baseten_trace(const config::InputConfig& in, CustomDataset& out, std::mt19937_64& rng) {
  const config::TraceReplayConfig& replay = in.trace_replay;
  const double speedup = replay.replay_speedup.value_or(1.0);

  std::vector<Row> rows;
  std::set<std::string> columns;
  auto add = [&](const json& object) {
    rows.push_back(parse_row(object, replay));
    for (const auto& [key, value] : object.items()) columns.insert(key);
  };
  if (is_columnar_trace_file(in.input_file) || is_parquet_file(in.input_file)) {
    // Arrow IPC and Parquet: every schema column is a key of every row (null where empty), as in
    // AIPerf. From Parquet only the columns AIPerf projects are decoded (the others, which may
    // hold types the reader refuses, are never read). The earliest timestamp is the minimum over
    // the rows: AIPerf takes it from the row groups' statistics when all have them, which is the
    // same value.
    const auto objects =
        is_parquet_file(in.input_file) ? read_parquet_trace(in.input_file, replay) : read_arrow_ipc_rows(in.input_file);
    for (size_t i = 0; i < objects.size(); ++i) {
      try {
        add(objects[i]);
      } catch (const FieldError& e) {
        throw DatasetFileError(in.input_file + ": row " + std::to_string(i + 1) + ": field '" + e.field + "': " +
                               e.message);
      }
    }
  } else {
    for_each_json_line(in.input_file, [&](const json& object, size_t) { add(object); });
  }
  if (rows.empty()) return;
  int64_t min_ts = rows[0].start_ms;
  for (const Row& r : rows) min_ts = std::min(min_ts, r.start_ms);
  const auto column = session_column(columns, replay.session_column);

  std::vector<size_t> kept(rows.size());
  std::iota(kept.begin(), kept.end(), 0);
  if (replay.trace_session_sample_ratio && *replay.trace_session_sample_ratio < 1.0 && column)
    kept = sample_rows(rows, *column, *replay.trace_session_sample_ratio, rng);

  // Normalize, filter by the fixed-schedule offsets on recorded time, then compress.
  std::vector<Row*> items;
  for (size_t i : kept) {
    Row& r = rows[i];
    const double normalized = static_cast<double>(r.start_ms - min_ts);
    if (in.fixed_schedule_start_offset && normalized < static_cast<double>(*in.fixed_schedule_start_offset)) continue;
    if (in.fixed_schedule_end_offset && normalized > static_cast<double>(*in.fixed_schedule_end_offset)) continue;
    r.timestamp = normalized / speedup;
    items.push_back(&r);
  }
  // Open loop caps every row's gap before grouping; closed loop caps the session starts after
  // the think times were taken from the recorded gaps.
  if (replay.open_loop_replay && replay.max_idle_gap_cap_seconds)
    apply_idle_gap_cap(items, *replay.max_idle_gap_cap_seconds * 1000.0);

  // Sessions: the session column's value, else a generated id per row; turns by timestamp,
  // sessions by (first timestamp, id).
  std::vector<std::pair<std::string, std::vector<Row*>>> groups;
  std::unordered_map<std::string, size_t> index;
  for (Row* r : items) {
    std::string sid;
    if (column && session_of(*r, *column)) sid = *session_of(*r, *column);
    else sid = util::uuid4(rng);
    auto [it, fresh] = index.emplace(sid, groups.size());
    if (fresh) groups.push_back({sid, {}});
    groups[it->second].second.push_back(r);
  }
  auto int_ts = [](const Row* r) { return static_cast<int64_t>(r->timestamp); };
  for (auto& g : groups)
    std::stable_sort(g.second.begin(), g.second.end(), [&](const Row* a, const Row* b) { return int_ts(a) < int_ts(b); });
  std::sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
    const int64_t fa = int_ts(a.second.front()), fb = int_ts(b.second.front());
    return fa != fb ? fa < fb : a.first < b.first;
  });

  if (replay.open_loop_replay && replay.open_loop_strict) {
    std::vector<std::pair<std::string, std::vector<Row*>>> exploded;
    for (auto& [sid, list] : groups)
      for (size_t i = 0; i < list.size(); ++i) exploded.push_back({sid + "#" + std::to_string(i), {list[i]}});
    groups = std::move(exploded);
  } else if (!replay.open_loop_replay) {
    for (auto& g : groups) {
      for (size_t i = 1; i < g.second.size(); ++i) {
        Row& prev = *g.second[i - 1];
        Row& cur = *g.second[i];
        cur.delay = baseten_think_time_ms(int_ts(&cur) - int_ts(&prev), prev.duration_e2e_ms.value_or(0), speedup,
                                          replay.inter_turn_delay_cap_seconds);
      }
      for (size_t i = 1; i < g.second.size(); ++i) g.second[i]->timed = false;
    }
    if (replay.max_idle_gap_cap_seconds) {
      std::vector<Row*> starts;
      for (auto& g : groups)
        for (Row* r : g.second)
          if (r->timed) starts.push_back(r);
      apply_idle_gap_cap(starts, *replay.max_idle_gap_cap_seconds * 1000.0);
    }
  }

  for (auto& [sid, list] : groups) {
    proto::Conversation& conv = out.conversations.emplace_back();
    conv.set_session_id(sid);
    conv.set_self_contained_turns(list.size() > 1);
    for (const Row* r : list) {
      proto::Turn& turn = *conv.add_turns();
      auto* text = turn.add_texts();
      text->set_name("text");
      text->add_contents(r->prompt);
      turn.set_max_tokens(std::max<int64_t>(1, r->output_tokens));  // canceled requests record 0
      if (r->timed) turn.set_timestamp_ms(r->timestamp);
      if (r->delay) turn.set_delay_ms(*r->delay);
      turn.set_extra_body(body_of(*r, replay));
    }
  }
  out.default_sampling = "sequential";
}

}  // namespace aiperf::dataset
