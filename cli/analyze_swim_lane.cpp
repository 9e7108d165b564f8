#include "analyze_swim_lane.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "metrics/sweep_line.h"

namespace aiperf::cli::analyze {
namespace {

using nlohmann::json;

const json* member(const json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string text_of(const json& meta, const char* name) {
  const json* v = member(meta, name);
  return v && v->is_string() ? v->get<std::string>() : "";
}

std::optional<double> metric(const json& record, const char* name) {
  const json* metrics = member(record, "metrics");
  const json* m = metrics ? member(*metrics, name) : nullptr;
  const json* v = m ? member(*m, "value") : nullptr;
  if (v && v->is_number()) return v->get<double>();
  return std::nullopt;
}

// The sweep line of intervals: +1 at each start, -1 at each end, ends before starts at equal
// times; one point per event (duplicates kept), as AIPerf's concurrency_sweep_line.
StepCurve sweep(const std::vector<std::pair<double, double>>& intervals) {
  struct Event {
    double t;
    int delta;
  };
  std::vector<Event> events;
  for (const auto& [s, e] : intervals) events.push_back({s, 1});
  for (const auto& [s, e] : intervals) events.push_back({e, -1});
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.t != b.t ? a.t < b.t : a.delta < b.delta;
  });
  StepCurve c;
  double v = 0;
  for (const Event& ev : events) {
    v += ev.delta;
    c.t.push_back(ev.t);
    c.v.push_back(v);
  }
  return c;
}

// Value of a step curve at `t`: the value after the last event at or before t, 0 before any.
double value_at(const StepCurve& c, double t) {
  const auto it = std::upper_bound(c.t.begin(), c.t.end(), t);
  return it == c.t.begin() ? 0.0 : c.v[static_cast<size_t>(it - c.t.begin()) - 1];
}

// Greedy first fit: the first slot whose previous occupant ended at or before `start`.
template <typename Ends>
int first_fit(Ends& ends, int64_t start, int64_t end) {
  for (size_t i = 0; i < ends.size(); ++i)
    if (start >= ends[i]) {
      ends[i] = end;
      return static_cast<int>(i);
    }
  ends.push_back(end);
  return static_cast<int>(ends.size()) - 1;
}

std::pair<int64_t, int64_t> span_of(const std::vector<LaneRecord>& turns) {
  int64_t s = turns.front().start_ns, e = turns.front().end_ns;
  for (const LaneRecord& r : turns) s = std::min(s, r.start_ns), e = std::max(e, r.end_ns);
  return {s, e};
}

// Per-turn sub-row (requests of one session that overlap stack) and the row count.
std::pair<std::vector<int>, int> turn_depths(const std::vector<LaneRecord>& turns) {
  std::vector<size_t> order(turns.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return turns[a].start_ns < turns[b].start_ns; });
  std::vector<int64_t> row_ends;
  std::vector<int> depths(turns.size());
  for (size_t i : order) depths[i] = first_fit(row_ends, turns[i].start_ns, turns[i].end_ns);
  return {depths, static_cast<int>(row_ends.size())};
}

bool is_sub(const std::vector<LaneRecord>& turns) {
  return std::any_of(turns.begin(), turns.end(), [](const LaneRecord& r) { return r.agent_depth > 0; });
}

// The union of a session's request intervals (the gaps between are its idle time).
std::vector<std::pair<int64_t, int64_t>> merged_active(const std::vector<LaneRecord>& turns) {
  std::vector<std::pair<int64_t, int64_t>> iv;
  for (const LaneRecord& r : turns) iv.emplace_back(r.start_ns, r.end_ns);
  std::sort(iv.begin(), iv.end());
  std::vector<std::pair<int64_t, int64_t>> merged{iv.front()};
  for (size_t i = 1; i < iv.size(); ++i) {
    if (iv[i].first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, iv[i].second);
    else
      merged.push_back(iv[i]);
  }
  return merged;
}

