// Closed-choice config options as enum classes that keep their AIPerf spelling on the wire.
// Each enum declares, next to its config struct, a constexpr `enum_names(E)` table (found by
// ADL) and AIPERF_CONFIG_ENUM_JSON(E, "field"); the table is the one source of the spellings
// for JSON, the CLI and messages.
//
// Not NLOHMANN_JSON_SERIALIZE_ENUM: it maps an unknown string to the first value silently, and a
// RunConfig read from another process (configure command, a trial's run_config.json) must
// refuse a value this build does not know instead of running something else.
#pragma once
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace aiperf::config {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

template <typename E>
concept ConfigEnum = std::is_enum_v<E> && requires(E e) {
  enum_names(e);
};

// The wire spelling of `v`.
template <ConfigEnum E>
std::string to_string(E v) {
  for (const auto& [value, name] : enum_names(v))
    if (value == v) return std::string(name);
  return {};  // unreachable: every value is listed (tests/config/config_enum_test.cpp)
}

// The value spelled `s` exactly, or nullopt.
template <ConfigEnum E>
std::optional<E> parse_enum(std::string_view s) {
  for (const auto& [value, name] : enum_names(E{}))
    if (name == s) return value;
  return std::nullopt;
}

// "a, b or c": the spellings, for messages.
template <ConfigEnum E>
std::string enum_choices() {
  const auto names = enum_names(E{});
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i].name);
  return out;
}

// The value spelled `s`; std::invalid_argument naming `field` when unknown.
template <ConfigEnum E>
E enum_from_string(std::string_view s, std::string_view field) {
  if (auto v = parse_enum<E>(s)) return *v;
  throw std::invalid_argument(std::string(field) + ": unknown value '" + std::string(s) + "' (expected " +
                              enum_choices<E>() + ")");
}

}  // namespace aiperf::config

// JSON as the spelling; reading refuses an unknown spelling or a non-string. Templates on the
// JSON type like nlohmann's own macro, so they win over nlohmann's enum-as-integer overloads.
#define AIPERF_CONFIG_ENUM_JSON(E, FIELD)                                                        \
  template <typename BasicJsonType>                                                              \
  void to_json(BasicJsonType& j, const E& v) {                                                   \
    j = ::aiperf::config::to_string(v);                                                          \
  }                                                                                              \
  template <typename BasicJsonType>                                                              \
  void from_json(const BasicJsonType& j, E& v) {                                                 \
    if (!j.is_string()) throw std::invalid_argument(std::string(FIELD) + ": expected a string"); \
    v = ::aiperf::config::enum_from_string<E>(j.template get<std::string>(), FIELD);             \
  }
