#include "http/request_head.h"

#include <catch2/catch.hpp>

using aiperf::http::build_request_head;
using aiperf::http::parse_url;
using aiperf::http::Request;

TEST_CASE("request head: headers as given, then Host and Content-Length") {
  Request r;
  r.url = "http://127.0.0.1:8000/v1/chat/completions";
  r.headers = {{"Content-Type", "application/json"}, {"X-Request-ID", "abc"},
               {"content-length", "999"}};
  r.body = "{\"a\":1}";
  const auto head = build_request_head(r, *parse_url(r.url));
  REQUIRE(head);
  CHECK(*head ==
        "POST /v1/chat/completions HTTP/1.1\r\n"
        "Content-Type: application/json\r\n"
        "X-Request-ID: abc\r\n"
        "Host: 127.0.0.1:8000\r\n"
        "Content-Length: 7\r\n\r\n");
}

TEST_CASE("request head: caller's Host kept, GET without body has no length") {
  Request r;
  r.method = "GET";
  r.url = "https://example.com/metrics";
  r.headers = {{"host", "other"}};
  const auto head = build_request_head(r, *parse_url(r.url));
  REQUIRE(head);
  CHECK(*head == "GET /metrics HTTP/1.1\r\nhost: other\r\n\r\n");
}

TEST_CASE("request head: header injection is refused") {
  Request r;
  r.url = "http://h/";
  r.headers = {{"X-Evil", "a\r\nInjected: 1"}};
  CHECK_FALSE(build_request_head(r, *parse_url(r.url)));
}
