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

}  // namespace aiperf::log

#define AIPERF_LOG(level) \
  if (!::aiperf::log::enabled(::aiperf::log::Level::level)) {} else ::aiperf::log::Line(::aiperf::log::Level::level)
