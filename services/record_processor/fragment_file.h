// A record processor's own JSONL file under a folder of the artifact directory, which the
// records service merges once every record is in: raw_records/ (--export-level raw) and
// output_fragments/ (--export-outputs-json). One writer per file, so no locking.
#pragma once
#include <cstdio>
#include <string>

namespace aiperf::record_processor {

class FragmentFile {
 public:
  // Creates <artifact_dir>/<folder>/ if needed and truncates <folder>/<file_name>; throws
  // std::runtime_error naming the path on failure.
  FragmentFile(const std::string& artifact_dir, const std::string& folder, const std::string& file_name);
  ~FragmentFile();
  FragmentFile(const FragmentFile&) = delete;
  FragmentFile& operator=(const FragmentFile&) = delete;

  // Buffered: flush() before the records that describe the lines leave, so the file is
  // complete once the records service has them all.
  void append(const std::string& line);
  // Throws std::runtime_error when the data cannot be written (disk full).
  void flush();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace aiperf::record_processor
