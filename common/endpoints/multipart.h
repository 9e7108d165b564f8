// multipart/form-data bodies (RFC 7578) as AIPerf 0.13's transport sends them through aiohttp's
// FormData: each part carries Content-Type before Content-Disposition, text parts are
// "text/plain; charset=utf-8", file parts their own type and a percent-encoded filename.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace aiperf::endpoints {

struct FormField {
  std::string name;
  std::string value;                    // text, or the file's bytes
  std::optional<std::string> filename;  // set = a file part
  std::string content_type;             // file parts only ("" = application/octet-stream)
};

// The body for `fields`, parts delimited by "--<boundary>\r\n" and closed by
// "--<boundary>--\r\n". The caller picks a boundary that does not occur in any value.
std::string multipart_body(const std::vector<FormField>& fields, std::string_view boundary);

// The fields of a form-data payload (a JSON object, in key order), as AIPerf's transport builds
// them: null values are skipped; {"b64_data": str, "filename"?, "content_type"?} is a file part
// of the decoded bytes (filename defaults to the key); booleans are "true"/"false"; strings as
// they are; other values as their JSON text. Throws std::invalid_argument for a non-object
// payload or b64_data that is not valid base64 ("Field 'image': 'b64_data' is not valid base64.").
std::vector<FormField> form_fields(const nlohmann::ordered_json& payload);

}  // namespace aiperf::endpoints
