#include "plot/png_renderer.h"

#include <cairo.h>
#include <jpeglib.h>

#include <cstdio>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "plot/ticks.h"

namespace aiperf::plot {

namespace {

struct Rgb {
  double r, g, b;
};

Rgb hex(const std::string& h) {
  const unsigned v = static_cast<unsigned>(std::stoul(h.substr(1), nullptr, 16));
  return {((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0};
}

// AIPerf's theme colours (plot/constants.py).
struct Colors {
  Rgb background, text, grid, axis, secondary;
};
Colors colors_of(Theme t) {
  if (t == Theme::Dark) return {hex("#1a1a1a"), hex("#E0E0E0"), hex("#333333"), hex("#999999"), hex("#F4E5C3")};
  return {hex("#FFFFFF"), hex("#0a0a0a"), hex("#CCCCCC"), hex("#555555"), hex("#999999")};
}

const char* kPalette[] = {"#76B900", "#1F77B4", "#FF7F0E", "#9467BD", "#17BECF",
                          "#D62728", "#8C564B", "#E377C2", "#BCBD22", "#7F7F7F"};

void set(cairo_t* cr, Rgb c, double a = 1) { cairo_set_source_rgba(cr, c.r, c.g, c.b, a); }

struct Font {
  double size;
  bool bold;
};

void use(cairo_t* cr, Font f) {
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         f.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, f.size);
}

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

// Draws s with its anchor at (x, y): ax 0/0.5/1 = left/centre/right, ay the same for
// top/middle/baseline-ish bottom (ascent-based).
void text(cairo_t* cr, const std::string& s, double x, double y, double ax, double ay, double angle = 0) {
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  const double w = text_width(cr, s);
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, angle);
  cairo_move_to(cr, -ax * w, -ay * fe.ascent + fe.ascent);
  cairo_show_text(cr, s.c_str());
  cairo_restore(cr);
}

// Maps data values to pixels along one axis.
struct Scale {
  AxisRange range;
  bool log = false;
  double p0 = 0, p1 = 1;  // pixel of range.lo, range.hi
  double operator()(double v) const {
    double a = range.lo, b = range.hi;
    if (log) {
      v = v > 0 ? std::log10(v) : std::log10(a) - 10;
      a = std::log10(a), b = std::log10(b);
    }
    return p0 + (v - a) / (b - a) * (p1 - p0);
  }
};

struct Extent {
  double lo = INFINITY, hi = -INFINITY;
  void add(double v, bool log) {
    if (!std::isfinite(v) || (log && v <= 0)) return;
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

// The drawn range is the data's (as Plotly's autorange), not widened to the outer ticks, when at
// least two ticks remain inside it.
AxisRange tighten(AxisRange r, Extent e, bool log) {
  if (log || e.empty() || !(e.hi > e.lo)) return r;
  const double eps = (e.hi - e.lo) * 1e-9;
  std::vector<double> inside;
  for (double t : r.ticks)
    if (t >= e.lo - eps && t <= e.hi + eps) inside.push_back(t);
  if (inside.size() < 2) return r;
  r.ticks = inside;
  r.lo = e.lo;
  r.hi = e.hi;
  return r;
}

// Ticks for an extent that fit in `pixels` with labels of the current font not overlapping
// (horizontal) or not crowding (vertical, one text height + gap).
AxisRange choose_ticks(cairo_t* cr, Extent e, bool log, double pixels, bool horizontal) {
  if (e.empty()) e = {0, 1};
  for (int target = horizontal ? 10 : 8; target >= 2; --target) {
    AxisRange r = log ? nice_log(e.lo, e.hi, target) : nice_linear(e.lo, e.hi, target);
    double need = 0;
    for (double t : r.ticks) {
      const std::string s = format_tick(t, log ? 0 : r.step);
      need += horizontal ? text_width(cr, s) + 24 : 34;
    }
    if (need <= pixels || target == 2) return tighten(r, e, log);
  }
  return nice_linear(e.lo, e.hi, 2);
}

}  // namespace

std::array<double, 3> heat_color(double t) {
  // Plotly's default sequential scale (Plasma), evenly spaced stops, linear in between.
  static const double stops[][3] = {{13, 8, 135},   {70, 3, 159},   {114, 1, 168},  {156, 23, 158}, {189, 55, 134},
                                    {216, 87, 107}, {237, 121, 83}, {251, 159, 58}, {253, 202, 38}, {240, 249, 33}};
  const int n = static_cast<int>(sizeof stops / sizeof *stops);
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
  const double f = t * (n - 1);
  const int i = std::min(n - 2, static_cast<int>(f));
  const double u = f - i;
  std::array<double, 3> out{};
  for (int c = 0; c < 3; ++c) out[c] = (stops[i][c] + (stops[i + 1][c] - stops[i][c]) * u) / 255.0;
  return out;
}

std::string palette_color(int index) {
  if (index == 100) return "#E74C3C";  // AIPerf's OUTLIER_RED
  const int n = static_cast<int>(sizeof kPalette / sizeof *kPalette);
  return kPalette[((index % n) + n) % n];
}

namespace {

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

SurfacePtr draw(const Figure& fig, Theme theme, int width, int height) {
  const Colors C = colors_of(theme);
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> ctx(cairo_create(surface.get()), cairo_destroy);
  cairo_t* cr = ctx.get();
  set(cr, C.background);
  cairo_paint(cr);
  const double k = height / 800.0;  // sizes scale with the image
  const Font title_font{26 * k, true}, label_font{18 * k, false}, tick_font{15 * k, false},
      legend_font{15 * k, false}, point_font{13 * k, true}, note_font{14 * k, false};

  bool has_y2 = false, has_cells = false;
  double zmax = 0;
  for (const auto& s : fig.series) {
    has_y2 = has_y2 || s.secondary_axis;
    if (s.mark != Mark::Cells) continue;
    has_cells = true;
    for (double z : s.z)
      if (std::isfinite(z)) zmax = std::max(zmax, z);
  }

  // Legend entries, laid out in rows under the title.
  std::vector<const Series*> legend;
  for (const auto& s : fig.series)
    if (!s.name.empty()) legend.push_back(&s);
  use(cr, legend_font);
  const double left = 120 * k, right = (has_y2 ? 120 : has_cells ? 160 : 50) * k;
  std::vector<std::vector<const Series*>> rows(1);
  {
    double x = 0;
    for (const Series* s : legend) {
      const double w = 40 * k + text_width(cr, s->name) + 30 * k;
      if (x + w > width - left - right && !rows.back().empty()) rows.emplace_back(), x = 0;
      rows.back().push_back(s);
      x += w;
    }
  }
  if (legend.empty()) rows.clear();
  const double legend_h = rows.size() * 26 * k;
  const double top = 70 * k + legend_h + (legend_h > 0 ? 10 * k : 0);
  const double bottom = (fig.note.empty() ? 90 : 120) * k;
  const double px0 = left, px1 = width - right, py0 = top, py1 = height - bottom;

  // Data extents (error bars and span ends included; areas reach zero).
  Extent ex, ey, ey2;
  for (const auto& s : fig.series) {
    Extent& yy = s.secondary_axis ? ey2 : ey;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      ex.add(s.x[i], fig.x.log);
      yy.add(s.y[i], s.secondary_axis ? fig.y2.log : fig.y.log);
      if (i < s.x_end.size()) ex.add(s.x_end[i], fig.x.log);
      if (i < s.y_end.size()) yy.add(s.y_end[i], fig.y.log);
      if (i < s.y_low.size()) yy.add(s.y_low[i], fig.y.log), yy.add(s.y_high[i], fig.y.log);
      if (i < s.x_low.size()) ex.add(s.x_low[i], fig.x.log), ex.add(s.x_high[i], fig.x.log);
    }
    if (s.mark == Mark::Area && !(s.secondary_axis ? fig.y2.log : fig.y.log)) yy.add(0, false);
    if (s.mark == Mark::Box && s.box.size() == 5 && !s.y.empty()) {
      const double c = static_cast<double>(&s - fig.series.data());
      ex.add(c - 0.25, fig.x.log), ex.add(c + 0.25, fig.x.log);
      yy.add(s.box[0], fig.y.log), yy.add(s.box[4], fig.y.log);
    }
  }
  if (fig.x.from_zero && !fig.x.log && !ex.empty()) ex.add(0, false);
  if (fig.y.from_zero && !fig.y.log && !ey.empty()) ey.add(0, false);
  if (fig.y2.from_zero && !fig.y2.log && !ey2.empty()) ey2.add(0, false);
  // A little air (3% a side, not across zero) so markers at the extremes stay inside the frame.
  // Log axes are widened to whole decades instead.
  for (auto [e, log] : {std::pair{&ex, fig.x.log}, std::pair{&ey, fig.y.log}, std::pair{&ey2, fig.y2.log}}) {
    if (log || e->empty() || !(e->hi > e->lo)) continue;
    const double d = (e->hi - e->lo) * 0.03;
    e->lo = e->lo >= 0 && e->lo - d < 0 ? 0 : e->lo - d;
    e->hi = e->hi <= 0 && e->hi + d > 0 ? 0 : e->hi + d;
  }
  const bool empty = ex.empty();
  // The axes' ends sit a little inside the frame so markers at the extremes are not cut.
  const double inset = 12 * k;
  use(cr, tick_font);
  Scale sx{choose_ticks(cr, ex, fig.x.log, px1 - px0, true), fig.x.log, px0 + inset, px1 - inset};
  Scale sy{choose_ticks(cr, ey, fig.y.log, py1 - py0, false), fig.y.log, py1 - inset, py0 + inset};
  Scale sy2{choose_ticks(cr, ey2, fig.y2.log, py1 - py0, false), fig.y2.log, py1 - inset, py0 + inset};

