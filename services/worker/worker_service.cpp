#include "worker_service.h"

#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <future>
#include <unordered_set>
#include <utility>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include "bus/socket.h"
#include "endpoints/cache_bust.h"
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

// A multipart boundary as aiohttp makes one: 32 random hex digits (uuid4().hex).
std::string form_boundary() {
  std::string id = util::uuid4();
  id.erase(std::remove(id.begin(), id.end(), '-'), id.end());
  return id;
}

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
      work_(boost::asio::make_work_guard(io_)),
      raw_flush_timer_(io_),
      returns_timer_(io_) {
  credit_.set(zmq::sockopt::routing_id, this->identity().id);
  bus::connect(credit_, this->endpoints().credit);
  bus::connect(dataset_, this->endpoints().dataset);
  // Records go only to record processors that are connected: a dead one's pipe would
  // otherwise keep taking its share (lost with it) while ZeroMQ tries to reconnect.
  raw_.set(zmq::sockopt::immediate, 1);
  if (!this->endpoints().raw_direct(0)) bus::connect(raw_, this->endpoints().raw_frontend);  // else at configure
  credit_watch_ = std::make_unique<ZmqWatch>(io_, credit_, [this] { on_credit_socket(); });
  dataset_watch_ = std::make_unique<ZmqWatch>(io_, dataset_, [this] { on_dataset_socket(); });
  // The sockets belong to the io thread from here on (thread start is the memory barrier
  // ZeroMQ asks for when a socket changes threads).
  io_thread_ = std::thread([this] {
    prctl(PR_SET_TIMERSLACK, 1UL);  // timer slack is per thread: precise send times
    credit_watch_->start();
    dataset_watch_->start();
    io_.run();
  });
}

WorkerService::~WorkerService() {
  work_.reset();
  io_.stop();
  if (io_thread_.joinable()) io_thread_.join();
}

