// Page sets that online policies keep up to date as windows are played, so that a decision costs
// in proportion to the pages whose standing changed rather than to every page ever sampled.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// Appends the page at `lo` to ranges built in address order, merged where addresses touch.
inline void append_page(std::vector<AddressRange>& out, std::uint64_t lo, std::uint64_t page) {
  if (!out.empty() && out.back().hi == lo) {
    out.back().hi = lo + page;
  } else {
    out.push_back({lo, lo + page});
  }
}

// A set of page ids as a bitmap: membership in O(1), ranges in O(pages / 64 + members).
class PageBits {
 public:
  void reset(std::size_t pages) {
    words_.assign((pages + 63) / 64, 0);
    size_ = 0;
  }
  bool has(std::uint32_t id) const { return (words_[id / 64] >> (id % 64)) & 1U; }
  void insert(std::uint32_t id) {
    size_ += has(id) ? 0 : 1;
    words_[id / 64] |= std::uint64_t{1} << (id % 64);
  }
  void erase(std::uint32_t id) {
    size_ -= has(id) ? 1 : 0;
    words_[id / 64] &= ~(std::uint64_t{1} << (id % 64));
  }
  std::size_t size() const { return size_; }
  // The members' pages as ascending ranges, merged where their addresses touch (as
  // ranges_of_pages makes them).
  // Calls f(id) for each member, ascending.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
        f(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
    }
  }
  void ranges(const PreparedPair& pair, std::vector<AddressRange>& out) const {
    out.clear();
    const std::uint64_t page = pair.page_bytes();
    for_each([&](std::uint32_t id) { append_page(out, pair.pages[id], page); });
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

// The k best pages under a changing key (larger key first, ties: lower id), kept as two heaps
// with positions: the members' worst on top of one, the others' best on top of the other. A key
// change costs O(log pages) and moves at most one page across; `members` mirrors the top k.
class TopK {
 public:
  void reset(std::size_t pages, std::size_t k) {
    k_ = k;
    key_.assign(pages, 0);
    where_.assign(pages, kAbsent);
    in_.clear();
    out_.clear();
    members.reset(pages);
  }
  bool tracked(std::uint32_t id) const { return where_[id] != kAbsent; }
  std::uint64_t key(std::uint32_t id) const { return key_[id]; }
  // Adds page `id` with `key`, or changes its key.
  void set(std::uint32_t id, std::uint64_t key) {
    if (!tracked(id)) {
      key_[id] = key;
      push(out_, false, id);
    } else {
      key_[id] = key;
      Heap& h = (where_[id] & kInFlag) != 0 ? in_ : out_;
      const bool in = &h == &in_;
      const std::size_t at = where_[id] & ~kInFlag;
      sift_up(h, in, at);
      sift_down(h, in, where_[id] & ~kInFlag);
    }
    balance();
  }

  PageBits members;

 private:
  using Heap = std::vector<std::uint32_t>;
  static constexpr std::uint32_t kAbsent = 0xffffffffU;
  static constexpr std::uint32_t kInFlag = 0x80000000U;

  bool better(std::uint32_t a, std::uint32_t b) const {
    return key_[a] != key_[b] ? key_[a] > key_[b] : a < b;
  }
  // The members' heap keeps its worst on top, the others' heap its best.
  bool above(bool in, std::uint32_t a, std::uint32_t b) const {
    return in ? better(b, a) : better(a, b);
  }
  void place(Heap& h, bool in, std::size_t at) {
    where_[h[at]] = static_cast<std::uint32_t>(at) | (in ? kInFlag : 0);
  }
  void sift_up(Heap& h, bool in, std::size_t at) {
    while (at > 0 && above(in, h[at], h[(at - 1) / 2])) {
      std::swap(h[at], h[(at - 1) / 2]);
      place(h, in, at);
      at = (at - 1) / 2;
    }
    place(h, in, at);
  }
  void sift_down(Heap& h, bool in, std::size_t at) {
    for (;;) {
      std::size_t top = at;
      for (std::size_t c = 2 * at + 1; c <= 2 * at + 2 && c < h.size(); ++c) {
        if (above(in, h[c], h[top])) top = c;
      }
      if (top == at) break;
      std::swap(h[at], h[top]);
      place(h, in, at);
      at = top;
    }
    place(h, in, at);
  }
  void push(Heap& h, bool in, std::uint32_t id) {
    h.push_back(id);
    sift_up(h, in, h.size() - 1);
    if (in) members.insert(id);
  }
  std::uint32_t pop(Heap& h, bool in) {
    const std::uint32_t top = h.front();
    h.front() = h.back();
    h.pop_back();
    if (!h.empty()) sift_down(h, in, 0);
    if (in) members.erase(top);
    return top;
  }
  void balance() {
    while (in_.size() < k_ && !out_.empty())
      push(in_, true, pop(out_, false));
    while (!in_.empty() && !out_.empty() && better(out_.front(), in_.front())) {
      const std::uint32_t up = pop(out_, false);
      const std::uint32_t down = pop(in_, true);
      push(in_, true, up);
      push(out_, false, down);
    }
  }

  std::size_t k_ = 0;
  std::vector<std::uint64_t> key_;
  std::vector<std::uint32_t> where_;  // heap index, kInFlag for the members' heap
  Heap in_, out_;
};

}  // namespace sysgym::memtier
