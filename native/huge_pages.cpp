// The tool's global operator new: blocks of 2 MiB and more are 2 MiB-aligned and advised to be
// backed by transparent huge pages. Reading a trace fills columns of tens of megabytes; with 4 KiB
// pages the kernel took one fault per page (a 2 x 1 M-row CSV pair to an estimate: 22 k faults
// and 97 of 217 ms in the kernel; with huge pages 738 faults, 36 ms). Debian's kernels give huge
// pages only to memory that asks for them (transparent_hugepage=madvise), which glibc's allocator
// does only under an environment tunable. Smaller blocks, and every delete, are glibc's as before:
// operator delete calls free(), which takes blocks from aligned_alloc too. Not in sanitized builds,
// whose allocator is their own.
#include <cstdlib>
#include <new>

#ifndef SYSGYM_ASAN
#include <sys/mman.h>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

void* allocate(std::size_t bytes) {
  if (bytes >= kHugePage) {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    if (rounded >= bytes) {  // no wrap-around: otherwise malloc below refuses the size
      void* block = std::aligned_alloc(kHugePage, rounded);
      if (block != nullptr) {
        ::madvise(block, rounded, MADV_HUGEPAGE);  // advice only: failure changes nothing
        return block;
      }
    }
  }
  return std::malloc(bytes == 0 ? 1 : bytes);
}

}  // namespace

void* operator new(std::size_t bytes) {
  void* block = allocate(bytes);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

void* operator new[](std::size_t bytes) {
  return operator new(bytes);
}

void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate(bytes);
}

void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return allocate(bytes);
}

void operator delete(void* block) noexcept {
  std::free(block);
}

void operator delete[](void* block) noexcept {
  std::free(block);
}

void operator delete(void* block, std::size_t) noexcept {
  std::free(block);
}

void operator delete[](void* block, std::size_t) noexcept {
  std::free(block);
}
#endif
