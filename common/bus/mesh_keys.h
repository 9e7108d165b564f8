// Mesh keys: the CURVE key files that authenticate the TCP mesh (docs/mesh.md).
//   DIR/controller.pub, DIR/controller.secret   the controller host's key pair
//   DIR/worker.pub, DIR/worker.secret           a worker key pair (shared by workers, or one per host)
//   DIR/authorized/*.pub                        more worker public keys the controller accepts
// Every file is Z85 text (40 characters, a key per line, anything after it is a comment) with mode 0600.
#pragma once
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

namespace aiperf::bus {

struct KeyPair {
  std::string public_z85;
  std::string secret_z85;
};

// Bad or unreadable key material; the message names the file.
struct MeshKeyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws MeshKeyError when this libzmq cannot do CURVE (built without libsodium).
void require_curve();

KeyPair generate_key_pair();
// True if `z85` is 40 Z85 characters that decode to a 32-byte key.
bool valid_key(const std::string& z85);

// DIR/<name>.secret (public part derived from it), nullopt if the file does not exist.
std::optional<KeyPair> load_key_pair(const std::string& dir, const std::string& name);
// Writes DIR/<name>.pub and DIR/<name>.secret (0600, each replaced atomically; secret last).
void write_key_pair(const std::string& dir, const std::string& name, const KeyPair& pair);
// The key in DIR/<name>.pub; throws MeshKeyError if missing or invalid.
std::string load_public_key(const std::string& dir, const std::string& name);
// The worker keys the controller accepts: DIR/worker.pub and every key in DIR/authorized/*.pub
// (absent files count as empty). Invalid lines are skipped: a stray file must not lock every
// worker out.
std::set<std::string> load_authorized(const std::string& dir);

// The controller's first use of DIR: creates DIR (0700) and the controller key pair if absent;
// if DIR has no worker key at all, creates a shared worker pair and authorizes it, so copying
// DIR to the worker hosts is the whole setup. Returns the controller key pair.
KeyPair prepare_controller_keys(const std::string& dir);

// A worker host: its key pair (created, with a notice naming the file to authorize, when DIR
// has DIR/controller.pub but no worker key pair) and the controller's public key.
struct WorkerKeys {
  KeyPair own;
  std::string controller_public;
  bool generated = false;
};
WorkerKeys prepare_worker_keys(const std::string& dir);

}  // namespace aiperf::bus
