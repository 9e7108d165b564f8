// Request Latency Server Gap (ours, no AIPerf counterpart): request_latency -
// (server_prefill_time + server_decode_time), the part of the
// request's latency the server did not account for (network, queueing, tokenization, sending).
// Streaming or not, in ns, shown in ms.
// Only where the server sends llama.cpp's `timings`; hidden from the console table (the
// Client vs Server section shows it), in records and the JSON/CSV summary.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor request_latency_server_gap() {
  MetricDescriptor d;
  d.tag = "request_latency_server_gap";
  d.header = "Request Latency Server Gap";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kFloat;
  d.required = {"request_latency", "server_prefill_time", "server_decode_time"};
  d.record = [](const ParsedRecord&, const RecordValues& v) -> std::optional<double> {
    const auto latency = v.get("request_latency");
    const auto prefill = v.get("server_prefill_time");
    const auto decode = v.get("server_decode_time");
    if (!latency || !prefill || !decode) return std::nullopt;
    return *latency - (*prefill + *decode);
  };
  return d;
}

}  // namespace aiperf::metrics::types
