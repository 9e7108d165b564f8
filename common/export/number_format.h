// Python number formatting used by AIPerf's CSV and console exporters.
#pragma once
#include <string>

namespace aiperf::exporting {

// f"{v:.2f}" (round-half-even on the exact binary value, as printf does).
std::string fixed2(double v);

// f"{v:,.2f}": two decimals with thousands separators, e.g. 13829.4 -> "13,829.40".
std::string grouped2(double v);

// f"{v:,.{precision}f}", e.g. (13829.44, 1) -> "13,829.4".
std::string grouped_fixed(double v, int precision);

// f"{n:,}" for an integer count, e.g. 1234 -> "1,234".
std::string grouped_int(int64_t n);

// str(int(v)) for an integral value held in a double.
std::string plain_int(double v);

}  // namespace aiperf::exporting
