// The video job flow (services/worker/video_job.h) on a fake sender and fake time: what is
// sent when, the one result a job ends with, and every way it ends (done, failed, timed out,
// cancelled, a bad download).
#include <deque>

#include <catch2/catch.hpp>

#include "fakes/manual_timers.h"
#include "asio_timers.h"
#include "video_job.h"

using namespace aiperf;
using namespace aiperf::worker;

namespace {

constexpr Nanos kMs = 1'000'000;

// Records each request; the test answers the oldest with respond().
class FakeSender final : public HttpSender {
 public:
  struct Sent {
    http::Request request;
    http::SendOptions options;
    std::function<void(http::Result&&)> done;
  };
  http::CancelHandlePtr send(http::Request request, http::SendOptions options,
                             std::function<void(http::Result&&)> done) override {
    sent.push_back(Sent{std::move(request), std::move(options), std::move(done)});
    ++total;
    return handle;
  }
  // Answers the oldest request with `status` and `body` arriving at the clock's time.
  void respond(Nanos now, int status, std::string body, std::string content_type = "application/json") {
    REQUIRE_FALSE(sent.empty());
    Sent s = std::move(sent.front());
    sent.pop_front();
    http::Result r;
    r.status = status;
    r.content_type = std::move(content_type);
    r.start_perf_ns = now - 2;
    r.start_wall_ns = 1000;
    r.ack_perf_ns = now - 1;
    r.end_perf_ns = now;
    r.chunks.push_back(http::Chunk{now, std::move(body)});
    if (status >= 400) r.error = http::Error{status, "Internal Server Error", "boom"};
    s.done(std::move(r));
  }
  void fail(http::Error error, bool cancelled = false) {
    Sent s = std::move(sent.front());
    sent.pop_front();
    http::Result r;
    r.error = std::move(error);
    r.cancelled = cancelled;
    s.done(std::move(r));
  }

  struct Handle final : http::CancelHandle {
    void cancel() override { ++cancels; }
    int cancels = 0;
  };
  std::shared_ptr<Handle> handle = std::make_shared<Handle>();
  std::deque<Sent> sent;
  int total = 0;
};

struct Fixture {
  FakeSender sender;
  testing::ManualTimers timers;
  std::optional<http::Result> result;
  int results = 0;

  http::CancelHandlePtr start(VideoJobSettings settings) {
    http::Request submit;
    submit.url = "http://h/v1/videos";
    submit.headers = {{"X-Request-ID", "r1"}, {"Content-Type", "multipart/form-data; boundary=b"}};
    submit.body = "form";
    http::SendOptions options;
    options.timeout_seconds = 99;
    return run_video_job(sender, timers, std::move(submit), std::move(options), settings, [this](http::Result&& r) {
      ++results;
      result = std::move(r);
    });
  }
  void at(Nanos t) { timers.advance_to(t); }
};

VideoJobSettings settings(double timeout = 10, bool download = false) {
  VideoJobSettings s;
  s.timeout_seconds = timeout;
  s.poll_interval_ns = 100 * kMs;
  s.download_content = download;
  return s;
}

}  // namespace

