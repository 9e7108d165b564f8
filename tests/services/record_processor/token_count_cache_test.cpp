#include "token_count_cache.h"

#include <catch2/catch.hpp>

using aiperf::record_processor::TokenCountCache;

TEST_CASE("token count cache: exact texts hit, others miss") {
  TokenCountCache cache(1000);
  CHECK_FALSE(cache.find("hello world"));
  cache.insert("hello world", 2);
  REQUIRE(cache.find("hello world"));
  CHECK(*cache.find("hello world") == 2);
  CHECK_FALSE(cache.find("hello world "));  // one more space is another text
  CHECK_FALSE(cache.find("hello"));
}

TEST_CASE("token count cache: the text budget bounds it, and it starts over when full") {
  TokenCountCache cache(10);
  cache.insert("abcdef", 1);     // 6 bytes
  cache.insert("ghij", 2);       // 10 bytes: at the budget
  CHECK(cache.size() == 2);
  cache.insert("k", 3);          // over: starts over with only this one
  CHECK(cache.size() == 1);
  CHECK_FALSE(cache.find("abcdef"));
  CHECK(*cache.find("k") == 3);
  cache.insert(std::string(11, 'x'), 4);  // larger than the whole budget: not kept
  CHECK_FALSE(cache.find(std::string(11, 'x')));
  CHECK(cache.size() == 1);
}
