#include "synthetic_report.h"

#include <cstdint>
#include <string>

namespace aiperf::test {

namespace {

// Uniform in [0, 1), reproducible on every platform.
struct Lcg {
  uint64_t state = 42;
  double next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  }
};

plot::Figure figure(const char* id, const char* title, const char* x, const char* y, bool log_y = false) {
  plot::Figure f;
  f.id = id;
  f.title = title;
  f.x.label = x;
  f.y.label = y;
  f.y.log = log_y;
  return f;
}

plot::Series series(const char* name, plot::Mark mark) {
  plot::Series s;
  s.name = name;
  s.mark = mark;
  return s;
}

}  // namespace

plot::Report synthetic_run_report(int requests) {
  using namespace plot;
  Lcg rng;
  Report report;
  report.title = "Run: m (concurrency 8, " + std::to_string(requests) + " requests)";
  report.notes = {"aiperf profile -m m --concurrency 8 --request-count " + std::to_string(requests),
                  "Synthetic data for the HTML report tests"};

  Table summary;
  summary.title = "Summary";
  summary.columns = {"Metric", "avg", "min", "max", "p99"};
  summary.rows = {{"Time to First Token (ms)", "18.20", "3.10", "95.44", "60.02"},
                  {"Request Latency (ms)", "1,234.50", "300.00", "2,800.10", "2,500.00"},
                  {"Output Token Throughput (tokens/sec)", "845.10", "N/A", "N/A", "N/A"},
                  {"Request Count", "10", "", "", ""}};
  report.tables.push_back(summary);

  Figure ttft = figure("ttft_over_time", "Time to First Token over time", "Time (s)", "Time to First Token (ms)");
  ttft.y.from_zero = true;
  Figure latency = figure("latency_over_time", "Request latency over time", "Time (s)", "Request Latency (ms)", true);
  Figure isl_osl = figure("isl_vs_osl", "Input vs output sequence length", "Input Sequence Length (tokens)",
                          "Output Sequence Length (tokens)");
  Figure timeline = figure("request_timeline", "Request timeline", "Time (s)", "Worker");
  Series t = series("TTFT", Mark::Points), l = series("Latency", Mark::Points), io = series("Requests", Mark::Points),
         spans = series("Requests", Mark::Spans);
  double start = 0;
  for (int i = 0; i < requests; ++i) {
    start += 0.002 + 0.004 * rng.next();
    const double ttft = 5 + 40 * rng.next() * rng.next();
    const double lat = 300 + 2000 * rng.next();
    t.x.push_back(start);
    t.y.push_back(ttft);
    l.x.push_back(start);
    l.y.push_back(lat);
    io.x.push_back(100 + static_cast<int>(900 * rng.next()));
    io.y.push_back(10 + static_cast<int>(190 * rng.next()));
    spans.x.push_back(start);
    spans.x_end.push_back(start + lat / 1000);
    spans.y.push_back(i % 8);
  }
  ttft.series.push_back(t);
  latency.series.push_back(l);
  isl_osl.series.push_back(io);
  timeline.series.push_back(spans);

  Figure throughput = figure("throughput", "Throughput and latency by concurrency", "Concurrency",
                             "Output Token Throughput (tokens/sec)");
  throughput.x.log = true;
  throughput.y2.label = "p99 latency (ms)";
  Series tp = series("throughput", Mark::Line), p99 = series("p99 latency", Mark::Step);
  p99.secondary_axis = true;
  for (int c = 1; c <= 64; c *= 2) {
    tp.x.push_back(c);
    tp.y.push_back(100.0 * c / (1 + c / 16.0));
    tp.y_low.push_back(tp.y.back() * 0.95);
    tp.y_high.push_back(tp.y.back() * 1.05);
    tp.labels.push_back("c=" + std::to_string(c));
    p99.x.push_back(c);
    p99.y.push_back(200 + 15.0 * c);
  }
  throughput.series = {tp, p99};

  report.figures = {ttft, latency, isl_osl, timeline, throughput};
  return report;
}

}  // namespace aiperf::test