// Each session's lane key: its tree root. root_correlation_id when the export has it; else
// the walk up parent_correlation_id (a parent absent from the export is a phantom root).
std::map<std::string, std::string> root_map(const SwimLane& lane) {
  std::map<std::string, std::string> roots;
  bool has_root_ids = false;
  for (const auto& [sid, turns] : lane.sessions)
    for (const LaneRecord& r : turns) has_root_ids = has_root_ids || !r.root_correlation_id.empty();
  if (has_root_ids) {
    for (const auto& [sid, turns] : lane.sessions) {
      roots[sid] = sid;
      for (const LaneRecord& r : turns)
        if (!r.root_correlation_id.empty()) {
          roots[sid] = r.root_correlation_id;
          break;
        }
    }
    return roots;
  }
  std::map<std::string, std::string> parent;
  for (const auto& [sid, turns] : lane.sessions)
    for (const LaneRecord& r : turns)
      if (!r.parent_correlation_id.empty()) {
        parent[sid] = r.parent_correlation_id;
        break;
      }
  for (const auto& [sid, turns] : lane.sessions) {
    std::set<std::string> seen{sid};
    std::string cur = sid;
    for (;;) {
      auto p = parent.find(cur);
      if (p == parent.end() || p->second == cur || !lane.sessions.count(p->second) || seen.count(p->second)) break;
      cur = p->second;
      seen.insert(cur);
    }
    auto top = parent.find(cur);
    if (top == parent.end())
      roots[sid] = cur;
    else if (seen.count(top->second))
      roots[sid] = sid;  // a parent cycle: the session keeps its own lane
    else
      roots[sid] = top->second;
  }
  return roots;
}

}  // namespace

double seconds_since(int64_t ns, int64_t t0_ns) {
  return (static_cast<double>(ns) - static_cast<double>(t0_ns)) / 1e9;
}

std::vector<LaneRecord> load_lane_records(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw SwimLaneError(path + " not found");
  std::vector<LaneRecord> records;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    json r;
    try {
      r = json::parse(line);
    } catch (const json::exception& e) {
      throw SwimLaneError(where + "invalid JSON: " + e.what());
    }
    if (!r.is_object()) throw SwimLaneError(where + "each line must be a JSON object");
    static const json kEmpty = json::object();
    const json* m = member(r, "metadata");
    const json& meta = m && m->is_object() ? *m : kEmpty;
    if (const json* c = member(meta, "was_cancelled"); c && c->is_boolean() && c->get<bool>()) continue;
    const json* start = member(meta, "request_start_ns");
    const json* end = member(meta, "request_end_ns");
    if (!start || !end) continue;
    if (!start->is_number() || !end->is_number())
      throw SwimLaneError(where + "metadata.request_start_ns/request_end_ns must be numbers");
    LaneRecord rec;
    rec.start_ns = start->is_number_integer() ? start->get<int64_t>() : static_cast<int64_t>(start->get<double>());
    rec.end_ns = end->is_number_integer() ? end->get<int64_t>() : static_cast<int64_t>(end->get<double>());
    rec.conversation = text_of(meta, "conversation_id");
    rec.session = text_of(meta, "x_correlation_id");
    if (rec.session.empty()) rec.session = rec.conversation;
    if (rec.session.empty()) throw SwimLaneError(where + "metadata has neither x_correlation_id nor conversation_id");
    if (const json* t = member(meta, "turn_index"); t && t->is_number_integer()) rec.turn_index = t->get<int64_t>();
    if (const json* d = member(meta, "agent_depth"); d && d->is_number_integer()) {
      rec.agent_depth = d->get<int64_t>();
      rec.has_agent_depth = true;
    }
    rec.root_correlation_id = text_of(meta, "root_correlation_id");
    rec.parent_correlation_id = text_of(meta, "parent_correlation_id");
    const json* err = member(r, "error");
    rec.error = err && !(err->is_boolean() && !err->get<bool>()) && !(err->is_object() && err->empty()) &&
                !(err->is_string() && err->get<std::string>().empty());
    if (const json* o = member(meta, "context_overflow_skip"); o && o->is_boolean()) rec.overflow_skip = o->get<bool>();
    rec.ttft_ms = metric(r, "time_to_first_token");
    rec.latency_ms = metric(r, "request_latency");
    rec.isl = metric(r, "input_sequence_length");
    rec.osl = metric(r, "output_sequence_length");
    rec.cache_read = metric(r, "usage_prompt_cache_read_tokens");
    records.push_back(std::move(rec));
  }
  return records;
}

