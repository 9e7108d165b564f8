#include "record_processor_core.h"

#include <stdexcept>
#include <utility>

#include "endpoints/chat_inputs.h"
#include "endpoints/metric_context_for.h"
#include "http_trace.h"
#include "log/log.h"
#include "metrics/record_metrics.h"
#include "output_fragment.h"
#include "raw_export.h"
#include "util/output_paths.h"

namespace aiperf::record_processor {
namespace {

// request_ack_ns (AIPerf 0.13): when a 2xx response's headers arrived, streaming or not; not for
// an error status, and not for a polled job such as video generation (submit, polls and
// download: AIPerf keeps no such instant for the job as a whole).
bool has_request_ack(const proto::RawRecord& raw, const endpoints::EndpointInfo& endpoint) {
  return raw.ack_perf_ns() > 0 && raw.status_code() >= 200 && raw.status_code() < 300 && !endpoint.requires_polling;
}

void fill_metadata(const proto::RawRecord& raw, const endpoints::EndpointInfo& endpoint,
                   const std::string& processor_id, proto::RecordMetadata* m) {
  const auto& credit = raw.credit();
  const int64_t wall0 = raw.start_wall_ns();
  auto to_wall = [&](int64_t perf) { return wall0 + (perf - raw.start_perf_ns()); };
  m->set_session_num(credit.id());
  m->set_x_request_id(raw.x_request_id());
  m->set_x_correlation_id(credit.x_correlation_id());
  m->set_conversation_id(credit.conversation_id());
  m->set_turn_index(credit.turn_index());
  m->set_credit_issued_ns(credit.issued_at_wall_ns());
  m->set_request_start_ns(wall0);
  if (has_request_ack(raw, endpoint)) m->set_request_ack_ns(to_wall(raw.ack_perf_ns()));
  m->set_request_end_ns(to_wall(raw.end_perf_ns()));
  m->set_worker_id(raw.worker_id());
  m->set_record_processor_id(processor_id);
  m->set_phase(credit.phase());
  m->set_was_cancelled(raw.was_cancelled());
  if (raw.was_cancelled()) m->set_cancellation_time_ns(to_wall(raw.cancellation_perf_ns()));
  m->set_intended_start_ns(credit.intended_send_wall_ns());
  const auto& trace = raw.trace();
  if (trace.pool_wait_end_perf_ns() > trace.pool_wait_start_perf_ns())
    m->set_queued_ns(trace.pool_wait_end_perf_ns() - trace.pool_wait_start_perf_ns());
}

// The acceptance record as the records service pools and exports it; completion_tokens is the
// request's usage count, as AIPerf copies it into the record.
void fill_spec_decode(const metrics::SpecDecode& s, const std::optional<metrics::Usage>& usage,
                      proto::SpecDecodeAcceptance& out) {
  out.set_mean_acceptance_length(s.mean_acceptance_length);
  out.set_draft_acceptance_rate(s.draft_acceptance_rate);
  out.mutable_acceptance_histogram()->Add(s.acceptance_histogram.begin(), s.acceptance_histogram.end());
  out.set_num_accepted_draft_tokens(s.num_accepted_draft_tokens);
  out.set_num_draft_tokens(s.num_draft_tokens);
  out.set_num_spec_steps(s.num_spec_steps);
  if (s.num_spec_tokens) out.set_num_spec_tokens(*s.num_spec_tokens);
  if (usage && usage->completion_tokens) out.set_completion_tokens(*usage->completion_tokens);
  if (s.per_step_accepted) {
    out.set_has_per_step_accepted(true);
    out.mutable_per_step_accepted()->Add(s.per_step_accepted->begin(), s.per_step_accepted->end());
  }
  if (s.per_step_drafted) {
    out.set_has_per_step_drafted(true);
    out.mutable_per_step_drafted()->Add(s.per_step_drafted->begin(), s.per_step_drafted->end());
  }
}

}  // namespace

std::optional<uint64_t> chat_template_input_tokens(const endpoints::ChatTemplate& chat_template,
                                                   const tok::Tokenizer& tokenizer, std::string_view payload) {
  std::optional<endpoints::ChatInputs> inputs = endpoints::chat_inputs_of(payload);
  if (!inputs) return std::nullopt;
  std::string rendered;
  try {
    rendered = chat_template.render(inputs->messages, true);
  } catch (const endpoints::ChatTemplateError&) {
    return std::nullopt;  // as AIPerf: a template that raises means bare-text counting
  }
  uint64_t count = tokenizer.count(rendered);
  std::string tools;
  for (const std::string& t : inputs->tool_texts) {
    if (!tools.empty()) tools += ' ';
    tools += t;
  }
  if (!tools.empty()) count += tokenizer.count(tools);
  return count;
}

void process_record(const proto::RawRecord& raw, const endpoints::EndpointInfo& endpoint,
                    const tok::Tokenizer& tokenizer, const metrics::MetricContext& ctx, bool use_server_token_count,
                    const std::string& processor_id, TokenCountCache* isl_cache, proto::MetricRecord& rec,
                    std::string* response_text, const endpoints::ChatTemplate* chat_template, std::string* content_text,
                    std::string* reasoning_text) {
  endpoints::ParseResult parsed = endpoints::parse_response(endpoint, raw);

  metrics::ParsedRecord r;
  r.start_perf_ns = raw.start_perf_ns();
  r.ack_perf_ns = raw.ack_perf_ns();
  r.end_perf_ns = raw.end_perf_ns();
  r.start_wall_ns = raw.start_wall_ns();
  r.intended_start_wall_ns = raw.credit().intended_send_wall_ns();
  r.responses = std::move(parsed.responses);
  r.usage = parsed.usage;
  if (ctx.per_chunk_usage) r.first_content_chunk_tokens = parsed.first_content_chunk_tokens;
  r.error = std::move(parsed.error);
  r.http = http_timing(raw);
  if (raw.has_requested_osl()) r.requested_osl = raw.requested_osl();
  if (raw.has_num_images()) r.num_images = raw.num_images();
  if (raw.has_audio_duration_seconds()) r.audio_duration_seconds = raw.audio_duration_seconds();
  r.video_inference_time_s = parsed.video_inference_time_s;
  r.video_peak_memory_mb = parsed.video_peak_memory_mb;
  r.server_timings = parsed.server_timings;
  // AIPerf builds no acceptance record unless exactly one response carried stats.
  if (parsed.spec_decode_payloads == 1) r.spec_decode = std::move(parsed.spec_decode);

  if (endpoint.tokenizes_input) {
    if (use_server_token_count) {
      if (r.usage && r.usage->prompt_tokens) r.input_tokens = r.usage->prompt_tokens;
    } else {
      std::optional<uint64_t> count;
      if (chat_template && !raw.payload().empty()) {
        // Keyed apart from bare texts: a NUL cannot start a JSON body.
        std::string key = '\0' + raw.payload();
        count = isl_cache ? isl_cache->find(key) : std::nullopt;
        if (!count) {
          count = chat_template_input_tokens(*chat_template, tokenizer, raw.payload());
          if (count && isl_cache) isl_cache->insert(std::move(key), *count);
        }
      }
      if (!count) {
        const std::string& text = raw.input_text();
        count = isl_cache ? isl_cache->find(text) : std::nullopt;
        if (!count) {
          count = tokenizer.count(text);
          if (isl_cache) isl_cache->insert(text, *count);
        }
      }
      r.input_tokens = static_cast<int64_t>(*count);
    }
  }
  if (r.valid() && endpoint.produces_tokens) {
    if (use_server_token_count) {
      if (r.usage && r.usage->completion_tokens) {
        const int64_t reasoning = r.usage->reasoning_tokens.value_or(0);
        r.output_tokens = *r.usage->completion_tokens - reasoning;
        if (r.usage->reasoning_tokens) r.reasoning_tokens = reasoning;
      }
    } else {
      // Count the concatenation, never per chunk: tokens merge across chunk boundaries.
      std::string text, reasoning;
      for (const auto& resp : r.responses) {
        text += resp.text;
        reasoning += resp.reasoning;
      }
      r.output_tokens = static_cast<int64_t>(tokenizer.count(text));
      if (!reasoning.empty()) r.reasoning_tokens = static_cast<int64_t>(tokenizer.count(reasoning));
    }
  }

  if (response_text) {
    response_text->clear();
    for (const auto& resp : r.responses) {
      *response_text += resp.reasoning;
      *response_text += resp.text;
    }
  }

  if (content_text && reasoning_text) {
    content_text->clear();
    reasoning_text->clear();
    for (const auto& resp : r.responses) {
      *content_text += resp.text;
      *reasoning_text += resp.reasoning;
    }
  }

  rec.set_version(proto::PROTO_VERSION_CURRENT);
  fill_metadata(raw, endpoint, processor_id, rec.mutable_metadata());
  metrics::compute_record_metrics(r, ctx, rec.mutable_metrics());
  if (r.error) *rec.mutable_error() = *r.error;
  if (r.spec_decode && r.valid()) fill_spec_decode(*r.spec_decode, r.usage, *rec.mutable_spec_decode());
}

RecordProcessorCore::RecordProcessorCore(std::string processor_id, MetricSink& sink)
    : processor_id_(std::move(processor_id)), sink_(sink) {}

void RecordProcessorCore::configure(const config::RunConfig& config) {
  endpoint_ = endpoints::find_endpoint(config.endpoint.type);
  if (!endpoint_) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  endpoints::set_default_parse_options(endpoints::parse_options_for(config.endpoint.type, config.input.extra_inputs));
  if (!tokenizer_ || !config_ || config_->tokenizer.resolved_path != config.tokenizer.resolved_path) {
    tokenizer_ = tok::load_tokenizer(config.tokenizer.resolved_path, config.tokenizer.cache_dir);
    isl_counts_.clear();
  }
  chat_template_.reset();
  if (config.tokenizer.apply_chat_template) {
    try {
      chat_template_ = endpoints::load_chat_template(config.tokenizer.resolved_path);
    } catch (const endpoints::ChatTemplateError& e) {
      AIPERF_LOG(kWarning) << "--apply-chat-template: the tokenizer's chat template is not supported (" << e.what()
                           << "); input tokens are counted on the bare text";
    }
    isl_counts_.clear();
  }
  context_ = endpoints::metric_context_for(config, *endpoint_);
  if (config.output.export_level == config::ExportLevel::kRaw && !raw_file_) {
    raw_file_ = std::make_unique<FragmentFile>(config.output.artifact_dir, util::kRawRecordsDir,
                                               "raw_records_" + processor_id_ + ".jsonl");
  }
  if (config.output.export_outputs_json && !outputs_file_) {
    outputs_file_ = std::make_unique<FragmentFile>(config.output.artifact_dir, util::kOutputFragmentsDir,
                                                   "output_fragments_" + processor_id_ + ".jsonl");
  }
  accuracy_.reset();
  if (config.accuracy.enabled())
    accuracy_ = std::make_unique<AccuracyGrading>(config, processor_id_);  // loads the problems' answers
  config_ = config;
}

bool RecordProcessorCore::process(const proto::RawRecordBatch& batch) {
  if (!config_) return false;
  proto::MetricRecordBatch& out = out_;
  out.Clear();  // keeps its records, values and strings for reuse: no allocation per metric
  for (const proto::RawRecord& raw : batch.records()) {
    proto::MetricRecord& rec = *out.add_records();
    process_record(raw, *endpoint_, *tokenizer_, context_, config_->endpoint.use_server_token_count, processor_id_,
                   &isl_counts_, rec, outputs_file_ ? &response_text_ : nullptr,
                   chat_template_ ? &*chat_template_ : nullptr, accuracy_ ? &content_text_ : nullptr,
                   accuracy_ ? &reasoning_text_ : nullptr);
    if (accuracy_ && rec.metadata().phase() == proto::PHASE_PROFILING)
      accuracy_->grade(rec, content_text_, reasoning_text_);
    if (config_->output.export_http_trace && rec.metadata().phase() == proto::PHASE_PROFILING) {
      rec.set_trace_data_json(format_trace_data(raw));
    }
    if (raw_file_ && rec.metadata().phase() == proto::PHASE_PROFILING) {
      raw_file_->append(format_raw_record_jsonl(raw, rec.metadata()));
    }
    if (outputs_file_ && rec.metadata().phase() == proto::PHASE_PROFILING) {
      outputs_file_->append(format_output_fragment(rec, response_text_));
    }
  }
  // The lines reach their files before their records can complete the run.
  if (raw_file_) raw_file_->flush();
  if (outputs_file_) outputs_file_->flush();
  if (accuracy_) accuracy_->flush();
  sink_.send(out);
  return true;
}

}  // namespace aiperf::record_processor
