// A ScraperPort for unit tests of the telemetry core: it records what the core asked for
// (targets, periods, timeouts, final-scrape targets, stops) and delivers the scrapes a test
// scripts, on the test's thread, when the test says so. Header-only.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "telemetry_core.h"

namespace aiperf::testing {

class FakeScraper final : public telemetry::ScraperPort {
 public:
  void start(std::vector<telemetry::ScrapeTarget> targets, double timeout_s, Sink sink,
             std::function<void()> first_round_done) override {
    targets_ = std::move(targets);
    timeout_s_ = timeout_s;
    sink_ = std::move(sink);
    first_round_done_ = std::move(first_round_done);
    ++starts_;
  }
  void scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done) override {
    final_targets_ = std::move(targets);
    final_timeout_s_ = timeout_s;
    final_done_ = std::move(done);
    ++final_scrapes_;
  }
  void stop() override { ++stops_; }

  // A successful scrape of target `index` (HTTP 200) with `body`, requested at `wall_ns`.
  void answer(size_t index, int64_t wall_ns, std::string body) {
    telemetry::Scrape s;
    s.target = index;
    s.wall_ns = wall_ns;
    s.first_byte_wall_ns = wall_ns + 1'000'000;
    s.latency_ns = 2'000'000;
    s.ok = true;
    s.body = std::move(body);
    deliver(s);
  }
  // A failed scrape of target `index`, for `error`.
  void fail(size_t index, int64_t wall_ns, std::string error) {
    telemetry::Scrape s;
    s.target = index;
    s.wall_ns = wall_ns;
    s.error = std::move(error);
    deliver(s);
  }
  // As the real scraper after stop(): nothing reaches the sink any more.
  void deliver(const telemetry::Scrape& s) {
    if (stops_ == 0) sink_(s);
  }
  void first_round_done() { first_round_done_(); }
  void final_done() { final_done_(); }

  const std::vector<telemetry::ScrapeTarget>& targets() const { return targets_; }
  double timeout_s() const { return timeout_s_; }
  const std::vector<size_t>& final_targets() const { return final_targets_; }
  double final_timeout_s() const { return final_timeout_s_; }
  int starts() const { return starts_; }
  int final_scrapes() const { return final_scrapes_; }
  int stops() const { return stops_; }

 private:
  std::vector<telemetry::ScrapeTarget> targets_;
  double timeout_s_ = 0;
  Sink sink_;
  std::function<void()> first_round_done_;
  std::vector<size_t> final_targets_;
  double final_timeout_s_ = 0;
  std::function<void()> final_done_;
  int starts_ = 0;
  int final_scrapes_ = 0;
  int stops_ = 0;
};

}  // namespace aiperf::testing
