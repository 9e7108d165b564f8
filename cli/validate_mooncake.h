// `aiperf validate mooncake-trace`, the pure part: every line of a JSONL file checked with the
// mooncake loader's own line parser (services/dataset/mooncake_trace.h), as AIPerf checks each
// row against its MooncakeTrace model.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace aiperf::cli::validate {

struct Result {
  size_t rows = 0;                  // non-blank lines read (up to the last error kept)
  std::vector<std::string> errors;  // "Line N: ...", at most max_errors of them
};

// Reads `path` line by line; stops after `max_errors` errors as the reference does. The
// hash_ids/input_length block fit (a loader setting, --isl-block-size) is not checked: the
// reference's row model has no block size. Throws std::runtime_error if the file cannot be read.
Result validate_mooncake_file(const std::string& path, size_t max_errors = 10);

}  // namespace aiperf::cli::validate
