#include "tensorplace/zoo/zoo.hpp"

#include <functional>
#include <map>

#include "base/error.hpp"
#include "base/names.hpp"
#include "tensorplace/zoo/builder.hpp"
#include "tensorplace/zoo/inception.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr std::uint32_t kClasses = 1000;

// conv (no bias) + batch norm + ReLU, the unit of ResNet, DenseNet's transitions and Inception.
Act conv_bn_relu(GraphBuilder& b, const Act& x, std::uint32_t out, std::uint32_t k,
                 std::uint32_t stride, std::uint32_t pad, const std::string& name) {
  return b.relu(b.batchnorm(b.conv(x, out, k, stride, pad, false, name), name + ".bn"),
                name + ".relu");
}

void classifier(GraphBuilder& b, const Act& x) {
  b.loss(b.fc(b.global_avgpool(x, "pool"), kClasses, "fc"));
}

// VGG: groups of 3x3 convolutions with bias and ReLU, each group ending in a 2x2 max pool, then
// three fully connected layers. `extra` convolutions per group make vDNN's deep variants
// (VGG-416: 80 more in each of VGG-16's five groups: 413 convolutions + 3 fc).
void vgg(GraphBuilder& b, const std::vector<std::uint32_t>& convs, std::uint32_t extra) {
  Act x = b.input(3, 224, 224);
  const std::uint32_t widths[] = {64, 128, 256, 512, 512};
  for (std::size_t g = 0; g < 5; ++g) {
    for (std::uint32_t i = 0; i < convs[g] + extra; ++i) {
      const std::string name = layer_name("conv", g + 1, "_", i + 1);
      x = b.relu(b.conv(x, widths[g], 3, 1, 1, true, name), name + ".relu");
    }
    x = b.maxpool(x, 2, 2, 0, layer_name("pool", g + 1));
  }
  x = b.relu(b.fc(x, 4096, "fc6"), "fc6.relu");
  x = b.relu(b.fc(x, 4096, "fc7"), "fc7.relu");
  b.loss(b.fc(x, kClasses, "fc8"));
}

// ResNet with bottleneck blocks (1x1, 3x3 with the stride, 1x1 x4; a projection where the shape
// changes), as torchvision builds ResNet-50/101/152 and the same for ResNet-200.
void resnet(GraphBuilder& b, const std::vector<std::uint32_t>& blocks) {
  Act x = b.maxpool(conv_bn_relu(b, b.input(3, 224, 224), 64, 7, 2, 3, "conv1"), 3, 2, 1, "pool1");
  std::uint32_t width = 64;
  for (std::size_t stage = 0; stage < blocks.size(); ++stage, width *= 2) {
    for (std::uint32_t i = 0; i < blocks[stage]; ++i) {
      const std::string name = layer_name("res", stage + 2, ".", i);
      const std::uint32_t stride = (i == 0 && stage > 0) ? 2 : 1;
      Act y = conv_bn_relu(b, x, width, 1, 1, 0, name + ".a");
      y = conv_bn_relu(b, y, width, 3, stride, 1, name + ".b");
      y = b.batchnorm(b.conv(y, width * 4, 1, 1, 0, false, name + ".c"), name + ".c.bn");
      Act shortcut = x;
      if (i == 0) {
        shortcut = b.batchnorm(b.conv(x, width * 4, 1, stride, 0, false, name + ".proj"),
                               name + ".proj.bn");
      }
      x = b.relu(b.add(y, shortcut, name + ".add"), name + ".relu");
    }
  }
  classifier(b, x);
}

// DenseNet-BC (growth k, 1x1 bottleneck of 4k, compression 0.5), as torchvision builds it; each
// layer's new maps are concatenated onto the block's running features.
void densenet(GraphBuilder& b, const std::vector<std::uint32_t>& layers, std::uint32_t growth) {
  Act x = b.maxpool(conv_bn_relu(b, b.input(3, 224, 224), 64, 7, 2, 3, "conv0"), 3, 2, 1, "pool0");
  for (std::size_t block = 0; block < layers.size(); ++block) {
    for (std::uint32_t i = 0; i < layers[block]; ++i) {
      const std::string name = layer_name("dense", block + 1, ".", i + 1);
      Act y = b.relu(b.batchnorm(x, name + ".bn1"), name + ".relu1");
      y = b.conv(y, 4 * growth, 1, 1, 0, false, name + ".conv1");
      y = b.relu(b.batchnorm(y, name + ".bn2"), name + ".relu2");
      y = b.conv(y, growth, 3, 1, 1, false, name + ".conv2");
      x = b.concat({x, y}, name + ".concat");
    }
    if (block + 1 == layers.size()) break;
    const std::string name = layer_name("transition", block + 1);
    Act y = b.relu(b.batchnorm(x, name + ".bn"), name + ".relu");
    y = b.conv(y, x.channels / 2, 1, 1, 0, false, name + ".conv");
    x = b.avgpool(y, 2, 2, 0, name + ".pool");
  }
  classifier(b, b.relu(b.batchnorm(x, "bn5"), "relu5"));
}