SwimLane build_swim_lane(const std::vector<LaneRecord>& records) {
  SwimLane lane;
  for (const LaneRecord& r : records) {
    auto& turns = lane.sessions[r.session];
    if (turns.empty()) lane.order.push_back(r.session);
    turns.push_back(r);
  }
  for (auto& [sid, turns] : lane.sessions)
    std::stable_sort(turns.begin(), turns.end(),
                     [](const LaneRecord& a, const LaneRecord& b) { return a.turn_index < b.turn_index; });

  // Lanes: one per root; subagents pack first-fit into child rows under the root's rows.
  const std::map<std::string, std::string> roots = root_map(lane);
  std::vector<std::string> root_order;
  std::set<std::string> seen_roots;
  std::map<std::string, std::vector<std::string>> children;
  for (const std::string& sid : lane.order) {
    const std::string& root = roots.at(sid);
    if (seen_roots.insert(root).second) root_order.push_back(root);
    if (sid != root) children[root].push_back(sid);
  }
  std::map<std::string, std::pair<int64_t, int64_t>> spans;
  for (const std::string& root : root_order) {
    std::vector<std::string> members;
    if (lane.sessions.count(root)) members.push_back(root);
    for (const std::string& kid : children[root]) members.push_back(kid);
    std::pair<int64_t, int64_t> span = span_of(lane.sessions.at(members.front()));
    for (const std::string& m : members) {
      const auto s = span_of(lane.sessions.at(m));
      span.first = std::min(span.first, s.first);
      span.second = std::max(span.second, s.second);
    }
    spans[root] = span;
  }
  std::vector<std::string> by_start = root_order;
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](const std::string& a, const std::string& b) { return spans[a].first < spans[b].first; });
  std::vector<int64_t> slot_ends;
  for (const std::string& root : by_start) {
    LaneGroup g;
    g.root = root;
    g.start_ns = spans[root].first;
    g.end_ns = spans[root].second;
    g.slot = first_fit(slot_ends, g.start_ns, g.end_ns);
    int root_rows = 0;
    if (lane.sessions.count(root)) {
      auto [depths, rows] = turn_depths(lane.sessions.at(root));
      root_rows = rows;
      g.members.push_back({root, is_sub(lane.sessions.at(root)), 0, rows, depths});
    }
    std::vector<std::string> kids = children[root];
    std::stable_sort(kids.begin(), kids.end(), [&](const std::string& a, const std::string& b) {
      return span_of(lane.sessions.at(a)).first < span_of(lane.sessions.at(b)).first;
    });
    std::vector<int64_t> row_ends;
    for (const std::string& kid : kids) {
      auto [depths, kid_rows] = turn_depths(lane.sessions.at(kid));
      const auto [start, end] = span_of(lane.sessions.at(kid));
      size_t row = 0;
      for (;; ++row) {
        bool free = true;
        for (int j = 0; j < kid_rows; ++j)
          if (row + j < row_ends.size() && row_ends[row + j] > start) free = false;
        if (free) break;
      }
      if (row_ends.size() < row + kid_rows) row_ends.resize(row + kid_rows, 0);
      for (int j = 0; j < kid_rows; ++j) row_ends[row + j] = end;
      g.members.push_back({kid, true, root_rows + static_cast<int>(row), kid_rows, depths});
    }
    g.rows = root_rows + static_cast<int>(row_ends.size());
    lane.groups.push_back(std::move(g));
  }
  for (const LaneGroup& g : lane.groups) lane.n_slots = std::max(lane.n_slots, g.slot + 1);
  for (const auto& [sid, turns] : lane.sessions) lane.n_sub += is_sub(turns);

  // Curves, in seconds from the first request.
  lane.t0_ns = records.front().start_ns;
  for (const LaneRecord& r : records) lane.t0_ns = std::min(lane.t0_ns, r.start_ns);
  const auto sec = [&lane](int64_t ns) { return seconds_since(ns, lane.t0_ns); };
  std::vector<std::pair<double, double>> requests, alive;
  for (const std::string& sid : lane.order) {
    const auto& turns = lane.sessions.at(sid);
    for (const LaneRecord& r : turns) {
      requests.emplace_back(sec(r.start_ns), sec(r.end_ns));
      lane.t_max_s = std::max(lane.t_max_s, sec(r.end_ns));
    }
    const auto span = span_of(turns);
    alive.emplace_back(sec(span.first), sec(span.second));
  }
  lane.active = sweep(requests);
  const StepCurve live = sweep(alive);
  std::vector<double> ts = live.t;
  ts.insert(ts.end(), lane.active.t.begin(), lane.active.t.end());
  std::sort(ts.begin(), ts.end());
  ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
  for (double t : ts) {
    lane.idle.t.push_back(t);
    lane.idle.v.push_back(std::max(0.0, value_at(live, t) - value_at(lane.active, t)));
  }
  for (double v : lane.active.v) lane.peak_active = std::max(lane.peak_active, static_cast<int>(v));
  return lane;
}

