// RecordProcessorCore: the record processor's rules, without its sockets. configure() sets up
// what a run needs (endpoint, tokenizer, chat template, metric context, the raw and outputs
// fragment files); process() turns one batch of raw records (what the worker saw on the wire)
// into one batch of metric records and hands it to a MetricSink. It parses SSE/JSON, counts
// tokens with the run's tokenizer exactly as AIPerf does (ISL from the prompt texts, OSL from
// the concatenated output, reasoning separately) and computes every per-record metric.
// Single-threaded; the service owns the PULL/PUSH sockets around it.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "config/run_config.h"
#include "endpoints/chat_template.h"
#include "endpoints/endpoint.h"
#include "accuracy_grading.h"
#include "fragment_file.h"
#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "raw_record.pb.h"
#include "token_count_cache.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::record_processor {

// Where each batch of metric records goes (the service pushes it to the records service).
// Called once per raw batch, after that batch's fragment lines are flushed to their files.
class MetricSink {
 public:
  virtual ~MetricSink() = default;
  virtual void send(const proto::MetricRecordBatch& batch) = 0;
};

class RecordProcessorCore {
 public:
  // `processor_id` names this processor in the records' metadata and its fragment files.
  RecordProcessorCore(std::string processor_id, MetricSink& sink);

  // Throws std::runtime_error for an unknown endpoint type or fragment files that cannot be
  // created. The tokenizer is loaded again only when its path changes (the ISL cache with it).
  void configure(const config::RunConfig& config);
  // One raw batch -> one metric batch to the sink, a record per raw record in the same order.
  // Profiling records also get their raw export and outputs lines (when those are on) and
  // their trace data (--export-http-trace). Returns false, sending nothing, before configure.
  bool process(const proto::RawRecordBatch& batch);

  bool configured() const { return config_.has_value(); }
  // Input texts (and templated bodies) whose token count is remembered.
  size_t cached_input_counts() const { return isl_counts_.size(); }

 private:
  std::string processor_id_;
  MetricSink& sink_;
  std::optional<config::RunConfig> config_;
  const endpoints::EndpointInfo* endpoint_ = nullptr;
  tok::TokenizerPtr tokenizer_;
  std::optional<endpoints::ChatTemplate> chat_template_;  // --apply-chat-template with a templated tokenizer
  metrics::MetricContext context_;
  std::unique_ptr<FragmentFile> raw_file_;      // --export-level raw only
  std::unique_ptr<FragmentFile> outputs_file_;  // --export-outputs-json only
  std::unique_ptr<AccuracyGrading> accuracy_;   // --accuracy-benchmark only
  TokenCountCache isl_counts_;                  // input texts counted with tokenizer_
  std::string response_text_;                   // scratch for --export-outputs-json
  std::string content_text_, reasoning_text_;   // scratch for accuracy grading
  // Reused for every batch: a cleared protobuf message keeps its elements and string buffers,
  // so steady state builds records without allocating.
  proto::MetricRecordBatch out_;
};

// Raw record -> metric record `out` (a new or cleared message). `tokenizer` counts ISL/OSL;
// `isl_cache`, if given, remembers input texts already counted. `response_text`, if given,
// receives every response's reasoning then content, concatenated; `content_text` and
// `reasoning_text`, if given, the two channels apart (accuracy grading).
void process_record(const proto::RawRecord& raw, const endpoints::EndpointInfo& endpoint,
                    const tok::Tokenizer& tokenizer, const metrics::MetricContext& ctx, bool use_server_token_count,
                    const std::string& processor_id, TokenCountCache* isl_cache, proto::MetricRecord& out,
                    std::string* response_text = nullptr, const endpoints::ChatTemplate* chat_template = nullptr,
                    std::string* content_text = nullptr, std::string* reasoning_text = nullptr);

// --apply-chat-template's ISL of a request body, as AIPerf counts it: for a chat-shaped body
// (endpoints::chat_inputs_of), the tokens of its messages rendered through `chat_template` with
// add_generation_prompt, plus the tokens of its tool texts joined by " ". nullopt (count the
// bare text instead) when the body is not chat-shaped or the template fails on it.
std::optional<uint64_t> chat_template_input_tokens(const endpoints::ChatTemplate& chat_template,
                                                   const tok::Tokenizer& tokenizer, std::string_view payload);

}  // namespace aiperf::record_processor
