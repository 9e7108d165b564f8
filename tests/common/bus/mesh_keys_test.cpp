// Key files on disk: what the controller creates on first use, what a worker host needs, and
// what the authorised list accepts.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bus/mesh_keys.h"
#include "test_files.h"

namespace fs = std::filesystem;
using namespace aiperf::bus;

using aiperf::test::slurp;
namespace {
std::string temp_dir() {
  char tmpl[] = "/tmp/aiperf-mesh-keys-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}
unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 0777;
}
}  // namespace

TEST_CASE("the controller's first use creates both key pairs, 0600, and the shared worker key is accepted") {
  const fs::path dir = fs::path(temp_dir()) / "mesh";
  const KeyPair controller = prepare_controller_keys(dir);
  CHECK(valid_key(controller.public_z85));
  CHECK(valid_key(controller.secret_z85));
  CHECK(mode_of(dir) == 0700);
  for (const char* f : {"controller.pub", "controller.secret", "worker.pub", "worker.secret"}) CHECK(mode_of(dir / f) == 0600);
  CHECK(mode_of(dir / "authorized") == 0700);
  CHECK(fs::is_empty(dir / "authorized"));
  CHECK(slurp(dir / "controller.pub") == controller.public_z85 + "\n");
  CHECK(slurp(dir / "controller.secret") == controller.secret_z85 + "\n");
  const auto worker = load_key_pair(dir, "worker");
  REQUIRE(worker.has_value());
  CHECK(slurp(dir / "worker.pub") == worker->public_z85 + "\n");
  CHECK(load_authorized(dir) == std::set<std::string>{worker->public_z85});

  // Second use: the same keys, nothing regenerated.
  const KeyPair again = prepare_controller_keys(dir);
  CHECK(again.public_z85 == controller.public_z85);
  CHECK(again.secret_z85 == controller.secret_z85);
  CHECK(load_key_pair(dir, "worker")->secret_z85 == worker->secret_z85);
}

TEST_CASE("a worker host with the controller's public key uses the shared worker pair") {
  const std::string dir = temp_dir();
  prepare_controller_keys(dir);
  const auto shared = load_key_pair(dir, "worker");
  const WorkerKeys keys = prepare_worker_keys(dir);
  CHECK_FALSE(keys.generated);
  CHECK(keys.own.public_z85 == shared->public_z85);
  CHECK(keys.controller_public == load_public_key(dir, "controller"));
}

TEST_CASE("a worker host without a worker pair makes its own, which is not authorised") {
  const std::string controller_dir = temp_dir();
  const KeyPair controller = prepare_controller_keys(controller_dir);
  const std::string host_dir = temp_dir();
  fs::copy_file(fs::path(controller_dir) / "controller.pub", fs::path(host_dir) / "controller.pub");
  const WorkerKeys keys = prepare_worker_keys(host_dir);
  CHECK(keys.generated);
  CHECK(keys.controller_public == controller.public_z85);
  CHECK(mode_of(fs::path(host_dir) / "worker.secret") == 0600);
  CHECK(slurp(fs::path(host_dir) / "worker.pub") == keys.own.public_z85 + "\n");
  CHECK(load_authorized(controller_dir).count(keys.own.public_z85) == 0);
  // The next start reuses it.
  const WorkerKeys again = prepare_worker_keys(host_dir);
  CHECK_FALSE(again.generated);
  CHECK(again.own.secret_z85 == keys.own.secret_z85);
}

TEST_CASE("a worker host without the controller's public key is an error naming the file") {
  const std::string dir = temp_dir();
  try {
    prepare_worker_keys(dir);
    FAIL("expected MeshKeyError");
  } catch (const MeshKeyError& e) {
    CHECK(std::string(e.what()) == "mesh key file " + dir + "/controller.pub is missing");
  }
}

TEST_CASE("authorized/ holds several keys per file, comments, and ignores junk and other extensions") {
  const std::string dir = temp_dir();
  fs::create_directories(fs::path(dir) / "authorized");
  const KeyPair a = generate_key_pair(), b = generate_key_pair(), c = generate_key_pair();
  std::ofstream(fs::path(dir) / "authorized/hosts.pub") << "# rack 1\n" << a.public_z85 << "  # gpu-01\n\n"
                                                         << b.public_z85 << "\nnot-a-key\n";
  std::ofstream(fs::path(dir) / "authorized/old.pub.bak") << c.public_z85 << "\n";
  CHECK(load_authorized(dir) == std::set<std::string>{a.public_z85, b.public_z85});
  CHECK(load_authorized(dir + "/nowhere").empty());
  // The shared worker key beside the controller's is accepted too.
  const KeyPair shared = generate_key_pair();
  std::ofstream(fs::path(dir) / "worker.pub") << shared.public_z85 << "\n";
  CHECK(load_authorized(dir) == std::set<std::string>{a.public_z85, b.public_z85, shared.public_z85});
}

TEST_CASE("a folder with worker public keys but no worker secret gets no new worker pair") {
  // The worker secrets may be kept off the controller host: only its public half is there.
  for (const char* file : {"worker.pub", "authorized/gpu-01.pub"}) {
    const std::string dir = temp_dir();
    fs::create_directories(fs::path(dir) / "authorized");
    const KeyPair worker = generate_key_pair();
    std::ofstream(fs::path(dir) / file) << worker.public_z85 << "\n";
    prepare_controller_keys(dir);
    CHECK_FALSE(fs::exists(fs::path(dir) / "worker.secret"));
    CHECK(load_authorized(dir) == std::set<std::string>{worker.public_z85});
  }
}

TEST_CASE("a corrupt secret key file is an error naming the file") {
  const std::string dir = temp_dir();
  std::ofstream(fs::path(dir) / "controller.secret") << "short\n";
  try {
    load_key_pair(dir, "controller");
    FAIL("expected MeshKeyError");
  } catch (const MeshKeyError& e) {
    CHECK(std::string(e.what()) == "mesh key file " + dir + "/controller.secret must hold exactly one Z85 key (40 characters)");
  }
}

TEST_CASE("key validation") {
  CHECK(valid_key(generate_key_pair().public_z85));
  CHECK_FALSE(valid_key(""));
  CHECK_FALSE(valid_key(std::string(39, 'a')));
  CHECK_FALSE(valid_key(std::string(40, '"')));  // '"' is not a Z85 digit
}
