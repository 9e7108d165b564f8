#include "bus/mesh_keys.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <zmq.h>

#include "log/log.h"

namespace aiperf::bus {
namespace {
namespace fs = std::filesystem;

constexpr size_t kZ85Length = 40;

std::string path_of(const std::string& dir, const std::string& file) { return (fs::path(dir) / file).string(); }

// The first word of every non-blank line. '#' is a Z85 digit, so a comment cannot be
// recognised by it: text after the key (separated by blanks) and lines that are not keys
// ("# rack 1") are simply not keys.
std::vector<std::string> key_words(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MeshKeyError("cannot read mesh key file " + path + ": " + std::strerror(errno));
  std::vector<std::string> out;
  for (std::string line, word; std::getline(in, line);) {
    std::istringstream words(line);
    if (words >> word) out.push_back(word);
  }
  return out;
}

std::string single_key(const std::string& path) {
  std::vector<std::string> keys;
  for (auto& w : key_words(path))
    if (valid_key(w)) keys.push_back(std::move(w));
  if (keys.size() != 1) throw MeshKeyError("mesh key file " + path + " must hold exactly one Z85 key (40 characters)");
  return keys[0];
}

// Writes through a temporary file and rename(2): a reader (a worker host watching a shared
// folder) never sees half a key.
void write_private_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw MeshKeyError("cannot write mesh key file " + tmp + ": " + std::strerror(errno));
  ::fchmod(fd, 0600);  // the umask may have narrowed it further, never widened it; make it exact
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw MeshKeyError("cannot write mesh key file " + path + ": " + std::strerror(errno));
  }
}

void make_private_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) throw MeshKeyError("--mesh-keys " + dir + " is not a directory");
    return;
  }
  fs::create_directories(dir, ec);
  if (ec) throw MeshKeyError("cannot create mesh key folder " + dir + ": " + ec.message());
  ::chmod(dir.c_str(), 0700);
}

// A world-readable secret still works (mounted secrets are often 0644), but say so. Group
// access is normal for a Kubernetes secret shared through fsGroup, so it passes silently.
void warn_if_exposed(const std::string& dir, const std::string& name) {
  const std::string path = path_of(dir, name + ".secret");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 007) != 0) {
    AIPERF_LOG(kWarning) << "mesh secret key " << path << " is readable by every user (chmod 600 it)";
  }
}

}  // namespace

void require_curve() {
  if (!zmq_has("curve"))
    throw MeshKeyError("--mesh-keys needs CURVE, but this libzmq was built without it (no libsodium)");
}

KeyPair generate_key_pair() {
  require_curve();
  char pub[kZ85Length + 1] = {}, sec[kZ85Length + 1] = {};
  if (zmq_curve_keypair(pub, sec) != 0) throw MeshKeyError(std::string("zmq_curve_keypair failed: ") + zmq_strerror(errno));
  return {pub, sec};
}

bool valid_key(const std::string& z85) {
  if (z85.size() != kZ85Length) return false;
  uint8_t raw[32];
  return zmq_z85_decode(raw, z85.c_str()) != nullptr;
}

std::optional<KeyPair> load_key_pair(const std::string& dir, const std::string& name) {
  const std::string secret_path = path_of(dir, name + ".secret");
  std::error_code ec;
  if (!fs::exists(secret_path, ec)) return std::nullopt;
  require_curve();
  KeyPair pair;
  pair.secret_z85 = single_key(secret_path);
  char pub[kZ85Length + 1] = {};
  if (zmq_curve_public(pub, pair.secret_z85.c_str()) != 0)
    throw MeshKeyError("cannot derive the public key from " + secret_path);
  pair.public_z85 = pub;
  return pair;
}

void write_key_pair(const std::string& dir, const std::string& name, const KeyPair& pair) {
  write_private_file(path_of(dir, name + ".pub"), pair.public_z85 + "\n");
  write_private_file(path_of(dir, name + ".secret"), pair.secret_z85 + "\n");
}

std::string load_public_key(const std::string& dir, const std::string& name) {
  const std::string path = path_of(dir, name + ".pub");
  std::error_code ec;
  if (!fs::exists(path, ec)) throw MeshKeyError("mesh key file " + path + " is missing");
  return single_key(path);
}

std::set<std::string> load_authorized(const std::string& dir) {
  std::set<std::string> keys;
  std::error_code ec;
  // The shared worker key counts as authorised: a Kubernetes secret cannot hold a folder, and
  // whoever put worker.pub into the controller's folder meant it.
  try {
    if (fs::exists(path_of(dir, "worker.pub"), ec)) keys.insert(single_key(path_of(dir, "worker.pub")));
  } catch (const MeshKeyError&) {
    // invalid: authorises nothing
  }
  const fs::path folder = fs::path(dir) / "authorized";
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".pub") continue;
    try {
      for (const auto& k : key_words(it->path().string()))
        if (valid_key(k)) keys.insert(k);
    } catch (const MeshKeyError&) {
      // unreadable file: its keys are simply not authorised
    }
  }
  return keys;
}

KeyPair prepare_controller_keys(const std::string& dir) {
  require_curve();
  make_private_dir(dir);
  auto controller = load_key_pair(dir, "controller");
  if (!controller) {
    controller = generate_key_pair();
    write_key_pair(dir, "controller", *controller);
    AIPERF_LOG(kInfo) << "generated the controller's mesh key pair in " << dir;
  }
  warn_if_exposed(dir, "controller");
  std::error_code ec;
  // First use: no worker key of any kind yet. A folder with only worker.pub or authorized keys
  // (the worker secrets kept off the controller host) is complete as it is.
  if (!fs::exists(path_of(dir, "worker.secret"), ec) && load_authorized(dir).empty()) {
    const KeyPair worker = generate_key_pair();
    fs::create_directories(fs::path(dir) / "authorized", ec);  // where per-host worker keys go
    ::chmod(path_of(dir, "authorized").c_str(), 0700);
    write_key_pair(dir, "worker", worker);  // worker.secret last: its presence means "all written"
    AIPERF_LOG(kInfo) << "generated a shared worker key pair in " << dir << "; copy the folder to the worker hosts";
  }
  return *controller;
}

WorkerKeys prepare_worker_keys(const std::string& dir) {
  require_curve();
  WorkerKeys keys;
  keys.controller_public = load_public_key(dir, "controller");
  if (auto own = load_key_pair(dir, "worker")) {
    warn_if_exposed(dir, "worker");
    keys.own = *own;
    return keys;
  }
  keys.own = generate_key_pair();
  write_key_pair(dir, "worker", keys.own);
  keys.generated = true;
  AIPERF_LOG(kWarning) << "generated worker key pair " << path_of(dir, "worker.pub") << " (public key "
                       << keys.own.public_z85 << "); the controller accepts this worker once that file is copied "
                       << "into its mesh key folder's authorized/";
  return keys;
}

}  // namespace aiperf::bus
