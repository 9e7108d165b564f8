// Record processor: raw records in (what the worker saw on the wire), metric records out.
// Parses SSE/JSON, counts tokens with the run's tokenizer exactly as AIPerf does (ISL from
// the prompt texts, OSL from the concatenated output, reasoning separately) and computes
// every per-record metric. Replicated: raw records are fair-queued across processors.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include <zmq.hpp>

#include "endpoints/chat_template.h"
#include "endpoints/endpoint.h"
#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "fragment_file.h"
#include "raw_record.pb.h"
#include "service/service.h"
#include "token_count_cache.h"
#include "tokenizer/tokenizer.h"

namespace aiperf::record_processor {

class RecordProcessorService final : public service::Service {
 public:
  RecordProcessorService(service::Identity identity, bus::Endpoints endpoints);

 private:
  void on_configure(const config::RunConfig& config) override;
  void on_raw_records();

  zmq::socket_t pull_;
  zmq::socket_t push_;
  std::optional<config::RunConfig> config_;
  const endpoints::EndpointInfo* endpoint_ = nullptr;
  tok::TokenizerPtr tokenizer_;
  std::optional<endpoints::ChatTemplate> chat_template_;  // --apply-chat-template with a templated tokenizer
  metrics::MetricContext context_;
  std::unique_ptr<FragmentFile> raw_file_;      // --export-level raw only
  std::unique_ptr<FragmentFile> outputs_file_;  // --export-outputs-json only
  TokenCountCache isl_counts_;  // input texts counted with tokenizer_
  std::string response_text_;   // scratch for --export-outputs-json
  // Reused for every message: a cleared protobuf message keeps its elements and string
  // buffers, so steady state parses and builds records without allocating.
  proto::RawRecordBatch in_;
  proto::MetricRecordBatch out_;
};

// Raw record -> metric record `out` (a new or cleared message). `tokenizer` counts ISL/OSL;
// `isl_cache`, if given, remembers input texts already counted. `response_text`, if given,
// receives every response's reasoning then content, concatenated.
void process_record(const proto::RawRecord& raw, const endpoints::EndpointInfo& endpoint,
                    const tok::Tokenizer& tokenizer, const metrics::MetricContext& ctx, bool use_server_token_count,
                    const std::string& processor_id, TokenCountCache* isl_cache, proto::MetricRecord& out,
                    std::string* response_text = nullptr, const endpoints::ChatTemplate* chat_template = nullptr);

// --apply-chat-template's ISL of a request body, as AIPerf counts it: for a chat-shaped body
// (endpoints::chat_inputs_of), the tokens of its messages rendered through `chat_template` with
// add_generation_prompt, plus the tokens of its tool texts joined by " ". nullopt (count the
// bare text instead) when the body is not chat-shaped or the template fails on it.
std::optional<uint64_t> chat_template_input_tokens(const endpoints::ChatTemplate& chat_template,
                                                   const tok::Tokenizer& tokenizer, std::string_view payload);

}  // namespace aiperf::record_processor
