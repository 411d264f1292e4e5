// A read-only column of numbers that either owns its values or views memory kept alive by an
// owner (a mapped file, a JS ArrayBuffer copy). Large preprocessed columns are views, so loading
// a file allocates nothing in proportion to its size.
#pragma once

#include <memory>
#include <span>
#include <vector>

namespace sysgym {

template <typename T>
class Column {
 public:
  Column() = default;
  Column(std::vector<T> values)
      : owned_(std::move(values)), view_(owned_) {}  // NOLINT: implicit by design
  // `values` must stay valid while `owner` lives.
  Column(std::span<const T> values, std::shared_ptr<const void> owner)
      : view_(values), owner_(std::move(owner)) {}

  Column(const Column& other) { *this = other; }
  Column(Column&& other) noexcept { *this = std::move(other); }
  Column& operator=(const Column& other) {
    if (this == &other) return *this;
    owned_ = other.owned_;
    owner_ = other.owner_;
    view_ = other.is_view() ? other.view_ : std::span<const T>(owned_);
    return *this;
  }
  Column& operator=(Column&& other) noexcept {
    if (this == &other) return *this;
    const bool view = other.is_view();
    owned_ = std::move(other.owned_);
    owner_ = std::move(other.owner_);
    view_ = view ? other.view_ : std::span<const T>(owned_);
    other.view_ = {};
    return *this;
  }

  std::size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  const T* data() const { return view_.data(); }
  const T& operator[](std::size_t i) const { return view_[i]; }
  const T& front() const { return view_.front(); }
  const T& back() const { return view_.back(); }
  auto begin() const { return view_.begin(); }
  auto end() const { return view_.end(); }
  std::span<const T> span() const { return view_; }
  bool is_view() const { return owner_ != nullptr; }

  // An owned, writable copy of the values (for builders and tests that damage data on purpose).
  std::vector<T>& mutable_values() {
    if (is_view()) {
      owned_.assign(view_.begin(), view_.end());
      owner_.reset();
    }
    view_ = owned_;
    return owned_;
  }

 private:
  std::vector<T> owned_;
  std::span<const T> view_;
  std::shared_ptr<const void> owner_;
};

}  // namespace sysgym
