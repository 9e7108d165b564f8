// Runs one request to completion on a private io_context: the client's pooled connections
// hold no pending operations, so io.run() returns exactly when the request is done.
#pragma once
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include "http/http_client.h"

namespace aiperf::testing {

inline http::Result run_request(boost::asio::io_context& io, http::HttpClient& client,
                                http::Request request, http::SendOptions options = {}) {
  std::optional<http::Result> result;
  int calls = 0;
  client.send(std::move(request), std::move(options), [&](http::Result&& r) {
    ++calls;
    result = std::move(r);
  });
  io.restart();
  io.run();
  REQUIRE(calls == 1);
  return std::move(*result);
}

inline std::string body_of(const http::Result& r) {
  std::string s;
  for (const auto& c : r.chunks) s += c.data;
  return s;
}

}  // namespace aiperf::testing
