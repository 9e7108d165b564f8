// Python's repr() of a str, as the reference's messages quote values: single quotes unless the
// text holds a single quote and no double quote; backslashes and the chosen quote escaped.
#pragma once
#include <string>

namespace aiperf::util {

std::string py_repr(const std::string& s);

}  // namespace aiperf::util
