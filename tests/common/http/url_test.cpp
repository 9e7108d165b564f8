#include "http/url.h"

#include <catch2/catch.hpp>

using aiperf::http::parse_url;

TEST_CASE("parse_url: scheme default ports, path and query") {
  auto u = parse_url("http://localhost/v1/chat/completions?a=1&b=2");
  REQUIRE(u);
  CHECK_FALSE(u->tls);
  CHECK(u->host == "localhost");
  CHECK(u->port == 80);
  CHECK(u->target == "/v1/chat/completions?a=1&b=2");
  CHECK(u->host_header == "localhost");
  CHECK(u->origin == "http://localhost:80");

  u = parse_url("HTTPS://api.example.com");
  REQUIRE(u);
  CHECK(u->tls);
  CHECK(u->port == 443);
  CHECK(u->target == "/");
  CHECK(u->origin == "https://api.example.com:443");
}

TEST_CASE("parse_url: explicit port, query without path, fragment, userinfo") {
  auto u = parse_url("http://user:pw@10.0.0.1:8000?x=y#frag");
  REQUIRE(u);
  CHECK(u->host == "10.0.0.1");
  CHECK(u->port == 8000);
  CHECK(u->target == "/?x=y");
  CHECK(u->host_header == "10.0.0.1:8000");
}

TEST_CASE("parse_url: IPv6 literals") {
  auto u = parse_url("http://[::1]:9000/v1/completions");
  REQUIRE(u);
  CHECK(u->host == "::1");
  CHECK(u->port == 9000);
  CHECK(u->host_header == "[::1]:9000");
  CHECK(u->origin == "http://[::1]:9000");
  u = parse_url("https://[fe80::1]/");
  REQUIRE(u);
  CHECK(u->port == 443);
  CHECK(u->host_header == "[fe80::1]");
}

TEST_CASE("parse_url: rejects what cannot be requested") {
  CHECK_FALSE(parse_url("localhost:8000/v1"));
  CHECK_FALSE(parse_url("ftp://host/"));
  CHECK_FALSE(parse_url("http:///path"));
  CHECK_FALSE(parse_url("http://host:0/"));
  CHECK_FALSE(parse_url("http://host:65536/"));
  CHECK_FALSE(parse_url("http://host:80x/"));
  CHECK_FALSE(parse_url("http://[::1/"));
}
