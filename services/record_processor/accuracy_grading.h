// --accuracy-benchmark in the record processor: every profiling response is graded against its
// problem's gold answer (AIPerf 0.13's AccuracyRecordProcessor) and its graded record appended
// to this processor's accuracy fragment (accuracy/results.h), which the records service merges.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/run_config.h"
#include "fragment_file.h"
#include "metric_record.pb.h"

namespace aiperf::record_processor {

class AccuracyGrading {
 public:
  // Loads the benchmark's problems (their answers and tasks) and creates the fragment file.
  // Throws what accuracy::build_problems and FragmentFile throw.
  AccuracyGrading(const config::RunConfig& config, const std::string& processor_id);
  // Grades the record's response (`content`, the answer channel; `reasoning`, the thinking one).
  void grade(const proto::MetricRecord& rec, const std::string& content, const std::string& reasoning);
  void flush() { file_.flush(); }

 private:
  struct Answer {
    std::string ground_truth, task;
  };
  std::vector<Answer> answers_;
  std::unordered_map<std::string, size_t> index_;  // conversation id -> problem
  std::string grader_;
  bool verbose_ = false;
  FragmentFile file_;
};

}  // namespace aiperf::record_processor
