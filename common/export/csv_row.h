// CSV the way Python's csv.writer writes AIPerf's exports: minimal quoting, CRLF line ends.
#pragma once
#include <string>
#include <vector>

namespace aiperf::exporting {

// `s` as one field: quoted (with "" for a quote) only when it holds a comma, quote or line break.
std::string csv_field(const std::string& s);

// Appends `cells` as one row ending in "\r\n".
void append_csv_row(std::string& out, const std::vector<std::string>& cells);

}  // namespace aiperf::exporting
