// BlockPool, TextBlock and WindowTask (partition/long_record.h). A block has room for at
// least the bytes asked for; a block whose last user drops it goes back to its pool, from
// any thread, and is handed out again for a request it fits (the largest kept one first);
// the pool keeps at most two, the largest; a block outlives its pool (it is then freed, not
// returned). A window task owns the residues [begin, end) of its window, or from begin to
// the end of its text for the last (open) window.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "trawl/partition/long_record.h"

using namespace trawl;

TEST_CASE("text block: room for at least the bytes asked for, writable to the last byte") {
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{3} << 20}) {
    CAPTURE(n);
    TextBlock b(n);
    CHECK(b.capacity() >= n);
    std::memset(b.data(), 'A', n);
    b.data()[n - 1] = 'Z';
    if (n > 1) CHECK(b.data()[0] == 'A');
    CHECK(b.data()[n - 1] == 'Z');
  }
  // Below the huge-page threshold the room is exact (the pool's tests below rely on it).
  CHECK(TextBlock(1000).capacity() == 1000);
}

TEST_CASE("block pool: a returned block is handed out again for a request it fits") {
  const auto pool = std::make_shared<BlockPool>();
  std::shared_ptr<TextBlock> a = pool->get(1000);
  REQUIRE(a->capacity() >= 1000);
  char* const bytes = a->data();
  std::memcpy(bytes, "kept", 4);
  a.reset();  // back to the pool
  const std::shared_ptr<TextBlock> again = pool->get(600);
  CHECK(again->data() == bytes);  // the same block, not a new one
  CHECK(again->capacity() == 1000);
  // While it is in use, another request gets a block of its own.
  const std::shared_ptr<TextBlock> other = pool->get(600);
  CHECK(other->data() != bytes);
  CHECK(other->capacity() == 600);
}

TEST_CASE("block pool: a kept block too small for a request stays kept; the request gets a new one") {
  const auto pool = std::make_shared<BlockPool>();
  pool->get(1000).reset();
  const std::shared_ptr<TextBlock> big = pool->get(5000);
  CHECK(big->capacity() == 5000);
  const std::shared_ptr<TextBlock> small = pool->get(10);
  CHECK(small->capacity() == 1000);  // the kept one
}

TEST_CASE("block pool: at most two blocks are kept, the largest, and handed out largest first") {
  const auto pool = std::make_shared<BlockPool>();
  {
    std::vector<std::shared_ptr<TextBlock>> in_use;
    for (const std::size_t n : {2000, 1000, 3000}) in_use.push_back(pool->get(n));
  }  // all three back: 1000 is dropped
  const std::shared_ptr<TextBlock> first = pool->get(1);
  const std::shared_ptr<TextBlock> second = pool->get(1);
  const std::shared_ptr<TextBlock> third = pool->get(1);
  CHECK(first->capacity() == 3000);
  CHECK(second->capacity() == 2000);
  CHECK(third->capacity() == 1);  // new: 1000 was not kept
}

TEST_CASE("block pool: the largest kept block is given even where a smaller one fits") {
  const auto pool = std::make_shared<BlockPool>();
  {
    const auto a = pool->get(1000), b = pool->get(2000);
  }
  const std::shared_ptr<TextBlock> got = pool->get(500);
  CHECK(got->capacity() == 2000);
  const std::shared_ptr<TextBlock> next = pool->get(500);
  CHECK(next->capacity() == 1000);
}

TEST_CASE("block pool: blocks come back from other threads") {
  const auto pool = std::make_shared<BlockPool>();
  std::shared_ptr<TextBlock> a = pool->get(1500), b = pool->get(2500);
  const char* const pa = a->data();
  const char* const pb = b->data();
  std::thread ta([block = std::move(a)]() mutable { block.reset(); });
  std::thread tb([block = std::move(b)]() mutable { block.reset(); });
  ta.join();
  tb.join();
  const auto first = pool->get(1), second = pool->get(1);
  CHECK(first->data() == pb);
  CHECK(second->data() == pa);
}

TEST_CASE("block pool: a block outlives its pool and is then simply freed") {
  auto pool = std::make_shared<BlockPool>();
  std::shared_ptr<TextBlock> block = pool->get(4096);
  const std::weak_ptr<BlockPool> watch = pool;
  pool.reset();
  CHECK(watch.expired());  // the block does not keep the pool alive
  std::memset(block->data(), 'G', 4096);
  CHECK(block->data()[4095] == 'G');
  block.reset();  // no pool to return to (ASan: neither a leak nor a use after free)
}

TEST_CASE("window task: bases of a closed window, of the open last one, and of a partial text") {
  WindowTask t;
  const std::string text(1000, 'A');
  t.text = text;
  t.window = {200, 450};
  CHECK(t.bases() == 250);
  t.window = {700, Window::kOpen};
  CHECK(t.bases() == 300);
  t.window = {0, Window::kOpen};
  CHECK(t.bases() == 1000);
  t.text = std::string_view(text).substr(0, 600);  // the part read so far
  t.window = {0, 400};
  CHECK(t.bases() == 400);
}
