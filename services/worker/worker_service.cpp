#include "worker_service.h"

#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "bus/socket.h"
#include "log/log.h"
#include "raw_record.pb.h"
#include "time/clock.h"
#include "time/send_lead.h"
#include "trace_copy.h"
#include "util/fd_limit.h"
#include "util/uuid.h"
#include "util/version.h"

namespace aiperf::worker {
namespace {
const std::string kUserAgent = std::string("aiperf-cpp/") + util::kVersion;
// Enough to make per-message costs vanish at high rates, small enough that several record
// processors still share the load.
constexpr int kRawBatchMax = 64;
// A record waits at most this long for others to share its message: records are not on the
// hot path, and at high rates one message per record costs every process it crosses a wake-up.
constexpr int64_t kRawFlushNs = 5'000'000;
constexpr int64_t kConversationTimeoutNs = 90'000'000'000;  // AIPERF_SERVICE_COMMS_REQUEST_TIMEOUT

void copy_error(const http::Error& from, proto::ErrorDetails* to) {
  if (from.code) to->set_code(*from.code);
  to->set_type(from.type);
  to->set_message(from.message);
}
}  // namespace

WorkerService::WorkerService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      credit_(bus::make_socket(zmq::socket_type::dealer)),
      dataset_(bus::make_socket(zmq::socket_type::dealer)),
      raw_(bus::make_socket(zmq::socket_type::push)),
      work_(boost::asio::make_work_guard(io_)) {
  credit_.set(zmq::sockopt::routing_id, this->identity().id);
  bus::connect(credit_, this->endpoints().credit);
  bus::connect(dataset_, this->endpoints().dataset);
  if (!this->endpoints().raw_direct(0)) bus::connect(raw_, this->endpoints().raw_frontend);  // else at configure
  event_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  reactor().add_socket(credit_, [this] { on_credit_socket(); });
  reactor().add_socket(dataset_, [this] { on_dataset_socket(); });
  reactor().add_fd(event_fd_, [this] { on_completions(); });
  io_thread_ = std::thread([this] {
    prctl(PR_SET_TIMERSLACK, 1UL);  // timer slack is per thread: precise send times here too
    io_.run();
  });
}

WorkerService::~WorkerService() {
  work_.reset();
  io_.stop();
  if (io_thread_.joinable()) io_thread_.join();
  if (event_fd_ >= 0) ::close(event_fd_);
}

void WorkerService::on_configure(const config::RunConfig& config) {
  endpoint_ = endpoints::find_endpoint(config.endpoint.type);
  if (!endpoint_) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  urls_.clear();
  for (const auto& base : config.endpoint.urls) {
    urls_.push_back(endpoints::build_url(base, *endpoint_, config.endpoint.custom_endpoint, config.endpoint.streaming));
  }
  http::ClientOptions opts;
  opts.reuse = config.endpoint.connection_reuse_strategy == "never" ? http::ConnectionReuse::kNever
                                                                     : http::ConnectionReuse::kPooled;
  // As many connections as this process can open: the controller started enough workers
  // for the concurrency (cli/connection_plan.cpp), so none of them queues its own requests.
  const uint64_t capacity = util::connection_capacity(util::raise_fd_limit());
  opts.connection_limit = config.endpoint.connection_limit ? std::min(capacity, config.endpoint.connection_limit) : capacity;
  opts.local_addresses = config.endpoint.local_addresses;
  export_headers_ = config.output.export_http_trace || config.output.export_level == "raw";
  opts.keep_response_headers = export_headers_;
  opts.verify_tls = config.endpoint.verify_tls;
  const bool first = !config_.has_value();
  config_ = config;
  prepared_.clear();
  send_first_token_ = config.loadgen.profiling.prefill_concurrency || config.loadgen.warmup.prefill_concurrency;
  if (first) {
    // Straight to every record processor; PUSH deals batches round-robin, skipping full pipes.
    for (uint32_t i = 0; i < config.service.record_processors; ++i) {
      if (auto direct = endpoints().raw_direct(i)) bus::connect(raw_, *direct);
    }
    boost::asio::post(io_, [this, opts] { client_ = std::make_unique<http::HttpClient>(io_, opts); });
    proto::CreditMessage ready;
    ready.set_version(proto::PROTO_VERSION_CURRENT);
    ready.mutable_ready()->set_worker_id(identity().id);
    bus::send_proto(credit_, ready);
  }
}

void WorkerService::on_credit_socket() {
  zmq::message_t frame;
  while (credit_.recv(frame, zmq::recv_flags::dontwait)) {
    const int64_t now = steady_now_ns();
    proto::CreditMessage msg;
    if (!bus::parse_proto(frame, msg) || msg.version() != proto::PROTO_VERSION_CURRENT) continue;
    if (msg.has_credits()) {
      set_collect_on_timer(msg.credits().return_within_ns());
      const bool had_standby = !standby_.empty();
      for (proto::Credit& credit : *msg.mutable_credits()->mutable_credits()) {
        if (credit.standby()) {
          take_standby(std::move(credit));
        } else {
          handle_credit(std::move(credit), now);
        }
      }
      // Requests that finished while nothing waited for them may free slots for these now.
      if (!had_standby && !standby_.empty()) collect_completions(false);
    } else if (msg.has_cancel()) {
      on_cancel(msg.cancel());
    } else if (msg.has_start_standby()) {
      for (uint64_t id : msg.start_standby().credit_ids()) {
        auto it = std::find_if(standby_.begin(), standby_.end(), [id](const proto::Credit& c) { return c.id() == id; });
        if (it != standby_.end()) start_standby(it, false);
      }
    }
  }
  post_starts();
  if (revoked_unsent_) flush_returns();  // the phase's end waits for them
}

void WorkerService::take_standby(proto::Credit credit) {
  ask_conversation(credit.conversation_id());  // fetched now, not when the slot frees
  standby_.push_back(std::move(credit));
  update_standby_waiting();
}

void WorkerService::update_standby_waiting() {
  standby_waiting_.store(!standby_.empty(), std::memory_order_relaxed);
}

// The oldest standby of `phase` takes the slot a session of that phase just freed here.
void WorkerService::start_standby(proto::Phase phase) {
  if (!standby_.empty() && standby_.front().phase() == phase) start_standby(standby_.begin(), true);
}

// Starts one standby credit; `notify`: the timing service learns it from CreditReturns.started
// (not when it asked for the start itself). Callers post_starts() afterwards.
void WorkerService::start_standby(std::deque<proto::Credit>::iterator it, bool notify) {
  proto::Credit next = std::move(*it);
  standby_.erase(it);
  update_standby_waiting();
  next.set_standby(false);
  next.set_issued_at_wall_ns(wall_now_ns());  // when it got its slot
  if (notify) returns_.mutable_returns()->add_started(next.id());
  handle_credit(std::move(next), steady_now_ns());
}

// Standby credits named are withdrawn unsent (revoked: no record); the others, unless
// standby_only, are cancelled: before their send time or in flight, each ends as cancelled.
void WorkerService::on_cancel(const proto::CancelCredits& cancel) {
  std::unordered_set<uint64_t> ids(cancel.credit_ids().begin(), cancel.credit_ids().end());
  for (auto it = standby_.begin(); it != standby_.end();) {
    if (ids.erase(it->id())) {
      add_return(it->id(), it->phase(), false, true, "");
      it = standby_.erase(it);
    } else {
      ++it;
    }
  }
  update_standby_waiting();
  if (cancel.standby_only() || ids.empty()) return;
  boost::asio::post(io_, [this, ids = std::move(ids)] {
    for (uint64_t id : ids) {
      auto k = credit_to_key_.find(id);
      if (k == credit_to_key_.end()) continue;
      if (auto c = cancels_.find(k->second); c != cancels_.end()) c->second->cancel();
      if (auto t = send_timers_.find(k->second); t != send_timers_.end()) t->second->cancel();
    }
  });
}

void WorkerService::handle_credit(proto::Credit credit, int64_t received_perf_ns) {
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

// Asks the dataset service for a conversation not here and not asked for yet.
void WorkerService::ask_conversation(const std::string& id) {
  if (conversations_.count(id) || awaiting_conversation_.count(id)) return;
  proto::ConversationRequest req;
  req.set_version(proto::PROTO_VERSION_CURRENT);
  req.set_conversation_id(id);
  bus::send_proto(dataset_, req);
  const int64_t asked = steady_now_ns();
  awaiting_conversation_[id].asked_ns = asked;
  // Every wait has a deadline: a dataset service that never answers costs error records,
  // not a run that never ends.
  reactor().call_after(kConversationTimeoutNs, [this, id, asked] {
    auto it = awaiting_conversation_.find(id);
    if (it == awaiting_conversation_.end() || it->second.asked_ns != asked) return;  // answered
    auto node = awaiting_conversation_.extract(it);
    fail_credits(node.mapped().credits, "NO_RESPONSE",
                 "the dataset service did not return conversation " + id + " within " +
                     std::to_string(kConversationTimeoutNs / 1'000'000'000) + " s");
  });
}

// Each credit still yields exactly one record: an error record.
void WorkerService::fail_credits(std::vector<std::pair<proto::Credit, int64_t>>& credits, const std::string& type,
                                 const std::string& message) {
  AIPERF_LOG(kError) << "conversation fetch failed: " << message;
  for (auto& [credit, received] : credits) {
    InFlight job;
    job.credit = std::move(credit);
    job.received_perf_ns = received;
    const uint64_t key = next_key_++;
    in_flight_.emplace(key, std::move(job));
    http::Result failed;
    failed.start_perf_ns = failed.end_perf_ns = steady_now_ns();
    failed.start_wall_ns = wall_now_ns();
    failed.error = http::Error{std::nullopt, type, message};
    finish(key, std::move(failed));
  }
  post_starts();
  flush_returns();
}

void WorkerService::on_dataset_socket() {
  zmq::message_t frame;
  while (dataset_.recv(frame, zmq::recv_flags::dontwait)) {
    proto::ConversationResponse resp;
    if (!bus::parse_proto(frame, resp)) continue;
    const std::string id = resp.conversation().session_id();
    auto waiting = awaiting_conversation_.extract(id);
    if (waiting.empty()) continue;
    if (resp.has_error()) {
      fail_credits(waiting.mapped().credits, resp.error().type(), resp.error().message());
      continue;
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
  post_starts();
}

void WorkerService::dispatch(InFlight job) {
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
  popts.extra_inputs = &config_->input.extra_inputs;
  if (auto h = history_.find(job.credit.x_correlation_id()); h != history_.end()) {
    for (const proto::Turn& past : h->second) job.sent_turns.push_back(&past);
  }
  job.sent_turns.push_back(&turn);
  // Without history a turn's payload and input text are the same every time: built once.
  Prepared* cached = job.sent_turns.size() == 1 ? &prepared_[&turn] : nullptr;
  if (cached && !cached->payload.empty()) {
    job.payload = cached->payload;
    job.input_text = cached->input_text;
  } else {
    job.payload = endpoints::build_payload(*endpoint_, popts, job.sent_turns, conv.system_message(),
                                           conv.user_context_message());
    job.input_text = endpoints::input_text(job.sent_turns, conv.system_message(), conv.user_context_message());
    if (cached) *cached = Prepared{job.payload, job.input_text};
  }
  job.x_request_id = util::uuid4();

  http::Request req;
  const uint32_t url_index = job.credit.has_url_index() ? job.credit.url_index() : 0;
  req.url = urls_[url_index % urls_.size()];
  req.headers = {{"User-Agent", kUserAgent},
                 {"X-Request-ID", job.x_request_id},
                 {"X-Correlation-ID", job.credit.x_correlation_id()}};
  for (const auto& h : config_->input.headers) req.headers.push_back(h);
  if (!ep.api_key.empty()) req.headers.emplace_back("Authorization", "Bearer " + ep.api_key);
  req.headers.emplace_back("Content-Type", "application/json");
  req.headers.emplace_back("Accept", ep.streaming ? "text/event-stream" : "application/json");
  req.body = job.payload;

  http::SendOptions sopts;
  sopts.timeout_seconds = ep.timeout_seconds;
  const uint64_t key = next_key_++;
  starts_.push_back(Start{key, job.credit, std::move(req), std::move(sopts)});
  in_flight_.emplace(key, std::move(job));
}

// One hand-over to the io thread for every credit of a message, not one wake-up each.
void WorkerService::post_starts() {
  if (starts_.empty()) return;
  boost::asio::post(io_, [this, starts = std::move(starts_)]() mutable {
    for (Start& s : starts) start_on_io(s.key, s.credit, std::move(s.req), std::move(s.sopts));
  });
  starts_.clear();
}

// On the io thread: waits for the credit's intended send time (scheduled load arrives a little
// early), then sends.
void WorkerService::start_on_io(uint64_t key, const proto::Credit& credit, http::Request req,
                                http::SendOptions sopts) {
  credit_to_key_[credit.id()] = key;
  const int64_t now_wall = wall_now_ns();
  const int64_t wait_ns = send_wait_ns(credit.intended_send_wall_ns(), now_wall);
  const int64_t ahead_ns = credit.intended_send_wall_ns() - now_wall;
  if (credit.intended_send_wall_ns() > 0 && ahead_ns > kMaxSendWaitNs && !warned_clock_) {
    warned_clock_ = true;  // once: every later credit would say the same
    AIPERF_LOG(kWarning) << "credit intended " << ahead_ns / 1'000'000
                         << " ms in the future: this host's wall clock disagrees with the timing service's "
                            "(clock step or unsynchronised host); sending without waiting for it";
  }
  // The steady clock times the wait: a wall clock step while waiting changes nothing.
  const int64_t now = steady_now_ns();
  const int64_t send_at = now + wait_ns;
  const int64_t spin_ns = spin_budget_.allows(kSendSpinNs, now) ? kSendSpinNs : 0;
  if (wait_ns <= spin_ns) {
    spin_and_send(send_at, key, credit, std::move(req), std::move(sopts));
    return;
  }
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::nanoseconds(wait_ns - spin_ns));
  send_timers_[key] = timer;
  timer->async_wait([this, key, send_at, credit, req = std::move(req), sopts = std::move(sopts)](
                        const boost::system::error_code& ec) mutable {
    send_timers_.erase(key);
    if (!ec) return spin_and_send(send_at, key, credit, std::move(req), std::move(sopts));
    http::Result cancelled;  // cancelled before it was sent
    cancelled.start_perf_ns = cancelled.end_perf_ns = steady_now_ns();
    cancelled.start_wall_ns = wall_now_ns();
    cancelled.cancelled = true;
    cancelled.error = http::Error{499, "RequestCancellationError", "Request cancelled by external signal"};
    credit_to_key_.erase(credit.id());
    complete_on_io(key, std::move(cancelled), -1);
  });
}

// On the io thread: spins the last stretch to the send instant (timer wake-ups come late on
// a busy host), then sends.
void WorkerService::spin_and_send(int64_t send_at, uint64_t key, const proto::Credit& credit, http::Request req,
                                  http::SendOptions sopts) {
  const int64_t before = steady_now_ns();
  if (before < send_at) {
    spin_until(send_at);
    spin_budget_.spend(steady_now_ns() - before);
  }
  send_on_io(key, credit, std::move(req), std::move(sopts));
}

// Sends the request, arms the cancellation delay once it is fully sent, and reports the first
// body chunk for prefill concurrency.
void WorkerService::send_on_io(uint64_t key, const proto::Credit& credit, http::Request req,
                               http::SendOptions sopts) {
  const uint64_t credit_id = credit.id();
  auto policy_cancelled = std::make_shared<int64_t>(-1);
  if (send_first_token_ && config_->endpoint.streaming) {
    auto seen = std::make_shared<bool>(false);
    sopts.on_chunk = [this, seen, credit_id, phase = credit.phase()](int64_t, const std::string&) {
      if (*seen) return;
      *seen = true;
      bool wake;
      {
        std::lock_guard lock(done_mu_);
        wake = done_.empty() && first_tokens_.empty();
        first_tokens_.emplace_back(credit_id, phase);
      }
      if (wake) notify_reactor();
    };
  }
  if (credit.has_cancel_after_ns()) {
    const int64_t delay = credit.cancel_after_ns();
    sopts.on_request_sent = [this, key, delay, policy_cancelled](int64_t) {
      auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::nanoseconds(delay));
      cancel_timers_[key] = timer;
      timer->async_wait([this, key, delay, policy_cancelled](const boost::system::error_code& ec) {
        if (ec) return;  // the request finished first
        *policy_cancelled = delay;
        if (auto c = cancels_.find(key); c != cancels_.end()) c->second->cancel();
      });
    };
  }
  cancels_[key] = client_->send(std::move(req), std::move(sopts),
                                [this, key, credit_id, policy_cancelled](http::Result&& result) {
    cancels_.erase(key);
    credit_to_key_.erase(credit_id);
    if (auto t = cancel_timers_.extract(key); !t.empty()) t.mapped()->cancel();
    complete_on_io(key, std::move(result), *policy_cancelled);
  });
}

void WorkerService::complete_on_io(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns) {
  bool wake;
  {
    std::lock_guard lock(done_mu_);
    // The reactor drains everything queued when it wakes: one signal per empty-to-busy change.
    wake = done_.empty() && first_tokens_.empty();
    done_.push_back(Done{key, std::move(result), policy_cancel_after_ns});
  }
  // Where returns may wait, the reactor collects finished requests on its own round, unless a
  // standby waits for the slot this request frees.
  if (wake && (!collect_on_timer_.load(std::memory_order_relaxed) || standby_waiting_.load(std::memory_order_relaxed)))
    notify_reactor();
}

void WorkerService::notify_reactor() {
  const uint64_t one = 1;
  (void)!::write(event_fd_, &one, sizeof one);
}

// Returns that may wait `within_ns` (Credits.return_within_ns) let the reactor collect finished
// requests every `within_ns` instead of being woken for each: at 10k requests/s that is a
// tenth of the wake-ups on both threads. Returns that may not wait switch it back at once.
void WorkerService::set_collect_on_timer(int64_t within_ns) {
  const bool on = within_ns > 0;
  if (on == collect_on_timer_.load(std::memory_order_relaxed)) return;
  collect_on_timer_.store(on, std::memory_order_relaxed);
  if (on) {
    collect_timer_ = reactor().call_every(within_ns, [this] { collect_completions(true); });
  } else {
    reactor().cancel(std::exchange(collect_timer_, 0));
    notify_reactor();  // anything queued meanwhile is collected now
  }
}

void WorkerService::on_completions() {
  uint64_t count;
  (void)!::read(event_fd_, &count, sizeof count);
  collect_completions(false);
}

void WorkerService::collect_completions(bool timer_round) {
  std::vector<Done> batch;
  std::vector<std::pair<uint64_t, proto::Phase>> first_tokens;
  {
    std::lock_guard lock(done_mu_);
    batch.swap(done_);
    first_tokens.swap(first_tokens_);
  }
  for (const auto& [credit_id, phase] : first_tokens) {
    proto::CreditMessage msg;
    msg.set_version(proto::PROTO_VERSION_CURRENT);
    msg.mutable_first_token()->set_credit_id(credit_id);
    msg.mutable_first_token()->set_phase(phase);
    bus::send_proto(credit_, msg);
  }
  for (auto& d : batch) {
    if (d.policy_cancel_after_ns >= 0 && d.result.error) {
      // AIPerf's wording for cancellations from --request-cancellation-rate.
      char msg[96];
      std::snprintf(msg, sizeof msg, "Request was cancelled after %.3f seconds", d.policy_cancel_after_ns / 1e9);
      d.result.error->message = msg;
    }
    finish(d.key, std::move(d.result));
  }
  post_starts();
  // Returns that may wait do, while standbys refill the slots: the timing service then tops
  // them up once per round instead of once per request.
  if (timer_round || !collect_on_timer_.load(std::memory_order_relaxed) || standby_.empty()) flush_returns();
}

void WorkerService::finish(uint64_t key, http::Result&& result) {
  auto node = in_flight_.extract(key);
  if (node.empty()) return;
  InFlight& job = node.mapped();

  proto::RawRecord& rec = *raw_batch_.add_records();
  rec.set_version(proto::PROTO_VERSION_CURRENT);
  *rec.mutable_credit() = job.credit;
  rec.set_worker_id(identity().id);
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
  if (result.error) copy_error(*result.error, rec.mutable_error());
  copy_trace(std::move(result.trace), rec.mutable_trace(), export_headers_);
  rec.mutable_trace()->set_response_reason(result.reason);
  rec.set_was_cancelled(result.cancelled);
  if (result.cancelled) rec.set_cancellation_perf_ns(result.end_perf_ns);
  rec.set_input_text(std::move(job.input_text));
  if (!job.sent_turns.empty() && job.sent_turns.back()->has_max_tokens())
    rec.set_requested_osl(job.sent_turns.back()->max_tokens());
  if (job.credit.num_turns() > 1) remember_turn(job, rec);
  if (config_->output.export_level == "raw") rec.set_payload(std::move(job.payload));

  if (raw_batch_.records_size() >= kRawBatchMax) {
    flush_raw_records();
  } else if (!raw_flush_timer_) {
    raw_flush_timer_ = reactor().call_after(kRawFlushNs, [this] {
      raw_flush_timer_ = 0;
      flush_raw_records();
    });
  }
  add_return(job.credit.id(), job.credit.phase(), result.cancelled, false, result.error ? result.error->message : "");
  if (job.credit.turn_index() + 1 >= job.credit.num_turns()) start_standby(job.credit.phase());
}

void WorkerService::flush_raw_records() {
  if (raw_flush_timer_) reactor().cancel(std::exchange(raw_flush_timer_, 0));
  if (raw_batch_.records_size() == 0) return;
  raw_batch_.set_version(proto::PROTO_VERSION_CURRENT);
  bus::send_proto(raw_, raw_batch_);
  raw_batch_.Clear();
}

void WorkerService::remember_turn(const InFlight& job, const proto::RawRecord& rec) {
  const std::string& session = job.credit.x_correlation_id();
  if (job.credit.turn_index() + 1 >= job.credit.num_turns()) {
    history_.erase(session);
    return;
  }
  std::vector<proto::Turn>& past = history_[session];
  past.push_back(*job.sent_turns.back());
  // The assistant's answer joins the history only when the turn produced text.
  std::string answer;
  for (const auto& r : endpoints::parse_response(*endpoint_, rec).responses) answer += r.text;
  if (answer.empty()) return;
  proto::Turn& assistant = past.emplace_back();
  assistant.set_role("assistant");
  assistant.add_texts()->add_contents(std::move(answer));
}

void WorkerService::add_return(uint64_t credit_id, proto::Phase phase, bool cancelled, bool revoked,
                               const std::string& error) {
  proto::CreditReturn* ret = returns_.mutable_returns()->add_returns();
  ret->set_credit_id(credit_id);
  ret->set_phase(phase);
  ret->set_cancelled(cancelled);
  ret->set_revoked(revoked);
  revoked_unsent_ |= revoked;
  if (!error.empty()) ret->set_error(error);
}

// At the end of each pass over finished requests. Where returns may wait, passes come every
// return_within_ns; elsewhere the io thread wakes the reactor for each finished request.
void WorkerService::flush_returns() {
  if (returns_.returns().returns_size() == 0 && returns_.returns().started_size() == 0) return;
  returns_.set_version(proto::PROTO_VERSION_CURRENT);
  bus::send_proto(credit_, returns_);
  returns_.Clear();
  revoked_unsent_ = false;
}

}  // namespace aiperf::worker
