// A process dies mid-run, or the user interrupts it: the run goes on where it can, writes the
// summary from what was measured, and says so in its exit code. Each case kills one service
// of a real run (SIGKILL, found by its command line) once records are flowing.
#include <dirent.h>
#include <signal.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_lines;
using aiperf::test::wait_until;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";
constexpr int kRequests = 800;

// The pid of the `aiperf service --type <type>` child whose log goes under `dir` (0 = none).
pid_t service_pid(const std::string& type, const std::string& dir) {
  DIR* proc = opendir("/proc");
  pid_t found = 0;
  while (dirent* e = proc ? readdir(proc) : nullptr) {
    const pid_t pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::ifstream in("/proc/" + std::string(e->d_name) + "/cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(in)), {});
    for (char& c : cmd) c = c == '\0' ? ' ' : c;
    if (cmd.find(" --type " + type + " ") != std::string::npos && cmd.find(dir + "/logs/") != std::string::npos) {
      found = pid;
      break;
    }
  }
  if (proc) closedir(proc);
  return found;
}

struct Interrupted {
  int exit_code = -1;
  std::string out, err, dir;
  std::vector<std::string> lines;  // profile_export.jsonl
  nlohmann::json summary;          // profile_export_aiperf.json (null if not written)
};

// Streaming requests of ~70 ms at concurrency 16 (about 4 s for all of them); once 100 records
// are written, `act` runs with the artifact directory and the controller.
Interrupted run_and(const std::vector<std::string>& more, const std::function<void(const std::string&, Process&)>& act) {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "5"}, tmp);
  Interrupted r;
  r.dir = tmp + "/artifacts";
  std::vector<std::string> args{"profile", "--artifact-dir", r.dir, "--tokenizer", "gpt2", "--ui-type", "none",
                                "--model", "m", "--url", mock.url(), "--endpoint-type", "chat", "--streaming",
                                "--isl", "20", "--osl", "10", "--concurrency", "16", "--request-count",
                                std::to_string(kRequests)};
  args.insert(args.end(), more.begin(), more.end());
  Process aiperf(kAiperf, args, tmp, "aiperf");
  REQUIRE(wait_until([&] { return read_lines(r.dir + "/profile_export.jsonl").size() >= 100; }, 60));
  act(r.dir, aiperf);
  const auto rc = aiperf.wait(120);
  REQUIRE(rc.has_value());
  r.exit_code = *rc;
  r.out = aiperf.out();
  r.err = aiperf.err();
  r.lines = read_lines(r.dir + "/profile_export.jsonl");
  if (std::filesystem::exists(r.dir + "/profile_export_aiperf.json"))
    r.summary = nlohmann::json::parse(aiperf::test::read_file(r.dir + "/profile_export_aiperf.json"));
  return r;
}

Interrupted kill_service(const std::string& type, const std::vector<std::string>& more = {}) {
  return run_and(more, [&](const std::string& dir, Process&) {
    const pid_t pid = service_pid(type, dir);
    REQUIRE(pid > 0);
    ::kill(pid, SIGKILL);
  });
}

double count(const nlohmann::json& summary, const char* tag) {
  return summary.contains(tag) ? summary[tag]["avg"].get<double>() : 0.0;
}

// Error types of the records, with their counts.
std::map<std::string, int> error_types(const std::vector<std::string>& lines) {
  std::map<std::string, int> types;
  for (const auto& l : lines) {
    const auto j = nlohmann::json::parse(l);
    if (j.contains("error")) ++types[j["error"]["type"].get<std::string>()];
  }
  return types;
}

}  // namespace

