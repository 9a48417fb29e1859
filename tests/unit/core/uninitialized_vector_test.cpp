// UninitializedVector and HugePageVector behave as std::vector for everything written before
// it is read (values, copies, growth, explicit fills); HugePageAllocator gives blocks of
// kHugeFrom bytes and more in whole 2 MiB pages, 2 MiB aligned, and room_for says how many
// elements such a block holds. (That resize() leaves bytes unwritten is not observable
// without reading indeterminate values, so it is not tested.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

#include "trawl/core/uninitialized_vector.h"

using namespace trawl;

TEST_CASE("uninitialized vector: written values, fills, copies and growth as std::vector") {
  UninitializedVector<std::uint32_t> v;
  v.resize(1000);
  std::iota(v.begin(), v.end(), 7u);
  v.resize(100000);  // growth moves the written prefix
  for (std::uint32_t i = 0; i < 1000; ++i) REQUIRE(v[i] == 7u + i);
  UninitializedVector<std::uint32_t> filled(50, 3u);  // an explicit value is still used
  CHECK(std::all_of(filled.begin(), filled.end(), [](std::uint32_t x) { return x == 3u; }));
  filled.resize(80, 9u);
  CHECK(filled[49] == 3u);
  CHECK(filled[50] == 9u);
  CHECK(filled[79] == 9u);
  filled.push_back(11u);
  CHECK(filled.back() == 11u);
  UninitializedVector<std::uint32_t> copy = filled;
  CHECK(copy == filled);
  // Class types are still constructed (default-initialisation runs their constructors).
  UninitializedVector<std::string> strings;
  strings.resize(3);
  CHECK(strings[2].empty());
  strings.emplace_back("abc");
  CHECK(strings.back() == "abc");
}

TEST_CASE("huge page allocator: room_for rounds large blocks up to whole 2 MiB pages") {
  using A = HugePageAllocator<std::uint64_t>;
  CHECK(A::kHugePage == std::size_t{2} << 20);
  const std::size_t small = A::kHugeFrom / sizeof(std::uint64_t) - 1;  // just under the threshold
  CHECK(A::room_for(0) == 0);
  CHECK(A::room_for(1) == 1);
  CHECK(A::room_for(small) == small);
  const std::size_t at = A::kHugeFrom / sizeof(std::uint64_t);
  CHECK(A::room_for(at) == A::kHugePage / sizeof(std::uint64_t));
  const std::size_t page_elems = A::kHugePage / sizeof(std::uint64_t);
  CHECK(A::room_for(page_elems) == page_elems);
  CHECK(A::room_for(page_elems + 1) == 2 * page_elems);
  for (std::size_t n : {at, at + 1, page_elems - 1, 3 * page_elems + 5}) {
    CAPTURE(n);
    const std::size_t r = A::room_for(n);
    CHECK(r >= n);
    CHECK((r * sizeof(std::uint64_t)) % A::kHugePage == 0);
    CHECK(r - n < page_elems);
  }
}

TEST_CASE("huge page vector: large blocks are 2 MiB aligned, small ones ordinary; contents survive growth") {
  HugePageVector<char> small;
  small.resize(100);
  std::fill(small.begin(), small.end(), 's');
  HugePageVector<char> big;
  big.reserve(HugePageAllocator<char>::room_for(3 << 20));
  CHECK(big.capacity() >= (std::size_t{3} << 20));
  CHECK(reinterpret_cast<std::uintptr_t>(big.data()) % HugePageAllocator<char>::kHugePage == 0);
  big.resize(1 << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 31);
  big.resize(5 << 20);  // a reallocation into a new huge block
  CHECK(reinterpret_cast<std::uintptr_t>(big.data()) % HugePageAllocator<char>::kHugePage == 0);
  bool same = true;
  for (std::size_t i = 0; i < (1u << 20); ++i) same = same && big[i] == static_cast<char>(i * 31);
  CHECK(same);
  CHECK(std::all_of(small.begin(), small.end(), [](char c) { return c == 's'; }));
  // Allocators of any element type are interchangeable (stateless).
  CHECK(HugePageAllocator<char>() == HugePageAllocator<int>());
}