struct Entry {
  std::string summary;
  std::function<void(GraphBuilder&)> build;
};

const std::map<std::string, Entry>& entries() {
  static const std::map<std::string, Entry> all = {
      {"vgg16",
       {"VGG-16: 13 3x3 convolutions, 3 fc (138.4 M parameters)",
        [](GraphBuilder& b) {
          vgg(b, {2, 2, 3, 3, 3}, 0);
        }}},
      {"vgg19",
       {"VGG-19: 16 3x3 convolutions, 3 fc (143.7 M parameters)",
        [](GraphBuilder& b) {
          vgg(b, {2, 2, 4, 4, 4}, 0);
        }}},
      {"vgg416",
       {"VGG-416 (vDNN): VGG-16 with 80 more convolutions per group, 413 + 3 fc",
        [](GraphBuilder& b) {
          vgg(b, {2, 2, 3, 3, 3}, 80);
        }}},
      {"resnet50",
       {"ResNet-50: bottleneck blocks 3-4-6-3 (25.6 M parameters)",
        [](GraphBuilder& b) {
          resnet(b, {3, 4, 6, 3});
        }}},
      {"resnet101",
       {"ResNet-101: bottleneck blocks 3-4-23-3 (44.5 M parameters)",
        [](GraphBuilder& b) {
          resnet(b, {3, 4, 23, 3});
        }}},
      {"resnet152",
       {"ResNet-152: bottleneck blocks 3-8-36-3 (60.2 M parameters)",
        [](GraphBuilder& b) {
          resnet(b, {3, 8, 36, 3});
        }}},
      {"resnet200",
       {"ResNet-200: bottleneck blocks 3-24-36-3 (64.7 M parameters)",
        [](GraphBuilder& b) {
          resnet(b, {3, 24, 36, 3});
        }}},
      {"densenet121",
       {"DenseNet-121 (k = 32): dense blocks 6-12-24-16 (8.0 M parameters)",
        [](GraphBuilder& b) {
          densenet(b, {6, 12, 24, 16}, 32);
        }}},
      {"densenet169",
       {"DenseNet-169 (k = 32): dense blocks 6-12-32-32 (14.1 M parameters)",
        [](GraphBuilder& b) {
          densenet(b, {6, 12, 32, 32}, 32);
        }}},
      {"densenet201",
       {"DenseNet-201 (k = 32): dense blocks 6-12-48-32 (20.0 M parameters)",
        [](GraphBuilder& b) {
          densenet(b, {6, 12, 48, 32}, 32);
        }}},
      {"densenet264",
       {"DenseNet-264 (k = 32): dense blocks 6-12-64-48 (33.3 M parameters)",
        [](GraphBuilder& b) {
          densenet(b, {6, 12, 64, 48}, 32);
        }}},
      {"inception_v4",
       {"Inception v4 (299 x 299): stem, 4 A, 7 B, 3 C blocks (42.7 M parameters)",
        [](GraphBuilder& b) { inception_v4(b); }}},
  };
  return all;
}

const Entry& entry(const std::string& model) {
  const auto found = entries().find(model);
  if (found == entries().end()) {
    std::vector<std::string> names;
    for (const auto& [name, e] : entries())
      names.push_back(name);
    throw UnknownNameError(unknown_name_message("model", model, names));
  }
  return found->second;
}

}  // namespace

const std::vector<ZooModel>& zoo_models() {
  static const std::vector<ZooModel> models = [] {
    std::vector<ZooModel> out;
    for (const auto& [name, e] : entries())
      out.push_back({name, e.summary});
    return out;
  }();
  return models;
}

Graph zoo_graph(const std::string& model, std::uint32_t batch) {
  const Entry& e = entry(model);
  GraphBuilder builder(model, batch);
  e.build(builder);
  return builder.finish();
}

std::uint64_t zoo_parameters(const std::string& model) {
  GraphBuilder builder(model, 1);
  entry(model).build(builder);
  return builder.parameter_elements();
}

}  // namespace sysgym::tensorplace
