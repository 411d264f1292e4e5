// lower_bound that doubles its step from `first` before bisecting: O(log distance) instead of
// O(log n), for walking a sorted array with a series of increasing keys (ranges in address
// order over a page table, HBM ranges over a window's entries).
#pragma once

#include <algorithm>
#include <iterator>

namespace sysgym {

template <typename It, typename T>
It gallop_lower_bound(It first, It last, const T& value) {
  typename std::iterator_traits<It>::difference_type step = 1;
  It low = first;
  while (last - low > step && *(low + step) < value) {
    low += step;
    step *= 2;
  }
  return std::lower_bound(low, last - low > step ? low + step + 1 : last, value);
}

}  // namespace sysgym
