// Process-wide logging in AIPerf's format:
//   YYYY-MM-DD HH:MM:SS.mmm - <logger name> - <LEVEL> - <message>
// Every process of a run appends whole lines (one write(2) each, O_APPEND) to the same
// logs/aiperf.log, so lines from different services never interleave mid-line.
// WARNING and above also go to stderr. Thread-safe.
#pragma once
#include <sstream>
#include <string>
#include <string_view>

namespace aiperf::log {

enum class Level { kTrace = 0, kDebug, kInfo, kNotice, kWarning, kSuccess, kError, kCritical };

// Parses an AIPerf --log-level name (case-insensitive); false if unknown.
bool parse_level(std::string_view name, Level& out);

// Sets the logger name, the file to append to ("" = none) and the minimum level.
void init(std::string name, const std::string& file_path, Level level);
void set_file(const std::string& file_path);
bool enabled(Level level);
void write(Level level, std::string_view message);
// As write, but to the log file only, whatever the level: for a warning that must not break a
// progress display another process is drawing on the terminal.
void write_to_file(Level level, std::string_view message);

// LOG(kInfo) << "text " << value;
class Line {
 public:
  explicit Line(Level level) : level_(level) {}
  ~Line() { write(level_, stream_.str()); }
  template <typename T>
  Line& operator<<(const T& v) {
    stream_ << v;
    return *this;
  }

 private:
  Level level_;
  std::ostringstream stream_;
};

// Turns `Line(...) << a << b` into a void expression, so AIPERF_LOG is one expression (a
// conditional), not an if/else that would capture a following `else` (-Wdangling-else). `&` binds
// more loosely than `<<`, so the whole chain is built first.
struct Voidify {
  void operator&(const Line&) const {}
};

}  // namespace aiperf::log

// Evaluates the streamed values only when `level` is enabled.
#define AIPERF_LOG(level)                              \
  !::aiperf::log::enabled(::aiperf::log::Level::level) \
      ? (void)0                                        \
      : ::aiperf::log::Voidify() & ::aiperf::log::Line(::aiperf::log::Level::level)
