// The HTML report's inline style sheet and script, written for this project (no library). Both
// are plain ASCII so their CSP hashes match whatever encoding the browser assumes.
#pragma once
#include <string_view>

namespace aiperf::plot::html {

// Light and dark colours (prefers-color-scheme), the layout of cards, tables and plots, and a
// print layout (light, no toolbars, no page break inside a figure).
std::string_view report_css();

// Reads the figures' JSON from <script id="aiperf-figures">, draws each on a <canvas>
// (points, lines, steps, areas, spans, error bars, labels, secondary axis, log axes) with hover
// tooltips, box zoom, legend toggles and log/linear switches; makes tables sortable. Marks each
// figure's section with data-rendered="N points" (or data-error), and the body with
// data-status="ok" or "error" when done.
std::string_view report_js();

// The script's table sorting: makeSortable(table) and its helpers (report_js() includes it).
std::string_view tables_js();

// The script's last part, the self-test run on report.html#selftest (report_js() includes it).
std::string_view selftest_js();

}  // namespace aiperf::plot::html
