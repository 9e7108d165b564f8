#include "export/number_format.h"

#include <cstdint>
#include <cstdio>

namespace aiperf::exporting {

namespace {
// Inserts ',' every three digits of the integer part of a plain decimal string.
std::string group_thousands(const std::string& s) {
  const std::size_t sign = (!s.empty() && s[0] == '-') ? 1 : 0;
  std::size_t int_end = s.find('.');
  if (int_end == std::string::npos) int_end = s.size();
  std::string out = s.substr(0, sign);
  const std::size_t digits = int_end - sign;
  for (std::size_t i = 0; i < digits; ++i) {
    if (i > 0 && (digits - i) % 3 == 0) out += ',';
    out += s[sign + i];
  }
  out += s.substr(int_end);
  return out;
}
}  // namespace

std::string fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string grouped2(double v) { return group_thousands(fixed2(v)); }

std::string grouped_fixed(double v, int precision) {
  char buf[352];  // DBL_MAX in %f is 309 digits
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return group_thousands(buf);
}

std::string grouped_int(int64_t n) { return group_thousands(std::to_string(n)); }

std::string plain_int(double v) { return std::to_string(static_cast<int64_t>(v)); }

}  // namespace aiperf::exporting