  // Title.
  set(cr, C.text);
  use(cr, title_font);
  text(cr, fig.title, width / 2.0, 22 * k, 0.5, 0);

  // Grid, frame, ticks.
  cairo_set_line_width(cr, 1);
  use(cr, tick_font);
  for (double t : fig.x.hide_ticks ? std::vector<double>{} : sx.range.ticks) {
    const double x = std::round(sx(t)) + 0.5;
    set(cr, C.grid);
    cairo_move_to(cr, x, py0), cairo_line_to(cr, x, py1), cairo_stroke(cr);
    set(cr, C.text);
    text(cr, format_tick(t, fig.x.log ? 0 : sx.range.step), x, py1 + 10 * k, 0.5, 0);
  }
  for (double t : sy.range.ticks) {
    const double y = std::round(sy(t)) + 0.5;
    set(cr, C.grid);
    cairo_move_to(cr, px0, y), cairo_line_to(cr, px1, y), cairo_stroke(cr);
    set(cr, C.text);
    text(cr, format_tick(t, fig.y.log ? 0 : sy.range.step), px0 - 10 * k, y, 1, 0.5);
  }
  if (has_y2)
    for (double t : sy2.range.ticks) {
      set(cr, C.text);
      text(cr, format_tick(t, fig.y2.log ? 0 : sy2.range.step), px1 + 10 * k, sy2(t), 0, 0.5);
    }
  set(cr, C.axis);
  cairo_set_line_width(cr, 1.5);
  cairo_rectangle(cr, px0, py0, px1 - px0, py1 - py0);
  cairo_stroke(cr);

