// The self-contained interactive HTML report: one file that draws a plot::Report (tables and
// figures) in any browser, offline. Everything it needs is inline (CSS, JS written for this
// project, the data as compact JSON); a Content-Security-Policy allows only those inline blocks,
// so opening the file never touches the network.
#pragma once
#include <filesystem>
#include <string>

#include "plot/figure.h"

namespace aiperf::plot {

// The whole page. Text from the report (titles, notes, cells, labels) is escaped, so any text
// (`</script>`, `&<>"`) shows as written and cannot break the page.
std::string render_html_report(const Report& report);

// Writes render_html_report(report) to `path` through a temporary file and a rename: the path
// holds either the previous file or the whole new page. Throws std::runtime_error naming the
// path on failure.
void write_html_report(const Report& report, const std::filesystem::path& path);

}  // namespace aiperf::plot