TEST_CASE("a worker killed mid-run: the others finish the run, its requests are WorkerLost errors, exit 1",
          "[e2e]") {
  const auto r = kill_service("worker", {"--workers-max", "3"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("; the run goes on without it") != std::string::npos);
  REQUIRE(r.lines.size() == kRequests);  // every credit produced exactly one record
  REQUIRE(r.summary.is_object());
  CHECK(count(r.summary, "request_count") + count(r.summary, "error_request_count") == kRequests);
  const auto errors = error_types(r.lines);
  // It held requests when it died (16 in flight over 3 workers): each is a named error.
  REQUIRE(errors.count("WorkerLost") == 1);
  CHECK(errors.at("WorkerLost") >= 1);
  CHECK(errors.size() == 1);
}

TEST_CASE("a record processor killed while another remains: the run goes on, records = requests, exit 1",
          "[e2e]") {
  const auto r = kill_service("record_processor", {"--record-processors", "2"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.lines.size() == kRequests);
  REQUIRE(r.summary.is_object());
  CHECK(count(r.summary, "request_count") + count(r.summary, "error_request_count") == kRequests);
  for (const auto& [type, n] : error_types(r.lines)) CHECK(type == "RecordProcessorLost");
}

TEST_CASE("telemetry killed: the run goes on without it and exits 1", "[e2e]") {
  const auto r = kill_service("telemetry");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.lines.size() == kRequests);
  CHECK(count(r.summary, "request_count") == kRequests);
}

TEST_CASE("a service the run needs is killed: the summary holds what was measured, exit 1", "[e2e]") {
  for (const char* type : {"timing", "dataset", "records", "record_processor"}) {
    DYNAMIC_SECTION(type) {
      const auto r = kill_service(type);
      INFO(r.out << r.err);
      CHECK(r.exit_code == 1);
      CHECK(r.err.find("Error: service " + std::string(type) + "_") != std::string::npos);
      CHECK(r.lines.size() >= 100);
      CHECK(r.lines.size() < kRequests);
      REQUIRE(r.summary.is_object());
      // The summary counts exactly the records in the file, whoever wrote it.
      CHECK(count(r.summary, "request_count") + count(r.summary, "error_request_count") == r.lines.size());
      if (std::string(type) == "records") CHECK(r.err.find("Summary recomputed from the ") != std::string::npos);
      CHECK(r.out.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
    }
  }
}

TEST_CASE("SIGINT and SIGTERM cancel, write the partial results and exit 130 / 143", "[e2e]") {
  for (int sig : {SIGINT, SIGTERM}) {
    DYNAMIC_SECTION("signal " << sig) {
      const auto r = run_and({}, [&](const std::string&, Process& aiperf) { ::kill(aiperf.pid(), sig); });
      INFO(r.out << r.err);
      CHECK(r.exit_code == 128 + sig);
      CHECK(r.lines.size() < kRequests);
      REQUIRE(r.summary.is_object());
      CHECK(r.summary["was_cancelled"] == true);
      CHECK(count(r.summary, "request_count") + count(r.summary, "error_request_count") == r.lines.size());
    }
  }
}

TEST_CASE("the controller killed with SIGKILL: whole record lines survive and process-export-files rebuilds the summary",
          "[e2e]") {
  const auto r = run_and({}, [&](const std::string&, Process& aiperf) { ::kill(aiperf.pid(), SIGKILL); });
  CHECK(r.exit_code == 128 + SIGKILL);
  CHECK_FALSE(r.summary.is_object());
  // The services got SIGTERM from the kernel (parent death) and saved their lines.
  REQUIRE(wait_until([&] { return service_pid("records", r.dir) == 0; }, 10));
  const auto lines = read_lines(r.dir + "/profile_export.jsonl");
  REQUIRE(lines.size() >= 100);
  for (const auto& l : lines) REQUIRE(nlohmann::json::accept(l));
  CHECK(aiperf::test::read_file(r.dir + "/profile_export.jsonl").back() == '\n');

  const std::string merged = r.dir + "/rebuilt";
  Process rebuild(kAiperf, {"process-export-files", r.dir, "--output-dir", merged}, r.dir, "rebuild");
  REQUIRE(rebuild.wait(60) == 0);
  const auto summary = nlohmann::json::parse(aiperf::test::read_file(merged + "/profile_export_aiperf.json"));
  CHECK(count(summary, "request_count") + count(summary, "error_request_count") == lines.size());
}
