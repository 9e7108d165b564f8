#include "analyze_scene_render.h"

#include <cairo.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace aiperf::cli::analyze {
namespace {

namespace fs = std::filesystem;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string rgb(const Rgba& c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(c.r * 255)),
                static_cast<int>(std::lround(c.g * 255)), static_cast<int>(std::lround(c.b * 255)));
  return buf;
}

void set(cairo_t* cr, const Rgba& c) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a); }

void path(cairo_t* cr, const SceneLine& l) {
  cairo_new_path(cr);
  for (size_t i = 0; i < l.points.size(); ++i)
    (i ? cairo_line_to : cairo_move_to)(cr, l.points[i].first, l.points[i].second);
}

}  // namespace

void write_scene_png(const Scene& scene, const std::string& out, double scale) {
  const int w = static_cast<int>(std::ceil(scene.width * scale)), h = static_cast<int>(std::ceil(scene.height * scale));
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h), cairo_surface_destroy);
  std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context(cairo_create(surface.get()), cairo_destroy);
  cairo_t* cr = context.get();
  cairo_scale(cr, scale, scale);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  for (const SceneRect& r : scene.rects) {
    cairo_rectangle(cr, r.x, r.y, r.w, r.h);
    set(cr, r.fill);
    cairo_fill(cr);
  }
  for (const SceneLine& l : scene.lines) {
    if (l.points.size() < 2) continue;
    if (l.fill) {
      path(cr, l);
      cairo_close_path(cr);
      set(cr, *l.fill);
      cairo_fill(cr);
    }
    if (l.color.a <= 0) continue;
    path(cr, l);
    const double dash[] = {6, 4}, dot[] = {1.5, 3};
    if (l.dashed) cairo_set_dash(cr, dash, 2, 0);
    else if (l.dotted) cairo_set_dash(cr, dot, 2, 0);
    else cairo_set_dash(cr, nullptr, 0, 0);
    cairo_set_line_width(cr, l.width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    set(cr, l.color);
    cairo_stroke(cr);
  }
  cairo_set_dash(cr, nullptr, 0, 0);
  for (const SceneText& t : scene.texts) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           t.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, t.size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, t.text.c_str(), &ext);
    cairo_save(cr);
    cairo_translate(cr, t.x, t.y);
    if (t.vertical) cairo_rotate(cr, -M_PI / 2);
    cairo_move_to(cr, -ext.x_advance * t.anchor, 0);
    set(cr, t.color);
    cairo_show_text(cr, t.text.c_str());
    cairo_restore(cr);
  }
  cairo_surface_flush(surface.get());
  std::error_code ec;
  const fs::path target(out);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string tmp = out + ".tmp";
  if (cairo_surface_write_to_png(surface.get(), tmp.c_str()) != CAIRO_STATUS_SUCCESS) {
    fs::remove(tmp, ec);
    throw SwimLaneError("failed to write " + out);
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw SwimLaneError("failed to write " + out + ": " + ec.message());
  }
}

std::string scene_svg(const Scene& scene) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << num(scene.width) << ' ' << num(scene.height)
    << "\" width=\"" << num(scene.width) << "\" height=\"" << num(scene.height)
    << "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (const SceneRect& r : scene.rects) {
    o << "<rect x=\"" << num(r.x) << "\" y=\"" << num(r.y) << "\" width=\"" << num(r.w) << "\" height=\"" << num(r.h)
      << "\" fill=\"" << rgb(r.fill) << "\"";
    if (r.fill.a < 1) o << " fill-opacity=\"" << num(r.fill.a) << "\"";
    if (r.tip.empty()) {
      o << "/>\n";
    } else {
      o << " class=\"req\"><title>" << escape(r.tip) << "</title></rect>\n";
    }
  }
  for (const SceneLine& l : scene.lines) {
    if (l.points.size() < 2) continue;
    std::string pts;
    for (const auto& [x, y] : l.points) pts += num(x) + "," + num(y) + " ";
    if (l.fill)
      o << "<polygon points=\"" << pts << "\" fill=\"" << rgb(*l.fill) << "\" fill-opacity=\"" << num(l.fill->a)
        << "\" stroke=\"none\"/>\n";
    if (l.color.a <= 0) continue;
    o << "<polyline points=\"" << pts << "\" fill=\"none\" stroke=\"" << rgb(l.color) << "\" stroke-width=\""
      << num(l.width) << "\"";
    if (l.color.a < 1) o << " stroke-opacity=\"" << num(l.color.a) << "\"";
    if (l.dashed) o << " stroke-dasharray=\"6 4\"";
    if (l.dotted) o << " stroke-dasharray=\"1.5 3\"";
    o << "/>\n";
  }
  for (const SceneText& t : scene.texts) {
    o << "<text x=\"" << num(t.x) << "\" y=\"" << num(t.y) << "\" font-size=\"" << num(t.size) << "\" fill=\""
      << rgb(t.color) << "\"";
    if (t.bold) o << " font-weight=\"bold\"";
    if (t.anchor == 0.5) o << " text-anchor=\"middle\"";
    if (t.anchor == 1) o << " text-anchor=\"end\"";
    if (t.vertical) o << " transform=\"rotate(-90 " << num(t.x) << ' ' << num(t.y) << ")\"";
    o << '>' << escape(t.text) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string swim_lane_html(const Scene& scene, const std::string& title, const std::string& payload_json) {
  // "</" cannot end the JSON block early: escape every '<' inside it (JSON allows \u003c).
  std::string payload;
  for (char c : payload_json) payload += c == '<' ? std::string("\\u003c") : std::string(1, c);
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
    << "<title>" << escape(title) << " \xE2\x80\x94 swim lanes</title>\n"
    << "<style>body{margin:16px;font-family:'DejaVu Sans',Verdana,sans-serif;background:#fff;color:#1a1a1a}"
    << "svg{max-width:100%;height:auto}rect.req:hover{stroke:#000;stroke-width:1}"
    << "p{font-size:13px;color:#555}</style>\n</head>\n<body>\n"
    << "<p>Hover a request bar for its times, TTFT, latency and token counts.</p>\n"
    << scene_svg(scene) << "<script type=\"application/json\" id=\"aiperf-payload\">" << payload << "</script>\n"
    << "</body>\n</html>\n";
  return o.str();
}

void write_file_whole(const std::string& out, const std::string& text) {
  std::error_code ec;
  const fs::path target(out);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f.flush()) {
      fs::remove(tmp, ec);
      throw SwimLaneError("failed to write " + out);
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw SwimLaneError("failed to write " + out + ": " + ec.message());
  }
}

}  // namespace aiperf::cli::analyze
