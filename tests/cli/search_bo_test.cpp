// The native Bayesian-optimization planners (bayesian, optuna with tpe / gp / botorch): the
// numerical helpers, TPE's split and weights (Optuna's rules), the GP's fit, each sampler finding
// the optimum region of known functions within a budget, constraints (SLA filters) steering the
// search to the feasible side, the reference's convergence reasons, and determinism per seed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "search_bo_planner.h"
#include "search_gp.h"
#include "search_tpe.h"

using namespace aiperf::cli::search;
namespace bo = aiperf::cli::search::bo;

namespace {

Spec bo_spec(const std::string& planner, const std::string& sampler, int max_iterations, int initial = 5) {
  Spec s;
  s.planner = planner;
  s.optuna_sampler = sampler;
  s.metric = "output_token_throughput";
  s.stat = "avg";
  s.direction = "maximize";
  s.max_iterations = max_iterations;
  s.n_initial_points = initial;
  s.random_seed = 7;
  s.improvement_patience = 1000;  // the tests below stop on max_iterations unless they say
  s.plateau_window = 1000;
  return s;
}

aiperf::exporting::TrialResult trial(double throughput, double ttft_p95) {
  aiperf::exporting::TrialResult t;
  t.label = "run_0001";
  t.success = true;
  t.metrics["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", throughput}};
  t.metrics["time_to_first_token"] = {{"unit", "ms"}, {"p95", ttft_p95}};
  return t;
}

// Drives a planner to convergence with `f(point) -> trials`; returns the points asked (as JSON).
std::vector<nlohmann::json> drive(Planner& p, const std::function<Trials(const nlohmann::json&)>& f) {
  std::vector<nlohmann::json> asked;
  while (auto v = p.ask()) {
    asked.push_back(*v);
    p.tell(f(*v));
  }
  return asked;
}

// A capacity model: throughput grows with concurrency c until 24 slots saturate; TTFT p95 is
// 5 ms per request queued beyond... simply 5 c ms, so "TTFT p95 < 150" holds up to c = 29.
Trials capacity(const nlohmann::json& v) {
  const double c = v.get<double>();
  return {trial(100.0 * std::min(c, 24.0) + c, 5.0 * c)};
}

double best_value(const Planner& p, const Spec& spec) {
  const auto best = best_trials(spec, p.history());
  REQUIRE(!best.is_null());
  return best[0]["variation_values"][spec.space.front().path].get<double>();
}

}  // namespace

TEST_CASE("BO math: normal quantiles, log EI and tail masses agree with their definitions", "[unit]") {
  using namespace aiperf::cli::search::bo;
  for (double z : {-6.0, -2.5, -0.3, 0.0, 1.7, 5.0}) CHECK(norm_ppf(norm_cdf(z)) == Approx(z).margin(1e-9));
  CHECK(std::exp(log_h(0.0)) == Approx(norm_pdf(0.0)));
  CHECK(std::exp(log_h(2.0)) == Approx(norm_pdf(2.0) + 2.0 * norm_cdf(2.0)));
  // Both sides of the series switch at z = -20 agree.
  CHECK(log_h(-20.0 + 1e-9) == Approx(log_h(-20.0 - 1e-9)).epsilon(1e-9));
  CHECK(std::isfinite(log_h(-40.0)));
  CHECK(log_h(-40.0) < log_h(-39.0));
  CHECK(log_norm_mass(-1, 1) == Approx(std::log(norm_cdf(1) - norm_cdf(-1))));
  CHECK(log_norm_mass(10, 11) == Approx(log_norm_mass(-11, -10)));
  CHECK(std::isfinite(log_norm_mass(40, 41)));
  CHECK(log_norm_cdf(-35) == Approx(std::log(norm_cdf(-35))).epsilon(1e-6));
}

TEST_CASE("BO axes: int axes own [k - 0.5, k + 0.5], log axes live in log space", "[unit]") {
  using namespace aiperf::cli::search::bo;
  const Axis a = axis_of({"phases.profiling.concurrency", 1, 64, "int", "uniform"});
  CHECK(a.lo == 0.5);
  CHECK(a.hi == 64.5);
  CHECK(to_external(a, 0.5) == 1);
  CHECK(to_external(a, 64.49) == 64);
  CHECK(to_external(a, 10.49) == 10);
  const Axis l = axis_of({"phases.profiling.concurrency", 1, 1000, "int", "log-uniform"});
  CHECK(l.log);
  CHECK(l.lo == Approx(std::log(0.5)));
  CHECK(l.hi == Approx(std::log(1000.5)));
  CHECK(to_external(l, std::log(31.6)) == 32);
}

