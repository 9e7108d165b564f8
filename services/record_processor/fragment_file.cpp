#include "fragment_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace aiperf::record_processor {

FragmentFile::FragmentFile(const std::string& artifact_dir, const std::string& folder, const std::string& file_name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(artifact_dir) / folder;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create " + dir.string() + ": " + ec.message());
  path_ = (dir / file_name).string();
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot create " + path_ + ": " + std::strerror(errno));
}

FragmentFile::~FragmentFile() {
  if (file_) std::fclose(file_);
}

void FragmentFile::append(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
}

void FragmentFile::flush() {
  if (std::fflush(file_) != 0 || std::ferror(file_)) {
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

}  // namespace aiperf::record_processor
