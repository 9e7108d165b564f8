#include "coding_corpus.h"

#include <algorithm>
#include <random>
#include <string_view>
#include <vector>

namespace aiperf::dataset {
namespace {

constexpr std::string_view kModules[] = {
    "auth", "cache", "config", "storage", "scheduler", "router", "metrics", "pipeline", "worker", "gateway",
    "billing", "ingest", "search", "session", "tokenizer", "inference", "queue", "registry", "telemetry", "uploader"};
constexpr std::string_view kClasses[] = {
    "RequestRouter", "CacheStore", "JobScheduler", "TokenBucket", "ShardMap", "EventBus", "RetryBudget",
    "BatchWriter", "LeaseManager", "IndexReader", "ModelRunner", "StreamDecoder", "QuotaTracker", "BlobClient",
    "HealthCheck", "ConfigWatcher", "SpanExporter", "WorkQueue", "KvPool", "PromptCache"};
constexpr std::string_view kMethods[] = {
    "submit", "flush", "resolve", "refresh", "evict", "acquire", "release", "encode", "decode", "validate",
    "dispatch", "reconcile", "snapshot", "restore", "compact", "drain", "warm", "probe", "rotate", "merge"};
constexpr std::string_view kVars[] = {
    "payload", "request", "entry", "batch", "offset", "deadline", "limit", "result", "token", "shard",
    "handle", "record", "cursor", "budget", "window", "chunk", "lease", "span", "key", "value"};
constexpr std::string_view kTypes[] = {"str", "int", "float", "bytes", "dict[str, Any]", "list[int]", "bool",
                                       "Optional[str]"};
constexpr std::string_view kFiles[] = {
    "src/server/handlers.py", "internal/queue/worker.go", "src/cache/lru.rs", "web/src/api/client.ts",
    "services/billing/invoice.py", "pkg/router/table.go", "crates/store/src/lib.rs", "app/models/user.ts",
    "tests/test_scheduler.py", "cmd/ingest/main.go"};
constexpr std::string_view kErrors[] = {
    "connection reset by peer", "deadline exceeded", "index out of range", "permission denied",
    "too many open files", "unexpected end of JSON input", "key not found", "resource temporarily unavailable",
    "invalid UTF-8 sequence", "lock poisoned"};
constexpr std::string_view kAsks[] = {
    "Can you find why the {c} tests fail intermittently on CI and fix the flaky one?",
    "Refactor {m}.{f} so it no longer holds the lock while doing I/O.",
    "Add a unit test for {c}.{f} covering the empty {v} case.",
    "The {m} service returns 500 under load; look at the logs above and propose a fix.",
    "Rename {v} to something clearer across the {m} package and update the docs.",
    "Why does {c} allocate on every call to {f}? Please make the hot path allocation-free.",
    "Write a migration that adds an index on {v} to the {m} table.",
    "Explain what this diff changes in {c} and whether it is safe to deploy."};

class Writer {
 public:
  explicit Writer(std::mt19937_64& rng) : rng_(rng) {}

  template <size_t N>
  std::string pick(const std::string_view (&items)[N]) {
    return std::string(items[std::uniform_int_distribution<size_t>(0, N - 1)(rng_)]);
  }
  int num(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string hex(int digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < digits; ++i) s.push_back(kHex[num(0, 15)]);
    return s;
  }
  // Replaces {c} {m} {f} {v} with a class, module, method and variable.
  std::string fill(std::string_view tpl) {
    std::string out;
    for (size_t i = 0; i < tpl.size(); ++i) {
      if (tpl[i] == '{' && i + 2 < tpl.size() && tpl[i + 2] == '}') {
        switch (tpl[i + 1]) {
          case 'c': out += pick(kClasses); break;
          case 'm': out += pick(kModules); break;
          case 'f': out += pick(kMethods); break;
          case 'v': out += pick(kVars); break;
          default: out.append(tpl.substr(i, 3));
        }
        i += 2;
      } else {
        out.push_back(tpl[i]);
      }
    }
    return out;
  }