TEST_CASE("TPE: Optuna's gamma, weights and the feasibility-first split", "[unit]") {
  using namespace aiperf::cli::search::bo;
  CHECK(tpe_gamma(1) == 1);
  CHECK(tpe_gamma(10) == 1);
  CHECK(tpe_gamma(11) == 2);
  CHECK(tpe_gamma(300) == 25);
  CHECK(tpe_weights(3) == std::vector<double>{1, 1, 1});
  const auto w = tpe_weights(30);  // linspace(1/30, 1, 5) then 25 ones
  REQUIRE(w.size() == 30);
  CHECK(w[0] == Approx(1.0 / 30));
  CHECK(w[2] == Approx((1.0 / 30 + 1.0) / 2));
  CHECK(w[4] == Approx(1.0));
  CHECK(w[29] == 1.0);
  // 12 trials: gamma 2. The two best feasible losses are trials 7 and 3; an infeasible trial
  // with a better loss does not count.
  std::vector<Observation> obs(12);
  for (size_t i = 0; i < obs.size(); ++i) obs[i] = {{static_cast<double>(i)}, 10.0 + static_cast<double>(i), {}, 0};
  obs[7].loss = 1;
  obs[3].loss = 2;
  obs[5] = {{5}, -100, {3}, 3};
  CHECK(tpe_split_below(obs) == std::vector<size_t>{3, 7});
  // Without enough feasible trials the least violating infeasible ones fill the rest.
  std::vector<Observation> bad(11);
  for (size_t i = 0; i < bad.size(); ++i)
    bad[i] = {{static_cast<double>(i)}, 0, {20.0 - static_cast<double>(i)}, 20.0 - static_cast<double>(i)};
  CHECK(tpe_split_below(bad) == std::vector<size_t>{9, 10});
}

TEST_CASE("TPE prefers points near the good trials", "[unit]") {
  using namespace aiperf::cli::search::bo;
  const std::vector<Axis> axes{axis_of({"x", 0, 1, "real", "uniform"})};
  std::vector<Observation> obs;
  for (int i = 0; i <= 20; ++i) {
    const double x = i / 20.0;
    obs.push_back({{x}, (x - 0.3) * (x - 0.3), {}, 0});
  }
  CHECK(tpe_score(axes, obs, {0.3}) > tpe_score(axes, obs, {0.9}));
  Rng rng(1);
  const auto x = tpe_propose(axes, obs, rng);
  CHECK(std::abs(x[0] - 0.3) < 0.15);
}

TEST_CASE("GP: the fitted Matern-5/2 posterior interpolates smooth data", "[unit]") {
  using namespace aiperf::cli::search::bo;
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int i = 0; i <= 10; ++i) {
    x.push_back({i / 10.0});
    y.push_back(std::sin(6.0 * i / 10.0));
  }
  const GpModel gp = gp_fit(x, y);
  CHECK(gp.noise < 0.01);
  const auto [mean, var] = gp_predict(gp, {0.55});
  CHECK(mean == Approx(std::sin(3.3)).margin(0.05));
  CHECK(var < 0.01);
  const auto [m0, v0] = gp_predict(gp, {0.3});
  CHECK(m0 == Approx(std::sin(1.8)).margin(1e-2));
  CHECK(v0 < var + 1e-9);  // at a data point the variance is no larger than between them
}

TEST_CASE("Each sampler finds the optimum region of a 1-D function within 25 trials", "[unit]") {
  // Maximize -(c - 37)^2 over the integers 1..100.
  for (const std::string sampler : {"tpe", "gp", "botorch"}) {
    DYNAMIC_SECTION(sampler) {
      Spec spec = bo_spec("optuna", sampler, 25);
      spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
      BoPlanner p(spec);
      const auto asked = drive(p, [](const nlohmann::json& v) {
        const double c = v.get<double>();
        return Trials{trial(10000 - (c - 37) * (c - 37), 1)};
      });
      CHECK(asked.size() == 25);
      CHECK(p.convergence_reason() == "max_iterations");
      CHECK(std::abs(best_value(p, spec) - 37) <= (sampler == "tpe" ? 4 : 1));
    }
  }
}