TEST_CASE("video job: submit / poll until completed / download / one result spanning them", "[video]") {
  Fixture f;
  f.at(1000);
  f.start(settings(10, true));
  REQUIRE(f.sender.sent.size() == 1);
  CHECK(f.sender.sent[0].request.method == "POST");
  CHECK(f.sender.sent[0].request.url == "http://h/v1/videos");
  CHECK(f.sender.sent[0].request.body == "form");
  CHECK(f.sender.sent[0].options.timeout_seconds == 10);  // the request timeout bounds the submit
  f.at(5 * kMs);
  f.sender.respond(5 * kMs, 200, R"({"id":"video_1","status":"queued"})");
  // The first poll goes out at once, GET, same headers without Content-Type, ending by the deadline.
  REQUIRE(f.sender.sent.size() == 1);
  CHECK(f.sender.sent[0].request.method == "GET");
  CHECK(f.sender.sent[0].request.url == "http://h/v1/videos/video_1");
  CHECK(f.sender.sent[0].request.body.empty());
  CHECK(f.sender.sent[0].request.headers == http::Headers{{"X-Request-ID", "r1"}});
  CHECK(f.sender.sent[0].options.timeout_seconds == 10);
  f.at(7 * kMs);
  f.sender.respond(7 * kMs, 200, R"({"id":"video_1","status":"in_progress"})");
  CHECK(f.sender.sent.empty());  // waits one poll interval
  f.at(106 * kMs);
  CHECK(f.sender.sent.empty());
  f.at(107 * kMs);
  REQUIRE(f.sender.sent.size() == 1);
  CHECK(f.sender.sent[0].options.timeout_seconds == Approx(10 - 0.102));  // what is left until the deadline
  f.at(110 * kMs);
  const std::string done = R"({"id":"video_1","status":"completed","inference_time_s":1.5})";
  f.sender.respond(110 * kMs, 200, done);
  REQUIRE(f.sender.sent.size() == 1);
  CHECK(f.sender.sent[0].request.url == "http://h/v1/videos/video_1/content");
  CHECK(f.results == 0);
  f.at(130 * kMs);
  f.sender.respond(130 * kMs, 200, "\x00\x00\x00\x18" "ftyp", "video/mp4");
  REQUIRE(f.results == 1);
  const http::Result& r = *f.result;
  CHECK_FALSE(r.error);
  CHECK(r.status == 200);
  CHECK(r.content_type == "application/json");
  CHECK(r.start_perf_ns == 5 * kMs - 2);  // the submit's start
  CHECK(r.start_wall_ns == 1000);
  CHECK(r.end_perf_ns == 130 * kMs);      // after the download
  REQUIRE(r.chunks.size() == 2);
  CHECK(r.chunks[0].perf_ns == 5 * kMs);
  CHECK(r.chunks[0].data == R"({"id":"video_1","status":"queued"})");
  CHECK(r.chunks[1].perf_ns == 110 * kMs);  // when the poll saw it completed
  CHECK(r.chunks[1].data == done);
  CHECK(f.sender.total == 4);
  CHECK(f.timers.pending() == 0);
}

