// AIPerf MetricFlags: bit values are part of the exported contract (spec §6.1) and travel in
// MetricResult.flags, so they must never be renumbered.
#pragma once
#include <cstdint>

namespace aiperf::metrics {

using MetricFlags = uint64_t;

namespace flags {
inline constexpr MetricFlags kNone = 0;
inline constexpr MetricFlags kStreamingOnly = 1ull << 0;
inline constexpr MetricFlags kErrorOnly = 1ull << 1;
inline constexpr MetricFlags kProducesTokensOnly = 1ull << 2;
inline constexpr MetricFlags kNoConsole = 1ull << 3;
inline constexpr MetricFlags kLargerIsBetter = 1ull << 4;
inline constexpr MetricFlags kInternal = 1ull << 5;
inline constexpr MetricFlags kSupportsAudioOnly = 1ull << 6;
inline constexpr MetricFlags kSupportsImageOnly = 1ull << 7;
inline constexpr MetricFlags kSupportsReasoning = 1ull << 8;
inline constexpr MetricFlags kExperimental = 1ull << 9;
inline constexpr MetricFlags kGoodput = 1ull << 10;
inline constexpr MetricFlags kNoIndividualRecords = 1ull << 11;
inline constexpr MetricFlags kTokenizesInputOnly = 1ull << 12;
inline constexpr MetricFlags kSupportsVideoOnly = 1ull << 13;
inline constexpr MetricFlags kUsageDiffOnly = 1ull << 14;
inline constexpr MetricFlags kHttpTraceOnly = 1ull << 15;
inline constexpr MetricFlags kProducesVideoOnly = 1ull << 16;
inline constexpr MetricFlags kStreamingTokensOnly = kStreamingOnly | kProducesTokensOnly;

// Never shown in the main console table.
inline constexpr MetricFlags kHiddenFromConsole = kNoConsole | kInternal | kExperimental | kErrorOnly;
// Left out of every export unless developer mode asks for them.
inline constexpr MetricFlags kHiddenFromExports = kInternal | kExperimental;
}  // namespace flags

// True if every bit of `wanted` is set in `value` (AIPerf has_flags).
constexpr bool has_flags(MetricFlags value, MetricFlags wanted) { return (value & wanted) == wanted; }
// True if any bit of `wanted` is set in `value`.
constexpr bool has_any_flag(MetricFlags value, MetricFlags wanted) { return (value & wanted) != 0; }

}  // namespace aiperf::metrics
