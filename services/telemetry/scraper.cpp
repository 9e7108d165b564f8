#include "scraper.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <thread>

#include "http/http_client.h"
#include "time/clock.h"

namespace aiperf::telemetry {

namespace asio = boost::asio;

struct Scraper::Impl {
  Impl(std::vector<ScrapeTarget> t, double timeout, Sink s)
      : targets(std::move(t)), timeout_s(timeout), sink(std::move(s)), work(asio::make_work_guard(io)) {
    for (size_t i = 0; i < targets.size(); ++i) timers.emplace_back(std::make_unique<asio::steady_timer>(io));
    in_flight.assign(targets.size(), false);
  }

  // One GET; `then` runs after the sink saw the result.
  void fetch(size_t i, double timeout, std::function<void()> then) {
    http::Request req;
    req.method = "GET";
    req.url = targets[i].url;
    req.headers = {{"Accept", "text/plain;version=0.0.4"}};
    http::SendOptions opts;
    opts.timeout_seconds = timeout;
    const int64_t wall = wall_now_ns();
    client->send(std::move(req), std::move(opts), [this, i, wall, then = std::move(then)](http::Result&& r) {
      Scrape s;
      s.target = i;
      s.wall_ns = wall;
      s.latency_ns = r.end_perf_ns - r.start_perf_ns;
      if (r.ack_perf_ns) s.first_byte_wall_ns = wall + (r.ack_perf_ns - r.start_perf_ns);
      for (auto& c : r.chunks) s.body += c.data;
      s.ok = !r.error && r.status == 200;
      if (r.error) s.error = r.error->type + (r.error->message.empty() ? "" : ": " + r.error->message);
      else if (r.status != 200) s.error = "HTTP " + std::to_string(r.status);
      sink(s);
      if (then) then();
    });
  }

  // Scrapes target i unless a scrape of it is still in flight (then `fetched` is not called),
  // and schedules the next one.
  void tick(size_t i, std::function<void()> fetched = nullptr) {
    if (stopping) return;
    if (!in_flight[i]) {
      in_flight[i] = true;
      fetch(i, timeout_s, [this, i, fetched = std::move(fetched)] {
        in_flight[i] = false;
        if (fetched) fetched();
      });
    }
    timers[i]->expires_after(std::chrono::nanoseconds(targets[i].period_ns));
    timers[i]->async_wait([this, i](const boost::system::error_code& ec) {
      if (!ec) tick(i);
    });
  }

  std::vector<ScrapeTarget> targets;
  double timeout_s;
  Sink sink;
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work;
  std::unique_ptr<http::HttpClient> client;
  std::vector<std::unique_ptr<asio::steady_timer>> timers;
  std::vector<bool> in_flight;
  bool stopping = false;
  std::thread thread;
};

Scraper::Scraper(std::vector<ScrapeTarget> targets, double timeout_s, Sink sink)
    : impl_(std::make_unique<Impl>(std::move(targets), timeout_s, std::move(sink))) {}

Scraper::~Scraper() { stop(); }

void Scraper::start(std::function<void()> first_round_done) {
  Impl* impl = impl_.get();
  asio::post(impl->io, [impl, done = std::move(first_round_done)] {
    impl->client = std::make_unique<http::HttpClient>(impl->io, http::ClientOptions{});
    if (impl->targets.empty() && done) return done();
    auto remaining = std::make_shared<size_t>(impl->targets.size());
    for (size_t i = 0; i < impl->targets.size(); ++i)
      impl->tick(i, [remaining, done] {
        if (--*remaining == 0 && done) done();
      });
  });
  impl->thread = std::thread([impl] { impl->io.run(); });
}

void Scraper::scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done) {
  Impl* impl = impl_.get();
  asio::post(impl->io, [impl, targets = std::move(targets), timeout_s, done = std::move(done)] {
    if (targets.empty() || impl->stopping) return done();
    auto remaining = std::make_shared<size_t>(targets.size());
    for (size_t i : targets)
      impl->fetch(i, timeout_s, [remaining, done] {
        if (--*remaining == 0) done();
      });
  });
}

void Scraper::stop() {
  Impl* impl = impl_.get();
  if (!impl->thread.joinable()) return;
  asio::post(impl->io, [impl] {
    impl->stopping = true;
    for (auto& t : impl->timers) t->cancel();
    impl->client.reset();  // abandons what is still in flight
    impl->work.reset();
    impl->io.stop();       // do not wait for abandoned requests to time out
  });
  impl->thread.join();
}

}  // namespace aiperf::telemetry