  // Axis labels.
  set(cr, C.text);
  use(cr, label_font);
  text(cr, fig.x.label, (px0 + px1) / 2, py1 + 45 * k, 0.5, 0);
  text(cr, fig.y.label, 22 * k, (py0 + py1) / 2, 0.5, 0, -M_PI / 2);
  if (has_y2) text(cr, fig.y2.label, width - 22 * k, (py0 + py1) / 2, 0.5, 0, M_PI / 2);
  if (!fig.note.empty()) {
    set(cr, C.secondary);
    use(cr, note_font);
    text(cr, fig.note, (px0 + px1) / 2, py1 + 80 * k, 0.5, 0);
  }

  // Data, clipped to the plot area.
  cairo_save(cr);
  cairo_rectangle(cr, px0, py0, px1 - px0, py1 - py0);
  cairo_clip(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (size_t si = 0; si < fig.series.size(); ++si) {
    const Series& s = fig.series[si];
    const Rgb col = hex(palette_color(s.color >= 0 ? s.color : static_cast<int>(si)));
    const Scale& yscale = s.secondary_axis ? sy2 : sy;
    const size_t n = std::min(s.x.size(), s.y.size());
    if (n == 0) continue;
    auto X = [&](size_t i) { return sx(s.x[i]); };
    auto Y = [&](size_t i) { return yscale(s.y[i]); };
    // Error bars under the markers.
    if (!s.y_low.empty() || !s.x_low.empty()) {
      set(cr, col, 0.8);
      cairo_set_line_width(cr, 2 * k);
      const double cap = 6 * k;
      for (size_t i = 0; i < n; ++i) {
        if (i < s.y_low.size() && s.y_low[i] != s.y_high[i]) {
          const double a = yscale(s.y_low[i]), b = yscale(s.y_high[i]);
          cairo_move_to(cr, X(i), a), cairo_line_to(cr, X(i), b);
          cairo_move_to(cr, X(i) - cap, a), cairo_line_to(cr, X(i) + cap, a);
          cairo_move_to(cr, X(i) - cap, b), cairo_line_to(cr, X(i) + cap, b);
        }
        if (i < s.x_low.size() && s.x_low[i] != s.x_high[i]) {
          const double a = sx(s.x_low[i]), b = sx(s.x_high[i]);
          cairo_move_to(cr, a, Y(i)), cairo_line_to(cr, b, Y(i));
          cairo_move_to(cr, a, Y(i) - cap), cairo_line_to(cr, a, Y(i) + cap);
          cairo_move_to(cr, b, Y(i) - cap), cairo_line_to(cr, b, Y(i) + cap);
        }
      }
      cairo_stroke(cr);
    }
    switch (s.mark) {
      case Mark::Box: {
        // The values as markers (jittered left of the box, as Plotly's boxpoints "all"), then the box.
        const double r = (n > 2000 ? 2.5 : n > 200 ? 3.5 : 5) * k;
        for (size_t i = 0; i < n; ++i) {
          cairo_new_sub_path(cr);
          cairo_arc(cr, X(i), Y(i), r, 0, 2 * M_PI);
        }
        set(cr, col, 0.85);
        cairo_fill(cr);
        if (s.box.size() != 5) break;
        const double c = static_cast<double>(si), bl = sx(c - 0.25), br = sx(c + 0.25), mid = sx(c);
        const double lo = yscale(s.box[0]), q1 = yscale(s.box[1]), med = yscale(s.box[2]), q3 = yscale(s.box[3]),
                     hi = yscale(s.box[4]);
        cairo_rectangle(cr, bl, q3, br - bl, q1 - q3);
        set(cr, col, 0.35);
        cairo_fill_preserve(cr);
        set(cr, col);
        cairo_set_line_width(cr, 2.5 * k);
        cairo_stroke(cr);
        const double cap = (br - bl) * 0.25;
        cairo_move_to(cr, bl, med), cairo_line_to(cr, br, med);
        cairo_move_to(cr, mid, q1), cairo_line_to(cr, mid, lo);
        cairo_move_to(cr, mid - cap, lo), cairo_line_to(cr, mid + cap, lo);
        cairo_move_to(cr, mid, q3), cairo_line_to(cr, mid, hi);
        cairo_move_to(cr, mid - cap, hi), cairo_line_to(cr, mid + cap, hi);
        cairo_stroke(cr);
        break;
      }
      case Mark::Cells: {
        for (size_t i = 0; i < n && i < s.x_end.size() && i < s.y_end.size() && i < s.z.size(); ++i) {
          const double x0 = sx(s.x[i]), x1 = sx(s.x_end[i]), y0 = yscale(s.y[i]), y1 = yscale(s.y_end[i]);
          const auto c = heat_color(zmax > 0 ? s.z[i] / zmax : 1);
          cairo_set_source_rgb(cr, c[0], c[1], c[2]);
          cairo_rectangle(cr, std::min(x0, x1), std::min(y0, y1), std::abs(x1 - x0), std::abs(y1 - y0));
          cairo_fill(cr);
        }
        break;
      }
      case Mark::Points: {
        const double r = (n > 2000 ? 2.5 : n > 200 ? 3.5 : 6) * k;
        for (size_t i = 0; i < n; ++i) {
          cairo_new_sub_path(cr);
          cairo_arc(cr, X(i), Y(i), r, 0, 2 * M_PI);
        }
        set(cr, col, n > 2000 ? 0.6 : 0.85);
        cairo_fill(cr);
        break;
      }
      case Mark::Line:
      case Mark::Step:
      case Mark::Area: {
        cairo_move_to(cr, X(0), Y(0));
        for (size_t i = 1; i < n; ++i) {
          if (s.mark == Mark::Step) cairo_line_to(cr, X(i), Y(i - 1));
          cairo_line_to(cr, X(i), Y(i));
        }
        if (s.mark == Mark::Area) {
          cairo_path_t* line = cairo_copy_path(cr);
          const double base = yscale.log ? py1 : yscale(0);
          cairo_line_to(cr, X(n - 1), base);
          cairo_line_to(cr, X(0), base);
          cairo_close_path(cr);
          set(cr, col, 0.25);
          cairo_fill(cr);
          cairo_append_path(cr, line);
          cairo_path_destroy(line);
        }
        set(cr, col);
        cairo_set_line_width(cr, (s.mark == Mark::Line ? 3 : 2) * k);
        cairo_stroke(cr);
        if (s.mark == Mark::Line && !s.labels.empty()) {  // markers where points are labelled
          for (size_t i = 0; i < n; ++i) {
            cairo_new_sub_path(cr);
            cairo_arc(cr, X(i), Y(i), 5 * k, 0, 2 * M_PI);
          }
          cairo_fill(cr);
        }
        break;
      }
      case Mark::Spans: {
        set(cr, col, 0.85);
        cairo_set_line_width(cr, std::max(2.0, 4 * k));
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        for (size_t i = 0; i < n && i < s.x_end.size(); ++i) {
          cairo_move_to(cr, X(i), Y(i));
          cairo_line_to(cr, std::max(sx(s.x_end[i]), X(i) + 1), Y(i));
        }
        cairo_stroke(cr);
        break;
      }
    }
  }
  if (empty) {
    set(cr, C.axis);
    use(cr, label_font);
    text(cr, "No data", (px0 + px1) / 2, (py0 + py1) / 2, 0.5, 0.5);
  }
  cairo_restore(cr);

  // Point labels (e.g. the concurrency), unclipped: above right of each point, turned to the
  // left / below where they would leave the frame.
  use(cr, point_font);
  set(cr, C.text);
  for (const Series& s : fig.series) {
    const Scale& yscale = s.secondary_axis ? sy2 : sy;
    for (size_t i = 0; i < s.labels.size() && i < s.x.size() && i < s.y.size(); ++i) {
      const double x = sx(s.x[i]), y = yscale(s.y[i]);
      const double w = text_width(cr, s.labels[i]);
      const bool left = x + 9 * k + w > px1 - 2;
      const bool below = y - 9 * k - point_font.size < py0;
      text(cr, s.labels[i], left ? x - 9 * k : x + 9 * k, below ? y + 9 * k : y - 9 * k, left ? 1 : 0, below ? 0 : 1);
    }
  }

  // The colour bar of a heat map (counts from 0 to the largest cell), right of the plot.
  if (has_cells) {
    const double bx = px1 + 30 * k, bw = 24 * k;
    const int steps = 200;
    for (int i = 0; i < steps; ++i) {
      const auto c = heat_color((i + 0.5) / steps);
      cairo_set_source_rgb(cr, c[0], c[1], c[2]);
      const double y = py1 - (py1 - py0) * (i + 1.0) / steps;
      cairo_rectangle(cr, bx, y, bw, (py1 - py0) / steps + 1);
      cairo_fill(cr);
    }
    use(cr, tick_font);
    const AxisRange zr = nice_linear(0, std::max(zmax, 1.0), 6);
    for (double t : zr.ticks) {
      if (t > std::max(zmax, 1.0) + 1e-9) continue;
      const double y = py1 - (py1 - py0) * t / std::max(zmax, 1.0);
      set(cr, C.text);
      text(cr, format_tick(t, zr.step), bx + bw + 8 * k, y, 0, 0.5);
    }
    use(cr, label_font);
    text(cr, "count", bx + bw / 2, py0 - 8 * k, 0.5, 1);
  }

  // Legend rows, centred under the title.
  use(cr, legend_font);
  for (size_t r = 0; r < rows.size(); ++r) {
    double total = 0;
    for (const Series* s : rows[r]) total += 40 * k + text_width(cr, s->name) + 30 * k;
    double x = (width - total) / 2;
    const double y = 62 * k + r * 26 * k + 10 * k;
    for (const Series* s : rows[r]) {
      const int idx = s->color >= 0 ? s->color : static_cast<int>(s - fig.series.data());
      const Rgb col = hex(palette_color(idx));
      set(cr, col);
      if (s->mark == Mark::Points) {
        cairo_arc(cr, x + 16 * k, y, 6 * k, 0, 2 * M_PI);
        cairo_fill(cr);
      } else {
        cairo_set_line_width(cr, (s->mark == Mark::Spans ? 6 : 3) * k);
        cairo_move_to(cr, x, y), cairo_line_to(cr, x + 32 * k, y);
        cairo_stroke(cr);
      }
      set(cr, C.text);
      text(cr, s->name, x + 40 * k, y, 0, 0.5);
      x += 40 * k + text_width(cr, s->name) + 30 * k;
    }
  }

  cairo_surface_flush(surface.get());
  return surface;
}

}  // namespace

void render_png(const Figure& fig, Theme theme, const std::string& path, int width, int height) {
  SurfacePtr surface = draw(fig, theme, width, height);
  if (cairo_surface_write_to_png(surface.get(), path.c_str()) != CAIRO_STATUS_SUCCESS)
    throw RenderError(path + ": cannot write the PNG");
}

void render_jpeg(const Figure& fig, Theme theme, const std::string& path, int width, int height, int quality) {
  SurfacePtr surface = draw(fig, theme, width, height);
  const unsigned char* data = cairo_image_surface_get_data(surface.get());
  const int stride = cairo_image_surface_get_stride(surface.get());
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw RenderError(path + ": cannot write the JPEG");
  jpeg_compress_struct cinfo{};
  jpeg_error_mgr jerr{};
  cinfo.err = jpeg_std_error(&jerr);
  jpeg_create_compress(&cinfo);
  jpeg_stdio_dest(&cinfo, file);
  cinfo.image_width = static_cast<JDIMENSION>(width);
  cinfo.image_height = static_cast<JDIMENSION>(height);
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, quality, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  // CAIRO_FORMAT_RGB24 is one native-endian 32-bit word per pixel: 0x00RRGGBB.
  std::vector<unsigned char> row(static_cast<size_t>(width) * 3);
  while (cinfo.next_scanline < cinfo.image_height) {
    const auto* px = reinterpret_cast<const uint32_t*>(data + static_cast<size_t>(cinfo.next_scanline) * stride);
    for (int x = 0; x < width; ++x) {
      row[3 * x] = static_cast<unsigned char>(px[x] >> 16);
      row[3 * x + 1] = static_cast<unsigned char>(px[x] >> 8);
      row[3 * x + 2] = static_cast<unsigned char>(px[x]);
    }
    JSAMPROW rows[1] = {row.data()};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  const bool failed = std::ferror(file) != 0;
  if (std::fclose(file) != 0 || failed) throw RenderError(path + ": cannot write the JPEG");
}

}  // namespace aiperf::plot