TEST_CASE("video job: without download the job ends at completion / a job url is downloaded as given", "[video]") {
  Fixture f;
  f.start(settings(10, false));
  f.sender.respond(1, 200, R"({"id":"v"})");
  f.sender.respond(2, 200, R"({"status":"completed"})");
  REQUIRE(f.results == 1);
  CHECK(f.result->status == 200);
  CHECK(f.sender.total == 2);

  Fixture g;
  g.start(settings(10, true));
  g.sender.respond(1, 200, R"({"id":"v"})");
  g.sender.respond(2, 200, R"({"status":"completed","url":"http://cdn/v.mp4"})");
  REQUIRE(g.sender.sent.size() == 1);
  CHECK(g.sender.sent[0].request.url == "http://cdn/v.mp4");
}

TEST_CASE("video job: a failed job is a VideoGenerationError", "[video]") {
  Fixture f;
  f.start(settings());
  f.sender.respond(1, 200, R"({"id":"v"})");
  f.sender.respond(2, 200, R"({"status":"in_progress"})");
  f.at(100 * kMs);
  f.sender.respond(100 * kMs, 200, R"({"status":"failed","error":{"message":"out of memory"}})");
  REQUIRE(f.results == 1);
  REQUIRE(f.result->error);
  CHECK(f.result->error->code == 500);
  CHECK(f.result->error->type == "VideoGenerationError");
  CHECK(f.result->error->message == "Video generation failed: out of memory");
  CHECK(f.sender.total == 3);
}

TEST_CASE("video job: polling ends at the request timeout with TimeoutError 504", "[video]") {
  Fixture f;
  f.start(settings(0.25));
  f.sender.respond(0, 200, R"({"id":"v"})");  // deadline: 250 ms
  for (Nanos t : {0 * kMs, 100 * kMs, 200 * kMs}) {
    f.at(t);
    REQUIRE(f.sender.sent.size() == 1);
    f.sender.respond(t, 200, R"({"status":"in_progress"})");
  }
  CHECK(f.results == 0);
  f.at(249 * kMs);
  CHECK(f.results == 0);
  f.at(250 * kMs);  // the last wait is cut at the deadline, not at 300 ms
  REQUIRE(f.results == 1);
  CHECK(f.sender.total == 4);  // submit + 3 polls
  REQUIRE(f.result->error);
  CHECK(f.result->error->code == 504);
  CHECK(f.result->error->type == "TimeoutError");
  CHECK(f.result->error->message == "Video generation timed out after 0.25s");
  CHECK(f.result->end_perf_ns == 250 * kMs);
}

TEST_CASE("video job: a poll cut by the deadline is the job's TimeoutError", "[video]") {
  Fixture f;
  f.start(settings(0.5));
  f.sender.respond(0, 200, R"({"id":"v"})");
  f.at(500 * kMs);
  f.sender.fail(http::Error{std::nullopt, "TimeoutError", "read timed out"});
  REQUIRE(f.results == 1);
  CHECK(f.result->error->code == 504);
  CHECK(f.result->error->message == "Video generation timed out after 0.5s");
}

TEST_CASE("video job: submit and poll errors end the job with that error", "[video]") {
  Fixture f;
  f.start(settings());
  f.sender.respond(1, 500, R"({"error":"x"})");
  REQUIRE(f.results == 1);
  CHECK(f.result->error->type == "Internal Server Error");
  CHECK(f.result->status == 500);
  CHECK(f.sender.total == 1);

  Fixture g;
  g.start(settings());
  g.sender.respond(1, 200, R"({"object":"video"})");
  REQUIRE(g.results == 1);
  CHECK(g.result->error->message == "No job ID returned: {'object': 'video'}");

  Fixture h;
  h.start(settings());
  h.sender.respond(1, 200, R"({"id":"v"})");
  h.sender.fail(http::Error{std::nullopt, "ClientConnectorError", "refused"});
  REQUIRE(h.results == 1);
  CHECK(h.result->error->type == "ClientConnectorError");
}

TEST_CASE("video job: a download that is not a video / or fails / is a VideoDownloadError", "[video]") {
  Fixture f;
  f.start(settings(10, true));
  f.sender.respond(1, 200, R"({"id":"v"})");
  f.sender.respond(2, 200, R"({"status":"completed"})");
  f.sender.respond(3, 200, R"({"not":"a video"})");
  REQUIRE(f.results == 1);
  CHECK(f.result->error->code == 500);
  CHECK(f.result->error->type == "VideoDownloadError");
  CHECK(f.result->error->message == "No content returned for video v");

  Fixture g;
  g.start(settings(10, true));
  g.sender.respond(1, 200, R"({"id":"v"})");
  g.sender.respond(2, 200, R"({"status":"completed"})");
  g.sender.respond(3, 404, "gone");
  REQUIRE(g.results == 1);
  CHECK(g.result->error->code == 404);
  CHECK(g.result->error->type == "VideoDownloadError");
  CHECK(g.result->error->message ==
        "Failed to download video v: code=404 type='Internal Server Error' message='boom' cause=None "
        "cause_chain=None details=None");
}

TEST_CASE("video job: cancelling between polls ends it at once as cancelled / in flight / through the request",
          "[video]") {
  Fixture f;
  auto handle = f.start(settings());
  f.sender.respond(1, 200, R"({"id":"v"})");
  f.sender.respond(2, 200, R"({"status":"queued"})");
  CHECK(f.timers.pending() == 1);
  handle->cancel();
  REQUIRE(f.results == 1);
  CHECK(f.result->cancelled);
  CHECK(f.result->error->code == 499);
  CHECK(f.timers.pending() == 0);
  f.at(1000 * kMs);
  CHECK(f.sender.total == 2);  // no poll after the cancel
  handle->cancel();
  CHECK(f.results == 1);

  Fixture g;
  auto h2 = g.start(settings());
  g.sender.respond(1, 200, R"({"id":"v"})");
  h2->cancel();
  CHECK(g.sender.handle->cancels == 1);
  g.sender.fail(http::Error{499, "RequestCancellationError", "Request cancelled by external signal"}, true);
  REQUIRE(g.results == 1);
  CHECK(g.result->cancelled);
}

TEST_CASE("AsioTimers: timers fire in instant order on the io thread / cancelled ones never", "[video]") {
  boost::asio::io_context io;
  std::vector<int> fired;
  {
    AsioTimers timers(io);
    const Nanos now = timers.clock().steady_now();
    timers.call_at(now + 3 * kMs, [&] { fired.push_back(3); });
    timers.call_at(now + 1 * kMs, [&] { fired.push_back(1); });
    const auto cancelled = timers.call_at(now + 2 * kMs, [&] { fired.push_back(2); });
    timers.call_at(now - 5 * kMs, [&] { fired.push_back(0); });  // in the past: as soon as possible
    timers.cancel(cancelled);
    int ticks = 0;
    const auto every = timers.call_every(1 * kMs, [&] { ++ticks; });
    timers.call_at(now + 4 * kMs, [&] { timers.cancel(every); });
    io.run();  // returns once no timer is left
    CHECK(ticks >= 1);
    // Destroyed with a timer pending: its handler must not run after.
    timers.call_after(1 * kMs, [&] { fired.push_back(99); });
  }
  io.restart();
  io.run();
  CHECK(fired == std::vector<int>{0, 1, 3});
}
