// The deployment manifests as a cluster or Compose would read them: every object is complete
// and the pieces agree with each other (service names and ports, secret names and mount paths,
// worker counts), so a typo in one file fails here rather than as a hung run.
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "yaml_args.h"

using aiperf::test::flag_value;
using aiperf::test::scalars;
namespace fs = std::filesystem;

namespace {

const std::string kDeployDir = AIPERF_DEPLOY_DIR;
const std::string kImage = std::string("aiperf:") + AIPERF_VERSION;

struct Object {
  std::string file;
  YAML::Node node;
  std::string kind() const { return node["kind"].as<std::string>(); }
  std::string name() const { return node["metadata"]["name"].as<std::string>(); }
};

std::vector<Object> load_kubernetes() {
  std::vector<Object> out;
  for (const auto& entry : fs::directory_iterator(kDeployDir + "/kubernetes")) {
    const fs::path p = entry.path();
    if (p.extension() != ".yaml" || p.filename() == "kustomization.yaml") continue;
    for (const YAML::Node& doc : YAML::LoadAllFromFile(p.string())) {
      if (doc.IsNull()) continue;
      out.push_back({p.filename().string(), doc});
    }
  }
  return out;
}

const Object& find_object(const std::vector<Object>& objects, const std::string& kind, const std::string& name) {
  for (const Object& o : objects) {
    if (o.kind() == kind && o.name() == name) return o;
  }
  FAIL("no " << kind << " named " << name);
  throw std::logic_error("unreachable");
}

bool is_workload(const Object& o) { return o.kind() == "Deployment" || o.kind() == "Job"; }

std::map<std::string, std::string> string_map(const YAML::Node& n) {
  std::map<std::string, std::string> out;
  if (!n || !n.IsMap()) return out;
  for (const auto& kv : n) out[kv.first.as<std::string>()] = kv.second.as<std::string>();
  return out;
}

// Every key/value of the selector is among the labels.
bool selects(const std::map<std::string, std::string>& selector, const std::map<std::string, std::string>& labels) {
  if (selector.empty()) return false;
  return std::all_of(selector.begin(), selector.end(), [&](const auto& kv) {
    auto it = labels.find(kv.first);
    return it != labels.end() && it->second == kv.second;
  });
}

std::vector<std::string> container_args(const Object& o) {
  const YAML::Node c = o.node["spec"]["template"]["spec"]["containers"][0];
  std::vector<std::string> argv = scalars(c["command"]);
  for (const std::string& a : scalars(c["args"])) argv.push_back(a);
  return argv;
}

// The mountPath of the container volume backed by Secret `secret`, or "" if none.
std::string secret_mount_path(const Object& o, const std::string& secret) {
  const YAML::Node pod = o.node["spec"]["template"]["spec"];
  std::string volume;
  for (const auto& v : pod["volumes"]) {
    if (v["secret"] && v["secret"]["secretName"].as<std::string>() == secret) volume = v["name"].as<std::string>();
  }
  for (const auto& m : pod["containers"][0]["volumeMounts"]) {
    if (m["name"].as<std::string>() == volume) return m["mountPath"].as<std::string>();
  }
  return "";
}

}  // namespace

TEST_CASE("kubernetes: every object has apiVersion, kind and metadata.name, and the set is the documented one",
          "[deploy]") {
  const std::vector<Object> objects = load_kubernetes();
  std::set<std::string> names;
  for (const Object& o : objects) {
    INFO(o.file);
    REQUIRE(o.node["apiVersion"]);
    REQUIRE(o.node["kind"]);
    REQUIRE(o.node["metadata"]["name"]);
    CHECK_FALSE(o.node["apiVersion"].as<std::string>().empty());
    names.insert(o.kind() + "/" + o.name());
  }
  CHECK(objects.size() == 6);
  CHECK(names == std::set<std::string>{"Secret/aiperf-mesh-keys", "Deployment/aiperf-mock-server",
                                       "Service/aiperf-mock-server", "Service/aiperf-controller",
                                       "Job/aiperf-controller", "Deployment/aiperf-worker"});
  CHECK(find_object(objects, "Job", "aiperf-controller").node["apiVersion"].as<std::string>() == "batch/v1");
  CHECK(find_object(objects, "Deployment", "aiperf-worker").node["apiVersion"].as<std::string>() == "apps/v1");
  CHECK(find_object(objects, "Secret", "aiperf-mesh-keys").node["apiVersion"].as<std::string>() == "v1");
}

