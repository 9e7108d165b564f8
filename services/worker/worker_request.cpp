// WorkerCore's requests: one credit's payload and headers, its send time, its cancellation,
// and the raw record its result becomes (worker_core.h).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "endpoints/cache_bust.h"
#include "log/log.h"
#include "trace_copy.h"
#include "util/uuid.h"
#include "util/version.h"
#include "worker_core.h"

namespace aiperf::worker {
namespace {
const std::string kWorkerUserAgent = std::string("aiperf-cpp/") + util::kVersion;

// A multipart boundary as aiohttp makes one: 32 random hex digits (uuid4().hex).
std::string multipart_boundary() {
  std::string id = util::uuid4();
  id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
  return id;
}

void copy_http_error(const http::Error& from, proto::ErrorDetails* to) {
  if (from.code) to->set_code(*from.code);
  to->set_type(from.type);
  to->set_message(from.message);
}
}  // namespace

void WorkerCore::dispatch(InFlight job) {
  const proto::Conversation& conv = *job.conversation;
  const uint32_t turn_index = std::min<uint32_t>(job.credit.turn_index(), conv.turns_size() - 1);
  const proto::Turn& turn = conv.turns(turn_index);
  const auto& ep = config_->endpoint;

  job.model = turn.model().empty() ? ep.model_names.at(0) : turn.model();
  endpoints::PayloadOptions popts;
  popts.model = job.model;
  popts.streaming = ep.streaming;
  popts.use_legacy_max_tokens = ep.use_legacy_max_tokens;
  popts.use_server_token_count = ep.use_server_token_count;
  popts.per_chunk_usage = ep.per_chunk_usage;
  popts.genai_perf = ep.genai_perf_payloads;
  popts.kserve_vllm = ep.kserve_vllm;
  popts.chat_content_parts = ep.chat_content_parts;
  popts.extra_inputs = &config_->input.extra_inputs;
  if (auto h = history_.find(job.credit.x_correlation_id()); h != history_.end()) {
    for (const proto::Turn& past : h->second) job.sent_turns.push_back(&past);
  }
  job.sent_turns.push_back(&turn);
  if (job.credit.has_max_tokens_override()) {  // agentic warmup: a priming request
    job.capped_turn = std::make_unique<proto::Turn>(turn);
    job.capped_turn->set_max_tokens(job.credit.max_tokens_override());
    job.sent_turns.back() = job.capped_turn.get();
  }
  // --cache-bust: this session's marker on the system message or the first user message.
  const config::CacheBust bust = config_->input.prompt_shaping.cache_bust;
  const std::optional<std::string> marker =
      endpoints::cache_bust_marker(bust, config_->benchmark_id, job.credit.x_correlation_id(),
                                   job.credit.conversation_id(), job.credit.phase() == proto::PHASE_WARMUP);
  const std::string system_message =
      marker ? endpoints::apply_cache_bust(bust, *marker, conv.system_message(), job.sent_turns, job.busted_turn)
             : conv.system_message();
  // Without history (or a per-session marker) a turn's payload and input text are the same
  // every time: built once.
  Prepared* cached = job.sent_turns.size() == 1 && !marker && !job.capped_turn ? &prepared_[&turn] : nullptr;
  if (cached && !cached->payload.empty()) {
    job.payload = cached->payload;
    job.input_text = cached->input_text;
  } else {
    job.payload =
        endpoints::build_payload(*endpoint_, popts, job.sent_turns, system_message, conv.user_context_message());
    job.input_text = endpoints::input_text_for(*endpoint_, job.sent_turns, system_message, conv.user_context_message());
    if (cached) *cached = Prepared{job.payload, job.input_text};
  }
  job.x_request_id = util::uuid4();

  http::Request req;
  const uint32_t url_index = job.credit.has_url_index() ? job.credit.url_index() : 0;
  req.url = urls_[url_index % urls_.size()];
  req.headers = {
      {"User-Agent", kWorkerUserAgent},
      {"X-Request-ID", job.x_request_id},
      {ep.session_header.empty() ? std::string("X-Correlation-ID") : ep.session_header, job.credit.x_correlation_id()}};
  for (const auto& h : config_->input.headers) req.headers.push_back(h);
  for (auto& h : endpoints::endpoint_headers(*endpoint_, ep.api_key, config_->input.headers))
    req.headers.push_back(std::move(h));
  // Form-data types (image_edit, audio_transcription) encode the payload as multipart with a
  // fresh boundary per request, as aiohttp does.
  endpoints::WireBody wire;
  try {
    wire = endpoints::wire_body(*endpoint_, job.payload, endpoint_->requires_form_data ? multipart_boundary() : "");
  } catch (const std::invalid_argument& e) {  // e.g. a file field that is not base64: an error record
    fail_now(std::move(job), http::Error{std::nullopt, "ValueError", e.what()});
    schedule_returns();
    return;
  }
  req.headers.emplace_back("Content-Type", std::move(wire.content_type));
  req.headers.emplace_back("Accept", ep.streaming ? "text/event-stream" : "application/json");
  req.body = std::move(wire.body);

  http::SendOptions sopts;
  sopts.timeout_seconds = ep.timeout_seconds;
  if (ep.connection_reuse_strategy == config::ConnectionReuseStrategy::kStickyUserSessions) {
    sopts.session = job.credit.x_correlation_id();  // all turns of a conversation come to this worker
    sopts.last_of_session = job.credit.turn_index() + 1 >= job.credit.num_turns();
  }
  const uint64_t key = next_key_++;
  in_flight_.emplace(key, std::move(job));
  start_request(key, std::move(req), std::move(sopts));
}

// Waits for the credit's intended send time (scheduled load arrives a little early), then
// sends.
void WorkerCore::start_request(uint64_t key, http::Request req, http::SendOptions sopts) {
  const proto::Credit& credit = in_flight_.at(key).credit;
  credit_to_key_[credit.id()] = key;
  const int64_t now_wall = clock_.wall_now();
  const int64_t wait_ns = send_wait_ns(credit.intended_send_wall_ns(), now_wall);
  const int64_t ahead_ns = credit.intended_send_wall_ns() - now_wall;
  if (credit.intended_send_wall_ns() > 0 && ahead_ns > kMaxSendWaitNs && !warned_clock_) {
    warned_clock_ = true;  // once: every later credit would say the same
    AIPERF_LOG(kWarning) << "credit intended " << ahead_ns / 1'000'000
                         << " ms in the future: this host's wall clock disagrees with the timing service's "
                            "(clock step or unsynchronised host); sending without waiting for it";
  }
  // The steady clock times the wait: a wall clock step while waiting changes nothing.
  const int64_t now = clock_.steady_now();
  const int64_t send_at = now + wait_ns;
  const int64_t spin_ns = spin_budget_.allows(kSendSpinNs, now) ? kSendSpinNs : 0;
  if (wait_ns <= spin_ns) return spin_and_send(send_at, key, std::move(req), std::move(sopts));
  send_timers_[key] = timers_.call_at(send_at - spin_ns,
                                      [this, key, send_at, req = std::move(req), sopts = std::move(sopts)]() mutable {
                                        send_timers_.erase(key);
                                        spin_and_send(send_at, key, std::move(req), std::move(sopts));
                                      });
}

// Spins the last stretch to the send instant (timer wake-ups come late on a busy host), then
// sends.
void WorkerCore::spin_and_send(Nanos send_at, uint64_t key, http::Request req, http::SendOptions sopts) {
  const int64_t before = clock_.steady_now();
  if (before < send_at) {
    spinner_.spin_until(send_at);
    spin_budget_.spend(clock_.steady_now() - before);
  }
  send_request(key, std::move(req), std::move(sopts));
}

// Sends the request, arms the cancellation delay once it is fully sent, and reports the first
// body chunk for prefill concurrency.
void WorkerCore::send_request(uint64_t key, http::Request req, http::SendOptions sopts) {
  const proto::Credit& credit = in_flight_.at(key).credit;
  const uint64_t credit_id = credit.id();
  auto policy_cancelled = std::make_shared<int64_t>(-1);
  if (send_first_token_ && config_->endpoint.streaming) {
    auto seen = std::make_shared<bool>(false);
    sopts.on_chunk = [this, seen, credit_id, phase = credit.phase()](int64_t, const std::string&) {
      if (*seen) return;
      *seen = true;
      proto::CreditMessage msg;
      msg.mutable_first_token()->set_credit_id(credit_id);
      msg.mutable_first_token()->set_phase(phase);
      links_.send_credit_message(msg);
    };
  }
  if (credit.has_cancel_after_ns()) {
    const int64_t delay = credit.cancel_after_ns();
    sopts.on_request_sent = [this, key, delay, policy_cancelled](int64_t) {
      cancel_timers_[key] = timers_.call_after(delay, [this, key, delay, policy_cancelled] {
        cancel_timers_.erase(key);
        *policy_cancelled = delay;
        if (auto c = cancels_.find(key); c != cancels_.end()) c->second->cancel();
      });
    };
  }
  auto on_done = [this, key, credit_id, policy_cancelled](http::Result&& result) {
    cancels_.erase(key);
    credit_to_key_.erase(credit_id);
    if (auto t = cancel_timers_.extract(key); !t.empty()) timers_.cancel(t.mapped());
    complete(key, std::move(result), *policy_cancelled);
  };
  auto handle = transport_.send(std::move(req), std::move(sopts), std::move(on_done));
  // A request that failed at once has already finished (and must leave no handle behind).
  if (in_flight_.count(key)) cancels_[key] = std::move(handle);
}

void WorkerCore::complete(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns) {
  if (policy_cancel_after_ns >= 0 && result.error) {
    // AIPerf's wording for cancellations from --request-cancellation-rate.
    char msg[96];
    std::snprintf(msg, sizeof msg, "Request was cancelled after %.3f seconds", policy_cancel_after_ns / 1e9);
    result.error->message = msg;
  }
  finish(key, std::move(result));
  schedule_returns();
}

void WorkerCore::finish(uint64_t key, http::Result&& result) {
  auto node = in_flight_.extract(key);
  if (node.empty()) return;
  InFlight& job = node.mapped();

  proto::RawRecord& rec = *raw_batch_.add_records();
  rec.set_version(proto::PROTO_VERSION_CURRENT);
  *rec.mutable_credit() = job.credit;
  rec.set_worker_id(worker_id_);
  rec.set_x_request_id(job.x_request_id);
  rec.set_model(job.model);
  rec.set_credit_received_perf_ns(job.received_perf_ns);
  rec.set_start_perf_ns(result.start_perf_ns);
  rec.set_ack_perf_ns(result.ack_perf_ns);
  rec.set_end_perf_ns(result.end_perf_ns);
  rec.set_start_wall_ns(result.start_wall_ns);
  rec.set_status_code(result.status);
  rec.set_content_type(std::move(result.content_type));
  rec.set_streaming(config_->endpoint.streaming);
  rec.mutable_chunks()->Reserve(static_cast<int>(result.chunks.size()));
  for (auto& c : result.chunks) {
    auto* chunk = rec.add_chunks();
    chunk->set_perf_ns(c.perf_ns);
    chunk->set_data(std::move(c.data));
  }
  if (result.error) copy_http_error(*result.error, rec.mutable_error());
  copy_trace(std::move(result.trace), rec.mutable_trace(), export_headers_);
  rec.mutable_trace()->set_response_reason(result.reason);
  rec.set_was_cancelled(result.cancelled);
  if (result.cancelled) rec.set_cancellation_perf_ns(result.end_perf_ns);
  rec.set_input_text(std::move(job.input_text));
  // An accuracy problem's token budget is a cap, not a requested length: AIPerf 0.13 reports no
  // requested_osl (nor OSL mismatch) for --accuracy-benchmark runs.
  if (!job.sent_turns.empty() && job.sent_turns.back()->has_max_tokens() && !(config_ && config_->accuracy.enabled()))
    rec.set_requested_osl(job.sent_turns.back()->max_tokens());
  if (auto images = endpoints::image_count(*endpoint_, job.sent_turns)) rec.set_num_images(*images);
  // AIPerf hoists the first turn's audio length (ASR requests are single-turn).
  if (!job.sent_turns.empty() && job.sent_turns.front()->has_audio_duration_seconds())
    rec.set_audio_duration_seconds(job.sent_turns.front()->audio_duration_seconds());
  // A credit failed before its conversation came has no history to keep (and none to drop).
  const bool last_turn = job.credit.turn_index() + 1 >= job.credit.num_turns();
  if ((job.credit.num_turns() > 1 || job.credit.fork_children() > 0) && job.conversation &&
      !job.conversation->self_contained_turns())
    remember_turn(job, rec);
  else if (last_turn) history_.erase(job.credit.x_correlation_id());  // a fork child's inherited context
  // The body travels for the raw export, and for --apply-chat-template, whose ISL is counted on
  // the messages of what was sent.
  if (config_->output.export_level == config::ExportLevel::kRaw || config_->tokenizer.apply_chat_template)
    rec.set_payload(std::move(job.payload));

  if (raw_batch_.records_size() >= kRawBatchMax) {
    flush_raw_records();
  } else {
    arm_raw_flush();
  }
  add_return(job.credit.id(), job.credit.phase(), result.cancelled, false, result.error ? result.error->message : "");
  if (job.credit.turn_index() + 1 >= job.credit.num_turns()) start_standby(job.credit.phase());
}

void WorkerCore::remember_turn(const InFlight& job, const proto::RawRecord& rec) {
  const std::string& session = job.credit.x_correlation_id();
  const bool last = job.credit.turn_index() + 1 >= job.credit.num_turns();
  const uint32_t forks = job.credit.fork_children();
  if (last && forks == 0) {
    history_.erase(session);
    return;
  }
  std::vector<proto::Turn>& past = history_[session];
  past.push_back(*job.sent_turns.back());
  // The assistant's answer joins the history only when the turn produced text (and the
  // conversation keeps answers).
  if (!job.conversation->discard_responses()) {
    std::string answer;
    for (const auto& r : endpoints::parse_response(*endpoint_, rec).responses) answer += r.text;
    if (!answer.empty()) {
      proto::Turn& assistant = past.emplace_back();
      assistant.set_role("assistant");
      assistant.add_texts()->add_contents(std::move(answer));
    }
  }
  // dag_jsonl forks: the children's starting context, this turn and its answer included.
  if (forks > 0) fork_contexts_[session + "#" + std::to_string(job.credit.turn_index())] = ForkContext{past, forks};
  if (last) history_.erase(session);
}

}  // namespace aiperf::worker
