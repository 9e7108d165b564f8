// The console warning panels: AIPerf 0.13's Token Count Discrepancy Warning, word for word but its
// 4th step (an environment variable we do not read).
#include "export/warning_panels.h"

#include <catch2/catch.hpp>

#include <string>

using namespace aiperf;

namespace {

void add(proto::ProfileResults& r, const std::string& tag, double avg) {
  proto::MetricResult* m = r.add_records();
  m->set_tag(tag);
  m->set_avg(avg);
}

}  // namespace

TEST_CASE("warning panels: the usage discrepancy panel is AIPerf 0.13's") {
  proto::ProfileResults r;
  add(r, "request_count", 20);
  add(r, "usage_discrepancy_count", 5);
  CHECK(
      exporting::format_warning_panels(r, false) ==
      "\n"
      "+------------------------------------ Token Count Discrepancy Warning -------------------------------------+\n"
      "|  5 of 20 requests (25.0%) show a difference exceeding 10% between:                                       |\n"
      "|    - API-reported usage tokens (from 'usage' field)                                                      |\n"
      "|    - Client-computed token counts (from tokenization)                                                    |\n"
      "|                                                                                                          |\n"
      "|  Possible Causes:                                                                                        |\n"
      "|    - Different tokenization methods (API vs client)                                                      |\n"
      "|    - API special tokens or preprocessing                                                                 |\n"
      "|                                                                                                          |\n"
      "|  Investigation Steps:                                                                                    |\n"
      "|    1. Review profile_export.jsonl for per-request usage_*_diff_pct values                                |\n"
      "|    2. Verify client tokenizer matches the model's tokenizer                                              |\n"
      "|    3. Use server token counts: --use-server-token-count (disables client tokenization and diff metrics)  |\n"
      "|    4. Adjust threshold: AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD=10                                       |\n"
      "+----------------------------------------------------------------------------------------------------------+\n");

  SECTION("none without discrepancies") {
    proto::ProfileResults none;
    add(none, "request_count", 20);
    add(none, "usage_discrepancy_count", 0);
    CHECK(exporting::format_warning_panels(none, false).empty());
  }
}
