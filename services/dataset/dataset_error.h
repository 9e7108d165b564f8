// Errors in a user's dataset file. FieldError names the offending field inside one JSON line;
// the line loop turns it into a DatasetFileError "file:line: field: problem" (the CLI prints it
// and exits 2 before anything is spawned).
#pragma once
#include <stdexcept>
#include <string>

namespace aiperf::dataset {

struct FieldError {
  std::string field;    // e.g. "turns[1].text"; empty for the line as a whole
  std::string message;
};

class DatasetFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aiperf::dataset