TEST_CASE("kubernetes: workloads run the release image with a command, mounts and secrets resolve", "[deploy]") {
  const std::vector<Object> objects = load_kubernetes();
  int workloads = 0;
  for (const Object& o : objects) {
    if (!is_workload(o)) continue;
    ++workloads;
    INFO(o.kind() << "/" << o.name());
    const YAML::Node pod = o.node["spec"]["template"]["spec"];
    REQUIRE(pod["containers"].IsSequence());
    REQUIRE(pod["containers"].size() >= 1);
    std::set<std::string> volumes;
    for (const auto& v : pod["volumes"]) {
      volumes.insert(v["name"].as<std::string>());
      if (v["secret"]) {
        const std::string secret = v["secret"]["secretName"].as<std::string>();
        INFO("secret " << secret);
        CHECK(std::any_of(objects.begin(), objects.end(),
                          [&](const Object& s) { return s.kind() == "Secret" && s.name() == secret; }));
      }
    }
    for (const auto& c : pod["containers"]) {
      CHECK(c["image"].as<std::string>() == kImage);
      CHECK_FALSE(scalars(c["command"]).empty());
      for (const auto& m : c["volumeMounts"]) CHECK(volumes.count(m["name"].as<std::string>()) == 1);
    }
    if (o.kind() == "Deployment") {
      CHECK(selects(string_map(o.node["spec"]["selector"]["matchLabels"]),
                    string_map(o.node["spec"]["template"]["metadata"]["labels"])));
    } else {
      CHECK(pod["restartPolicy"].as<std::string>() == "Never");
    }
  }
  CHECK(workloads == 3);
}

TEST_CASE("kubernetes: each service selects exactly one workload", "[deploy]") {
  const std::vector<Object> objects = load_kubernetes();
  for (const Object& s : objects) {
    if (s.kind() != "Service") continue;
    INFO("Service/" << s.name());
    int matched = 0;
    for (const Object& w : objects) {
      if (is_workload(w) && selects(string_map(s.node["spec"]["selector"]),
                                    string_map(w.node["spec"]["template"]["metadata"]["labels"]))) {
        ++matched;
      }
    }
    CHECK(matched == 1);
  }
}

TEST_CASE("kubernetes: workers reach the controller's seven ports and match --workers-remote", "[deploy]") {
  const std::vector<Object> objects = load_kubernetes();
  const Object& job = find_object(objects, "Job", "aiperf-controller");
  const Object& workers = find_object(objects, "Deployment", "aiperf-worker");
  const std::vector<std::string> controller = container_args(job);
  const std::vector<std::string> worker = container_args(workers);

  REQUIRE(controller.size() >= 2);
  CHECK(controller[0] == "aiperf");
  CHECK(controller[1] == "profile");
  CHECK(flag_value(controller, "--zmq-host") == "0.0.0.0");
  CHECK(flag_value(controller, "--workers-max") == "0");
  CHECK(flag_value(controller, "--workers-remote") == workers.node["spec"]["replicas"].as<std::string>());
  const int base_port = std::stoi(flag_value(controller, "--zmq-base-port").value_or("-1"));
  CHECK(base_port == 5660);

  REQUIRE(worker.size() >= 2);
  CHECK(worker[1] == "worker");
  const std::string address = flag_value(worker, "--controller").value_or("");
  const std::regex tcp(R"(tcp://([a-z0-9-]+):(\d+))");
  std::smatch m;
  REQUIRE(std::regex_match(address, m, tcp));
  CHECK(std::stoi(m[2]) == base_port);
  const Object& service = find_object(objects, "Service", m[1]);
  CHECK(selects(string_map(service.node["spec"]["selector"]), string_map(job.node["spec"]["template"]["metadata"]["labels"])));
  std::set<int> ports;
  for (const auto& p : service.node["spec"]["ports"]) {
    CHECK(p["port"].as<int>() == p["targetPort"].as<int>());
    ports.insert(p["port"].as<int>());
  }
  CHECK(ports == std::set<int>{5660, 5661, 5662, 5663, 5664, 5665, 5666});

  // Both sides pass --mesh-keys the directory where the Secret is mounted.
  CHECK(flag_value(controller, "--mesh-keys") == secret_mount_path(job, "aiperf-mesh-keys"));
  CHECK(flag_value(worker, "--mesh-keys") == secret_mount_path(workers, "aiperf-mesh-keys"));
  CHECK_FALSE(secret_mount_path(job, "aiperf-mesh-keys").empty());

  // The benchmark target is the mock server's Service.
  CHECK(flag_value(controller, "--url") == "http://aiperf-mock-server:8000");
  const Object& mock = find_object(objects, "Service", "aiperf-mock-server");
  CHECK(mock.node["spec"]["ports"][0]["port"].as<int>() == 8000);
}

