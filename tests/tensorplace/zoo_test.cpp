// The zoo against the published architectures: parameter counts, forward FLOPs and activation
// sizes from the papers and torchvision, and the structure of the generated iteration.
#include "tensorplace/zoo/zoo.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.hpp"

namespace sysgym::tensorplace {
namespace {

double forward_flops_per_image(const Graph& g) {
  double flops = 0;
  for (const Kernel& k : g.kernels())
    flops += (k.op == "conv" || k.op == "fc") ? k.flops : 0;
  return flops / g.batch();
}

TEST(TensorZoo, ParameterCountsMatchThePublishedModels) {
  // torchvision's counts (weights, biases, batch-norm scales and shifts).
  EXPECT_EQ(zoo_parameters("vgg16"), 138357544u);
  EXPECT_EQ(zoo_parameters("vgg19"), 143667240u);
  EXPECT_EQ(zoo_parameters("resnet50"), 25557032u);
  EXPECT_EQ(zoo_parameters("resnet101"), 44549160u);
  EXPECT_EQ(zoo_parameters("resnet152"), 60192808u);
  EXPECT_EQ(zoo_parameters("densenet121"), 7978856u);
  EXPECT_EQ(zoo_parameters("densenet169"), 14149480u);
  EXPECT_EQ(zoo_parameters("densenet201"), 20013928u);
  // vDNN's VGG-416: VGG-16 plus 80 convolutions (3x3, C to C, with bias) in each group.
  const std::uint64_t widths[] = {64, 128, 256, 512, 512};
  std::uint64_t extra = 0;
  for (std::uint64_t c : widths)
    extra += 80 * (9 * c * c + c);
  EXPECT_EQ(zoo_parameters("vgg416"), 138357544u + extra);
  // Published to three digits: ResNet-200 64.7 M, DenseNet-264 33.3 M, Inception v4 42.7 M.
  EXPECT_NEAR(static_cast<double>(zoo_parameters("resnet200")), 64.7e6, 0.01 * 64.7e6);
  EXPECT_NEAR(static_cast<double>(zoo_parameters("densenet264")), 33.3e6, 0.01 * 33.3e6);
  EXPECT_NEAR(static_cast<double>(zoo_parameters("inception_v4")), 42.7e6, 0.01 * 42.7e6);
}

TEST(TensorZoo, ForwardFlopsMatchThePublishedMultiplyAdds) {
  // Multiply-adds per image (each two FLOPs): VGG-16 15.5 G, VGG-19 19.6 G, ResNet-50 4.1 G,
  // ResNet-152 11.5 G, DenseNet-121 2.9 G, Inception v4 12.3 G.
  const std::pair<const char*, double> published[] = {
      {"vgg16", 15.5e9},     {"vgg19", 19.6e9},      {"resnet50", 4.1e9},
      {"resnet152", 11.5e9}, {"densenet121", 2.9e9}, {"inception_v4", 12.3e9}};
  for (const auto& [model, macs] : published)
    EXPECT_NEAR(forward_flops_per_image(zoo_graph(model, 1)) / 2, macs, 0.04 * macs) << model;
}

TEST(TensorZoo, ActivationSizesFollowTheLayerShapes) {
  // VGG-19's convolution outputs per image: 224^2 x 64 x 2, 112^2 x 128 x 2, 56^2 x 256 x 4,
  // 28^2 x 512 x 4, 14^2 x 512 x 4 floats.
  const Graph g = zoo_graph("vgg19", 4);
  std::uint64_t conv_out = 0;
  for (const Kernel& k : g.kernels())
    conv_out += k.op == "conv" ? g.tensor(k.outputs[0]).bytes : 0;
  EXPECT_EQ(conv_out, 4u * 4u * 14852096u);
  // Activations dominate and grow with the batch: peak live bytes at batch 64 minus batch 32 is
  // 32 images' worth, parameters and their gradients aside.
  const std::uint64_t p32 = zoo_graph("resnet50", 32).peak_live_bytes();
  const std::uint64_t p64 = zoo_graph("resnet50", 64).peak_live_bytes();
  const std::uint64_t params = 4 * zoo_parameters("resnet50");
  EXPECT_GT(p32, params);
  EXPECT_NEAR(static_cast<double>(p64 - p32), static_cast<double>(p32 - params), 0.05 * p32);
}

TEST(TensorZoo, EveryModelIsAWholeTrainingIteration) {
  for (const ZooModel& m : zoo_models()) {
    if (m.name == "vgg416") continue;  // the same generator as vgg16, 3,300 kernels
    const Graph g = zoo_graph(m.name, 2);
    std::size_t params = 0;
    std::size_t updates = 0;
    for (std::uint32_t t = 0; t < g.tensors().size(); ++t)
      params += g.tensor(t).role == Role::kParameter ? 1 : 0;
    for (const Kernel& k : g.kernels())
      updates += k.op == "sgd" ? 1 : 0;
    EXPECT_EQ(updates, params) << m.name << ": one SGD update per parameter";
    // Every gradient computed is read (by an update, an earlier layer's backward or a sum).
    for (std::uint32_t t = 0; t < g.tensors().size(); ++t) {
      if (g.tensor(t).name.rfind("d:", 0) == 0) {
        EXPECT_GE(g.users(t).size(), 2u) << m.name << ": " << g.tensor(t).name;
      }
    }
    EXPECT_EQ(g.kernels().back().op, "sgd") << m.name;
  }
}

TEST(TensorZoo, UnknownModelsAndBatchesAreNamedErrors) {
  EXPECT_THROW(zoo_graph("resnet51", 8), UnknownNameError);
  try {
    zoo_graph("resnet51", 8);
  } catch (const UnknownNameError& e) {
    EXPECT_NE(std::string(e.what()).find("resnet50"), std::string::npos) << e.what();
  }
  EXPECT_THROW(zoo_graph("vgg19", 0), ConfigError);
}

}  // namespace
}  // namespace sysgym::tensorplace
