#pragma once
// A std::vector whose resize() leaves new elements uninitialized, for buffers that are
// always written before they are read (input bytes, encoded texts): a plain vector would
// clear every byte first, a memset as large as the data itself.
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace trawl {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;  // default-init
    else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

// UninitializedAllocator for big buffers that live through a run and are filled again and
// again (a chunk's input bytes, the output buffer): blocks of kHugeFrom bytes and more are
// whole 2 MiB pages, 2 MiB aligned and offered to the kernel for transparent huge pages. A
// page's first touch then faults once per 2 MiB instead of once per 4 KiB, which matters
// where a fault is costly, as on virtual machines (measured: docs/performance.md, figures
// from code comments).
template <class T>
struct HugePageAllocator : UninitializedAllocator<T> {
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kHugeFrom = std::size_t{512} << 10;
  template <class U>
  struct rebind {
    using other = HugePageAllocator<U>;
  };
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  // The elements an allocation for `n` of them really holds: reserve() that many, and a
  // vector that grows fills its whole pages before it moves.
  static std::size_t room_for(std::size_t n) {
    if (n * sizeof(T) < kHugeFrom) return n;
    return (n * sizeof(T) + kHugePage - 1) / kHugePage * kHugePage / sizeof(T);
  }
  T* allocate(std::size_t n) {
    if (n * sizeof(T) < kHugeFrom) return std::allocator<T>::allocate(n);
    const std::size_t bytes = room_for(n) * sizeof(T);
    void* p = std::aligned_alloc(kHugePage, bytes);
    if (p == nullptr) throw std::bad_alloc();
    (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without it, plain pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugeFrom) std::allocator<T>::deallocate(p, n);
    else std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace trawl
