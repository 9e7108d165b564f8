// `aiperf analyze swim-lane`, the pure part: a run's profile_export.jsonl turned into session
// lanes (one per concurrently-live session tree, reused once its session retires, subagents as
// child rows under their root) and the concurrency curves under them, laid out as AIPerf 0.13
// lays them out (aiperf/analysis/swim_lane.py), then drawn into a backend-free Scene.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace aiperf::cli::analyze {

// A run directory that cannot be drawn ("<file> not found", "<file>:<line>: ..."); the
// command prints "skip <dir>: <what>" and goes on with the next directory.
class SwimLaneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One completed (not cancelled) request of profile_export.jsonl.
struct LaneRecord {
  std::string session;       // x_correlation_id, else conversation_id
  std::string conversation;  // conversation_id
  int64_t turn_index = 0;
  int64_t start_ns = 0, end_ns = 0;
  int64_t agent_depth = 0;
  bool has_agent_depth = false;  // the export carries agent_depth (the payload shows null otherwise)
  std::string root_correlation_id, parent_correlation_id;
  bool error = false, overflow_skip = false;
  std::optional<double> ttft_ms, latency_ms, isl, osl;
  std::optional<double> cache_read;  // usage_prompt_cache_read_tokens
};

// Reads the records of `path`, skipping cancelled ones and those without start/end times.
// Throws SwimLaneError naming the file (and line) when it is missing or malformed.
std::vector<LaneRecord> load_lane_records(const std::string& path);

// Where one session sits in its lane: its rows start at row0 (relative to the lane), one row
// per request that overlaps an earlier one (depths, in turn order).
struct SessionLayout {
  std::string sid;
  bool is_sub = false;
  int row0 = 0, rows = 0;
  std::vector<int> depths;
};

// One lane: a root session and its subagents, in slot `slot`.
struct LaneGroup {
  std::string root;
  int slot = 0;
  int rows = 0;
  int64_t start_ns = 0, end_ns = 0;
  std::vector<SessionLayout> members;
};

// A step function: value v[i] holds from t[i] until t[i+1] (seconds from the first request).
struct StepCurve {
  std::vector<double> t, v;
};

struct SwimLane {
  std::vector<std::string> order;                            // session ids, first-seen order
  std::map<std::string, std::vector<LaneRecord>> sessions;   // turns sorted by turn_index
  std::vector<LaneGroup> groups;                             // in slot-assignment order
  int n_slots = 0;
  int64_t t0_ns = 0;     // the first request start
  double t_max_s = 0;    // the last request end, seconds from t0
  int n_sub = 0;         // sessions with a request at agent_depth > 0
  StepCurve active;      // requests in flight
  StepCurve idle;        // live sessions between two of their requests
  int peak_active = 0;
};

// (ns - t0) in seconds, computed as the reference does: both as float64 first (absolute
// nanoseconds then carry about 256 ns of rounding), so rounded values agree with its files.
double seconds_since(int64_t ns, int64_t t0_ns);

// The lanes and curves of `records` (at least one). Ties in start time keep file order.
SwimLane build_swim_lane(const std::vector<LaneRecord>& records);

// (ramp seconds, benchmark duration seconds) read from profile_export_aiperf.json's text,
// when present: the ramp from input_config.phases[].concurrency_ramp.duration (non-warmup) or
// input_config.loadgen.concurrency_ramp_duration; the duration from benchmark_duration(.avg).
struct BenchTimes {
  std::optional<double> ramp_s, bench_s;
};
BenchTimes parse_bench_times(const std::string& profile_json_text);

// Primitives in pixels (origin top left), so the PNG (cairo) and the HTML (SVG) draw the same
// picture. Colours are RGBA in 0..1.
struct Rgba {
  double r = 0, g = 0, b = 0, a = 1;
};
struct SceneRect {
  double x, y, w, h;
  Rgba fill;
  std::string tip;  // hover text in the HTML; empty = none
};
struct SceneLine {
  std::vector<std::pair<double, double>> points;
  Rgba color;
  double width = 1;
  bool dashed = false, dotted = false;
  std::optional<Rgba> fill;  // fills the polygon of `points` (closed) before the stroke
};
struct SceneText {
  double x, y;
  std::string text;
  double size = 12;
  bool bold = false;
  double anchor = 0;  // 0 left, 0.5 centre, 1 right (the text's x); y is the baseline
  bool vertical = false;
  Rgba color;
};
struct Scene {
  double width = 0, height = 0;
  std::vector<SceneRect> rects;  // drawn first, in order
  std::vector<SceneLine> lines;
  std::vector<SceneText> texts;
};

struct SwimLaneView {
  std::string run_name;
  std::optional<int> concurrency;  // -c: the target line
  BenchTimes times;
};

// The data of the HTML page, with AIPerf's swim-lane payload keys (run, tMax, nSlots, target,
// rampS, benchEnd, peakActive, peakTotal, peakNewIsl, peaks, sessions[{id, conv, slot, ci,
// row0, rows, turns, gaps, sub?, root?}], active, idle, newIsl, peakTput, prefillTput,
// decodeTput, totalTput, peakKv, kvCache, peakLat, latencyBand); a turn is [start_s, end_s,
// ttft_ms, latency_ms, isl, osl, depth, agent_depth, new_isl, status (0 ok, 1 error, 2
// context-overflow skip)].
nlohmann::ordered_json swim_lane_payload(const SwimLane& lane, const SwimLaneView& view);

// The two-panel picture: lanes on top (idle gaps light grey, per-lane colours, slot reuse
// marks, ramp/benchmark-end lines), the concurrency panel below, legends and title.
Scene draw_swim_lane(const SwimLane& lane, const SwimLaneView& view);

}  // namespace aiperf::cli::analyze
