#pragma once
// A growable buffer for the SIMD kernel translation units (included only by them).
//
// Those units are compiled with -mavx2 / -mavx512f. A std::vector they use is a template
// instantiation that the compiler may emit out of line as a weak symbol, compiled with
// their flags, and the linker keeps one copy of each weak symbol for the whole program: a
// std::vector<ScanJob> member that generic code also calls could then run AVX
// instructions on a CPU without them (the sanitizer builds did emit such copies). Defined
// in an unnamed namespace, this buffer's members are local to each unit, never shared.
// tests/kernel_objects/check_weak_symbols.sh guards the rule.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace trawl {
namespace {

template <class T>
class KernelBuffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  KernelBuffer() = default;
  KernelBuffer(const KernelBuffer&) = delete;
  KernelBuffer& operator=(const KernelBuffer&) = delete;
  ~KernelBuffer() { std::free(data_); }

  T* data() { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return data_[i]; }
  void clear() { size_ = 0; }
  // New elements are left uninitialized (every caller writes them first).
  void resize(std::size_t n) {
    if (n > capacity_) grow(n);
    size_ = n;
  }
  void push_back(const T& v) {
    if (size_ == capacity_) grow(size_ + 1);
    std::memcpy(static_cast<void*>(data_ + size_), &v, sizeof(T));
    ++size_;
  }

 private:
  void grow(std::size_t at_least) {
    std::size_t cap = capacity_ < 16 ? 16 : 2 * capacity_;
    if (cap < at_least) cap = at_least;
    void* p = std::realloc(data_, cap * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = cap;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace
}  // namespace trawl
