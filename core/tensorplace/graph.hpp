// One training iteration of a DNN as tensorplace sees it (AutoTM's model): kernels in execution
// order, each reading and writing tensors; tensors with a size, a role and the memory pools they
// may live in. Liveness is derived, not given: an intermediate lives from the kernel that
// produces it to its last reader; parameters, constants and io tensors live across iterations,
// so from the first kernel to the last.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sysgym::tensorplace {

// Allocations are rounded up to pages, as AutoTM's allocator does.
inline constexpr std::uint64_t kTensorAlignment = 4096;
// A kernel's time table has one entry per placement of its operands (2^operands).
inline constexpr std::size_t kMaxTableOperands = 16;

enum class Role : std::uint8_t { kIntermediate, kParameter, kConstant, kIo };
const char* role_name(Role role);
Role parse_role(const std::string& text, const std::string& context);  // UnknownNameError

enum Pool : std::uint8_t { kFast = 0, kSlow = 1 };

struct Tensor {
  std::string name;
  std::uint64_t bytes = 0;  // as given; allocations take allocated_bytes()
  Role role = Role::kIntermediate;
  bool fast_allowed = true;
  bool slow_allowed = true;
  std::uint64_t allocated_bytes() const;
};

struct Kernel {
  std::string name;
  std::string op;  // what it computes (conv, conv_bwd_data, relu, sgd ...): for people and plots
  std::vector<std::uint32_t> inputs;
  std::vector<std::uint32_t> outputs;
  double flops = 0;  // for the roofline model
  // Seconds per placement of the operands, indexed by a bitmask: bit i set = operand i (inputs
  // then outputs) in slow memory. Empty: the roofline model times the kernel.
  std::vector<double> times;
  std::size_t operand_count() const { return inputs.size() + outputs.size(); }
  std::uint32_t operand(std::size_t i) const;
};

// Kernel index range [first, last] in which a tensor must be allocated.
struct Lifetime {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};

class Graph {
 public:
  // Checks the graph and derives lifetimes. Throws ConfigError naming the tensor or kernel at
  // fault: duplicate or empty names, zero bytes, a tensor in no pool, an unknown operand, an
  // intermediate read before it is produced (the order is not an execution order: a cycle) or
  // produced twice or never, a constant written, a time table of the wrong size or a negative
  // time or flop count.
  Graph(std::string model, std::uint32_t batch, std::vector<Tensor> tensors,
        std::vector<Kernel> kernels);

  const std::string& model() const { return model_; }
  std::uint32_t batch() const { return batch_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  const std::vector<Kernel>& kernels() const { return kernels_; }
  const Tensor& tensor(std::uint32_t t) const { return tensors_[t]; }
  const Kernel& kernel(std::uint32_t k) const { return kernels_[k]; }
  const Lifetime& lifetime(std::uint32_t t) const { return lifetimes_[t]; }
  // The kernels reading or writing tensor t, in order.
  const std::vector<std::uint32_t>& users(std::uint32_t t) const { return users_[t]; }
  // The tensors whose lifetime starts at kernel k (every persistent one at kernel 0), and the
  // intermediates whose lifetime ends there, in index order.
  const std::vector<std::uint32_t>& born_at(std::uint32_t k) const { return born_[k]; }
  const std::vector<std::uint32_t>& dying_at(std::uint32_t k) const { return dying_[k]; }

  // Allocated bytes of the tensors live at each kernel, and their maximum.
  std::vector<std::uint64_t> live_bytes() const;
  std::uint64_t peak_live_bytes() const;
  // Allocated bytes of kernel k's operands (each tensor once): what must fit at once when every
  // operand has to be in fast memory.
  std::uint64_t working_set_bytes(std::uint32_t k) const;
  // Sum of the given bytes of the tensors with `role`.
  std::uint64_t bytes_of(Role role) const;
  double total_flops() const;

 private:
  std::string model_;
  std::uint32_t batch_;
  std::vector<Tensor> tensors_;
  std::vector<Kernel> kernels_;
  std::vector<Lifetime> lifetimes_;
  std::vector<std::vector<std::uint32_t>> users_;
  std::vector<std::vector<std::uint32_t>> born_, dying_;
};

}  // namespace sysgym::tensorplace
