// A small multipart/form-data reader (RFC 7578) for the mock's image edit and audio
// transcription routes: enough for the bodies clients like aiohttp and curl send.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::mock {

struct FormPart {
  std::string name;
  std::optional<std::string> filename;  // set = a file part
  std::string content_type;             // the part's Content-Type, "" if none
  std::string value;                    // the part's bytes
};

// The boundary parameter of a "multipart/form-data; boundary=..." Content-Type (quotes
// removed), nullopt for another type or none.
std::optional<std::string> form_boundary(std::string_view content_type);

// The parts of `body`, nullopt when it is not a well-formed multipart body for `boundary`
// (no closing delimiter, a part without headers or without a name).
std::optional<std::vector<FormPart>> parse_form_data(std::string_view body, std::string_view boundary);

// The first part named `name`, or nullptr.
const FormPart* find_part(const std::vector<FormPart>& parts, std::string_view name);

}  // namespace aiperf::mock
