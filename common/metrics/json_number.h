// JSON numbers as AIPerf's serialisers write them. Both orjson (profile_export.jsonl) and
// pydantic-core (profile_export_aiperf.json) print floats with Rust's ryu: shortest digits
// that round-trip, plain notation for 1e-5 <= |v| < 1e16 (always with a fraction, "550.0"),
// otherwise "1e16" / "1.5e-7" style exponents.
#pragma once
#include <string>

namespace aiperf::metrics {

// Appends v formatted like ryu (finite values; NaN/inf become "null" as orjson does).
void append_json_float(std::string& out, double v);

// Appends v as a JSON integer (v is integral, e.g. a token count held in a double).
void append_json_int(std::string& out, double v);

// Appends s as a JSON string literal with JSON escaping; non-ASCII UTF-8 is kept as is.
void append_json_string(std::string& out, const std::string& s);

}  // namespace aiperf::metrics
