// WorkerCore's credit flow: credits in, conversations asked and cached, standby credits,
// cancellation, and the batching of raw records and returns. worker_request.cpp turns one
// credit into a request and its result into a record.
#include <algorithm>
#include <unordered_set>
#include <utility>

#include "log/log.h"
#include "worker_core.h"

namespace aiperf::worker {

WorkerCore::WorkerCore(std::string worker_id, WorkerLinks& links, Transport& transport, Timers& timers,
                       Spinner& spinner)
    : worker_id_(std::move(worker_id)),
      links_(links),
      transport_(transport),
      timers_(timers),
      clock_(timers.clock()),
      spinner_(spinner) {}

void WorkerCore::configure(const config::RunConfig& config, const endpoints::EndpointInfo& endpoint) {
  endpoint_ = &endpoint;
  urls_.clear();
  for (const auto& base : config.endpoint.urls) {
    urls_.push_back(endpoints::build_url(base, endpoint, config.endpoint.custom_endpoint, config.endpoint.streaming));
  }
  export_headers_ = config.output.export_http_trace || config.output.export_level == config::ExportLevel::kRaw;
  config_ = config;
  prepared_.clear();
  send_first_token_ = config.loadgen.profiling.prefill_concurrency || config.loadgen.warmup.prefill_concurrency;
}

void WorkerCore::on_credit_message(proto::CreditMessage& msg, Nanos received_ns) {
  if (msg.has_credits()) {
    if (msg.credits().return_within_ns() != return_within_ns_) standby_phase_ = false;
    return_within_ns_ = msg.credits().return_within_ns();
    for (proto::Credit& credit : *msg.mutable_credits()->mutable_credits()) {
      if (credit.standby()) {
        take_standby(std::move(credit));
      } else {
        handle_credit(std::move(credit), received_ns);
      }
    }
  } else if (msg.has_cancel()) {
    on_cancel(msg.cancel());
  } else if (msg.has_start_standby()) {
    for (uint64_t id : msg.start_standby().credit_ids()) {
      auto it = std::find_if(standby_.begin(), standby_.end(), [id](const proto::Credit& c) { return c.id() == id; });
      if (it != standby_.end()) start_standby(it, false);
    }
  }
}

void WorkerCore::take_standby(proto::Credit credit) {
  standby_phase_ = true;
  ask_conversation(credit.conversation_id());  // fetched now, not when the slot frees
  standby_.push_back(std::move(credit));
}

// The oldest standby of `phase` takes the slot a session of that phase just freed here.
void WorkerCore::start_standby(proto::Phase phase) {
  if (!standby_.empty() && standby_.front().phase() == phase) start_standby(standby_.begin(), true);
}

// Starts one standby credit; `notify`: the timing service learns it from CreditReturns.started
// (not when it asked for the start itself).
void WorkerCore::start_standby(const std::deque<proto::Credit>::iterator& it, bool notify) {
  proto::Credit next = std::move(*it);
  standby_.erase(it);
  next.set_standby(false);
  next.set_issued_at_wall_ns(clock_.wall_now());  // when it got its slot
  if (notify) returns_.mutable_returns()->add_started(next.id());
  handle_credit(std::move(next), clock_.steady_now());
}

// Standby credits named are withdrawn unsent (revoked: no record); the others, unless
// standby_only, are cancelled: before their send time or in flight, each ends as cancelled.
void WorkerCore::on_cancel(const proto::CancelCredits& cancel) {
  std::unordered_set<uint64_t> ids(cancel.credit_ids().begin(), cancel.credit_ids().end());
  for (auto it = standby_.begin(); it != standby_.end();) {
    if (ids.erase(it->id())) {
      add_return(it->id(), it->phase(), false, true, "");
      it = standby_.erase(it);
    } else {
      ++it;
    }
  }
  flush_returns();  // the phase's end waits for the withdrawn ones
  if (cancel.standby_only()) return;
  for (uint64_t id : ids) {
    auto k = credit_to_key_.find(id);
    if (k == credit_to_key_.end()) continue;
    const uint64_t key = k->second;
    if (auto c = cancels_.find(key); c != cancels_.end()) c->second->cancel();
    auto t = send_timers_.extract(key);
    if (t.empty()) continue;
    // Cancelled before it was sent.
    timers_.cancel(t.mapped());
    credit_to_key_.erase(id);
    http::Result cancelled;
    cancelled.start_perf_ns = cancelled.end_perf_ns = clock_.steady_now();
    cancelled.start_wall_ns = clock_.wall_now();
    cancelled.cancelled = true;
    cancelled.error = http::Error{499, "RequestCancellationError", "Request cancelled by external signal"};
    complete(key, std::move(cancelled), -1);
  }
}

void WorkerCore::handle_credit(proto::Credit credit, int64_t received_perf_ns) {
  // A fork child continues its parent's context as of the forking turn.
  if (!credit.fork_parent().empty() && credit.turn_index() == 0) {
    const std::string key = credit.fork_parent() + "#" + std::to_string(credit.fork_parent_turn());
    if (auto f = fork_contexts_.find(key); f != fork_contexts_.end()) {
      history_[credit.x_correlation_id()] = f->second.history;
      if (--f->second.pending == 0) fork_contexts_.erase(f);
    }
  }
  auto it = conversations_.find(credit.conversation_id());
  if (it != conversations_.end()) {
    InFlight job;
    job.credit = std::move(credit);
    job.received_perf_ns = received_perf_ns;
    job.conversation = it->second.get();
    dispatch(std::move(job));
    return;
  }
  const std::string id = credit.conversation_id();
  ask_conversation(id);
  awaiting_conversation_[id].credits.emplace_back(std::move(credit), received_perf_ns);
}

// Asks the dataset service for a conversation not here and not asked for yet. Every wait has a
// deadline: a dataset service that never answers costs error records, not a run that never ends.
void WorkerCore::ask_conversation(const std::string& id) {
  if (conversations_.count(id) || awaiting_conversation_.count(id)) return;
  AwaitingConversation& waiting = awaiting_conversation_[id];  // before the answer can come
  links_.ask_conversation(id);
  waiting.deadline = timers_.call_after(kConversationTimeoutNs, [this, id] {
    auto node = awaiting_conversation_.extract(id);
    if (node.empty()) return;
    fail_credits(node.mapped().credits, "NO_RESPONSE",
                 "the dataset service did not return conversation " + id + " within " +
                     std::to_string(kConversationTimeoutNs / 1'000'000'000) + " s");
  });
}

void WorkerCore::on_conversation(proto::ConversationResponse& resp) {
  const std::string id = resp.conversation().session_id();
  auto waiting = awaiting_conversation_.extract(id);
  if (waiting.empty()) return;
  timers_.cancel(waiting.mapped().deadline);
  if (resp.has_error()) {
    fail_credits(waiting.mapped().credits, resp.error().type(), resp.error().message());
    return;
  }
  auto& slot = conversations_[id];
  slot = std::make_unique<proto::Conversation>(std::move(*resp.mutable_conversation()));
  for (auto& [credit, received] : waiting.mapped().credits) {
    InFlight job;
    job.credit = std::move(credit);
    job.received_perf_ns = received;
    job.conversation = slot.get();
    dispatch(std::move(job));
  }
}

// Each credit still yields exactly one record: an error record.
void WorkerCore::fail_credits(std::vector<std::pair<proto::Credit, int64_t>>& credits, const std::string& type,
                              const std::string& message) {
  AIPERF_LOG(kError) << "conversation fetch failed: " << message;
  for (auto& [credit, received] : credits) {
    InFlight job;
    job.credit = std::move(credit);
    job.received_perf_ns = received;
    fail_now(std::move(job), http::Error{std::nullopt, type, message});
  }
  flush_returns();
}

void WorkerCore::fail_now(InFlight job, http::Error error) {
  const uint64_t key = next_key_++;
  in_flight_.emplace(key, std::move(job));
  http::Result failed;
  failed.start_perf_ns = failed.end_perf_ns = clock_.steady_now();
  failed.start_wall_ns = clock_.wall_now();
  failed.error = std::move(error);
  finish(key, std::move(failed));
}

void WorkerCore::add_return(uint64_t credit_id, proto::Phase phase, bool cancelled, bool revoked,
                            const std::string& error) {
  proto::CreditReturn* ret = returns_.mutable_returns()->add_returns();
  ret->set_credit_id(credit_id);
  ret->set_phase(phase);
  ret->set_cancelled(cancelled);
  ret->set_revoked(revoked);
  if (!error.empty()) ret->set_error(error);
}

// Returns finished in one pass of the event loop travel together. Where they may wait
// (return_within_ns: rate phases, or standby phases while a standby is left to refill the
// next freed slot) they are held up to that long, so the timing service wakes once per
// interval, not once per request.
void WorkerCore::schedule_returns() {
  const bool may_wait = return_within_ns_ > 0 && !(standby_phase_ && standby_.empty());
  if (may_wait) {
    if (returns_timer_) return;
    returns_timer_ = timers_.call_after(return_within_ns_, [this] {
      returns_timer_ = 0;
      flush_returns();
    });
    return;
  }
  if (returns_posted_) return;
  returns_posted_ = true;
  links_.post([this] { flush_returns(); });
}

void WorkerCore::flush_returns() {
  returns_posted_ = false;
  if (returns_timer_) {
    timers_.cancel(returns_timer_);
    returns_timer_ = 0;
  }
  if (returns_.returns().returns_size() == 0 && returns_.returns().started_size() == 0) return;
  links_.send_credit_message(returns_);
  returns_.Clear();
}

void WorkerCore::flush_raw_records() {
  if (raw_flush_timer_) {
    timers_.cancel(raw_flush_timer_);
    raw_flush_timer_ = 0;
  }
  if (raw_batch_.records_size() == 0) return;
  // Never blocks: with no record processor connected (not yet, or every one died) the batch
  // stays here, keeps growing, and is offered again on the next flush.
  if (!links_.send_raw_records(raw_batch_)) return arm_raw_flush();
  raw_batch_.Clear();
}

void WorkerCore::arm_raw_flush() {
  if (raw_flush_timer_) return;
  raw_flush_timer_ = timers_.call_after(kRawFlushNs, [this] {
    raw_flush_timer_ = 0;
    flush_raw_records();
  });
}

}  // namespace aiperf::worker
