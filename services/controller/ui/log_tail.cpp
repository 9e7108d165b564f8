#include "log_tail.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace aiperf::controller::ui {

std::vector<std::string> tail_lines(const std::string& path, std::size_t max_lines, std::size_t max_bytes) {
  std::vector<std::string> lines;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return lines;
  struct stat st {};
  std::string buf;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    const auto file_size = static_cast<std::size_t>(st.st_size);
    const std::size_t want = std::min(file_size, max_bytes);
    buf.resize(want);
    const ssize_t n = ::pread(fd, buf.data(), want, static_cast<off_t>(file_size - want));
    buf.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    // A window starting mid-file begins mid-line: drop that partial first line.
    if (want < file_size) {
      const auto nl = buf.find('\n');
      buf.erase(0, nl == std::string::npos ? buf.size() : nl + 1);
    }
  }
  ::close(fd);
  // Only complete lines: the writer appends whole lines, so anything after the last newline
  // is a line still being written.
  const auto last_nl = buf.rfind('\n');
  buf.resize(last_nl == std::string::npos ? 0 : last_nl);
  std::size_t end = buf.size();
  while (lines.size() < max_lines && end > 0) {
    const auto nl = buf.rfind('\n', end - 1);
    const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::string line = buf.substr(begin, end - begin);
    for (char& c : line) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    lines.push_back(std::move(line));
    if (nl == std::string::npos) break;
    end = nl;
  }
  std::reverse(lines.begin(), lines.end());
  return lines;
}

}  // namespace aiperf::controller::ui
