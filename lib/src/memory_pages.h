#pragma once
// madvise over the pages of a byte range, with the page rounding in one place (included by
// the library's own sources only). Advice is a hint: a failure (an older kernel without
// MADV_POPULATE_*) changes nothing but speed, so it is ignored.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace trawl::pages {

inline std::uintptr_t page_size() { return static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)); }

// Every page that holds a byte of [data, data + bytes): for advice that maps pages in
// (MADV_POPULATE_READ / _WRITE), which leaves their contents as they are.
inline void advise_covering(const void* data, std::size_t bytes, int advice) {
  if (bytes == 0) return;
  const auto from = reinterpret_cast<std::uintptr_t>(data) & ~(page_size() - 1);
  const auto to = reinterpret_cast<std::uintptr_t>(data) + bytes;
  (void)madvise(reinterpret_cast<void*>(from), to - from, advice);
}

// Only the pages wholly inside [data, data + bytes): for advice that drops pages
// (MADV_DONTNEED), where a page shared with bytes still in use must stay.
inline void advise_inside(const void* data, std::size_t bytes, int advice) {
  const std::uintptr_t page = page_size();
  const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (to > from) (void)madvise(reinterpret_cast<void*>(from), to - from, advice);
}

}  // namespace trawl::pages
