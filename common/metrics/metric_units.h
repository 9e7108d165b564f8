// Unit strings as AIPerf prints them, and conversion from a metric's base unit to its
// display unit (statistics are computed in the base unit, then converted).
#pragma once
#include <string_view>

namespace aiperf::metrics::units {

inline constexpr std::string_view kNanoseconds = "ns";
inline constexpr std::string_view kMicroseconds = "us";
inline constexpr std::string_view kMilliseconds = "ms";
inline constexpr std::string_view kSeconds = "sec";
inline constexpr std::string_view kTokens = "tokens";
inline constexpr std::string_view kRequests = "requests";
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kPercent = "%";
inline constexpr std::string_view kRatio = "ratio";
inline constexpr std::string_view kBytes = "B";
inline constexpr std::string_view kKilobytes = "KB";
inline constexpr std::string_view kMegabytes = "MB";
inline constexpr std::string_view kRequestsPerSecond = "requests/sec";
inline constexpr std::string_view kTokensPerSecond = "tokens/sec";
inline constexpr std::string_view kTokensPerSecondPerUser = "tokens/sec/user";
inline constexpr std::string_view kImages = "images";
inline constexpr std::string_view kImagesPerSecond = "images/sec";
inline constexpr std::string_view kMillisecondsPerImage = "ms/image";

// Converts `value` from unit `from` to unit `to`. Time units convert as AIPerf does,
// value * to_per_second / from_per_second, evaluated left to right so ns -> ms equals the
// correctly rounded value / 1e6 (e.g. 255886568 ns -> 255.886568 ms). Byte units scale by 1024.
// Identical or unrelated units return the value unchanged.
double convert(double value, std::string_view from, std::string_view to);

}  // namespace aiperf::metrics::units
