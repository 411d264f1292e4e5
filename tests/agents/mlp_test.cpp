#include "agents/mlp.hpp"

#include <gtest/gtest.h>

#include "agents/adam.hpp"
#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym::agents {
namespace {

Eigen::MatrixXd random_matrix(int rows, int cols, Rng& rng) {
  Eigen::MatrixXd m(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r)
      m(r, c) = 2 * rng.uniform() - 1;
  return m;
}

// Loss = 0.5 * sum((y - target)^2): dLoss/dy = y - target.
double loss(const Mlp& mlp, const Eigen::MatrixXd& x, const Eigen::MatrixXd& target) {
  return 0.5 * (mlp.predict(x) - target).squaredNorm();
}

TEST(Mlp, BackwardMatchesFiniteDifferences) {
  Rng rng(3);
  Mlp mlp({5, 16, 8, 3}, rng);
  const Eigen::MatrixXd x = random_matrix(5, 7, rng);
  const Eigen::MatrixXd target = random_matrix(3, 7, rng);
  mlp.backward(mlp.forward(x) - target);
  const double h = 1e-6;
  for (std::size_t l = 0; l < mlp.layers().size(); ++l) {
    DenseLayer& layer = mlp.layers()[l];
    for (Eigen::Index i = 0; i < layer.w.size(); i += 3) {
      const double saved = layer.w.data()[i];
      layer.w.data()[i] = saved + h;
      const double up = loss(mlp, x, target);
      layer.w.data()[i] = saved - h;
      const double down = loss(mlp, x, target);
      layer.w.data()[i] = saved;
      EXPECT_NEAR(layer.grad_w.data()[i], (up - down) / (2 * h), 1e-6)
          << "layer " << l << " w" << i;
    }
    for (Eigen::Index i = 0; i < layer.b.size(); ++i) {
      const double saved = layer.b[i];
      layer.b[i] = saved + h;
      const double up = loss(mlp, x, target);
      layer.b[i] = saved - h;
      const double down = loss(mlp, x, target);
      layer.b[i] = saved;
      EXPECT_NEAR(layer.grad_b[i], (up - down) / (2 * h), 1e-6) << "layer " << l << " b" << i;
    }
  }
}

TEST(Mlp, ActAgreesWithTheBatchedPassAndSurvivesJson) {
  Rng rng(4);
  Mlp mlp({6, 32, 4}, rng);
  const Eigen::MatrixXd x = random_matrix(6, 3, rng);
  const Eigen::MatrixXd batch = mlp.predict(x);
  std::vector<double> out;
  for (int c = 0; c < 3; ++c) {
    mlp.act(std::span<const double>(x.col(c).data(), 6), out);
    for (int r = 0; r < 4; ++r)
      EXPECT_NEAR(out[static_cast<std::size_t>(r)], batch(r, c), 1e-12);
  }
  // A saved network acts bit for bit like the original.
  const Mlp loaded = Mlp::from_json(nlohmann::json::parse(mlp.to_json().dump()));
  std::vector<double> again;
  mlp.act(std::span<const double>(x.col(0).data(), 6), out);
  loaded.act(std::span<const double>(x.col(0).data(), 6), again);
  EXPECT_EQ(out, again);
  EXPECT_EQ(mlp.parameter_count(), 6u * 32 + 32 + 32 * 4 + 4);
}

TEST(Mlp, SameSeedSameNetwork) {
  Rng a(9), b(9);
  EXPECT_EQ(Mlp({3, 8, 2}, a).to_json(), Mlp({3, 8, 2}, b).to_json());
}

TEST(Mlp, BadShapesAndFilesAreClearErrors) {
  Rng rng(1);
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp({4}, rng); }),
            "a network needs at least an input and an output size");
  EXPECT_EQ(testing::message_of<ConfigError>([&] {
              Mlp({4, 0}, rng);
            }),
            "layer size 0 is outside [1, 65536]");
  nlohmann::json j = Mlp({2, 3, 1}, rng).to_json();
  j["layers"][1]["w"][0].push_back(1.0);
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp::from_json(j); }),
            "layer 1 row 0 should be a list of 3 numbers");
  j = Mlp({2, 3, 1}, rng).to_json();
  j["layers"][0]["b"][2] = nullptr;  // what a NaN becomes in JSON
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp::from_json(j); }),
            "layer 0 biases holds a value that is not a number");
  j["layers"].erase(1);
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp::from_json(j); }),
            "the network lists 1 layers for 3 sizes (one layer between each two sizes)");
}

// A policy file is outside input: its sizes must not make sysgym allocate gigabytes before its
// weights are found missing.
TEST(Mlp, HugeSizesAreRefusedBeforeAllocating) {
  Rng rng(1);
  EXPECT_EQ(testing::message_of<ConfigError>([&] {
              Mlp({65536, 65536, 65536}, rng);
            }),
            "a network of sizes [65536, 65536, 65536] has 8590065664 parameters, more than the "
            "33554432 sysgym allocates");
  const nlohmann::json huge = {{"sizes", {65536, 65536}}, {"layers", {nlohmann::json::object()}}};
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp::from_json(huge); }),
            "a network of sizes [65536, 65536] has 4295032832 parameters, more than the 33554432 "
            "sysgym allocates");
  const nlohmann::json wrapped = {{"sizes", {4294967297LL, 2}},
                                  {"layers", {nlohmann::json::object()}}};
  EXPECT_EQ(testing::message_of<ConfigError>([&] { Mlp::from_json(wrapped); }),
            "network sizes must be integers in [1, 65536], got 4294967297");
}

TEST(Adam, FitsASmoothFunction) {
  Rng rng(5);
  Mlp mlp({1, 32, 32, 1}, rng);
  Adam adam(mlp, {.learning_rate = 3e-3});
  Eigen::MatrixXd x(1, 64), y(1, 64);
  for (int i = 0; i < 64; ++i) {
    x(0, i) = -1 + 2.0 * i / 63;
    y(0, i) = x(0, i) * x(0, i) - 0.5 * x(0, i);
  }
  const double before = loss(mlp, x, y);
  for (int step = 0; step < 1500; ++step) {
    mlp.backward((mlp.forward(x) - y) / 64.0);
    adam.step(mlp);
  }
  EXPECT_LT(loss(mlp, x, y), before / 100);
  EXPECT_EQ(adam.steps(), 1500);
}

}  // namespace
}  // namespace sysgym::agents
