// UUID4 strings (xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx) from a caller's RNG (reproducible with
// --random-seed) or from OS entropy.
#pragma once
#include <random>
#include <string>

namespace aiperf::util {

std::string uuid4(std::mt19937_64& rng);
std::string uuid4();  // thread-safe, seeded from std::random_device

// Short random hex suffix for service ids ("worker_1a2b3c4d").
std::string short_id();

}  // namespace aiperf::util
