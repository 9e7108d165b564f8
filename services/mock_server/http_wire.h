// Raw HTTP/1.1 response framing. The server writes bytes itself instead of going through Beast's
// serializer: responses are small and uniform, and each SSE event must leave as its own write.
#pragma once
#include <string>
#include <string_view>

namespace aiperf::mock {

struct ConnectionMode {
  bool keep_alive = true;
  bool http10 = false;  // HTTP/1.0 clients get no chunked encoding
};

// Status line and headers of a response whose body follows in full (Content-Length).
void append_response_head(std::string& out, int status, std::string_view content_type, size_t content_length,
                          ConnectionMode mode);

// Status line and headers of an SSE stream: chunked for HTTP/1.1, otherwise delimited by closing
// the connection (the caller must then close it after the stream).
void append_stream_head(std::string& out, ConnectionMode mode);

// One stream payload, framed as an HTTP chunk when `chunked`.
void append_stream_data(std::string& out, std::string_view data, bool chunked);

// Ends a chunked body.
inline constexpr std::string_view kLastChunk = "0\r\n\r\n";

}  // namespace aiperf::mock
