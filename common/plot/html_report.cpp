#include "plot/html_report.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <string_view>

#include "plot/html_assets.h"
#include "plot/html_text.h"
#include "util/output_paths.h"

namespace aiperf::plot {

namespace {

// 'sha256-<base64>' of an inline block, as Content-Security-Policy expects it.
std::string csp_hash(std::string_view block) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(block.data()), block.size(), digest);
  unsigned char b64[4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1];
  const int n = EVP_EncodeBlock(b64, digest, SHA256_DIGEST_LENGTH);
  return "'sha256-" + std::string(reinterpret_cast<const char*>(b64), static_cast<size_t>(n)) + "'";
}

void append_table(std::string& out, const Table& table, size_t index) {
  out += "<section class=\"card table-card\" id=\"table-" + std::to_string(index) + "\">\n";
  if (!table.title.empty()) out += "<h2>" + html::escape_html(table.title) + "</h2>\n";
  if (table.rows.empty()) {
    out += "<p class=\"empty\">No rows.</p>\n</section>\n";
    return;
  }
  out += "<div class=\"scroll\"><table class=\"sortable\">\n<thead><tr>";
  for (const auto& column : table.columns) out += "<th scope=\"col\">" + html::escape_html(column) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const auto& cell : row) out += "<td>" + html::escape_html(cell) + "</td>";
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  auto paragraphs = [&](const std::vector<std::string>& texts, const char* cls) {
    if (texts.empty()) return;
    out += std::string("<ul class=\"") + cls + "\">\n";
    for (const auto& t : texts) out += "<li>" + html::escape_html(t) + "</li>\n";
    out += "</ul>\n";
  };
  paragraphs(table.notes, "notes");
  paragraphs(table.warnings, "notes warn");
  out += "</section>\n";
}

void append_figure(std::string& out, const Figure& figure, size_t index) {
  out += "<section class=\"card figure-card\" id=\"figure-" + std::to_string(index) + "\" data-index=\"" +
         std::to_string(index) + "\" data-id=\"" + html::escape_html(figure.id) + "\">\n";
  out += "<h2>" + html::escape_html(figure.title.empty() ? figure.id : figure.title) + "</h2>\n";
  out += "<div class=\"plot\"></div>\n";
  if (!figure.note.empty()) out += "<p class=\"fig-note\">" + html::escape_html(figure.note) + "</p>\n";
  out += "</section>\n";
}

}  // namespace

std::string render_html_report(const Report& report) {
  const std::string_view css = html::report_css();
  const std::string_view js = html::report_js();
  const std::string title = html::escape_html(report.title.empty() ? "AIPerf report" : report.title);

  std::string out;
  out.reserve(4096 + css.size() + js.size());
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // No source but the two inline blocks below: the page can load nothing, so it works offline
  // and leaks nothing when opened.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src " + csp_hash(js) +
         "; style-src " + csp_hash(css) + "; base-uri 'none'; form-action 'none'\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta name=\"generator\" content=\"aiperf\">\n";
  out += "<title>" + title + "</title>\n<style>";
  out += css;
  out += "</style>\n</head>\n<body data-status=\"loading\">\n<header>\n<h1>" + title + "</h1>\n";
  if (!report.notes.empty()) {
    out += "<ul class=\"notes\">\n";
    for (const auto& note : report.notes) out += "<li>" + html::escape_html(note) + "</li>\n";
    out += "</ul>\n";
  }
  out += "</header>\n<div id=\"errors\" role=\"alert\" hidden></div>\n";
  out += "<noscript><p class=\"warn\">The figures need JavaScript; the tables are complete without it.</p></noscript>\n";

  const size_t items = report.tables.size() + report.figures.size();
  if (items > 1) {
    out += "<nav><ul>\n";
    for (size_t i = 0; i < report.tables.size(); ++i) {
      const auto& t = report.tables[i].title;
      out += "<li><a href=\"#table-" + std::to_string(i) + "\">" +
             html::escape_html(t.empty() ? "Table " + std::to_string(i + 1) : t) + "</a></li>\n";
    }
    for (size_t i = 0; i < report.figures.size(); ++i) {
      const auto& f = report.figures[i];
      out += "<li><a href=\"#figure-" + std::to_string(i) + "\">" +
             html::escape_html(f.title.empty() ? f.id : f.title) + "</a></li>\n";
    }
    out += "</ul></nav>\n";
  }

  out += "<main>\n";
  if (items == 0) out += "<p class=\"empty\">This report has no tables and no figures.</p>\n";
  for (size_t i = 0; i < report.tables.size(); ++i) append_table(out, report.tables[i], i);
  for (size_t i = 0; i < report.figures.size(); ++i) append_figure(out, report.figures[i], i);
  out += "</main>\n<footer>Written by aiperf. This file is self-contained: it opens offline and loads nothing.</footer>\n";
  out += "<script type=\"application/json\" id=\"aiperf-figures\">";
  out += html::figures_json(report.figures);
  out += "</script>\n<script>";
  out += js;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

void write_html_report(const Report& report, const std::filesystem::path& path) {
  util::write_file_atomically(path.string(), render_html_report(report));
}

}  // namespace aiperf::plot
