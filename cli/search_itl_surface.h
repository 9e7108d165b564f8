// decode-itl-curve's post-process (AIPerf 0.13's itl_surface_fit handler), pure: the sweep
// aggregate of a concurrency x OSL grid in, decode_itl_surface.json out. As in AIPerf, the
// "surface" is the measured grid itself (no interpolation; unmeasured cells are null).
// Unit-tested in tests/cli/search_recipes_test.cpp.
#pragma once
#include <nlohmann/json.hpp>

namespace aiperf::cli::search {

// params: metric_tag, stat (avg/p50/p90/p95/p99), concurrency_param, osl_param (dotted paths;
// a row's parameters may name them by path or by leaf). Each row with both parameters and the
// metric block ("<tag>_<stat>", else "<tag>"; its "mean") is a candidate; non-finite and
// negative values are dropped. The rest, sorted by (concurrency, osl), give:
//   {swept_metric, stat, swept_params [c, o], raw_points [{concurrency, osl, itl_ms}],
//    surface {concurrency_axis, osl_axis (sorted distinct values), itl_grid [c][o] | null},
//    surface_fit_failed false}
// With fewer than 2 kept: the same keys, empty axes and grid, surface_fit_failed true and an
// error_reason. Throws std::runtime_error when no row is a candidate, or for a bad stat.
nlohmann::ordered_json itl_surface_fit(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params);

}  // namespace aiperf::cli::search
