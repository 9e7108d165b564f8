#include "video_job.h"

#include <algorithm>
#include <cctype>

#include "endpoints/video_generation.h"

namespace aiperf::worker {

namespace {

std::string body_of(const http::Result& r) {
  std::string body;
  for (const http::Chunk& c : r.chunks) body += c.data;
  return body;
}

bool is_content_type(const std::string& name) {
  if (name.size() != 12) return false;
  return std::equal(name.begin(), name.end(), "content-type",
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

http::Error to_error(endpoints::VideoJobError e) { return http::Error{e.code, std::move(e.type), std::move(e.message)}; }

// Python's str() of AIPerf's ErrorDetails, which its download error message embeds.
std::string error_details_str(const http::Error& e) {
  std::string s = "code=" + (e.code ? std::to_string(*e.code) : std::string("None"));
  s += " type=" + (e.type.empty() ? std::string("None") : "'" + e.type + "'");
  s += " message='" + e.message + "' cause=None cause_chain=None details=None";
  return s;
}

class VideoJob final : public http::CancelHandle, public std::enable_shared_from_this<VideoJob> {
 public:
  VideoJob(HttpSender& sender, Timers& timers, VideoJobSettings settings, std::function<void(http::Result&&)> done)
      : sender_(sender), timers_(timers), settings_(settings), done_(std::move(done)) {}

  void start(http::Request submit, http::SendOptions options) {
    submit_url_ = submit.url;
    for (const auto& h : submit.headers) {
      if (!is_content_type(h.first)) get_headers_.push_back(h);
    }
    options.timeout_seconds = settings_.timeout_seconds;
    send(std::move(submit), std::move(options), &VideoJob::on_submit);
  }

  void cancel() override {
    if (finished_) return;
    if (timer_ != 0) {  // between polls: nothing is in flight
      timers_.cancel(timer_);
      timer_ = 0;
      return finish_error(http::Error{499, "RequestCancellationError", "Request cancelled by external signal"}, 0,
                          true);
    }
    if (inflight_) inflight_->cancel();  // its result arrives cancelled and ends the job
  }

 private:
  using Step = void (VideoJob::*)(http::Result&&);

  Nanos now() const { return timers_.clock().steady_now(); }

  void send(http::Request request, http::SendOptions options, Step next) {
    const uint64_t step = ++step_;
    auto self = shared_from_this();
    auto handle = sender_.send(std::move(request), std::move(options), [self, step, next](http::Result&& r) {
      self->completed_step_ = step;
      self->inflight_.reset();
      if (self->finished_) return;
      (self.get()->*next)(std::move(r));
    });
    if (completed_step_ != step) inflight_ = std::move(handle);  // not finished at once
  }

  http::Request get(const std::string& url) const {
    http::Request r;
    r.method = "GET";
    r.url = url;
    r.headers = get_headers_;
    return r;
  }

  void on_submit(http::Result&& r) {
    out_.start_perf_ns = r.start_perf_ns;
    out_.start_wall_ns = r.start_wall_ns;
    out_.ack_perf_ns = r.ack_perf_ns;
    if (r.error) return finish_error(std::move(*r.error), r.status, r.cancelled);
    std::string body = body_of(r);
    auto id = endpoints::read_video_submit(body, r.status);
    if (auto* e = std::get_if<endpoints::VideoJobError>(&id)) return finish_error(to_error(std::move(*e)), r.status);
    job_id_ = std::get<std::string>(id);
    poll_url_ = endpoints::video_poll_url(submit_url_, job_id_);
    out_.chunks.push_back(http::Chunk{r.chunks.empty() ? r.end_perf_ns : r.chunks.back().perf_ns, std::move(body)});
    poll_deadline_ = now() + static_cast<Nanos>(settings_.timeout_seconds * 1e9);
    poll();
  }

  void poll() {
    timer_ = 0;
    const Nanos left = poll_deadline_ - now();
    if (left <= 0) return finish_error(to_error(endpoints::video_timeout_error(settings_.timeout_seconds)), 0);
    http::SendOptions options;
    options.timeout_seconds = static_cast<double>(left) / 1e9;  // the poll ends by the job's deadline
    send(get(poll_url_), std::move(options), &VideoJob::on_poll);
  }

  void on_poll(http::Result&& r) {
    if (r.error) {
      if (!r.cancelled && r.error->type == "TimeoutError" && now() >= poll_deadline_)
        return finish_error(to_error(endpoints::video_timeout_error(settings_.timeout_seconds)), 0);
      return finish_error(std::move(*r.error), r.status, r.cancelled);
    }
    std::string body = body_of(r);
    auto poll = endpoints::read_video_poll(body, r.status);
    if (auto* e = std::get_if<endpoints::VideoJobError>(&poll)) return finish_error(to_error(std::move(*e)), r.status);
    const auto& state = std::get<endpoints::VideoPoll>(poll);
    if (state.state == endpoints::VideoPoll::State::kPending) {
      const Nanos at = std::min(now() + settings_.poll_interval_ns, poll_deadline_);
      auto self = shared_from_this();
      timer_ = timers_.call_at(at, [self] {
        if (!self->finished_) self->poll();
      });
      return;
    }
    out_.chunks.push_back(http::Chunk{now(), std::move(body)});
    if (!settings_.download_content) return succeed();
    http::SendOptions options;
    options.timeout_seconds = settings_.timeout_seconds;
    send(get(endpoints::video_content_url(poll_url_, state.url)), std::move(options), &VideoJob::on_download);
  }

  void on_download(http::Result&& r) {
    if (r.cancelled && r.error) return finish_error(std::move(*r.error), r.status, true);
    if (r.error) {
      const int code = r.status != 0 ? r.status : 500;
      return finish_error(
          http::Error{code, "VideoDownloadError", "Failed to download video " + job_id_ + ": " + error_details_str(*r.error)},
          r.status);
    }
    if (auto e = endpoints::check_video_download(r.content_type, job_id_)) return finish_error(to_error(std::move(*e)), r.status);
    succeed();  // the video's bytes are not kept, as in AIPerf
  }

  void succeed() {
    out_.status = 200;
    out_.reason = "OK";
    out_.content_type = "application/json";
    finish();
  }

  void finish_error(http::Error error, int status, bool cancelled = false) {
    out_.error = std::move(error);
    out_.status = status;
    out_.cancelled = cancelled;
    finish();
  }

  void finish() {
    finished_ = true;
    out_.end_perf_ns = now();
    if (out_.start_perf_ns == 0) {  // ended before the submit reported
      out_.start_perf_ns = out_.end_perf_ns;
      out_.start_wall_ns = timers_.clock().wall_now();
    }
    auto done = std::move(done_);
    done(std::move(out_));
  }

  HttpSender& sender_;
  Timers& timers_;
  const VideoJobSettings settings_;
  std::function<void(http::Result&&)> done_;
  http::Headers get_headers_;
  std::string submit_url_, poll_url_, job_id_;
  http::Result out_;
  Nanos poll_deadline_ = 0;
  http::CancelHandlePtr inflight_;
  Timers::TimerId timer_ = 0;
  uint64_t step_ = 0, completed_step_ = 0;
  bool finished_ = false;
};

}  // namespace

http::CancelHandlePtr run_video_job(HttpSender& sender, Timers& timers, http::Request submit,
                                    http::SendOptions submit_options, VideoJobSettings settings,
                                    std::function<void(http::Result&&)> done) {
  auto job = std::make_shared<VideoJob>(sender, timers, settings, std::move(done));
  job->start(std::move(submit), std::move(submit_options));
  return job;
}

}  // namespace aiperf::worker
