// draw_swim_lane: the swim-lane picture as Scene primitives (see analyze_swim_lane.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "analyze_swim_lane.h"

namespace aiperf::cli::analyze {
namespace {

// matplotlib's tab20 colours, the lanes' palette in the reference picture.
const char* const kTab20[] = {"#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
                              "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2",
                              "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5"};

Rgba hex(const char* h, double alpha = 1) {
  unsigned r = 0, g = 0, b = 0;
  std::sscanf(h, "#%02x%02x%02x", &r, &g, &b);
  return {r / 255.0, g / 255.0, b / 255.0, alpha};
}

Rgba with_alpha(Rgba c, double a) {
  c.a = a;
  return c;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Round tick steps (1, 2, 5 x 10^k) giving about `target` intervals over [0, hi].
std::pair<double, int> tick_step(double hi, int target) {
  const double raw = hi / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  return {step, decimals};
}

// A row of legend entries centred at (cx, y): a swatch (box or line) and its label each.
struct LegendItem {
  std::string label;
  Rgba color;
  bool line = false;
  bool dashed = false, dotted = false;
};

void legend(Scene& s, const std::vector<LegendItem>& items, double cx, double y) {
  const double size = 12, char_w = 0.6 * size, swatch = 26, gap = 8, spacing = 28;
  double total = 0;
  for (const auto& it : items) total += swatch + gap + it.label.size() * char_w + spacing;
  total -= spacing;
  double x = cx - total / 2;
  for (const auto& it : items) {
    if (it.line) {
      SceneLine l;
      l.points = {{x, y - 4}, {x + swatch, y - 4}};
      l.color = it.color;
      l.width = 2;
      l.dashed = it.dashed;
      l.dotted = it.dotted;
      s.lines.push_back(l);
    } else {
      s.rects.push_back({x, y - 10, swatch, 12, it.color, ""});
    }
    s.texts.push_back({x + swatch + gap, y, it.label, size, false, 0, false, {0.1, 0.1, 0.1, 1}});
    x += swatch + gap + it.label.size() * char_w + spacing;
  }
}

std::string turn_tip(const std::string& sid, const LaneRecord& r, int64_t t0_ns) {
  std::string tip = "session " + sid + " turn " + std::to_string(r.turn_index) + ": " +
                    fixed(seconds_since(r.start_ns, t0_ns), 3) + "-" + fixed(seconds_since(r.end_ns, t0_ns), 3) + " s";
  if (r.ttft_ms) tip += ", TTFT " + fixed(*r.ttft_ms, 1) + " ms";
  if (r.latency_ms) tip += ", latency " + fixed(*r.latency_ms, 1) + " ms";
  if (r.isl) tip += ", ISL " + fixed(*r.isl, 0);
  if (r.osl) tip += ", OSL " + fixed(*r.osl, 0);
  if (r.error) tip += ", error";
  if (r.overflow_skip) tip += ", context overflow";
  return tip;
}

}  // namespace

Scene draw_swim_lane(const SwimLane& lane, const SwimLaneView& view) {
  Scene s;
  const Rgba ink{0.1, 0.1, 0.1, 1}, grid{0, 0, 0, 0.12};
  const double L = 90, R = 1570, W = 1600;
  const double x_max = std::max(lane.t_max_s * 1.01, 1.0);
  const auto X = [&](double t) { return L + t / x_max * (R - L); };

  // Rows: a slot is as tall as its tallest lane (parallel turns, subagent tiers).
  std::vector<int> slot_rows(static_cast<size_t>(lane.n_slots), 1), slot_offset(static_cast<size_t>(lane.n_slots), 0);
  for (const LaneGroup& g : lane.groups) slot_rows[g.slot] = std::max(slot_rows[g.slot], g.rows);
  for (int i = 1; i < lane.n_slots; ++i) slot_offset[i] = slot_offset[i - 1] + slot_rows[i - 1];
  const int total_rows = slot_offset.back() + slot_rows.back();
  // The reference's proportions: the lane panel is max(4, rows x min(0.45, 58 / rows) + 1)
  // inches to the concurrency panel's 2.5 (here 88 px an inch).
  const double H1 = std::max(4.0, total_rows * std::min(0.45, 58.0 / total_rows) + 1.0) * 88 - 40;
  const double row_px = H1 / total_rows;
  const double T1 = 80;
  const auto Yrow = [&](double row) { return T1 + (row + 0.5) * row_px; };  // centre of a row
  const double bar = 0.7;

  const std::string counts = lane.n_sub ? std::to_string(lane.sessions.size() - lane.n_sub) + " sessions + " +
                                              std::to_string(lane.n_sub) + " subagents"
                                        : std::to_string(lane.sessions.size()) + " sessions";
  s.texts.push_back({W / 2, 26, view.run_name + "  \xE2\x80\x94  " + counts + " across " + std::to_string(lane.n_slots) +
                                    " slots", 17, true, 0.5, false, ink});
  const Rgba first = hex(kTab20[0]);
  std::vector<LegendItem> top{{"Active request", first}};
  if (lane.n_sub) top.push_back({"Subagent request", with_alpha(first, 0.55)});
  top.push_back({"Inter-turn delay", with_alpha(first, 0.25)});
  top.push_back({"New session in slot", {0, 0, 0, 1}, true});
  legend(s, top, (L + R) / 2, 56);

  // Slot gaps (no session) in light grey.
  std::map<int, std::vector<std::pair<double, double>>> slot_spans;
  for (const LaneGroup& g : lane.groups)
    slot_spans[g.slot].emplace_back(seconds_since(g.start_ns, lane.t0_ns), seconds_since(g.end_ns, lane.t0_ns));
  for (int slot = 0; slot < lane.n_slots; ++slot) {
    auto spans = slot_spans[slot];
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<double, double>> gaps;
    if (spans.empty()) {
      gaps.emplace_back(0, lane.t_max_s);
    } else {
      if (spans.front().first > 0) gaps.emplace_back(0, spans.front().first);
      for (size_t i = 1; i < spans.size(); ++i)
        if (spans[i].first > spans[i - 1].second) gaps.emplace_back(spans[i - 1].second, spans[i].first);
      if (spans.back().second < lane.t_max_s) gaps.emplace_back(spans.back().second, lane.t_max_s);
    }
    const double centre = slot_offset[slot] + (slot_rows[slot] - 1) / 2.0;
    const double h = (slot_rows[slot] - (1 - bar)) * row_px;
    for (const auto& [a, b] : gaps) s.rects.push_back({X(a), Yrow(centre) - h / 2, X(b) - X(a), h, hex("#f0f0f0"), ""});
  }
  // Sessions: idle bands between their requests, then one bar per request.
  for (size_t gi = 0; gi < lane.groups.size(); ++gi) {
    const LaneGroup& g = lane.groups[gi];
    const Rgba color = hex(kTab20[gi % 20]);
    for (const SessionLayout& m : g.members) {
      const auto& turns = lane.sessions.at(m.sid);
      const int base = slot_offset[g.slot] + m.row0;
      std::vector<std::pair<int64_t, int64_t>> iv;
      for (const LaneRecord& r : turns) iv.emplace_back(r.start_ns, r.end_ns);
      std::sort(iv.begin(), iv.end());
      int64_t busy_until = iv.front().second;
      const double h = (m.rows - (1 - bar)) * row_px;
      for (size_t i = 1; i < iv.size(); ++i) {
        if (iv[i].first > busy_until) {
          const double a = seconds_since(busy_until, lane.t0_ns), b = seconds_since(iv[i].first, lane.t0_ns);
          s.rects.push_back({X(a), Yrow(base + (m.rows - 1) / 2.0) - h / 2, X(b) - X(a), h,
                             with_alpha(color, m.is_sub ? 0.15 : 0.25), ""});
        }
        busy_until = std::max(busy_until, iv[i].second);
      }
      for (size_t i = 0; i < turns.size(); ++i) {
        const LaneRecord& r = turns[i];
        const double a = seconds_since(r.start_ns, lane.t0_ns), b = seconds_since(r.end_ns, lane.t0_ns);
        s.rects.push_back({X(a), Yrow(base + m.depths[i]) - bar * row_px / 2, std::max(X(b) - X(a), 0.5),
                           bar * row_px, m.is_sub ? with_alpha(color, 0.55) : color,
                           turn_tip(m.sid, r, lane.t0_ns)});
      }
    }
  }
  // A black mark where a slot takes a new session.
  std::map<int, std::vector<double>> starts;
  for (const LaneGroup& g : lane.groups) starts[g.slot].push_back(seconds_since(g.start_ns, lane.t0_ns));
  for (auto& [slot, xs] : starts) {
    std::sort(xs.begin(), xs.end());
    for (size_t i = 1; i < xs.size(); ++i)
      s.lines.push_back({{{X(xs[i]), Yrow(slot_offset[slot]) - bar * row_px / 2},
                          {X(xs[i]), Yrow(slot_offset[slot] + slot_rows[slot] - 1) + bar * row_px / 2}},
                         {0, 0, 0, 1}, 1.5});
  }
  if (total_rows > lane.n_slots)
    for (int slot = 1; slot < lane.n_slots; ++slot)
      s.lines.push_back({{{L, Yrow(slot_offset[slot] - 0.5)}, {R, Yrow(slot_offset[slot] - 0.5)}}, hex("#999999", 0.6), 0.5});

  // Axes of the lane panel: slot labels (every 1, 2 or 5), the time grid.
  const auto [xstep, xdec] = tick_step(x_max, 10);
  const double T2 = T1 + H1 + 30, H2 = 220;
  const int stride = lane.n_slots <= 30 ? 1 : lane.n_slots <= 60 ? 2 : 5;
  for (int slot = 0; slot < lane.n_slots; slot += stride)
    s.texts.push_back({L - 8, Yrow(slot_offset[slot] + (slot_rows[slot] - 1) / 2.0) + 4, std::to_string(slot), 11, false,
                       1, false, ink});
  s.texts.push_back({28, T1 + H1 / 2, "Session Slot", 13, false, 0.5, true, ink});

  // The concurrency panel.
  double y_max = std::max({lane.peak_active * 1.15, lane.n_slots * 1.15, view.concurrency.value_or(0) * 1.15, 1.0});
  const auto Yc = [&](double v) { return T2 + H2 - v / y_max * H2; };
  const auto step_points = [&](const StepCurve& c) {
    std::vector<std::pair<double, double>> pts;
    for (size_t i = 0; i < c.t.size(); ++i) {
      if (i > 0) pts.emplace_back(X(c.t[i]), Yc(c.v[i - 1]));
      pts.emplace_back(X(c.t[i]), Yc(c.v[i]));
    }
    return pts;
  };
  const Rgba blue = hex("#2196F3");
  if (!lane.active.t.empty()) {
    SceneLine area;
    area.points = step_points(lane.active);
    area.points.emplace_back(X(lane.active.t.back()), Yc(0));
    area.points.emplace_back(X(lane.active.t.front()), Yc(0));
    area.color = with_alpha(blue, 0);
    area.fill = with_alpha(blue, 0.3);
    s.lines.push_back(area);
  }
  s.lines.push_back({step_points(lane.active), blue, 1});
  s.lines.push_back({step_points(lane.idle), hex("#999999", 0.8), 1});
  s.lines.push_back({{{L, Yc(lane.n_slots)}, {R, Yc(lane.n_slots)}}, hex("#ff0000", 0.7), 1, false, true});
  std::vector<LegendItem> bottom{{"Active requests (peak " + std::to_string(lane.peak_active) + ")", blue, true},
                                 {"Idle sessions (between turns)", hex("#999999"), true},
                                 {"Slot count (" + std::to_string(lane.n_slots) + ")", hex("#ff0000", 0.7), true, false, true}};
  if (view.concurrency) {
    s.lines.push_back({{{L, Yc(*view.concurrency)}, {R, Yc(*view.concurrency)}}, hex("#008000", 0.8), 1.2, true});
    bottom.push_back({"Target concurrency (" + std::to_string(*view.concurrency) + ")", hex("#008000"), true, true});
  }
  // Ramp done / benchmark end across both panels.
  const auto marker = [&](double t, Rgba c) {
    if (t < 0 || t > x_max) return;
    s.lines.push_back({{{X(t), T1}, {X(t), T1 + H1}}, c, 1.5, true});
    s.lines.push_back({{{X(t), T2}, {X(t), T2 + H2}}, c, 1.5, true});
  };
  if (view.times.ramp_s) {
    marker(*view.times.ramp_s, hex("#ffa500", 0.8));
    bottom.push_back({"Ramp done (" + fixed(*view.times.ramp_s, 0) + "s)", hex("#ffa500"), true, true});
  }
  if (view.times.bench_s) {
    marker(*view.times.bench_s, hex("#ff0000", 0.8));
    bottom.push_back({"Benchmark end (" + fixed(*view.times.bench_s, 0) + "s)", hex("#ff0000"), true, true});
  }
  const auto [ystep, ydec] = tick_step(y_max, 4);
  for (double v = 0; v <= y_max + 1e-9; v += ystep) {
    s.lines.push_back({{{L, Yc(v)}, {R, Yc(v)}}, grid, 0.5});
    s.texts.push_back({L - 8, Yc(v) + 4, fixed(v, std::max(0, ydec)), 11, false, 1, false, ink});
  }
  for (double t = 0; t <= x_max + 1e-9; t += xstep) {
    s.lines.push_back({{{X(t), T1}, {X(t), T1 + H1}}, grid, 0.5});
    s.lines.push_back({{{X(t), T2}, {X(t), T2 + H2}}, grid, 0.5});
    s.texts.push_back({X(t), T2 + H2 + 18, fixed(t, xdec), 11, false, 0.5, false, ink});
  }
  // Panel frames.
  for (const auto& [top_y, h] : {std::pair{T1, H1}, std::pair{T2, H2}})
    s.lines.push_back({{{L, top_y}, {R, top_y}, {R, top_y + h}, {L, top_y + h}, {L, top_y}}, ink, 1});
  s.texts.push_back({28, T2 + H2 / 2, "Sessions", 13, false, 0.5, true, ink});
  s.texts.push_back({(L + R) / 2, T2 + H2 + 42, "Time (seconds)", 13, false, 0.5, false, ink});
  legend(s, bottom, (L + R) / 2, T2 + H2 + 72);
  s.width = W;
  s.height = T2 + H2 + 90;
  return s;
}

}  // namespace aiperf::cli::analyze
