#include "plot/html_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "plot/png_renderer.h"

namespace aiperf::plot::html {

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // U+2028 and U+2029 (E2 80 A8/A9) end a line in older JavaScript parsers.
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  if (value == 0) return "0";  // also -0, which JSON would keep as "-0"
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 6);
  return ec == std::errc() ? std::string(buf, end) : std::string("null");
}

namespace {

const char* mark_name(Mark mark) {
  switch (mark) {
    case Mark::Points: return "points";
    case Mark::Line: return "line";
    case Mark::Step: return "step";
    case Mark::Area: return "area";
    case Mark::Spans: return "spans";
    case Mark::Box:
      return "box";
    case Mark::Cells:
      return "cells";
  }
  return "line";
}

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(a[i] == b[i]) && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
  }
  return true;
}

// True when `value` is written exactly (its JSON text reads back as the same double).
bool exact_in_json(double value) {
  const std::string text = json_number(value);
  return text != "null" && std::strtod(text.c_str(), nullptr) == value;
}

// The numeric columns of the page in the order they are written. A column equal to an earlier
// one is written as {"ref":N} (N = that column's index among those written); an exact
// arithmetic progression of 3 or more values whose first value and step are exact in JSON as
// {"seq":[first,step,count]} (value i = first + i * step). Request numbers and a figure's
// repeated x (several lines over the same times) then cost nothing; the page's script
// rebuilds the arrays in the same order.
class Columns {
 public:
  void append(std::string& out, const char* key, const std::vector<double>& values) {
    out += ",\"";
    out += key;
    out += "\":";
    if (values.size() >= 3) {
      for (size_t i = 0; i < written_.size(); ++i) {
        if (same_values(written_[i], values)) {
          out += "{\"ref\":" + std::to_string(i) + "}";
          return;
        }
      }
    }
    written_.push_back(values);
    if (is_progression(values)) {
      out += "{\"seq\":[" + json_number(values[0]) + "," + json_number(values[1] - values[0]) + "," +
             std::to_string(values.size()) + "]}";
      return;
    }
    out += '[';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out += ',';
      out += json_number(values[i]);
    }
    out += ']';
  }

 private:
  static bool is_progression(const std::vector<double>& v) {
    if (v.size() < 3) return false;
    const double step = v[1] - v[0];
    if (!exact_in_json(v[0]) || !exact_in_json(step)) return false;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] != v[0] + static_cast<double>(i) * step) return false;
    }
    return true;
  }

  std::vector<std::vector<double>> written_;
};

void append_axis(std::string& out, const char* key, const Axis& axis) {
  out += ",\"";
  out += key;
  out += "\":{\"label\":" + json_string(axis.label) + ",\"log\":" + (axis.log ? "true" : "false");
  if (axis.from_zero) out += ",\"zero\":true";  // the range reaches down to 0, as in the PNG
  if (axis.hide_ticks) out += ",\"noticks\":true";
  out += "}";
}

}  // namespace

std::string figures_json(const std::vector<Figure>& figures) {
  Columns columns;
  std::string out = "[";
  for (size_t f = 0; f < figures.size(); ++f) {
    const Figure& fig = figures[f];
    if (f) out += ',';
    out += "{\"id\":" + json_string(fig.id) + ",\"title\":" + json_string(fig.title);
    append_axis(out, "x", fig.x);
    append_axis(out, "y", fig.y);
    append_axis(out, "y2", fig.y2);
    out += ",\"series\":[";
    for (size_t s = 0; s < fig.series.size(); ++s) {
      const Series& series = fig.series[s];
      if (s) out += ',';
      out += "{\"name\":" + json_string(series.name) + ",\"mark\":\"" + mark_name(series.mark) + "\"";
      // The PNG plots' colour for this series, so both renderers agree.
      out += ",\"color\":" + json_string(palette_color(series.color >= 0 ? series.color : static_cast<int>(s)));
      if (series.secondary_axis) out += ",\"y2\":true";
      columns.append(out, "x", series.x);
      columns.append(out, "y", series.y);
      if (!series.x_end.empty()) {
        // Durations rather than ends: 6 significant digits of a 5 ms bar at t = 7200 s would
        // round its end to 10 ms; its duration keeps 6 digits of its own.
        std::vector<double> durations(series.x_end.size());
        for (size_t i = 0; i < durations.size(); ++i) {
          durations[i] = i < series.x.size() ? series.x_end[i] - series.x[i] : std::nan("");
        }
        columns.append(out, "xd", durations);
      }
      if (!series.y_end.empty()) {  // Cells: heights, as the widths above
        std::vector<double> heights(series.y_end.size());
        for (size_t i = 0; i < heights.size(); ++i) {
          heights[i] = i < series.y.size() ? series.y_end[i] - series.y[i] : std::nan("");
        }
        columns.append(out, "yd", heights);
      }
      if (!series.z.empty()) columns.append(out, "z", series.z);
      if (series.box.size() == 5) {
        out += ",\"box\":[";
        for (size_t i = 0; i < 5; ++i) out += (i ? "," : "") + json_number(series.box[i]);
        out += ']';
      }
      if (!series.y_low.empty()) columns.append(out, "lo", series.y_low);
      if (!series.y_high.empty()) columns.append(out, "hi", series.y_high);
      if (!series.x_low.empty()) columns.append(out, "xlo", series.x_low);
      if (!series.x_high.empty()) columns.append(out, "xhi", series.x_high);
      if (!series.labels.empty()) {
        out += ",\"labels\":[";
        for (size_t i = 0; i < series.labels.size(); ++i) {
          if (i) out += ',';
          out += json_string(series.labels[i]);
        }
        out += ']';
      }
      out += '}';
    }
    out += "]}";
  }
  out += ']';
  return out;
}

}  // namespace aiperf::plot::html
