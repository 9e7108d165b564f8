// What an accuracy run writes, in AIPerf 0.13's formats (aiperf/accuracy/models.py, the
// accumulator and exporters):
//   - one graded record per profiling response (AccuracyRecordsData) as a JSON line; the record
//     processors write them as fragments, the records service merges them into
//     accuracy_export.jsonl (<prefix>_accuracy.jsonl with --profile-export-prefix);
//   - the summary: overall and per-task passed/unparsed counts, as the accuracy.* results of
//     profile_export_aiperf.{json,csv}, accuracy_results.csv and the console table.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accuracy/graders.h"
#include "results.pb.h"

namespace aiperf::accuracy {

inline constexpr const char* kAccuracyFragmentsDir = "accuracy_fragments";

// The fields of one graded response besides the grade itself.
struct GradedRecord {
  uint64_t session_num = 0;
  std::string conversation_id, x_request_id, worker_id;
  std::string phase = "profiling";
  int64_t timestamp_ns = 0;  // the request's end, wall clock
  std::string task;          // "" = none (null)
  std::string grader_name;
  GradingResult result;
  std::string model_output;
  std::optional<std::string> model_thinking;
};

// One accuracy_export.jsonl line (no newline): pydantic's compact JSON of AccuracyRecordsData
// (exclude_none: no null members), keys in its order, non-ASCII kept as UTF-8.
std::string format_graded_record(const GradedRecord& r);

struct TaskStats {
  uint64_t total = 0, passed = 0, unparsed = 0;
};
struct Summary {
  TaskStats overall;
  std::map<std::string, TaskStats> per_task;  // sorted by task name
};

// Adds the record lines' counts (lines that are not JSON objects are skipped and counted).
Summary summarize(const std::vector<std::string>& lines, size_t* skipped = nullptr);

// The accuracy.* results the reference injects: overall, each task (sorted), unparsed overall,
// each task's unparsed; unit "ratio", the count and the sum, no average. Empty for no records.
std::vector<proto::MetricResult> summary_metrics(const Summary& s);
// accuracy_results.csv: task,correct,total,unparsed,accuracy with the OVERALL row first.
std::string format_results_csv(const Summary& s);
// The console's "Accuracy Benchmark Results" table (and the all-unparsed warning) from the
// accuracy.* results of `results`; "" when there are none.
std::string format_console(const proto::ProfileResults& results, bool unicode);

// The end of a run (records service): merges `fragments_dir`'s *.jsonl into `jsonl_target`
// (sorted by session_num, then x_request_id), removes the folder, writes `csv_target` and
// returns the summary. No fragment file: nothing is written and the summary is empty.
Summary merge_fragments(const std::string& fragments_dir, const std::string& jsonl_target,
                        const std::string& csv_target);

}  // namespace aiperf::accuracy
