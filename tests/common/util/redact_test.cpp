#include <catch2/catch.hpp>

#include "util/redact.h"

using aiperf::util::is_sensitive_header;
using aiperf::util::redact;

TEST_CASE("credential headers are recognised whatever their case", "[redact]") {
  CHECK(is_sensitive_header("Authorization"));
  CHECK(is_sensitive_header("authorization"));
  CHECK(is_sensitive_header("X-API-KEY"));
  CHECK(is_sensitive_header("x-goog-api-key"));
  CHECK(is_sensitive_header("Proxy-Authorization"));
  CHECK_FALSE(is_sensitive_header("X-Request-ID"));
  CHECK_FALSE(is_sensitive_header("Authorization2"));
  CHECK_FALSE(is_sensitive_header("Content-Type"));
}

TEST_CASE("redact masks every occurrence of every secret and skips empty ones", "[redact]") {
  CHECK(redact("--api-key=abc", {"abc"}) == "--api-key=<redacted>");
  CHECK(redact("abc abc", {"abc"}) == "<redacted> <redacted>");
  CHECK(redact("Authorization:Bearer k1", {"", "Bearer k1"}) == "Authorization:<redacted>");
  CHECK(redact("{\"X-Api-Key\": \"k2\", \"Y\": \"k1\"}", {"k1", "k2"}) ==
        "{\"X-Api-Key\": \"<redacted>\", \"Y\": \"<redacted>\"}");
  CHECK(redact("nothing here", {"", "zzz"}) == "nothing here");
  // A secret that is part of the mask itself must not loop.
  CHECK(redact("red", {"red"}) == "<redacted>");
}
