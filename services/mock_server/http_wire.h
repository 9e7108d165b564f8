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
// `extra_headers`: more header lines, each ending in CRLF (e.g. "Retry-After: 1\r\n").
void append_response_head(std::string& out, int status, std::string_view content_type, size_t content_length,
                          ConnectionMode mode, std::string_view extra_headers = {});

// Status line and headers of a 200 response with a chunked body of `content_type` (HTTP/1.1 only).
void append_chunked_head(std::string& out, std::string_view content_type, ConnectionMode mode);

// Status line and headers of an SSE stream: chunked for HTTP/1.1, otherwise delimited by closing
// the connection (the caller must then close it after the stream).
void append_stream_head(std::string& out, ConnectionMode mode);

// One stream payload, framed as an HTTP chunk when `chunked`.
void append_stream_data(std::string& out, std::string_view data, bool chunked);

// Ends a chunked body.
inline constexpr std::string_view kLastChunk = "0\r\n\r\n";

}  // namespace aiperf::mock