TEST_CASE("GP and TPE find the optimum region of a 2-D function", "[unit]") {
  // Maximize a smooth bowl with its top at (0.7, 0.2) on [0, 1]^2.
  for (const std::string sampler : {"tpe", "gp"}) {
    DYNAMIC_SECTION(sampler) {
      Spec spec = bo_spec("optuna", sampler, sampler == "tpe" ? 40 : 25);
      spec.space.push_back({"phases.profiling.rate", 0, 1, "real", "uniform"});
      spec.space.push_back({"phases.profiling.concurrency", 0, 1, "real", "uniform"});
      BoPlanner p(spec);
      drive(p, [](const nlohmann::json& v) {
        REQUIRE(v.is_object());
        const double a = v["phases.profiling.rate"].get<double>(), b = v["phases.profiling.concurrency"].get<double>();
        return Trials{trial(100 - 100 * ((a - 0.7) * (a - 0.7) + (b - 0.2) * (b - 0.2)), 1)};
      });
      const auto best = best_trials(spec, p.history());
      const double a = best[0]["variation_values"]["phases.profiling.rate"].get<double>();
      const double b = best[0]["variation_values"]["phases.profiling.concurrency"].get<double>();
      const double tol = sampler == "tpe" ? 0.15 : 0.05;
      CHECK(std::abs(a - 0.7) < tol);
      CHECK(std::abs(b - 0.2) < tol);
    }
  }
}

TEST_CASE("The bayesian planner maximizes throughput under a TTFT SLA (constraint respected)", "[unit]") {
  // Feasible while 5 c < 150, i.e. c <= 29; throughput grows with c, so the answer is 29.
  for (const std::string planner : {"bayesian", "optuna"}) {
    DYNAMIC_SECTION(planner) {
      Spec spec = bo_spec(planner, planner == "optuna" ? "tpe" : "", 20);
      spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
      spec.sla_filters.push_back({"time_to_first_token", "p95", "lt", 150});
      BoPlanner p(spec);
      const auto asked = drive(p, capacity);
      const auto best = best_trials(spec, p.history());
      CHECK(best[0]["feasible"] == true);
      const double c = best[0]["variation_values"]["phases.profiling.concurrency"].get<double>();
      CHECK(c <= 29);
      CHECK(c >= (planner == "bayesian" ? 28 : 25));
      for (const auto& it : p.history())
        CHECK(it.feasible == (it.values["phases.profiling.concurrency"].get<double>() <= 29));
      // After the random start most proposals sit near the boundary.
      int near = 0;
      for (size_t i = 5; i < asked.size(); ++i) near += std::abs(asked[i].get<double>() - 29) <= 10 ? 1 : 0;
      CHECK(near >= (planner == "bayesian" ? 12 : 6));
      const auto boundary = p.boundary_summary();
      CHECK(boundary["swept_dim_path"] == "phases.profiling.concurrency");
      CHECK(boundary["feasible_max"]["value"] == static_cast<long long>(c));
      CHECK(boundary["infeasible_min"]["first_breach"]["metric_tag"] == "time_to_first_token");
    }
  }
}

TEST_CASE("A seed fixes the whole search; another seed gives another one", "[unit]") {
  for (const std::string sampler : {"tpe", "gp", "botorch"}) {
    DYNAMIC_SECTION(sampler) {
      Spec spec = bo_spec("optuna", sampler, 12, 3);
      spec.space.push_back({"phases.profiling.concurrency", 1, 200, "int", "log-uniform"});
      spec.sla_filters.push_back({"time_to_first_token", "p95", "lt", 150});
      BoPlanner a(spec), b(spec);
      const auto first = drive(a, capacity);
      CHECK(drive(b, capacity) == first);
      spec.random_seed = 8;
      BoPlanner c(spec);
      CHECK(drive(c, capacity) != first);
      for (const auto& v : first) {
        CHECK(v.is_number_integer());
        CHECK(v.get<long long>() >= 1);
        CHECK(v.get<long long>() <= 200);
      }
    }
  }
}

TEST_CASE("BO convergence: plateau_cv, improvement_patience and failed iterations", "[unit]") {
  Spec spec = bo_spec("optuna", "tpe", 50, 2);
  spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
  spec.plateau_window = 8;
  SECTION("a flat objective stops after plateau_window (8) iterations") {
    spec.improvement_patience = 10;
    BoPlanner p(spec);
    CHECK(drive(p, [](const nlohmann::json&) { return Trials{trial(500, 1)}; }).size() == 8);
    CHECK(p.convergence_reason() == "plateau_cv");
  }
  SECTION("no better objective for improvement_patience (10) iterations") {
    spec.improvement_patience = 10;
    BoPlanner p(spec);
    int n = 0;
    // 1000, then lower and alternating widely, so never a plateau and never an improvement.
    CHECK(drive(p, [&](const nlohmann::json&) {
            return Trials{trial(n++ == 0 ? 1000 : (n % 2 ? 100 : 900), 1)};
          }).size() == 11);
    CHECK(p.convergence_reason() == "improvement_patience");
  }
  SECTION("an iteration without a successful trial has no objective and is infeasible") {
    spec.max_iterations = 4;
    spec.sla_filters.push_back({"time_to_first_token", "p95", "lt", 150});
    BoPlanner p(spec);
    drive(p, [](const nlohmann::json&) {
      aiperf::exporting::TrialResult t;
      t.success = false;
      t.error = "No requests completed";
      return Trials{t};
    });
    REQUIRE(p.history().size() == 4);
    for (const auto& it : p.history()) {
      CHECK_FALSE(it.objective);
      CHECK_FALSE(it.feasible);
    }
    CHECK(best_trials(spec, p.history()).is_null());
    CHECK(p.boundary_summary()["feasible_max"].is_null());
  }
}

