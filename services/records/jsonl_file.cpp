#include "jsonl_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "log/log.h"

namespace aiperf::records {

JsonlFile::JsonlFile(const std::string& path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
}

JsonlFile::~JsonlFile() {
  if (fd_ >= 0) ::close(fd_);
}

void JsonlFile::append(std::string_view lines) {
  size_t done = 0;
  while (fd_ >= 0 && done < lines.size()) {
    const ssize_t n = ::write(fd_, lines.data() + done, lines.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      AIPERF_LOG(kError) << "cannot write profile_export.jsonl: " << std::strerror(errno)
                         << "; it ends at the last whole record, records are still aggregated";
      (void)::ftruncate(fd_, static_cast<off_t>(bytes_));
      ::close(fd_);
      fd_ = -1;
      return;
    }
    done += static_cast<size_t>(n);
  }
  bytes_ += done;
}

}  // namespace aiperf::records