TEST_CASE("kubernetes: the kustomization lists every manifest file", "[deploy]") {
  const YAML::Node k = YAML::LoadFile(kDeployDir + "/kubernetes/kustomization.yaml");
  std::vector<std::string> listed = scalars(k["resources"]);
  std::sort(listed.begin(), listed.end());
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kDeployDir + "/kubernetes")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && name != "kustomization.yaml") files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  CHECK(listed == files);
}

TEST_CASE("compose: worker count, controller address and mesh-keys secret agree", "[deploy]") {
  const YAML::Node c = YAML::LoadFile(kDeployDir + "/docker-compose.yml");
  std::set<std::string> services;
  for (const auto& kv : c["services"]) services.insert(kv.first.as<std::string>());
  CHECK(services == std::set<std::string>{"mock-server", "controller", "worker"});

  const std::vector<std::string> controller = scalars(c["services"]["controller"]["command"]);
  const std::vector<std::string> worker = scalars(c["services"]["worker"]["command"]);
  REQUIRE_FALSE(controller.empty());
  CHECK(controller[0] == "profile");
  CHECK(flag_value(controller, "--zmq-host") == "0.0.0.0");
  CHECK(flag_value(controller, "--workers-max") == "0");
  // "${AIPERF_WORKERS:-N}": the default N must be the worker service's default replicas.
  const std::string remote = flag_value(controller, "--workers-remote").value_or("");
  std::smatch m;
  REQUIRE(std::regex_match(remote, m, std::regex(R"(\$\{AIPERF_WORKERS:-(\d+)\})")));
  CHECK(m[1] == c["services"]["worker"]["deploy"]["replicas"].as<std::string>());

  REQUIRE_FALSE(worker.empty());
  CHECK(worker[0] == "worker");
  CHECK(flag_value(worker, "--controller") == "tcp://controller:" + flag_value(controller, "--zmq-base-port").value_or(""));

  // --mesh-keys points at /run/secrets/<name> of a secret both services mount and the file defines.
  const std::string keys = flag_value(controller, "--mesh-keys").value_or("");
  CHECK(flag_value(worker, "--mesh-keys") == keys);
  REQUIRE(keys.rfind("/run/secrets/", 0) == 0);
  const std::string secret = keys.substr(std::string("/run/secrets/").size());
  CHECK(c["secrets"][secret]["file"]);
  for (const char* svc : {"controller", "worker"}) {
    INFO(svc);
    CHECK(scalars(c["services"][svc]["secrets"]) == std::vector<std::string>{secret});
  }

  // The controller benchmarks the mock server on the port it listens on.
  const std::vector<std::string> mock = scalars(c["services"]["mock-server"]["command"]);
  CHECK(flag_value(controller, "--url") == "http://mock-server:" + flag_value(mock, "--port").value_or(""));
  CHECK(flag_value(mock, "--host") == "0.0.0.0");
}