void WorkerService::on_configure(const config::RunConfig& config) {
  const endpoints::EndpointInfo* endpoint = endpoints::find_endpoint(config.endpoint.type);
  if (!endpoint) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  http::ClientOptions opts;
  opts.reuse = config.endpoint.connection_reuse_strategy == "never" ? http::ConnectionReuse::kNever
                                                                     : http::ConnectionReuse::kPooled;
  // As many connections as this process can open: the controller started enough workers
  // for the concurrency (cli/connection_plan.cpp), so none of them queues its own requests.
  const uint64_t capacity = util::connection_capacity(util::raise_fd_limit());
  opts.connection_limit = config.endpoint.connection_limit ? std::min(capacity, config.endpoint.connection_limit) : capacity;
  opts.local_addresses = config.endpoint.local_addresses;
  opts.keep_response_headers = config.output.export_http_trace || config.output.export_level == "raw";
  opts.verify_tls = config.endpoint.verify_tls;
  const bool first = !std::exchange(configured_, true);
  // Synchronously, so the timing service has this worker's ready message before the controller
  // has the configure answer (and starts the run with the workers it knows).
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> taken = done->get_future();
  boost::asio::post(io_, [this, config, endpoint, opts, first, done] {
    configure(config, endpoint, opts, first);
    done->set_value();
  });
  if (taken.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
    throw std::runtime_error("worker io thread did not take the configuration within 10 s");
}

void WorkerService::configure(const config::RunConfig& config, const endpoints::EndpointInfo* endpoint,
                              const http::ClientOptions& opts, bool first) {
  endpoint_ = endpoint;
  urls_.clear();
  for (const auto& base : config.endpoint.urls) {
    urls_.push_back(endpoints::build_url(base, *endpoint_, config.endpoint.custom_endpoint, config.endpoint.streaming));
  }
  export_headers_ = opts.keep_response_headers;
  config_ = config;
  prepared_.clear();
  send_first_token_ = config.loadgen.profiling.prefill_concurrency || config.loadgen.warmup.prefill_concurrency;
  if (!first) return;
  // Straight to every record processor; PUSH deals batches round-robin, skipping full pipes.
  for (uint32_t i = 0; i < config.service.record_processors; ++i) {
    if (auto direct = endpoints().raw_direct(i)) bus::connect(raw_, *direct);
  }
  client_ = std::make_unique<http::HttpClient>(io_, opts);
  if (endpoint_->requires_polling) {
    VideoJobSettings video;
    video.timeout_seconds = config.endpoint.timeout_seconds;
    video.poll_interval_ns = static_cast<Nanos>(config.endpoint.video_poll_interval_seconds * 1e9);
    video.download_content = config.endpoint.download_video_content;
    video_jobs_ = std::make_unique<VideoJobRunner>(*client_, io_, video);
  }
  proto::CreditMessage ready;
  ready.set_version(proto::PROTO_VERSION_CURRENT);
  ready.mutable_ready()->set_worker_id(identity().id);
  send_credit_message(ready);
}

// Sends on the credit socket; anything the send left waiting is read after (see ZmqWatch).
void WorkerService::send_credit_message(const proto::CreditMessage& msg) {
  bus::send_proto(credit_, msg);
  credit_watch_->drain_later();
}

void WorkerService::on_credit_socket() {
  zmq::message_t frame;
  while (credit_.recv(frame, zmq::recv_flags::dontwait)) {
    const int64_t now = steady_now_ns();
    proto::CreditMessage msg;
    if (!bus::parse_proto(frame, msg) || msg.version() != proto::PROTO_VERSION_CURRENT) continue;
    if (msg.has_credits()) {
      if (msg.credits().return_within_ns() != return_within_ns_) standby_phase_ = false;
      return_within_ns_ = msg.credits().return_within_ns();
      for (proto::Credit& credit : *msg.mutable_credits()->mutable_credits()) {
        if (credit.standby()) {
          take_standby(std::move(credit));
        } else {
          handle_credit(std::move(credit), now);
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
}

void WorkerService::take_standby(proto::Credit credit) {
  standby_phase_ = true;
  ask_conversation(credit.conversation_id());  // fetched now, not when the slot frees
  standby_.push_back(std::move(credit));
}

// The oldest standby of `phase` takes the slot a session of that phase just freed here.
void WorkerService::start_standby(proto::Phase phase) {
  if (!standby_.empty() && standby_.front().phase() == phase) start_standby(standby_.begin(), true);
}

// Starts one standby credit; `notify`: the timing service learns it from CreditReturns.started
// (not when it asked for the start itself).
void WorkerService::start_standby(std::deque<proto::Credit>::iterator it, bool notify) {
  proto::Credit next = std::move(*it);
  standby_.erase(it);
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
  flush_returns();  // the phase's end waits for the withdrawn ones
  if (cancel.standby_only()) return;
  for (uint64_t id : ids) {
    auto k = credit_to_key_.find(id);
    if (k == credit_to_key_.end()) continue;
    if (auto c = cancels_.find(k->second); c != cancels_.end()) c->second->cancel();
    if (auto t = send_timers_.find(k->second); t != send_timers_.end()) t->second->cancel();
  }
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
  const int64_t asked = steady_now_ns();
  awaiting_conversation_[id].asked_ns = asked;  // before the answer can come
  proto::ConversationRequest req;
  req.set_version(proto::PROTO_VERSION_CURRENT);
  req.set_conversation_id(id);
  bus::send_proto(dataset_, req);
  dataset_watch_->drain_later();
  // Every wait has a deadline: a dataset service that never answers costs error records,
  // not a run that never ends.
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::nanoseconds(kConversationTimeoutNs));
  timer->async_wait([this, id, asked, timer](const boost::system::error_code& ec) {
    if (ec) return;
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
  popts.per_chunk_usage = ep.per_chunk_usage;
  popts.extra_inputs = &config_->input.extra_inputs;
  if (auto h = history_.find(job.credit.x_correlation_id()); h != history_.end()) {
    for (const proto::Turn& past : h->second) job.sent_turns.push_back(&past);
  }
  job.sent_turns.push_back(&turn);
  // --cache-bust: this session's marker on the system message or the first user message.
  const std::string& bust = config_->input.prompt_shaping.cache_bust;
  const std::optional<std::string> marker =
      endpoints::cache_bust_marker(bust, config_->benchmark_id, job.credit.x_correlation_id(),
                                   job.credit.conversation_id(), job.credit.phase() == proto::PHASE_WARMUP);
  const std::string system_message =
      marker ? endpoints::apply_cache_bust(bust, *marker, conv.system_message(), job.sent_turns, job.busted_turn)
             : conv.system_message();
  // Without history (or a per-session marker) a turn's payload and input text are the same
  // every time: built once.
  Prepared* cached = job.sent_turns.size() == 1 && !marker ? &prepared_[&turn] : nullptr;
  if (cached && !cached->payload.empty()) {
    job.payload = cached->payload;
    job.input_text = cached->input_text;
  } else {
    job.payload = endpoints::build_payload(*endpoint_, popts, job.sent_turns, system_message,
                                           conv.user_context_message());
    job.input_text =
        endpoints::input_text_for(*endpoint_, job.sent_turns, system_message, conv.user_context_message());
    if (cached) *cached = Prepared{job.payload, job.input_text};
  }
  job.x_request_id = util::uuid4();

  http::Request req;
  const uint32_t url_index = job.credit.has_url_index() ? job.credit.url_index() : 0;
  req.url = urls_[url_index % urls_.size()];
  req.headers = {{"User-Agent", kUserAgent},
                 {"X-Request-ID", job.x_request_id},
                 {ep.session_header.empty() ? std::string("X-Correlation-ID") : ep.session_header,
                  job.credit.x_correlation_id()}};
  for (const auto& h : config_->input.headers) req.headers.push_back(h);
  for (auto& h : endpoints::endpoint_headers(*endpoint_, ep.api_key, config_->input.headers))
    req.headers.push_back(std::move(h));
  // Form-data types (image_edit, audio_transcription) encode the payload as multipart with a
  // fresh boundary per request, as aiohttp does.
  endpoints::WireBody wire;
  try {
    wire = endpoints::wire_body(*endpoint_, job.payload, endpoint_->requires_form_data ? form_boundary() : "");
  } catch (const std::invalid_argument& e) {  // e.g. a file field that is not base64: an error record
    const uint64_t key = next_key_++;
    in_flight_.emplace(key, std::move(job));
    http::Result failed;
    failed.start_perf_ns = failed.end_perf_ns = steady_now_ns();
    failed.start_wall_ns = wall_now_ns();
    failed.error = http::Error{std::nullopt, "ValueError", e.what()};
    finish(key, std::move(failed));
    schedule_returns();
    return;
  }
  req.headers.emplace_back("Content-Type", std::move(wire.content_type));
  req.headers.emplace_back("Accept", ep.streaming ? "text/event-stream" : "application/json");
  req.body = std::move(wire.body);

  http::SendOptions sopts;
  sopts.timeout_seconds = ep.timeout_seconds;
  const uint64_t key = next_key_++;
  const proto::Credit& credit = in_flight_.emplace(key, std::move(job)).first->second.credit;
  start_request(key, credit, std::move(req), std::move(sopts));
}

// Waits for the credit's intended send time (scheduled load arrives a little early), then
// sends.
void WorkerService::start_request(uint64_t key, const proto::Credit& credit, http::Request req,
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
    complete(key, std::move(cancelled), -1);
  });
}

// Spins the last stretch to the send instant (timer wake-ups come late on a busy host), then
// sends.
void WorkerService::spin_and_send(int64_t send_at, uint64_t key, const proto::Credit& credit, http::Request req,
                                  http::SendOptions sopts) {
  const int64_t before = steady_now_ns();
  if (before < send_at) {
    spin_until(send_at);
    spin_budget_.spend(steady_now_ns() - before);
  }
  send_request(key, credit, std::move(req), std::move(sopts));
}

// Sends the request, arms the cancellation delay once it is fully sent, and reports the first
// body chunk for prefill concurrency.
void WorkerService::send_request(uint64_t key, const proto::Credit& credit, http::Request req,
                                 http::SendOptions sopts) {
  const uint64_t credit_id = credit.id();
  auto policy_cancelled = std::make_shared<int64_t>(-1);
  if (send_first_token_ && config_->endpoint.streaming) {
    auto seen = std::make_shared<bool>(false);
    sopts.on_chunk = [this, seen, credit_id, phase = credit.phase()](int64_t, const std::string&) {
      if (*seen) return;
      *seen = true;
      proto::CreditMessage msg;
      msg.set_version(proto::PROTO_VERSION_CURRENT);
      msg.mutable_first_token()->set_credit_id(credit_id);
      msg.mutable_first_token()->set_phase(phase);
      send_credit_message(msg);
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
  auto on_done = [this, key, credit_id, policy_cancelled](http::Result&& result) {
    cancels_.erase(key);
    credit_to_key_.erase(credit_id);
    if (auto t = cancel_timers_.extract(key); !t.empty()) t.mapped()->cancel();
    complete(key, std::move(result), *policy_cancelled);
  };
  // A polled job type submits, polls and downloads as one request (video_job.h).
  auto handle = video_jobs_ ? video_jobs_->run(std::move(req), std::move(sopts), std::move(on_done))
                            : client_->send(std::move(req), std::move(sopts), std::move(on_done));
  // A request that failed at once has already finished (and must leave no handle behind).
  if (in_flight_.count(key)) cancels_[key] = std::move(handle);
}

void WorkerService::complete(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns) {
  if (policy_cancel_after_ns >= 0 && result.error) {
    // AIPerf's wording for cancellations from --request-cancellation-rate.
    char msg[96];
    std::snprintf(msg, sizeof msg, "Request was cancelled after %.3f seconds", policy_cancel_after_ns / 1e9);
    result.error->message = msg;
  }
  finish(key, std::move(result));
  schedule_returns();
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
  if (auto images = endpoints::image_count(*endpoint_, job.sent_turns)) rec.set_num_images(*images);
  // AIPerf hoists the first turn's audio length (ASR requests are single-turn).
  if (!job.sent_turns.empty() && job.sent_turns.front()->has_audio_duration_seconds())
    rec.set_audio_duration_seconds(job.sent_turns.front()->audio_duration_seconds());
  if (job.credit.num_turns() > 1 && !job.conversation->self_contained_turns()) remember_turn(job, rec);
  // The body travels for the raw export, and for --apply-chat-template, whose ISL is counted on
  // the messages of what was sent.
  if (config_->output.export_level == "raw" || config_->tokenizer.apply_chat_template)
    rec.set_payload(std::move(job.payload));

  if (raw_batch_.records_size() >= kRawBatchMax) {
    flush_raw_records();
  } else {
    arm_raw_flush();
  }
  add_return(job.credit.id(), job.credit.phase(), result.cancelled, false, result.error ? result.error->message : "");
  if (job.credit.turn_index() + 1 >= job.credit.num_turns()) start_standby(job.credit.phase());
}

void WorkerService::flush_raw_records() {
  if (raw_flush_armed_) {
    raw_flush_armed_ = false;
    raw_flush_timer_.cancel();
  }
  if (raw_batch_.records_size() == 0) return;
  raw_batch_.set_version(proto::PROTO_VERSION_CURRENT);
  // Never blocks the io thread: with no record processor connected (not yet, or every one
  // died) the batch stays here, keeps growing, and is offered again on the next flush.
  if (!bus::send_proto(raw_, raw_batch_, zmq::send_flags::dontwait)) return arm_raw_flush();
  raw_batch_.Clear();
}

void WorkerService::arm_raw_flush() {
  if (raw_flush_armed_) return;
  raw_flush_armed_ = true;
  raw_flush_timer_.expires_after(std::chrono::nanoseconds(kRawFlushNs));
  raw_flush_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) flush_raw_records();
  });
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
  if (!error.empty()) ret->set_error(error);
}

// Returns finished in one pass of the io_context travel together. Where they may wait
// (return_within_ns: rate phases, or standby phases while a standby is left to refill the
// next freed slot) they are held up to that long, so the timing service wakes once per
// interval, not once per request.
void WorkerService::schedule_returns() {
  const bool may_wait = return_within_ns_ > 0 && !(standby_phase_ && standby_.empty());
  if (may_wait) {
    if (returns_timer_armed_) return;
    returns_timer_armed_ = true;
    returns_timer_.expires_after(std::chrono::nanoseconds(return_within_ns_));
    returns_timer_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) flush_returns();
    });
    return;
  }
  if (returns_posted_) return;
  returns_posted_ = true;
  boost::asio::post(io_, [this] { flush_returns(); });
}

void WorkerService::flush_returns() {
  returns_posted_ = false;
  if (returns_timer_armed_) {
    returns_timer_armed_ = false;
    returns_timer_.cancel();
  }
  if (returns_.returns().returns_size() == 0 && returns_.returns().started_size() == 0) return;
  returns_.set_version(proto::PROTO_VERSION_CURRENT);
  send_credit_message(returns_);
  returns_.Clear();
}

}  // namespace aiperf::worker