BenchTimes parse_bench_times(const std::string& text) {
  BenchTimes out;
  const json data = json::parse(text, nullptr, false);
  if (!data.is_object()) return out;
  const json* ic = member(data, "input_config");
  const json* loadgen = ic ? member(*ic, "loadgen") : nullptr;
  if (const json* phases = ic ? member(*ic, "phases") : nullptr; phases && phases->is_array()) {
    for (const json& phase : *phases) {
      if (const json* x = member(phase, "exclude_from_results"); x && x->is_boolean() && x->get<bool>()) continue;
      const json* ramp = member(phase, "concurrency_ramp");
      const json* d = ramp && ramp->is_object() ? member(*ramp, "duration") : nullptr;
      if (d && d->is_number()) {
        out.ramp_s = d->get<double>();
        break;
      }
    }
  }
  if (!out.ramp_s && loadgen)
    if (const json* d = member(*loadgen, "concurrency_ramp_duration"); d && d->is_number()) out.ramp_s = d->get<double>();
  const json* bench = member(data, "benchmark_duration");
  if (!bench && loadgen) bench = member(*loadgen, "benchmark_duration");
  if (bench && bench->is_object()) bench = member(*bench, "avg");
  if (bench && bench->is_number()) out.bench_s = bench->get<double>();
  return out;
}

namespace {

// Python's round(v, d) for the values here: the nearest double to the rounded decimal.
double round_to(double v, int decimals) {
  const double p = std::pow(10.0, decimals);
  return std::nearbyint(v * p) / p;
}

// Per-turn new input tokens: ISL minus the cached prefix (the server's cache-read count, else
// the previous turn's ISL), never negative; 0 for a turn without ISL.
std::vector<double> new_isls(const std::vector<LaneRecord>& turns) {
  std::vector<double> out;
  std::optional<double> prev;
  for (const LaneRecord& r : turns) {
    if (!r.isl) {
      out.push_back(0);
      continue;
    }
    const double fresh = r.cache_read ? *r.isl - *r.cache_read : prev ? *r.isl - *prev : *r.isl;
    out.push_back(std::max(fresh, 0.0));
    prev = r.isl;
  }
  return out;
}

// A weighted sweep line: +w at each start, -w at each end, ends first at equal times, in
// input order otherwise; cancellation residue below 1e-9 of the peak snapped to 0 (AIPerf's
// sweepline primitives).
StepCurve event_sweep(std::vector<std::pair<double, double>> events);

StepCurve weighted_sweep(const std::vector<std::tuple<double, double, double>>& intervals) {
  std::vector<std::pair<double, double>> events;  // (time, delta)
  for (const auto& [s, e, w] : intervals) events.emplace_back(s, w);
  for (const auto& [s, e, w] : intervals) events.emplace_back(e, -w);
  return event_sweep(std::move(events));
}

// The cumulative sum of (time, delta) events given in AIPerf's concatenation order: the metrics'
// sweep line (ends before starts at equal times, rounding residue zeroed), a point per event as
// AIPerf's payload has them.
StepCurve event_sweep(std::vector<std::pair<double, double>> events) {
  metrics::StepFunction f = metrics::sweep_cumsum(std::move(events), metrics::StepsAt::kEachEvent);
  return StepCurve{std::move(f.ts), std::move(f.values)};
}

// When generation starts: start + TTFT, within the request; the end when there is no TTFT.
double generation_start_ns(int64_t start, int64_t end, const std::optional<double>& ttft_ms) {
  if (!ttft_ms) return static_cast<double>(end);
  return std::min(std::max(static_cast<double>(start) + *ttft_ms * 1e6, static_cast<double>(start)),
                  static_cast<double>(end));
}

// numpy's linear percentile of `v` (sorted here).
double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * (q / 100.0);
  const size_t lo = static_cast<size_t>(std::floor(h));
  if (lo + 1 >= v.size()) return v.back();
  const double t = h - static_cast<double>(lo), a = v[lo], b = v[lo + 1], diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

// The most intervals open at once (an end before a start at the same time).
int peak_concurrent(std::vector<std::pair<int64_t, int>> events) {
  std::sort(events.begin(), events.end());
  int current = 0, peak = 0;
  for (const auto& [t, d] : events) peak = std::max(peak, current += d);
  return peak;
}

nlohmann::ordered_json curve_json(const StepCurve& c) {
  nlohmann::ordered_json j;
  j["t"] = nlohmann::ordered_json::array();
  j["v"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < c.t.size(); ++i) {
    j["t"].push_back(round_to(c.t[i], 3));
    j["v"].push_back(static_cast<int64_t>(c.v[i]));
  }
  return j;
}

}  // namespace

