// Page advice (memory_pages.h): advice is a hint and never changes data. advise_inside
// touches only whole pages inside the range (so MADV_DONTNEED on a private anonymous mapping,
// which zeroes the pages it drops, shows exactly which pages it covered); ReleaseBehind
// drops a file mapping's pages behind the reader in steps and never changes what it reads.
#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "trawl/core/memory_pages.h"

using namespace trawl;

namespace {

// A private anonymous mapping of `pages` pages, every byte 0xAB.
struct Anon {
  explicit Anon(std::size_t pages) : size(pages * pages::page_size()) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    data = static_cast<unsigned char*>(p);
    std::fill(data, data + size, 0xAB);
  }
  ~Anon() { munmap(data, size); }
  // Whether page i still holds its bytes (MADV_DONTNEED gives back zero pages).
  bool kept(std::size_t i) const { return data[i * pages::page_size()] == 0xAB; }
  std::size_t size;
  unsigned char* data;
};

}  // namespace

TEST_CASE("page size is a power of two") {
  const auto page = pages::page_size();
  CHECK(page >= 4096);
  CHECK((page & (page - 1)) == 0);
}

TEST_CASE("advise_inside: only pages wholly inside the range are advised") {
  const std::size_t page = pages::page_size();
  Anon m(6);
  // From the middle of page 1 to the middle of page 4: pages 2 and 3 are wholly inside.
  pages::advise_inside(m.data + page + page / 2, 3 * page, MADV_DONTNEED);
  CHECK(m.kept(0));
  CHECK(m.kept(1));
  CHECK_FALSE(m.kept(2));
  CHECK_FALSE(m.kept(3));
  CHECK(m.kept(4));
  CHECK(m.kept(5));
  CHECK(m.data[2 * page - 1] == 0xAB);  // the last byte before the range's first whole page
  CHECK(m.data[4 * page] == 0xAB);      // the first byte after its last whole page
  // A range inside one page, or empty, advises nothing.
  pages::advise_inside(m.data + 4 * page + 1, page - 2, MADV_DONTNEED);
  pages::advise_inside(m.data + 5 * page, 0, MADV_DONTNEED);
  CHECK(m.kept(4));
  CHECK(m.kept(5));
  // Exactly aligned: every page of the range.
  pages::advise_inside(m.data + 4 * page, 2 * page, MADV_DONTNEED);
  CHECK_FALSE(m.kept(4));
  CHECK_FALSE(m.kept(5));
  CHECK(m.kept(1));
}

TEST_CASE("ReleaseBehind: drops pages behind the reader in steps; the mapping reads the same") {
  const std::size_t page = pages::page_size();
  const std::size_t size = 3 * pages::ReleaseBehind::kStep + page / 2;  // a partial last page
  char path[] = "/tmp/trawl_pages_test_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  std::string content(size, '\0');
  for (std::size_t i = 0; i < size; ++i) content[i] = static_cast<char>('a' + i % 26);
  REQUIRE(write(fd, content.data(), size) == static_cast<ssize_t>(size));
  void* p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  REQUIRE(p != MAP_FAILED);
  const char* data = static_cast<const char*>(p);
  pages::ReleaseBehind release(data, size);
  bool same = true;
  // Read in pieces of various sizes, releasing behind each, and reading every byte again
  // afterwards: dropped pages of a file mapping come back from the page cache unchanged.
  for (std::size_t at = 0; at < size;) {
    const std::size_t step = std::min(size - at, std::size_t{1} + (at * 7919) % (300 << 10));
    for (std::size_t i = at; i < at + step; ++i) same = same && data[i] == content[i];
    at += step;
    release.release_before(data + at);
  }
  release.release_before(data + size);
  for (std::size_t i = 0; i < size; ++i) same = same && data[i] == content[i];
  CHECK(same);
  munmap(p, size);
  close(fd);
  std::remove(path);
}

TEST_CASE("ReleaseBehind: a place outside its mapping releases nothing, and later calls still release") {
  const std::size_t page = trawl::pages::page_size();
  char* region = static_cast<char*>(::mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(region != MAP_FAILED);
  std::fill(region, region + 4 * page, 'x');
  // The "mapping" is the first two pages; the pages after it are someone else's memory.
  trawl::pages::ReleaseBehind behind(region, 2 * page);
  behind.release_before(region + 3 * page + 10);  // past the mapping (another buffer's pattern)
  CHECK(region[0] == 'x');
  CHECK(region[2 * page] == 'x');
  CHECK(region[3 * page] == 'x');
  behind.release_before(region + 2 * page);  // the mapping's end: both its pages go
  CHECK(region[0] == 0);                      // released anonymous pages read back as zeros
  CHECK(region[page] == 0);
  CHECK(region[2 * page] == 'x');
  ::munmap(region, 4 * page);
}
