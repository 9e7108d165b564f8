// HTTP behaviour of the mock server: plain routes, errors, metrics, connection handling.
#include <catch2/catch.hpp>

#include "server_fixture.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

namespace {

const std::string kChat = R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":2,"ignore_eos":true})";

Request get(const std::string& target) { return make_request(http::verb::get, target); }
Request post_chat(std::string body = kChat) {
  return make_request(http::verb::post, "/v1/chat/completions", std::move(body));
}

// Value of the sample line starting with `series` in Prometheus text, 0 when absent.
double sample(const std::string& text, const std::string& series) {
  const auto at = text.find("\n" + series + " ");
  return at == std::string::npos ? 0.0 : std::stod(text.substr(at + series.size() + 2));
}

}  // namespace

TEST_CASE("health, models and root answer JSON") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto health = client.send(get("/health"));
  CHECK(health.result() == http::status::ok);
  CHECK(json::parse(health.body()) == json{{"status", "healthy"}});

  const json models = json::parse(client.send(get("/v1/models")).body());
  CHECK(models["object"] == "list");
  REQUIRE(models["data"].size() == 1);
  CHECK(models["data"][0]["id"] == "gpt2");
  CHECK(models["data"][0]["object"] == "model");

  const json root = json::parse(client.send(get("/")).body());
  CHECK(root["name"] == "aiperf-mock-server");
}

TEST_CASE("unknown routes get 404 and wrong methods 405, both as error JSON") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto missing = client.send(get("/v1/nothing"));
  CHECK(missing.result() == http::status::not_found);
  CHECK(json::parse(missing.body())["error"]["type"] == "not_found_error");
  const auto wrong_method = client.send(get("/v1/chat/completions"));
  CHECK(wrong_method.result() == http::status::method_not_allowed);
  CHECK(json::parse(wrong_method.body())["error"]["code"] == 405);
}

TEST_CASE("HEAD answers a GET route's headers without a body, and the connection stays usable") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto metrics = client.send_head("/metrics");
  CHECK(metrics.result() == http::status::ok);
  CHECK(std::stoul(std::string(metrics[http::field::content_length])) > 0);
  // A HEAD on a POST route is refused, still without a body.
  CHECK(client.send_head("/v1/chat/completions").result() == http::status::method_not_allowed);
  // Had a body been sent, it would now be read as the next response's status line.
  const auto health = client.send(get("/health"));
  CHECK(health.result() == http::status::ok);
  CHECK(json::parse(health.body()) == json{{"status", "healthy"}});
}

TEST_CASE("malformed requests get 400 with an error JSON") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto bad_json = client.send(post_chat("{not json"));
  CHECK(bad_json.result() == http::status::bad_request);
  CHECK(json::parse(bad_json.body())["error"]["message"] == "request body is not valid JSON");
  CHECK(client.send(post_chat(R"({"model":"m"})")).result() == http::status::bad_request);
  CHECK(client.send(post_chat(R"({"messages":[],"max_tokens":0})")).result() == http::status::bad_request);
  CHECK(client.send(post_chat(R"({"messages":[{"role":7}]})")).result() == http::status::bad_request);
  // The connection survives client errors.
  CHECK(client.send(post_chat()).result() == http::status::ok);
}

TEST_CASE("error rate 100 answers every generation request with 500") {
  MockConfig config = fast_config();
  config.error_rate_percent = 100;
  ServerFixture fixture(config);
  auto client = fixture.client();
  const auto response = client.send(post_chat());
  CHECK(response.result() == http::status::internal_server_error);
  const json error = json::parse(response.body())["error"];
  CHECK(error["type"] == "server_error");
  CHECK_FALSE(error["message"].get<std::string>().empty());
  CHECK(client.send(get("/health")).result() == http::status::ok);  // only generation fails
}

TEST_CASE("a seeded error rate fails the same requests every run") {
  auto run = [] {
    MockConfig config = fast_config();
    config.error_rate_percent = 50;
    config.random_seed = 7;
    ServerFixture fixture(config);
    auto client = fixture.client();
    std::vector<int> statuses;
    for (int i = 0; i < 20; ++i) statuses.push_back(client.send(post_chat()).result_int());
    return statuses;
  };
  const auto first = run();
  CHECK(first == run());
  CHECK(std::count(first.begin(), first.end(), 500) > 0);
  CHECK(std::count(first.begin(), first.end(), 200) > 0);
}

TEST_CASE("/metrics counters advance with traffic") {
  ServerFixture fixture;
  auto client = fixture.client();
  const std::string requests = R"(mock_server_requests_total{endpoint="/v1/chat/completions",status="200"})";
  const std::string before = client.send(get("/metrics")).body();
  for (int i = 0; i < 3; ++i) client.send(post_chat());
  client.send_streaming(post_chat(R"({"messages":[],"max_tokens":4,"ignore_eos":true,"stream":true})"));
  const auto response = client.send(get("/metrics"));
  CHECK(response[http::field::content_type].starts_with("text/plain"));
  const std::string& after = response.body();

  CHECK(sample(after, requests) - sample(before, requests) == 4);
  CHECK(sample(after, "mock_server_generation_tokens_total") -
            sample(before, "mock_server_generation_tokens_total") ==
        3 * 2 + 4);
  CHECK(sample(after, "mock_server_time_to_first_token_seconds_count") == 1);
  CHECK(sample(after, "mock_server_inter_token_latency_seconds_count") == 3);
  CHECK(sample(after, "mock_server_request_latency_seconds_count") == 4);
  CHECK(sample(after, "mock_server_requests_running") == 0);
  CHECK(after.find("# TYPE mock_server_time_to_first_token_seconds histogram") != std::string::npos);
  CHECK(fixture.server.metrics_text().find(requests + " 4") != std::string::npos);
}

TEST_CASE("keep-alive serves several requests on one connection") {
  ServerFixture fixture;
  auto client = fixture.client();
  CHECK(client.send(post_chat()).result() == http::status::ok);
  CHECK(client.send(post_chat()).result() == http::status::ok);
  CHECK(client.send_streaming(post_chat(R"({"messages":[],"max_tokens":2,"stream":true})")).chunks.size() ==
        3);
  CHECK(client.send(get("/health")).result() == http::status::ok);
}

TEST_CASE("Connection: close is honoured") {
  ServerFixture fixture;
  auto client = fixture.client();
  auto request = post_chat();
  request.keep_alive(false);
  const auto response = client.send(request);
  CHECK(response.result() == http::status::ok);
  CHECK(response[http::field::connection] == "close");
  CHECK(client.peer_closed());
}

TEST_CASE("HTTP/1.0 streams are not chunked and end with the connection") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto streamed = client.send_streaming(make_request(
      http::verb::post, "/v1/chat/completions", R"({"messages":[],"max_tokens":2,"stream":true})", 10));
  CHECK(streamed.header.result() == http::status::ok);
  CHECK(streamed.header[http::field::transfer_encoding].empty());
  REQUIRE(streamed.chunks.size() == 1);
  const std::string& body = streamed.chunks[0];
  CHECK(std::count(body.begin(), body.end(), '\n') == 6);  // 3 events
  CHECK(body.ends_with("data: [DONE]\n\n"));
  CHECK(client.peer_closed());
}

TEST_CASE("HTTP/1.0 without keep-alive closes after a plain response") {
  ServerFixture fixture;
  auto client = fixture.client();
  const auto response = client.send(make_request(http::verb::get, "/health", {}, 10));
  CHECK(response.result() == http::status::ok);
  CHECK(client.peer_closed());
}