nlohmann::ordered_json swim_lane_payload(const SwimLane& lane, const SwimLaneView& view) {
  using oj = nlohmann::ordered_json;
  const auto sec = [&lane](int64_t ns) { return round_to(seconds_since(ns, lane.t0_ns), 4); };
  const auto opt = [](const std::optional<double>& v, int decimals) -> oj {
    return v ? oj(round_to(*v, decimals)) : oj(nullptr);
  };
  const auto opt_int = [](const std::optional<double>& v) -> oj {
    return v ? oj(static_cast<int64_t>(*v)) : oj(nullptr);
  };
  oj sessions = oj::array();
  for (size_t ci = 0; ci < lane.groups.size(); ++ci) {
    const LaneGroup& g = lane.groups[ci];
    for (const SessionLayout& m : g.members) {
      const auto& turns = lane.sessions.at(m.sid);
      const std::vector<double> fresh = new_isls(turns);
      oj t = oj::array();
      for (size_t i = 0; i < turns.size(); ++i) {
        const LaneRecord& r = turns[i];
        t.push_back(oj::array({sec(r.start_ns), sec(r.end_ns), opt(r.ttft_ms, 1), opt(r.latency_ms, 1),
                               opt_int(r.isl), opt_int(r.osl), m.depths[i],
                               r.has_agent_depth ? oj(r.agent_depth) : oj(nullptr),
                               static_cast<int64_t>(std::nearbyint(fresh[i])), r.error ? 1 : r.overflow_skip ? 2 : 0}));
      }
      oj gaps = oj::array();
      const auto merged = merged_active(turns);
      for (size_t i = 1; i < merged.size(); ++i) gaps.push_back(oj::array({sec(merged[i - 1].second), sec(merged[i].first)}));
      oj entry;
      entry["id"] = m.sid;
      entry["conv"] = turns.front().conversation.empty() ? m.sid : turns.front().conversation;
      entry["slot"] = g.slot;
      entry["ci"] = ci;
      entry["row0"] = m.row0;
      entry["rows"] = m.rows;
      entry["turns"] = t;
      entry["gaps"] = gaps;
      if (m.is_sub) entry["sub"] = true;
      if (m.sid != g.root) entry["root"] = g.root;
      sessions.push_back(entry);
    }
  }
  // The most sessions live at once, idle ones included: the peak of active + idle.
  int peak_total = 0;
  for (double t : lane.idle.t)
    peak_total = std::max(peak_total, static_cast<int>(value_at(lane.active, t) + value_at(lane.idle, t)));
  // New prompt tokens being prefilled ([start, generation start) weighted by new ISL).
  std::vector<std::tuple<double, double, double>> prefill;
  std::vector<std::pair<double, double>> ttfts;  // (start s, TTFT ms)
  std::vector<std::pair<int64_t, int>> main_turns, main_spans, sub_turns, sub_spans;
  const double t0 = static_cast<double>(lane.t0_ns);
  for (const std::string& sid : lane.order) {
    const auto& turns = lane.sessions.at(sid);
    const std::vector<double> fresh = new_isls(turns);
    for (size_t i = 0; i < turns.size(); ++i) {
      const LaneRecord& r = turns[i];
      if (fresh[i] > 0)
        prefill.emplace_back(seconds_since(r.start_ns, lane.t0_ns),
                             (generation_start_ns(r.start_ns, r.end_ns, r.ttft_ms) - t0) / 1e9, fresh[i]);
      if (r.ttft_ms) ttfts.emplace_back(seconds_since(r.start_ns, lane.t0_ns), *r.ttft_ms);
    }
    const bool sub = std::any_of(turns.begin(), turns.end(), [](const LaneRecord& r) { return r.agent_depth > 0; });
    auto& turn_events = sub ? sub_turns : main_turns;
    auto& span_events = sub ? sub_spans : main_spans;
    for (const LaneRecord& r : turns) turn_events.insert(turn_events.end(), {{r.start_ns, 1}, {r.end_ns, -1}});
    const auto span = span_of(turns);
    span_events.insert(span_events.end(), {{span.first, 1}, {span.second, -1}});
  }
  // Token rates and KV tokens in flight per request: prefill [start, generation start) at
  // ISL / prefill time, decode [generation start, end) at (OSL - 1) / decode time; the KV
  // cache holds ISL from the start and ISL + OSL from generation start until the end.
  std::vector<std::pair<double, double>> pf_up, pf_down, dec_up, dec_down, kv_in, kv_gen, kv_both, kv_in_only,
      kv_gen_only;
  for (const std::string& sid : lane.order)
    for (const LaneRecord& r : lane.sessions.at(sid)) {
      const double st = seconds_since(r.start_ns, lane.t0_ns), en = seconds_since(r.end_ns, lane.t0_ns);
      const double gen = (generation_start_ns(r.start_ns, r.end_ns, r.ttft_ms) - t0) / 1e9;
      const bool prefills = r.isl && gen - st > 0;
      const bool decodes = r.osl && en - gen > 0;
      if (prefills) {
        pf_up.emplace_back(st, *r.isl / (gen - st));
        pf_down.emplace_back(gen, -*r.isl / (gen - st));
      }
      if (decodes && *r.osl >= 1) {
        dec_up.emplace_back(gen, (*r.osl - 1.0) / (en - gen));
        dec_down.emplace_back(en, -(*r.osl - 1.0) / (en - gen));
      }
      const bool holds_input = r.isl && gen > st;
      if (holds_input) kv_in.emplace_back(st, *r.isl);
      if (decodes) kv_gen.emplace_back(gen, *r.osl);
      if (holds_input && decodes) kv_both.emplace_back(en, -(*r.isl + *r.osl));
      else if (holds_input) kv_in_only.emplace_back(en, -*r.isl);
      else if (decodes) kv_gen_only.emplace_back(en, -*r.osl);
    }
  const auto concat = [](std::initializer_list<const std::vector<std::pair<double, double>>*> parts) {
    std::vector<std::pair<double, double>> all;
    for (const auto* p : parts) all.insert(all.end(), p->begin(), p->end());
    return all;
  };
  const auto rounded_curve = [](StepCurve c, int64_t& peak) {
    oj out;
    out["t"] = oj::array();
    out["v"] = oj::array();
    double top = 0;
    for (size_t i = 0; i < c.t.size(); ++i) {
      const double v = std::max(c.v[i], 0.0);
      top = std::max(top, v);
      out["t"].push_back(round_to(c.t[i], 3));
      out["v"].push_back(static_cast<int64_t>(std::nearbyint(v)));
    }
    peak = static_cast<int64_t>(top);
    return out;
  };
  int64_t peak_tput = 0, peak_kv = 0, unused = 0;
  const oj prefill_tput = rounded_curve(event_sweep(concat({&pf_up, &pf_down})), unused);
  const oj decode_tput = rounded_curve(event_sweep(concat({&dec_up, &dec_down})), unused);
  const oj total_tput = rounded_curve(event_sweep(concat({&pf_up, &pf_down, &dec_up, &dec_down})), peak_tput);
  const oj kv_cache =
      rounded_curve(event_sweep(concat({&kv_in, &kv_gen, &kv_both, &kv_in_only, &kv_gen_only})), peak_kv);

  const StepCurve new_isl = weighted_sweep(prefill);
  double peak_new_isl = 0;
  for (double v : new_isl.v) peak_new_isl = std::max(peak_new_isl, v);
  oj new_isl_json;
  new_isl_json["t"] = oj::array();
  new_isl_json["v"] = oj::array();
  for (size_t i = 0; i < new_isl.t.size(); ++i) {
    new_isl_json["t"].push_back(round_to(new_isl.t[i], 3));
    new_isl_json["v"].push_back(static_cast<int64_t>(std::nearbyint(new_isl.v[i])));
  }
  // p50/p99 TTFT of the requests starting in each of 240 equal time bins (non-empty bins only).
  oj band_t = oj::array(), band_p50 = oj::array(), band_p99 = oj::array();
  double peak_lat = 0;
  if (!ttfts.empty()) {
    double t_max = 0;
    for (const auto& [t, v] : ttfts) t_max = std::max(t_max, t);
    constexpr int kBins = 240;
    std::vector<std::vector<double>> bins(kBins);
    std::vector<double> edges(kBins + 1);
    for (int i = 0; i <= kBins; ++i) edges[i] = i * (t_max / kBins);
    edges[kBins] = t_max;
    if (t_max <= 0) {
      std::vector<double> all;
      for (const auto& [t, v] : ttfts) all.push_back(v);
      bins.assign(1, all);
      edges = {0.0, 0.0};
    } else {
      for (const auto& [t, v] : ttfts) {
        const long idx = static_cast<long>(std::upper_bound(edges.begin(), edges.end(), t) - edges.begin()) - 1;
        bins[static_cast<size_t>(std::clamp(idx, 0L, static_cast<long>(kBins - 1)))].push_back(v);
      }
    }
    for (size_t b = 0; b < bins.size(); ++b) {
      if (bins[b].empty()) continue;
      band_t.push_back(t_max <= 0 ? 0.0 : round_to((edges[b] + edges[b + 1]) / 2.0, 3));
      band_p50.push_back(round_to(percentile(bins[b], 50), 1));
      const double p99 = round_to(percentile(bins[b], 99), 1);
      band_p99.push_back(p99);
      peak_lat = std::max(peak_lat, p99);
    }
  }
  oj j;
  j["run"] = view.run_name;
  j["tMax"] = round_to(lane.t_max_s, 4);
  j["nSlots"] = lane.n_slots;
  j["target"] = view.concurrency ? oj(*view.concurrency) : oj(nullptr);
  j["rampS"] = view.times.ramp_s ? oj(*view.times.ramp_s) : oj(nullptr);
  j["benchEnd"] = view.times.bench_s ? oj(*view.times.bench_s) : oj(nullptr);
  j["peakActive"] = lane.peak_active;
  j["peakTotal"] = peak_total;
  j["peakNewIsl"] = static_cast<int64_t>(peak_new_isl);
  j["peaks"] = {{"mainActive", peak_concurrent(main_turns)},
                {"mainAlive", peak_concurrent(main_spans)},
                {"subActive", peak_concurrent(sub_turns)},
                {"subAlive", peak_concurrent(sub_spans)}};
  j["sessions"] = sessions;
  j["active"] = curve_json(lane.active);
  j["idle"] = curve_json(lane.idle);
  j["newIsl"] = new_isl_json;
  j["peakTput"] = peak_tput;
  j["prefillTput"] = prefill_tput;
  j["decodeTput"] = decode_tput;
  j["totalTput"] = total_tput;
  j["peakKv"] = peak_kv;
  j["kvCache"] = kv_cache;
  j["peakLat"] = band_p99.empty() ? oj(0) : oj(peak_lat);
  j["latencyBand"] = {{"t", band_t}, {"p50", band_p50}, {"p99", band_p99}};
  return j;
}

}  // namespace aiperf::cli::analyze