  std::string python() {
    const std::string c(pick(kClasses)), m(pick(kModules)), f(pick(kMethods)), g(pick(kMethods)), v(pick(kVars)),
        w(pick(kVars)), t(pick(kTypes));
    return "import logging\nfrom typing import Any, Optional\n\nfrom " + m + ".client import " + c + "Client\n\n"
           "logger = logging.getLogger(__name__)\n\n\nclass " + c + ":\n    \"\"\"Coordinates " + f + " calls for the " +
           m + " service.\"\"\"\n\n    def __init__(self, client: " + c + "Client, " + v + ": " + t +
           ") -> None:\n        self._client = client\n        self._" + v + " = " + v +
           "\n        self._pending: dict[str, int] = {}\n\n    async def " + f + "(self, " + w + ": " + t +
           ") -> Optional[" + t + "]:\n        if not " + w + ":\n            raise ValueError(\"" + w +
           " must not be empty\")\n        try:\n            result = await self._client." + g + "(" + w +
           ", timeout=" + std::to_string(num(1, 30)) + ")\n        except TimeoutError:\n            logger.warning(\"" +
           f + " timed out for %s\", " + w + ")\n            return None\n        self._pending[str(" + w +
           ")] = self._pending.get(str(" + w + "), 0) + 1\n        return result\n";
  }
  std::string go() {
    const std::string c(pick(kClasses)), m(pick(kModules)), f(pick(kMethods)), v(pick(kVars));
    std::string F = f;
    F[0] = static_cast<char>(F[0] - 'a' + 'A');
    return "package " + m + "\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"sync\"\n)\n\ntype " + c +
           " struct {\n\tmu    sync.Mutex\n\titems map[string]int\n}\n\nfunc (s *" + c + ") " + F +
           "(ctx context.Context, " + v + " string) (int, error) {\n\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tif err := ctx.Err(); err != nil {\n\t\treturn 0, fmt.Errorf(\"" +
           f + " %q: %w\", " + v + ", err)\n\t}\n\tn, ok := s.items[" + v + "]\n\tif !ok {\n\t\treturn 0, fmt.Errorf(\"" +
           f + ": %s\", \"" + pick(kErrors) + "\")\n\t}\n\ts.items[" + v + "] = n + " + std::to_string(num(1, 9)) +
           "\n\treturn n, nil\n}\n";
  }
  std::string rust() {
    const std::string c(pick(kClasses)), f(pick(kMethods)), v(pick(kVars));
    return "use std::collections::HashMap;\nuse std::time::Duration;\n\n#[derive(Debug, Default)]\npub struct " + c +
           " {\n    entries: HashMap<String, u64>,\n    ttl: Duration,\n}\n\nimpl " + c + " {\n    pub fn " + f +
           "(&mut self, " + v + ": &str) -> Result<u64, String> {\n        let slot = self.entries.entry(" + v +
           ".to_owned()).or_insert(0);\n        *slot += " + std::to_string(num(1, 64)) +
           ";\n        if *slot > " + std::to_string(num(100, 4096)) + " {\n            return Err(format!(\"" +
           pick(kErrors) + ": {}\", " + v + "));\n        }\n        Ok(*slot)\n    }\n}\n";
  }
  std::string typescript() {
    const std::string c(pick(kClasses)), f(pick(kMethods)), v(pick(kVars)), m(pick(kModules));
    return "import { fetchJson } from \"../lib/http\";\n\nexport interface " + c + "Options {\n  baseUrl: string;\n  retries?: number;\n}\n\nexport async function " +
           f + c + "(" + v + ": string, opts: " + c + "Options): Promise<number> {\n  const res = await fetchJson(`${opts.baseUrl}/" +
           m + "/${encodeURIComponent(" + v + ")}`);\n  if (!res.ok) {\n    throw new Error(`" + f + " failed: ${res.status}`);\n  }\n  return res.body.count ?? " +
           std::to_string(num(0, 10)) + ";\n}\n";
  }
  std::string shell() {
    std::string out = "$ " + std::string(num(0, 1) ? "pytest -q tests/" : "go test ./...") + "\n";
    const int lines = num(3, 8);
    for (int i = 0; i < lines; ++i)
      out += std::string(num(0, 4) ? "ok  " : "FAIL") + "  " + std::string(pick(kFiles)) + "  " +
             std::to_string(num(1, 900)) + "." + std::to_string(num(100, 999)) + "s\n";
    out += "$ ls -la " + std::string(pick(kModules)) + "/\n";
    for (int i = 0; i < 4; ++i)
      out += "-rw-r--r--  1 dev dev  " + std::to_string(num(120, 48000)) + " Mar " + std::to_string(num(1, 28)) +
             " 1" + std::to_string(num(0, 9)) + ":" + std::to_string(num(10, 59)) + " " + std::string(pick(kVars)) +
             ".py\n";
    return out;
  }
  std::string json_result() {
    return "{\n  \"id\": \"call_" + hex(16) + "\",\n  \"status\": \"" + (num(0, 3) ? "ok" : "error") +
           "\",\n  \"" + std::string(pick(kVars)) + "\": " + std::to_string(num(0, 100000)) + ",\n  \"items\": [\n    {\"name\": \"" +
           std::string(pick(kModules)) + "\", \"count\": " + std::to_string(num(0, 500)) + "},\n    {\"name\": \"" +
           std::string(pick(kModules)) + "\", \"count\": " + std::to_string(num(0, 500)) + "}\n  ],\n  \"elapsed_ms\": " +
           std::to_string(num(1, 2000)) + "\n}\n";
  }
  std::string traceback() {
    const std::string m(pick(kModules)), f(pick(kMethods));
    return "Traceback (most recent call last):\n  File \"/srv/app/" + m + "/service.py\", line " +
           std::to_string(num(10, 400)) + ", in " + f + "\n    return self._client." + std::string(pick(kMethods)) +
           "(" + std::string(pick(kVars)) + ")\n  File \"/srv/app/" + m + "/client.py\", line " +
           std::to_string(num(10, 400)) + ", in " + std::string(pick(kMethods)) + "\n    raise RuntimeError(msg)\nRuntimeError: " +
           std::string(pick(kErrors)) + "\n";
  }
  std::string diff() {
    const std::string file(pick(kFiles)), v(pick(kVars)), w(pick(kVars));
    const int line = num(10, 300);
    return "diff --git a/" + file + " b/" + file + "\nindex " + hex(7) + ".." + hex(7) + " 100644\n--- a/" + file +
           "\n+++ b/" + file + "\n@@ -" + std::to_string(line) + ",6 +" + std::to_string(line) + ",7 @@\n     " + v +
           " = load(" + w + ")\n-    if " + v + " is None:\n-        return\n+    if " + v + " is None or not " + v +
           ".ready:\n+        logger.debug(\"skip %s\", " + w + ")\n+        return\n     " + std::string(pick(kMethods)) +
           "(" + v + ")\n";
  }
  std::string ci_log() {
    std::string out = "[" + std::to_string(num(0, 23)) + ":" + std::to_string(num(10, 59)) + ":" +
                      std::to_string(num(10, 59)) + "] Run build (" + std::string(pick(kModules)) + ")\n";
    const int steps = num(3, 6);
    for (int i = 0; i < steps; ++i)
      out += "  step " + std::to_string(i + 1) + "/" + std::to_string(steps) + ": " + std::string(pick(kMethods)) +
             " " + std::string(pick(kModules)) + " ... " + (num(0, 5) ? "done" : "FAILED") + " (" +
             std::to_string(num(1, 120)) + "s)\n";
    out += "##[error]Process completed with exit code " + std::to_string(num(0, 2)) + ".\n";
    return out;
  }
  std::string sql() {
    const std::string t(pick(kModules)), v(pick(kVars)), w(pick(kVars));
    return "SELECT " + v + ", COUNT(*) AS n\nFROM " + t + "_events\nWHERE " + w + " > $1\n  AND created_at >= NOW() - INTERVAL '" +
           std::to_string(num(1, 30)) + " days'\nGROUP BY " + v + "\nORDER BY n DESC\nLIMIT " +
           std::to_string(num(10, 100)) + ";\n";
  }
  std::string config() {
    return "[" + std::string(pick(kModules)) + "]\nenabled = " + (num(0, 1) ? "true" : "false") + "\nworkers = " +
           std::to_string(num(1, 64)) + "\ntimeout_ms = " + std::to_string(num(100, 30000)) + "\nendpoint = \"http://" +
           std::string(pick(kModules)) + ".internal:" + std::to_string(num(1024, 9999)) + "\"\n";
  }
  std::string ask() { return fill(pick(kAsks)) + "\n"; }

