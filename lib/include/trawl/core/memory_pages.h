#pragma once
// madvise over the pages of a byte range, with the page rounding in one place. Advice is a
// hint: a failure changes nothing but memory or speed, so it is ignored. Every call here is
// made at most once per MiB or so of data, never per record or per pattern (a system call is
// cheap on one kernel and costly on another).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace trawl::pages {

inline std::uintptr_t page_size() { return static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)); }

// Only the pages wholly inside [data, data + bytes): for advice that drops pages
// (MADV_DONTNEED), where a page shared with bytes still in use must stay.
inline void advise_inside(const void* data, std::size_t bytes, int advice) {
  const std::uintptr_t page = page_size();
  const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (to > from) (void)madvise(reinterpret_cast<void*>(from), to - from, advice);
}

// Drops the pages of a read-only file mapping from resident memory behind a reader that
// passes them in order (they stay in the page cache and come back if touched again), so
// resident memory does not grow with the file. Pages go in steps of at least kStep: every
// call flushes the TLB of each CPU the process ran on, and after the small tasks of dense
// hits (16 KiB) that was a sixteenth of the run.
class ReleaseBehind {
 public:
  static constexpr std::size_t kStep = std::size_t{1} << 20;
  // [data, data + size): the mapping, data page aligned.
  ReleaseBehind(const char* data, std::size_t size) : data_(data), size_(size), released_(data) {}
  // Drops the pages wholly before `end`; calls come in order. An `end` outside the mapping
  // releases nothing (no advice ever reaches memory that is not the mapping's).
  void release_before(const char* end) {
    if (end < data_ || end > data_ + size_) return;
    const std::uintptr_t page = page_size();
    const char* until = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(end) & ~(page - 1));
    // (The last whole page goes at once: nothing follows to batch it with.)
    const bool at_last_page = until >= data_ + (size_ & ~(page - 1));
    if (until <= released_ || (until < released_ + kStep && !at_last_page)) return;
    (void)madvise(const_cast<char*>(released_), static_cast<std::size_t>(until - released_), MADV_DONTNEED);
    released_ = until;
  }

 private:
  const char* data_;
  std::size_t size_;
  const char* released_;  // page aligned: pages before it are released
};

}  // namespace trawl::pages
