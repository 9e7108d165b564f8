#include "process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace aiperf::test {

Process::Process(const std::string& binary, const std::vector<std::string>& args, const std::string& log_dir,
                 const std::string& name)
    : out_path_(log_dir + "/" + name + ".out"), err_path_(log_dir + "/" + name + ".err") {
  std::vector<std::string> store{binary};
  store.insert(store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : store) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    int out = open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    dup2(out, 1);
    dup2(err, 2);
    setpgid(0, 0);  // own group: kill_now reaches grandchildren (aiperf's services)
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  setpgid(pid_, pid_);
}

Process::~Process() {
  if (!exit_code_) kill_now();
}

std::optional<int> Process::wait(double timeout_s) {
  if (exit_code_) return exit_code_;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_code_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

void Process::kill_now(int sig) {
  if (exit_code_ || pid_ <= 0) return;
  ::kill(-pid_, sig);
  ::kill(pid_, sig);
  int status = 0;
  waitpid(pid_, &status, 0);
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string Process::out() const { return read_file(out_path_); }
std::string Process::err() const { return read_file(err_path_); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

bool wait_until(const std::function<bool()>& cond, double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return cond();
}

std::string make_temp_dir() {
  char tmpl[] = "/tmp/aiperf-test-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

int free_port_range(int count) {
  // Below the kernel's ephemeral range: a port found free there can be taken, before the test
  // binds it, as the source port of any connection another test opens ("Address already in use").
  int ephemeral_low = 32768;
  std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> ephemeral_low;
  const int low = 10000, high = std::max(low + 1000, ephemeral_low - count);
  std::mt19937 rng(std::random_device{}());
  for (int attempt = 0; attempt < 200; ++attempt) {
    const int base = std::uniform_int_distribution<int>(low, high)(rng);
    bool ok = true;
    for (int p = base; p < base + count && ok; ++p) {
      int fd = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<uint16_t>(p));
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
      close(fd);
    }
    if (ok) return base;
  }
  throw std::runtime_error("no free port range");
}

nlohmann::json ProfileRun::json_file(const std::string& name) const {
  return nlohmann::json::parse(read_file(dir + "/" + name));
}

std::vector<nlohmann::json> ProfileRun::lines(const std::string& name) const {
  std::vector<nlohmann::json> out;
  for (const auto& l : read_lines(dir + "/" + name)) out.push_back(nlohmann::json::parse(l));
  return out;
}

ProfileRun run_profile(const std::string& dir, const std::vector<std::string>& args, const std::string& log_dir,
                       const std::string& name, double timeout_s) {
  std::vector<std::string> full{"profile", "--artifact-dir", dir};
  full.insert(full.end(), args.begin(), args.end());
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", full, log_dir, name);
  const auto rc = p.wait(timeout_s);
  if (!rc) {
    // A hang must explain itself: the process tree (which service is stuck) and the run log.
    std::string tree;
    if (FILE* ps = ::popen(("ps -o pid,stat,etime,args --ppid " + std::to_string(p.pid()) + " 2>&1").c_str(), "r")) {
      char buf[512];
      while (::fgets(buf, sizeof buf, ps)) tree += buf;
      ::pclose(ps);
    }
    std::string log = read_file(dir + "/logs/aiperf.log");
    if (log.size() > 6000) log = "..." + log.substr(log.size() - 6000);
    throw std::runtime_error("aiperf profile did not finish within " + std::to_string(timeout_s) + " s\nchildren:\n" +
                             tree + "stdout:\n" + p.out() + "\nstderr:\n" + p.err() + "\nlogs/aiperf.log:\n" + log);
  }
  return ProfileRun{*rc, p.out(), p.err(), dir};
}

MockServer::MockServer(const std::vector<std::string>& args, const std::string& log_dir)
    : process_(std::string(AIPERF_BIN_DIR) + "/aiperf-mock-server",
               [&] {
                 std::vector<std::string> a{"--port", "0"};
                 a.insert(a.end(), args.begin(), args.end());
                 return a;
               }(),
               log_dir, "mock") {
  const std::regex listening(R"(listening on http://[^:]+:(\d+))");
  std::smatch m;
  const bool up = wait_until(
      [&] {
        const std::string out = process_.out();
        if (!std::regex_search(out, m, listening)) return false;
        port_ = std::stoi(m[1]);
        return true;
      },
      30);
  if (!up) throw std::runtime_error("mock server did not start: " + process_.err());
}

}  // namespace aiperf::test