 private:
  std::mt19937_64& rng_;
};

}  // namespace

std::string generate_coding_corpus(size_t blocks) {
  std::mt19937_64 rng(0xc0d1f9ULL);  // fixed: the corpus must not depend on --random-seed
  Writer w(rng);
  // Proportions close to AIPerf's pool: code the most, then shell output, JSON, errors, the rest.
  using Gen = std::string (Writer::*)();
  const std::vector<std::pair<Gen, int>> kinds = {
      {&Writer::python, 9}, {&Writer::go, 6},       {&Writer::rust, 6},      {&Writer::typescript, 6},
      {&Writer::shell, 12}, {&Writer::json_result, 9}, {&Writer::traceback, 6}, {&Writer::diff, 4},
      {&Writer::ci_log, 3}, {&Writer::sql, 3},      {&Writer::config, 3},    {&Writer::ask, 6}};
  std::vector<int> weights;
  for (const auto& k : kinds) weights.push_back(k.second);
  std::discrete_distribution<size_t> kind(weights.begin(), weights.end());
  std::string out;
  for (size_t i = 0; i < blocks; ++i) {
    if (!out.empty()) out += "\n\n";
    out += (w.*kinds[kind(rng)].first)();
  }
  return out;
}

}  // namespace aiperf::dataset
