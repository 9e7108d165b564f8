// Hub name resolution: a pre-filled HF cache offline, downloads from a local fake hub into the
// huggingface_hub cache layout, and the one-line errors for 404 and an unreachable hub.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <fstream>
#include <sstream>

#include "fake_hub.h"
#include "tokenizer/tokenizer.h"
#include "test_files.h"

using aiperf::tok::TokenId;
using aiperf::tok::TokenizerError;
using aiperf::test::FakeHub;
using aiperf::test::FakeRoute;
namespace fs = std::filesystem;

using aiperf::test::slurp;
namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";
const std::string kSha = "0123456789abcdef0123456789abcdef01234567";

// A fresh, empty HF cache for one test, selected through HF_HUB_CACHE.
fs::path fresh_cache(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("aiperf_hub_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::setenv("HF_HUB_CACHE", dir.c_str(), 1);
  ::unsetenv("HF_HUB_OFFLINE");
  ::unsetenv("HF_TOKEN");
  return dir;
}

// The tests set the process environment and resolve through it, as the command line does.
aiperf::tok::HubEnv process_env() {
  return aiperf::tok::hub_env_from([](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  });
}

std::string resolve(const std::string& name, const std::string& revision = "main") {
  return aiperf::tok::resolve_tokenizer_path(name, revision, true, process_env());
}

// A TCP port with nothing listening on it.
int closed_port() {
  FakeHub hub({});
  return hub.port();  // the listener closes when `hub` goes away
}

std::string resolve_error(const std::string& name, const std::string& revision = "main") {
  try {
    resolve(name, revision);
  } catch (const TokenizerError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a hub name resolves from a pre-filled cache with the network off", "[tokenizer][hub]") {
  fs::path cache = fresh_cache("prefilled");
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  fs::path repo = cache / "models--Qwen--Qwen3-0.6B";
  fs::create_directories(repo / "refs");
  fs::create_directories(repo / "blobs");
  fs::create_directories(repo / "snapshots" / kSha);
  std::ofstream(repo / "refs" / "main") << kSha;
  fs::copy_file(kData + "qwen3/tokenizer.json", repo / "blobs" / "aeb13307");
  fs::create_symlink("../../blobs/aeb13307", repo / "snapshots" / kSha / "tokenizer.json");

  const std::string snapshot = (repo / "snapshots" / kSha).string();
  CHECK(resolve("Qwen/Qwen3-0.6B") == snapshot);
  CHECK(resolve("Qwen/Qwen3-0.6B", kSha) == snapshot);
  auto tok = aiperf::tok::load_tokenizer(snapshot);
  CHECK(tok->encode("Hello world") == std::vector<TokenId>{9707, 1879});

  CHECK(resolve_error("Qwen/Qwen3-0.6B", "v2") ==
        "tokenizer 'Qwen/Qwen3-0.6B' (revision v2) is not in the HF cache " + repo.string() +
            " and HF_HUB_OFFLINE is set");
  ::unsetenv("HF_HUB_OFFLINE");
}

TEST_CASE("HF_HOME/hub is the cache when HF_HUB_CACHE is unset", "[tokenizer][hub]") {
  fs::path home = fresh_cache("hfhome");
  ::unsetenv("HF_HUB_CACHE");
  ::setenv("HF_HOME", home.c_str(), 1);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  fs::path repo = home / "hub" / "models--org--cached";
  fs::create_directories(repo / "snapshots" / kSha);
  fs::create_directories(repo / "refs");
  std::ofstream(repo / "refs" / "main") << kSha << "\n";
  fs::copy_file(std::string(AIPERF_GPT2_DIR) + "/tokenizer.json", repo / "snapshots" / kSha / "tokenizer.json");
  CHECK(resolve("org/cached") == (repo / "snapshots" / kSha).string());
  CHECK(resolve_error("org/not-cached") == "tokenizer 'org/not-cached' (revision main) is not in the HF cache " +
                                               (home / "hub" / "models--org--not-cached").string() +
                                               " and HF_HUB_OFFLINE is set");
  ::unsetenv("HF_HOME");
  ::unsetenv("HF_HUB_OFFLINE");
}

TEST_CASE("a missing tokenizer is downloaded from the hub into the shared cache layout", "[tokenizer][hub]") {
  fs::path cache = fresh_cache("download");
  ::setenv("HF_TOKEN", "hf_secret", 1);
  const std::string gpt2 = slurp(std::string(AIPERF_GPT2_DIR) + "/tokenizer.json");
  const std::string config = slurp(std::string(AIPERF_GPT2_DIR) + "/tokenizer_config.json");
  // Like the real Hub, the LFS file answers with a redirect to a CDN host carrying the commit
  // and the blob's etag; "localhost" is another host name than the 127.0.0.1 endpoint, so the
  // token must not be sent there.
  std::map<std::string, FakeRoute> routes;
  routes["/openai/gpt2/resolve/main/tokenizer.json"] = {
      302,
      {{"Location", "http://localhost:{port}/cdn/gpt2-tokenizer"},
       {"X-Repo-Commit", kSha},
       {"X-Linked-Etag", "\"f4b81612\""}},
      ""};
  routes["/cdn/gpt2-tokenizer"] = {200, {{"ETag", "\"cdn-etag\""}}, gpt2};
  routes["/openai/gpt2/resolve/" + kSha + "/tokenizer_config.json"] = {
      200, {{"ETag", "\"cfg-etag\""}, {"X-Repo-Commit", kSha}}, config};
  const std::string chat_template = "{% for m in messages %}{{ m.content }}{% endfor %}";
  routes["/openai/gpt2/resolve/" + kSha + "/chat_template.jinja"] = {
      200, {{"ETag", "\"tmpl-etag\""}, {"X-Repo-Commit", kSha}}, chat_template};
  std::string snapshot;
  {
    FakeHub hub(routes);
    ::setenv("HF_ENDPOINT", ("http://127.0.0.1:" + std::to_string(hub.port()) + "/").c_str(), 1);
    snapshot = resolve("openai/gpt2");
    auto requests = hub.requests();
    REQUIRE(requests.size() == 4);
    CHECK(requests[0] == std::pair<std::string, std::string>{"/openai/gpt2/resolve/main/tokenizer.json",
                                                             "Bearer hf_secret"});
    CHECK(requests[1] == std::pair<std::string, std::string>{"/cdn/gpt2-tokenizer", ""});
    CHECK(requests[2].first == "/openai/gpt2/resolve/" + kSha + "/tokenizer_config.json");
    CHECK(requests[3].first == "/openai/gpt2/resolve/" + kSha + "/chat_template.jinja");
  }
  fs::path repo = cache / "models--openai--gpt2";
  CHECK(snapshot == (repo / "snapshots" / kSha).string());
  CHECK(slurp(repo / "refs" / "main") == kSha);
  CHECK(fs::read_symlink(repo / "snapshots" / kSha / "tokenizer.json") == "../../blobs/f4b81612");
  CHECK(slurp(repo / "blobs" / "f4b81612") == gpt2);
  CHECK(fs::read_symlink(repo / "snapshots" / kSha / "tokenizer_config.json") == "../../blobs/cfg-etag");
  CHECK(slurp(repo / "snapshots" / kSha / "chat_template.jinja") == chat_template);
  CHECK(aiperf::tok::load_tokenizer(snapshot)->encode("Hello world") == std::vector<TokenId>{15496, 995});

  // The hub is gone: the cached copy is used offline.
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  CHECK(resolve("openai/gpt2") == snapshot);
  ::unsetenv("HF_HUB_OFFLINE");
  ::unsetenv("HF_TOKEN");
}

TEST_CASE("a file missing on the hub gives one error line naming the repo and file", "[tokenizer][hub]") {
  fresh_cache("missing");
  FakeHub hub({});
  const std::string endpoint = "http://127.0.0.1:" + std::to_string(hub.port());
  ::setenv("HF_ENDPOINT", endpoint.c_str(), 1);
  CHECK(resolve_error("org/missing") == "tokenizer 'org/missing': cannot download tokenizer.json from " + endpoint +
                                            "/org/missing/resolve/main/tokenizer.json: HTTP 404 (no "
                                            "tokenizer.model either)");
}

TEST_CASE("an unreachable hub gives one error line naming the repo and file", "[tokenizer][hub]") {
  fresh_cache("refused");
  const std::string endpoint = "http://127.0.0.1:" + std::to_string(closed_port());
  ::setenv("HF_ENDPOINT", endpoint.c_str(), 1);
  CHECK(resolve_error("org/model", "v1") == "tokenizer 'org/model': cannot download tokenizer.json from " +
                                                endpoint + "/org/model/resolve/v1/tokenizer.json: GET " + endpoint +
                                                ": connection refused");
}

TEST_CASE("gated repositories ask for HF_TOKEN", "[tokenizer][hub]") {
  fresh_cache("gated");
  FakeHub hub({{"/meta/llama/resolve/main/tokenizer.json", {401, {}, "unauthorized"}}});
  ::setenv("HF_ENDPOINT", ("http://127.0.0.1:" + std::to_string(hub.port())).c_str(), 1);
  CHECK(resolve_error("meta/llama").find(
            "tokenizer.json: HTTP 401 (gated or private repository: set HF_TOKEN to a token with access)") !=
        std::string::npos);
}

TEST_CASE("the environment's rules: cache directories, offline values, endpoint", "[tokenizer][hub]") {
  using Vars = std::map<std::string, std::string>;
  const auto env = [](Vars vars) {
    return aiperf::tok::hub_env_from([vars](std::string_view name) -> std::optional<std::string> {
      auto it = vars.find(std::string(name));
      return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
  };
  const auto none = env({});
  CHECK(none.hub_cache.empty());
  CHECK(none.tokenizer_cache.empty());
  CHECK(none.endpoint == "https://huggingface.co");
  CHECK_FALSE(none.offline);

  CHECK(env({{"HOME", "/h"}}).hub_cache == "/h/.cache/huggingface/hub");
  CHECK(env({{"HOME", "/h"}}).tokenizer_cache == "/h/.cache/aiperf/tokenizers");
  CHECK(env({{"HOME", "/h"}, {"XDG_CACHE_HOME", "/x"}}).hub_cache == "/x/huggingface/hub");
  CHECK(env({{"HOME", "/h"}, {"XDG_CACHE_HOME", "/x"}}).tokenizer_cache == "/x/aiperf/tokenizers");
  CHECK(env({{"XDG_CACHE_HOME", "/x"}, {"HF_HOME", "/hf"}}).hub_cache == "/hf/hub");
  CHECK(env({{"HF_HOME", "/hf"}, {"HF_HUB_CACHE", "/c"}}).hub_cache == "/c");
  CHECK(env({{"HF_HUB_CACHE", ""}, {"HOME", "/h"}}).hub_cache == "/h/.cache/huggingface/hub");  // empty = unset

  for (const char* yes : {"1", "on", "Yes", "TRUE"}) CHECK(env({{"HF_HUB_OFFLINE", yes}}).offline);
  for (const char* no : {"0", "", "off", "false", "2"}) CHECK_FALSE(env({{"HF_HUB_OFFLINE", no}}).offline);
  CHECK(env({{"HF_ENDPOINT", "http://mirror:8080//"}}).endpoint == "http://mirror:8080");
  CHECK(env({{"HF_TOKEN", "hf_x"}}).token == "hf_x");
  CHECK(env({{"TIKTOKEN_ENCODINGS_BASE", "/t"}}).tiktoken_base == "/t");
}

TEST_CASE("with no HuggingFace cache a hub name is refused, naming what to set", "[tokenizer][hub]") {
  try {
    aiperf::tok::resolve_tokenizer_path("org/model", "main", true, aiperf::tok::HubEnv{});
    FAIL("no error");
  } catch (const TokenizerError& e) {
    CHECK(std::string(e.what()) == "tokenizer 'org/model': no HuggingFace cache directory (set HF_HOME or HOME)");
  }
}
