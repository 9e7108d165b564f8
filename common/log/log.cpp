#include "log/log.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <ctime>
#include <mutex>

#include "time/clock.h"

namespace aiperf::log {
namespace {

struct State {
  std::mutex mu;
  std::string name = "aiperf";
  int fd = -1;
  std::atomic<int> level{static_cast<int>(Level::kInfo)};
};

State& state() {
  static State* s = new State();  // leaked: usable from atexit paths
  return *s;
}

constexpr std::string_view kNames[] = {"TRACE",   "DEBUG",   "INFO",  "NOTICE",
                                       "WARNING", "SUCCESS", "ERROR", "CRITICAL"};

}  // namespace

bool parse_level(std::string_view name, Level& out) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (kNames[i] == upper) {
      out = static_cast<Level>(i);
      return true;
    }
  }
  return false;
}

void set_file(const std::string& file_path) {
  State& s = state();
  std::lock_guard lock(s.mu);
  if (s.fd >= 0) ::close(s.fd);
  s.fd = file_path.empty() ? -1 : ::open(file_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

void init(std::string name, const std::string& file_path, Level level) {
  {
    std::lock_guard lock(state().mu);
    state().name = std::move(name);
  }
  state().level = static_cast<int>(level);
  set_file(file_path);
}

bool enabled(Level level) { return static_cast<int>(level) >= state().level.load(std::memory_order_relaxed); }

namespace {

void write_line(Level level, std::string_view message, bool to_stderr) {
  State& s = state();
  const Nanos now = wall_now_ns();
  const timespec ts{static_cast<time_t>(now / 1'000'000'000), static_cast<long>(now % 1'000'000'000)};
  tm local;
  localtime_r(&ts.tv_sec, &local);
  char stamp[32];
  size_t n = strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &local);
  snprintf(stamp + n, sizeof stamp - n, ".%03ld", ts.tv_nsec / 1'000'000);

  std::lock_guard lock(s.mu);
  std::string line;
  line.reserve(message.size() + 64);
  line.append(stamp).append(" - ").append(s.name).append(" - ");
  line.append(kNames[static_cast<int>(level)]).append(" - ").append(message).push_back('\n');
  if (s.fd >= 0) (void)!::write(s.fd, line.data(), line.size());
  if (to_stderr && level >= Level::kWarning) (void)!::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace

void write(Level level, std::string_view message) { write_line(level, message, true); }

void write_to_file(Level level, std::string_view message) { write_line(level, message, false); }

}  // namespace aiperf::log
