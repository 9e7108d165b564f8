#include "http_wire.h"

#include <charconv>

namespace aiperf::mock {
namespace {

std::string_view status_line(int status) {
  switch (status) {
    case 200:
      return "HTTP/1.1 200 OK\r\n";
    case 400:
      return "HTTP/1.1 400 Bad Request\r\n";
    case 404:
      return "HTTP/1.1 404 Not Found\r\n";
    case 405:
      return "HTTP/1.1 405 Method Not Allowed\r\n";
    case 429:
      return "HTTP/1.1 429 Too Many Requests\r\n";
    case 502:
      return "HTTP/1.1 502 Bad Gateway\r\n";
    case 503:
      return "HTTP/1.1 503 Service Unavailable\r\n";
    default:
      return "HTTP/1.1 500 Internal Server Error\r\n";
  }
}

void append_connection(std::string& out, ConnectionMode mode) {
  if (!mode.keep_alive)
    out += "Connection: close\r\n";
  else if (mode.http10)
    out += "Connection: keep-alive\r\n";  // HTTP/1.0 closes unless told otherwise
}

}  // namespace

void append_response_head(std::string& out, int status, std::string_view content_type, size_t content_length,
                          ConnectionMode mode, std::string_view extra_headers) {
  out += status_line(status);
  out += "Server: aiperf-mock-server\r\nContent-Type: ";
  out += content_type;
  out += "\r\nContent-Length: ";
  out += std::to_string(content_length);
  out += "\r\n";
  out += extra_headers;
  append_connection(out, mode);
  out += "\r\n";
}

void append_stream_head(std::string& out, ConnectionMode mode) {
  out += status_line(200);
  out += "Server: aiperf-mock-server\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n";
  if (mode.http10)
    out += "Connection: close\r\n";
  else
    out += "Transfer-Encoding: chunked\r\n";
  if (!mode.http10 && !mode.keep_alive) out += "Connection: close\r\n";
  out += "\r\n";
}

void append_chunked_head(std::string& out, std::string_view content_type, ConnectionMode mode) {
  out += status_line(200);
  out += "Server: aiperf-mock-server\r\nContent-Type: ";
  out += content_type;
  out += "\r\nTransfer-Encoding: chunked\r\n";
  if (!mode.keep_alive) out += "Connection: close\r\n";
  out += "\r\n";
}

void append_stream_data(std::string& out, std::string_view data, bool chunked) {
  if (!chunked) {
    out += data;
    return;
  }
  char size[16];
  const auto end = std::to_chars(size, size + sizeof size, data.size(), 16).ptr;
  out.append(size, end);
  out += "\r\n";
  out += data;
  out += "\r\n";
}

}  // namespace aiperf::mock
