// Standard base64 (RFC 4648, with padding) for embedding media files in request payloads.
#pragma once
#include <string>
#include <string_view>

namespace aiperf::dataset {

std::string base64_encode(std::string_view bytes);

}  // namespace aiperf::dataset
