#pragma once
// A std::vector whose resize() leaves new elements uninitialized, for buffers that are
// always written before they are read (input bytes, encoded texts): a plain vector would
// clear every byte first, a memset as large as the data itself.
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

}  // namespace trawl
