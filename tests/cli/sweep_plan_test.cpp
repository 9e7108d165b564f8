// Finding the comma lists on the command line and expanding them into sweep points, named as
// AIPerf 0.13 names them.
#include <catch2/catch.hpp>

#include "sweep_plan.h"

using namespace aiperf::cli::sweep;

namespace {
std::vector<std::string> argv(std::initializer_list<const char*> a) { return {a.begin(), a.end()}; }
}  // namespace

TEST_CASE("a list becomes a parameter and its first value stays on the command line", "[unit]") {
  const auto x = extract_lists(argv({"aiperf", "profile", "--concurrency", "1,2,4", "--request-rate=5,10.5", "--isl", "8"}));
  REQUIRE(x.parameters.size() == 2);
  CHECK(x.args == argv({"aiperf", "profile", "--concurrency", "1", "--request-rate=5", "--isl", "8"}));
  CHECK(x.parameters[0].path == "phases.profiling.concurrency");
  CHECK(x.parameters[0].values == std::vector<nlohmann::json>{1, 2, 4});
  CHECK(x.parameters[0].values[0].is_number_integer());
  CHECK(x.parameters[1].path == "phases.profiling.rate");
  CHECK(x.parameters[1].values[0].is_number_float());
  CHECK(x.parameters[1].values[1].get<double>() == 10.5);
}

TEST_CASE("a one-element list is a plain value and blanks around elements are dropped", "[unit]") {
  const auto x = extract_lists(argv({"aiperf", "profile", "--concurrency", "4,", "--osl", " 3 , 5 "}));
  REQUIRE(x.parameters.size() == 1);
  CHECK(x.args[3] == "4");
  CHECK(x.args[5] == "3");
  CHECK(x.parameters[0].path == "datasets.main.prompts.osl.mean");
  CHECK(x.parameters[0].texts == std::vector<std::string>{"3", "5"});
}

TEST_CASE("a list element of the wrong type names the option", "[unit]") {
  CHECK_THROWS_WITH(extract_lists(argv({"aiperf", "profile", "--concurrency", "1,2.5"})),
                    "--concurrency: invalid value '2.5' in the list '1,2.5' (an integer expected)");
  CHECK_THROWS_WITH(extract_lists(argv({"aiperf", "profile", "--request-rate", "1,x"})),
                    "--request-rate: invalid value 'x' in the list '1,x' (a number expected)");
  CHECK_THROWS_AS(extract_lists(argv({"aiperf", "profile", "--isl", "1,2", "--synthetic-input-tokens-mean", "3,4"})),
                  SweepError);
}

TEST_CASE("options that take no list are left to the parser", "[unit]") {
  const auto x = extract_lists(argv({"aiperf", "profile", "--warmup-concurrency", "1,2"}));
  CHECK(x.parameters.empty());
  CHECK(x.args[3] == "1,2");
}

TEST_CASE("grid: the Cartesian product over the sorted paths, first path slowest", "[unit]") {
  // Given rate first: the paths sort concurrency < rate, so concurrency varies slowest.
  const auto x = extract_lists(argv({"aiperf", "profile", "--request-rate", "5,10", "--concurrency", "1,2,4"}));
  const auto pts = expand(x.parameters, aiperf::cli::sweep::SweepType::kGrid);
  REQUIRE(pts.size() == 6);
  CHECK(pts[0].dir_name == "concurrency_1__rate_5.0");
  CHECK(pts[1].dir_name == "concurrency_1__rate_10.0");
  CHECK(pts[2].dir_name == "concurrency_2__rate_5.0");
  CHECK(pts[5].dir_name == "concurrency_4__rate_10.0");
  CHECK(pts[5].index == 5);
  CHECK(pts[3].label == "phases.profiling.concurrency=2, phases.profiling.rate=10.0");
  CHECK(point_args(x, pts[3]) == argv({"aiperf", "profile", "--request-rate", "10", "--concurrency", "2"}));
}

TEST_CASE("zip: element-wise, lists of different lengths are refused", "[unit]") {
  const auto x = extract_lists(argv({"aiperf", "profile", "--concurrency", "1,2,4", "--isl", "100,200,300"}));
  const auto pts = expand(x.parameters, aiperf::cli::sweep::SweepType::kZip);
  REQUIRE(pts.size() == 3);
  CHECK(pts[0].dir_name == "mean_100__concurrency_1");  // datasets.* sorts before phases.*
  CHECK(pts[2].dir_name == "mean_300__concurrency_4");
  CHECK(point_args(x, pts[1]) == argv({"aiperf", "profile", "--concurrency", "2", "--isl", "200"}));
  const auto y = extract_lists(argv({"aiperf", "profile", "--concurrency", "1,2,4", "--request-rate", "1,2"}));
  CHECK_THROWS_WITH(expand(y.parameters, aiperf::cli::sweep::SweepType::kZip),
                    "--sweep-type zip: zip sweep parameters must all have equal length; got "
                    "{'phases.profiling.concurrency': 3, 'phases.profiling.rate': 2}.");
  CHECK(expand(y.parameters, aiperf::cli::sweep::SweepType::kGrid).size() == 6);
}

TEST_CASE("display names: the leaf, or the whole path when two leaves collide", "[unit]") {
  const auto x = extract_lists(argv({"aiperf", "profile", "--isl", "1,2", "--osl", "3,4", "--concurrency", "1,2"}));
  const auto names = display_names(expand(x.parameters, aiperf::cli::sweep::SweepType::kGrid));
  REQUIRE(names.size() == 3);
  CHECK(names[0] == std::make_pair(std::string("datasets.main.prompts.isl.mean"), std::string("datasets.main.prompts.isl.mean")));
  CHECK(names[2] == std::make_pair(std::string("phases.profiling.concurrency"), std::string("concurrency")));
}

TEST_CASE("python_str prints numbers as Python's str()", "[unit]") {
  CHECK(python_str(10) == "10");
  CHECK(python_str(10.0) == "10.0");
  CHECK(python_str(0.5) == "0.5");
  CHECK(python_str(1e-05) == "1e-05");
  CHECK(python_str(0.0001) == "0.0001");
  CHECK(python_str(1e16) == "1e+16");
  CHECK(python_str(123.25) == "123.25");
  CHECK(python_str(-2.5) == "-2.5");
  CHECK(python_str(1234567.0) == "1234567.0");
}

TEST_CASE("the sweep type and parameter sweep mode keep their option spellings", "[unit]") {
  using aiperf::config::parse_enum;
  using aiperf::config::to_string;
  CHECK(to_string(SweepType::kGrid) == "grid");
  CHECK(to_string(SweepType::kZip) == "zip");
  CHECK(parse_enum<SweepType>("zip") == SweepType::kZip);
  CHECK_FALSE(parse_enum<SweepType>("sobol").has_value());
  CHECK(to_string(ParameterSweepMode::kRepeated) == "repeated");
  CHECK(to_string(ParameterSweepMode::kIndependent) == "independent");
  CHECK(parse_enum<ParameterSweepMode>("independent") == ParameterSweepMode::kIndependent);
  CHECK_FALSE(parse_enum<ParameterSweepMode>("grid").has_value());
}
