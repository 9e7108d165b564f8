#include "raw_merge.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace aiperf::records {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void io_failure(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// Streams `from` onto the end of `out`: raw files can be gigabytes, never hold one whole.
void append_file(const fs::path& from, std::FILE* out, const std::string& out_path) {
  std::FILE* in = std::fopen(from.c_str(), "rb");
  if (!in) io_failure("cannot open", from.string());
  std::vector<char> buf(1 << 20);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), in)) > 0) {
    if (std::fwrite(buf.data(), 1, n, out) != n) {
      std::fclose(in);
      io_failure("cannot write", out_path);
    }
  }
  const bool read_error = std::ferror(in);
  std::fclose(in);
  if (read_error) io_failure("cannot read", from.string());
}

}  // namespace

void merge_raw_records(const std::string& raw_dir, const std::string& target) {
  std::vector<fs::path> parts;
  std::error_code ec;
  if (fs::is_directory(raw_dir, ec)) {
    for (const auto& entry : fs::directory_iterator(raw_dir)) {
      if (entry.path().extension() == ".jsonl") parts.push_back(entry.path());
    }
  }
  std::sort(parts.begin(), parts.end());

  const std::string tmp = target + ".tmp";
  std::FILE* out = std::fopen(tmp.c_str(), "wb");
  if (!out) io_failure("cannot create", tmp);
  try {
    for (const auto& p : parts) append_file(p, out, tmp);
  } catch (...) {
    std::fclose(out);
    std::remove(tmp.c_str());
    throw;
  }
  if (std::fclose(out) != 0) {
    std::remove(tmp.c_str());
    io_failure("cannot write", tmp);
  }
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    std::remove(tmp.c_str());
    io_failure("cannot rename onto", target);
  }
  fs::remove_all(raw_dir, ec);
}

}  // namespace aiperf::records