TEST_CASE("BO planner refusals and the bayesian preset's sampler", "[unit]") {
  Spec spec = bo_spec("bayesian", "", 10);
  spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
  CHECK(BoPlanner(spec).sampler() == "botorch");
  spec.planner = "optuna";
  CHECK(BoPlanner(spec).sampler() == "botorch");  // the reference's default sampler
  spec.optuna_sampler = "gp";
  CHECK(BoPlanner(spec).sampler() == "gp");
  spec.optuna_sampler = "botorch";
  spec.optuna_acquisition = "qlognehvi";
  CHECK_THROWS_AS(BoPlanner(spec), SearchError);
}

TEST_CASE("Pooled percentiles come from every trial's per-request values (numpy's interpolation)", "[unit]") {
  const auto dir = std::filesystem::temp_directory_path() / ("bo_pool_" + std::to_string(::getpid()));
  Trials trials;
  for (int k = 0; k < 2; ++k) {
    const auto d = dir / ("run_" + std::to_string(k));
    std::filesystem::create_directories(d);
    std::ofstream out(d / "profile_export.jsonl");
    for (int i = 1; i <= 50; ++i)
      out << R"({"metadata":{},"metrics":{"time_to_first_token":{"value":)" << (k * 50 + i)
          << R"(,"unit":"ms"}},"error":null})"
          << "\n";
    out << "{torn\n";
    aiperf::exporting::TrialResult t;
    t.success = true;
    t.dir = d.string();
    trials.push_back(t);
  }
  // 1..100 pooled: p95 at position 0.95 * 99 = 94.05 -> 95.05.
  CHECK(*pooled_percentile(trials, "time_to_first_token", "p95") == Approx(95.05));
  CHECK(*pooled_percentile(trials, "time_to_first_token", "p50") == Approx(50.5));
  CHECK_FALSE(pooled_percentile(trials, "time_to_first_token", "avg"));
  CHECK_FALSE(pooled_percentile(trials, "inter_token_latency", "p95"));
  trials[1].dir = (dir / "missing").string();
  CHECK_FALSE(pooled_percentile(trials, "time_to_first_token", "p95"));
  std::filesystem::remove_all(dir);
}

TEST_CASE(
    "regret terminator: --optuna-terminator regret stops once the regret bound is below the best point's trial spread",
    "[unit]") {
  // Two trials per point around 10000 - (c - 37)^2; from 20 iterations on the terminator compares
  // the GP's regret bound with the best iteration's trial-to-trial error.
  const auto run = [](double spread) {
    Spec spec = bo_spec("optuna", "gp", 40, 5);
    spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
    spec.optuna_terminator = "regret";
    BoPlanner p(spec);
    drive(p, [&](const nlohmann::json& v) {
      const double c = v.get<double>(), mean = 10000 - (c - 37) * (c - 37);
      return Trials{trial(mean - spread, 1), trial(mean + spread, 1)};
    });
    return std::make_pair(p.history().size(), p.convergence_reason());
  };
  const auto [noisy_n, noisy_reason] = run(5000);  // an error far above any regret bound
  CHECK(noisy_reason == "posterior_regret_bound");
  CHECK(noisy_n == 20);                         // the first iteration it may fire (Optuna's min_n_trials)
  const auto [exact_n, exact_reason] = run(0);  // no trial-to-trial error: it never fires
  CHECK(exact_reason == "max_iterations");
  CHECK(exact_n == 40);
  // One trial per point: no error estimate, never fires (the reference's never fire at all).
  Spec spec = bo_spec("optuna", "tpe", 25, 5);
  spec.space.push_back({"phases.profiling.concurrency", 1, 100, "int", "uniform"});
  spec.optuna_terminator = "regret";
  BoPlanner p(spec);
  drive(p, capacity);
  CHECK(p.convergence_reason() == "max_iterations");
}

TEST_CASE("regret_bound shrinks as the data pin the maximum down", "[unit]") {
  bo::Rng rng(3);
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  for (int i = 0; i <= 40; ++i) {
    x.push_back({i / 40.0});
    y.push_back(100 - 100 * (i / 40.0 - 0.5) * (i / 40.0 - 0.5));
  }
  const double dense = regret_bound(x, y, rng);
  CHECK(dense >= 0);
  CHECK(dense < 5);  // the values' spread among the top half is ~6; the bound is a fraction of it
}
