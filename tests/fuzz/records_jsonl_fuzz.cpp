// profile_export.jsonl read back (`aiperf process-export-files`, and the controller when the
// records service died): every line to a MetricRecord, aggregated, then the statistics and the
// summary JSON, CSV and console table built from them, as process_export_command.cpp does.
// Byte 0 bit 0 allows a torn last line, bit 1 makes the run a streaming one. std::runtime_error
// naming the file and line is the documented refusal.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "export/console_table.h"
#include "export/records_jsonl_reader.h"
#include "export/summary_csv.h"
#include "export/summary_json.h"
#include "fuzz_util.h"
#include "metrics/aggregator.h"
#include "metrics/metric_context.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string path = aiperf::fuzz::write_scratch(
      "profile_export.jsonl", std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (path.empty()) return 0;
  aiperf::metrics::MetricContext ctx;
  ctx.streaming = data[0] & 2;
  aiperf::metrics::Aggregator aggregator(ctx);
  aiperf::exporting::JsonlSpan span;
  try {
    span = aiperf::exporting::read_records_jsonl(path, aggregator, {}, data[0] & 1);
  } catch (const std::runtime_error&) {
    return 0;  // the command stops here
  }
  aiperf::proto::ProfileResults results = aggregator.finalize();
  results.set_start_ns(span.start_ns);
  results.set_end_ns(span.end_ns);
  aiperf::exporting::SummaryInfo info;
  info.aiperf_version = "0.13.0";
  info.benchmark_id = "fuzz";
  info.was_cancelled = span.cancelled;
  info.start_ns = span.start_ns;
  info.end_ns = span.end_ns;
  (void)aiperf::exporting::format_summary_json(results, info);
  (void)aiperf::exporting::format_summary_csv(results);
  (void)aiperf::exporting::format_console_table(results, "LLM Metrics", true);
  return 0;
}
