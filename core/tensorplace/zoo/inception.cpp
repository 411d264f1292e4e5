#include "tensorplace/zoo/inception.hpp"

namespace sysgym::tensorplace {
namespace {

// conv (no bias) + batch norm + ReLU; kh x kw, "same" padding unless `valid`.
Act unit(GraphBuilder& b, const Act& x, std::uint32_t out, std::uint32_t kh, std::uint32_t kw,
         std::uint32_t stride, bool valid, const std::string& name) {
  const std::uint32_t ph = valid ? 0 : (kh - 1) / 2;
  const std::uint32_t pw = valid ? 0 : (kw - 1) / 2;
  const Act y = b.conv(x, out, kh, kw, stride, ph, pw, false, name);
  return b.relu(b.batchnorm(y, name + ".bn"), name + ".relu");
}

Act unit(GraphBuilder& b, const Act& x, std::uint32_t out, std::uint32_t k,
         const std::string& name) {
  return unit(b, x, out, k, k, 1, false, name);
}

Act stem(GraphBuilder& b, Act x) {
  x = unit(b, x, 32, 3, 3, 2, true, "stem.1");
  x = unit(b, x, 32, 3, 3, 1, true, "stem.2");
  x = unit(b, x, 64, 3, "stem.3");
  x = b.concat({b.maxpool(x, 3, 2, 0, "stem.4a"), unit(b, x, 96, 3, 3, 2, true, "stem.4b")},
               "stem.4");
  const Act left = unit(b, unit(b, x, 64, 1, "stem.5a.1"), 96, 3, 3, 1, true, "stem.5a.2");
  Act right = unit(b, x, 64, 1, "stem.5b.1");
  right = unit(b, right, 64, 1, 7, 1, false, "stem.5b.2");
  right = unit(b, right, 64, 7, 1, 1, false, "stem.5b.3");
  right = unit(b, right, 96, 3, 3, 1, true, "stem.5b.4");
  x = b.concat({left, right}, "stem.5");
  return b.concat({unit(b, x, 192, 3, 3, 2, true, "stem.6a"), b.maxpool(x, 3, 2, 0, "stem.6b")},
                  "stem.6");
}

Act block_a(GraphBuilder& b, const Act& x, const std::string& n) {
  const Act b0 = unit(b, x, 96, 1, n + ".b0");
  const Act b1 = unit(b, unit(b, x, 64, 1, n + ".b1.1"), 96, 3, n + ".b1.2");
  Act b2 = unit(b, unit(b, x, 64, 1, n + ".b2.1"), 96, 3, n + ".b2.2");
  b2 = unit(b, b2, 96, 3, n + ".b2.3");
  const Act b3 = unit(b, b.avgpool(x, 3, 1, 1, n + ".b3.pool"), 96, 1, n + ".b3");
  return b.concat({b0, b1, b2, b3}, n);
}

Act reduction_a(GraphBuilder& b, const Act& x) {
  const Act b0 = unit(b, x, 384, 3, 3, 2, true, "red_a.b0");
  Act b1 = unit(b, unit(b, x, 192, 1, "red_a.b1.1"), 224, 3, "red_a.b1.2");
  b1 = unit(b, b1, 256, 3, 3, 2, true, "red_a.b1.3");
  return b.concat({b0, b1, b.maxpool(x, 3, 2, 0, "red_a.pool")}, "red_a");
}

Act block_b(GraphBuilder& b, const Act& x, const std::string& n) {
  const Act b0 = unit(b, x, 384, 1, n + ".b0");
  Act b1 = unit(b, x, 192, 1, n + ".b1.1");
  b1 = unit(b, b1, 224, 1, 7, 1, false, n + ".b1.2");
  b1 = unit(b, b1, 256, 7, 1, 1, false, n + ".b1.3");
  Act b2 = unit(b, x, 192, 1, n + ".b2.1");
  b2 = unit(b, b2, 192, 7, 1, 1, false, n + ".b2.2");
  b2 = unit(b, b2, 224, 1, 7, 1, false, n + ".b2.3");
  b2 = unit(b, b2, 224, 7, 1, 1, false, n + ".b2.4");
  b2 = unit(b, b2, 256, 1, 7, 1, false, n + ".b2.5");
  const Act b3 = unit(b, b.avgpool(x, 3, 1, 1, n + ".b3.pool"), 128, 1, n + ".b3");
  return b.concat({b0, b1, b2, b3}, n);
}

Act reduction_b(GraphBuilder& b, const Act& x) {
  const Act b0 = unit(b, unit(b, x, 192, 1, "red_b.b0.1"), 192, 3, 3, 2, true, "red_b.b0.2");
  Act b1 = unit(b, x, 256, 1, "red_b.b1.1");
  b1 = unit(b, b1, 256, 1, 7, 1, false, "red_b.b1.2");
  b1 = unit(b, b1, 320, 7, 1, 1, false, "red_b.b1.3");
  b1 = unit(b, b1, 320, 3, 3, 2, true, "red_b.b1.4");
  return b.concat({b0, b1, b.maxpool(x, 3, 2, 0, "red_b.pool")}, "red_b");
}

Act block_c(GraphBuilder& b, const Act& x, const std::string& n) {
  const Act b0 = unit(b, x, 256, 1, n + ".b0");
  const Act b1 = unit(b, x, 384, 1, n + ".b1");
  const Act b1a = unit(b, b1, 256, 1, 3, 1, false, n + ".b1a");
  const Act b1b = unit(b, b1, 256, 3, 1, 1, false, n + ".b1b");
  Act b2 = unit(b, x, 384, 1, n + ".b2.1");
  b2 = unit(b, b2, 448, 3, 1, 1, false, n + ".b2.2");
  b2 = unit(b, b2, 512, 1, 3, 1, false, n + ".b2.3");
  const Act b2a = unit(b, b2, 256, 1, 3, 1, false, n + ".b2a");
  const Act b2b = unit(b, b2, 256, 3, 1, 1, false, n + ".b2b");
  const Act b3 = unit(b, b.avgpool(x, 3, 1, 1, n + ".b3.pool"), 256, 1, n + ".b3");
  return b.concat({b0, b1a, b1b, b2a, b2b, b3}, n);
}

}  // namespace

void inception_v4(GraphBuilder& b) {
  Act x = stem(b, b.input(3, 299, 299));
  for (std::size_t i = 1; i <= 4; ++i)
    x = block_a(b, x, layer_name("a", i));
  x = reduction_a(b, x);
  for (std::size_t i = 1; i <= 7; ++i)
    x = block_b(b, x, layer_name("b", i));
  x = reduction_b(b, x);
  for (std::size_t i = 1; i <= 3; ++i)
    x = block_c(b, x, layer_name("c", i));
  b.loss(b.fc(b.global_avgpool(x, "pool"), 1000, "fc"));
}

}  // namespace sysgym::tensorplace
