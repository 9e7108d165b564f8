// A tiny blocking HTTP client for the mock server tests: one connection, one request at a time.
#pragma once
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace aiperf::mock::test {

namespace http = boost::beast::http;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

inline Request make_request(http::verb method, std::string target, std::string body = {},
                            unsigned version = 11) {
  Request request(method, target, version);
  request.set(http::field::host, "127.0.0.1");
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  request.body() = std::move(body);
  request.prepare_payload();
  return request;
}

// A streamed response as the client saw it: the headers and every HTTP chunk's payload in order
// (for a connection-delimited body, the whole body as one element).
struct StreamedResponse {
  http::response_header<> header;
  std::vector<std::string> chunks;
};

class TestClient {
 public:
  explicit TestClient(uint16_t port) : socket_(io_) {
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  }

  Response send(const Request& request) {
    http::write(socket_, request);
    Response response;
    http::read(socket_, buffer_, response);
    return response;
  }

  // A HEAD request: the parser is told that no body follows whatever Content-Length says.
  http::response_header<> send_head(const std::string& target) {
    http::write(socket_, make_request(http::verb::head, target));
    http::response_parser<http::string_body> parser;
    parser.skip(true);
    http::read(socket_, buffer_, parser);
    return parser.get().base();
  }

  StreamedResponse send_streaming(const Request& request) {
    http::write(socket_, request);
    http::response_parser<http::string_body> parser;
    StreamedResponse streamed;
    // A chunk's payload may arrive in several reads: its header opens a new element. Beast keeps
    // references to the callbacks, so they must outlive the read.
    auto on_header = [&streamed](std::uint64_t, std::string_view, boost::beast::error_code&) {
      streamed.chunks.emplace_back();
    };
    auto on_body = [&streamed](std::uint64_t, std::string_view body, boost::beast::error_code&) {
      streamed.chunks.back() += body;
      return body.size();
    };
    parser.on_chunk_header(on_header);
    parser.on_chunk_body(on_body);
    http::read(socket_, buffer_, parser);
    streamed.header = parser.get().base();
    if (!parser.chunked()) streamed.chunks.push_back(parser.get().body());
    // The terminating zero-size chunk also has a header; it carries no payload.
    if (!streamed.chunks.empty() && streamed.chunks.back().empty()) streamed.chunks.pop_back();
    return streamed;
  }

  // True when the server has closed the connection (the next read sees end of stream).
  bool peer_closed() {
    boost::beast::error_code ec;
    char byte;
    socket_.read_some(boost::asio::buffer(&byte, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
};

}  // namespace aiperf::mock::test
