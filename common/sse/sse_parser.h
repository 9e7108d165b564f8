// SseParser: bytes of a text/event-stream body in, complete events out. Pure: no I/O, no
// clock. Every event completed by a chunk is stamped with that chunk's arrival time.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::sse {

struct SseEvent {
  int64_t perf_ns = 0;   // arrival time of the chunk that completed this event
  std::string data;      // data lines joined with '\n'
  std::string event;     // "event:" field (empty = default "message")
  std::string id;
  std::string comment;   // first comment line (": ...") if any
  bool has_data = false;
};

class SseParser {
 public:
  // Called with each completed event; it may move from the event's strings.
  using Sink = std::function<void(SseEvent&)>;

  // Hands the events completed by `bytes` to `sink`. Handles LF, CRLF and CR line endings
  // split anywhere, including between CR and LF. Events with no field at all are skipped.
  // The event's strings keep their capacity from one event to the next unless moved from,
  // so a sink that only reads them costs no allocation per event.
  void feed(std::string_view bytes, int64_t perf_ns, const Sink& sink);
  // The same, appending the events to `out`.
  void feed(std::string_view bytes, int64_t perf_ns, std::vector<SseEvent>& out);

  // End of body: a pending unterminated event becomes a final event stamped `perf_ns`.
  void finish(int64_t perf_ns, const Sink& sink);
  void finish(int64_t perf_ns, std::vector<SseEvent>& out);

 private:
  void process_line(std::string_view line);
  void dispatch(int64_t perf_ns, const Sink& sink);

  std::string line_;          // partial line carried between chunks
  bool last_was_cr_ = false;  // a CR ended the previous chunk; a leading LF is its pair
  SseEvent pending_;
  bool pending_any_ = false;  // pending_ has at least one field or comment
};

}  // namespace aiperf::sse
