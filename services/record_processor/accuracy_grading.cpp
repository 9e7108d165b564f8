#include "accuracy_grading.h"

#include "accuracy/benchmarks.h"
#include "accuracy/graders.h"
#include "accuracy/problems.h"
#include "accuracy/results.h"
#include "log/log.h"

namespace aiperf::record_processor {

AccuracyGrading::AccuracyGrading(const config::RunConfig& config, const std::string& processor_id)
    : grader_(accuracy::effective_grader(config.accuracy.benchmark.value_or(""), config.accuracy.grader)),
      verbose_(config.accuracy.verbose),
      file_(config.output.artifact_dir, accuracy::kAccuracyFragmentsDir,
            "accuracy_fragments_" + processor_id + ".jsonl") {
  const auto problems = accuracy::build_problems(config.accuracy);
  answers_.reserve(problems.size());
  for (size_t i = 0; i < problems.size(); ++i) {
    answers_.push_back({problems[i].ground_truth, problems[i].task});
    index_[accuracy::problem_conversation_id(config.benchmark_id, config.input.random_seed, i)] = i;
  }
}

void AccuracyGrading::grade(const proto::MetricRecord& rec, const std::string& content, const std::string& reasoning) {
  const proto::RecordMetadata& md = rec.metadata();
  const auto it = index_.find(md.conversation_id());
  // AIPerf maps by session number modulo the problems; with sequential sampling that is the
  // same problem, and an unknown id (none is expected) falls back to it.
  const size_t i = it != index_.end() ? it->second : (answers_.empty() ? 0 : md.session_num() % answers_.size());
  if (answers_.empty()) return;
  accuracy::GradedRecord g;
  g.session_num = md.session_num();
  g.conversation_id = md.conversation_id();
  g.x_request_id = md.x_request_id();
  g.worker_id = md.worker_id();
  g.timestamp_ns = md.request_end_ns();
  g.task = answers_[i].task;
  g.grader_name = grader_;
  // The answer channel is graded; a response with only reasoning is graded on that (AIPerf's fallback).
  g.model_output = content.empty() ? reasoning : content;
  if (!reasoning.empty()) g.model_thinking = reasoning;
  g.result = accuracy::grade(grader_, g.model_output, answers_[i].ground_truth);
  if (verbose_) {
    std::string preview = g.model_output;
    for (size_t p = 0; (p = preview.find('\n', p)) != std::string::npos; p += 2) preview.replace(p, 1, "\\n");
    if (preview.size() > 200) preview.resize(200);
    AIPERF_LOG(kInfo) << "[accuracy] session=" << md.session_num()
                      << " correct=" << (g.result.correct ? "True" : "False")
                      << " unparsed=" << (g.result.unparsed ? "True" : "False") << " reason='" << g.result.reasoning
                      << "' extracted='" << g.result.extracted_answer.substr(0, 120)
                      << "' response_len=" << g.model_output.size() << " response_preview='" << preview << "'";
  }
  file_.append(accuracy::format_graded_record(g));
}

}  // namespace aiperf::record_processor
