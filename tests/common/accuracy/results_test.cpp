// The accuracy files' formats: AIPerf 0.13's accuracy_export.jsonl line, accuracy_results.csv,
// its accuracy.* results and its console table.
#include <catch2/catch.hpp>

#include "accuracy/results.h"

using namespace aiperf::accuracy;

namespace {
std::string line(uint64_t session, const std::string& task, bool passed, bool unparsed) {
  GradedRecord g;
  g.session_num = session;
  g.task = task;
  g.grader_name = "multiple_choice";
  g.result.correct = passed;
  g.result.unparsed = unparsed;
  return format_graded_record(g);
}
}  // namespace

TEST_CASE("a graded record is pydantic's compact JSON of AccuracyRecordsData") {
  GradedRecord g;
  g.session_num = 3;
  g.conversation_id = "c";
  g.x_request_id = "r";
  g.worker_id = "worker_1";
  g.timestamp_ns = 17;
  g.task = "anatomy";
  g.grader_name = "multiple_choice";
  g.result = grade_multiple_choice("The answer is (B)", " B");
  g.model_output = "The answer is (B) — sure";
  CHECK(
      format_graded_record(g) ==
      R"({"session_num":3,"conversation_id":"c","x_request_id":"r","worker_id":"worker_1","benchmark_phase":"profiling",)"
      R"("timestamp_ns":17,"task":"anatomy","grader_name":"multiple_choice","passed":true,"unparsed":false,)"
      R"("confidence":1.0,"expected":"B","actual":"B","explanation":"first-line-of-response extracted to 'B'; )"
      R"(ground_truth stripped to 'B'; match=True","model_output":"The answer is (B) — sure"})");
}

TEST_CASE("summary, CSV, metrics and console table from graded lines") {
  const std::vector<std::string> lines = {line(0, "b_task", true, false), line(1, "a_task", false, true),
                                          line(2, "a_task", true, true), "{not json"};
  size_t skipped = 0;
  const Summary s = summarize(lines, &skipped);
  CHECK(skipped == 1);
  CHECK(s.overall.total == 3);
  CHECK(s.overall.passed == 2);
  CHECK(s.overall.unparsed == 2);
  CHECK(
      format_results_csv(s) ==
      "task,correct,total,unparsed,accuracy\r\nOVERALL,2,3,2,0.6667\r\na_task,1,2,2,0.5000\r\nb_task,1,1,0,1.0000\r\n");
  const auto metrics = summary_metrics(s);
  REQUIRE(metrics.size() == 6);
  const std::vector<std::string> tags = {
      "accuracy.overall",  "accuracy.task.a_task",          "accuracy.task.b_task",
      "accuracy.unparsed", "accuracy.unparsed.task.a_task", "accuracy.unparsed.task.b_task"};
  for (size_t i = 0; i < tags.size(); ++i) CHECK(metrics[i].tag() == tags[i]);
  CHECK(metrics[1].header() == "Accuracy (a_task)");
  CHECK(metrics[3].header() == "Accuracy Unparsed (Overall)");
  CHECK(metrics[0].count() == 3);
  CHECK(metrics[0].sum() == 2);
  CHECK(metrics[0].unit() == "ratio");
  CHECK_FALSE(metrics[0].has_avg());

  aiperf::proto::ProfileResults results;
  for (const auto& m : metrics) *results.add_records() = m;
  CHECK(format_console(results, true) ==
        "\n                        Accuracy Benchmark Results                        \n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓\n"
        "┃ Task                           ┃ Correct ┃ Total ┃ Unparsed ┃ Accuracy ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩\n"
        "│ a_task                         │       1 │     2 │        2 │   50.00% │\n"
        "├────────────────────────────────┼─────────┼───────┼──────────┼──────────┤\n"
        "│ b_task                         │       1 │     1 │        0 │  100.00% │\n"
        "├────────────────────────────────┼─────────┼───────┼──────────┼──────────┤\n"
        "│ OVERALL                        │       2 │     3 │        2 │   66.67% │\n"
        "└────────────────────────────────┴─────────┴───────┴──────────┴──────────┘\n");
}

TEST_CASE("every response unparsed adds the reference's warning under the table") {
  const Summary s = summarize({line(0, "t", false, true)});
  aiperf::proto::ProfileResults results;
  for (const auto& m : summary_metrics(s)) *results.add_records() = m;
  const std::string out = format_console(results, false);
  CHECK(out.find("Warning: every accuracy response was unparsed (accuracy=0).") != std::string::npos);
  CHECK(format_console(aiperf::proto::ProfileResults{}, true).empty());
}
