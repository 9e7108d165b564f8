// Scraper: GETs a fixed set of Prometheus URLs periodically on its own thread (its own
// io_context and HttpClient), so a slow exporter never stalls the service's reactor. Each
// request has a deadline; a target whose previous scrape is still in flight skips its turn
// instead of piling requests up.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace aiperf::telemetry {

struct ScrapeTarget {
  std::string url;
  int64_t period_ns = 0;
};

struct Scrape {
  size_t target = 0;        // index into the targets
  int64_t wall_ns = 0;      // request start, wall clock (the sample's timestamp)
  int64_t first_byte_wall_ns = 0;
  int64_t latency_ns = 0;   // request start -> body complete
  bool ok = false;          // HTTP 200 with a body
  std::string body;
  std::string error;        // why not ok, e.g. "ClientConnectorError: Connection refused"
};

class Scraper {
 public:
  using Sink = std::function<void(const Scrape&)>;  // runs on the scraper thread

  Scraper(std::vector<ScrapeTarget> targets, double timeout_s, Sink sink);
  ~Scraper();
  Scraper(const Scraper&) = delete;
  Scraper& operator=(const Scraper&) = delete;

  // Starts the thread; every target is scraped at once, then every period. `first_round_done`
  // (if set) runs on the scraper thread once every target's first scrape completed or failed.
  void start(std::function<void()> first_round_done = nullptr);
  // Scrapes the given targets once more now (in flight or not), each within `timeout_s`;
  // `done` runs on the scraper thread after the last of them completed.
  void scrape_now(std::vector<size_t> targets, double timeout_s, std::function<void()> done);
  // Cancels the timers and joins the thread. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::telemetry
