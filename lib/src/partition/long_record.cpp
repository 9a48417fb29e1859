#include "trawl/partition/long_record.h"

#include <algorithm>

namespace trawl {

std::shared_ptr<TextBlock> BlockPool::get(std::size_t capacity) {
  std::unique_ptr<TextBlock> block;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if ((*it)->capacity() >= capacity) {
        block = std::move(*it);
        kept_.erase(it);
        break;
      }
  }
  if (!block) block = std::make_unique<TextBlock>(capacity);
  std::weak_ptr<BlockPool> home = weak_from_this();
  return {block.release(), [home](TextBlock* b) {
            if (const auto pool = home.lock()) pool->put(std::unique_ptr<TextBlock>(b));
            else delete b;
          }};
}

void BlockPool::put(std::unique_ptr<TextBlock> block) {
  const std::lock_guard<std::mutex> lock(mutex_);
  kept_.push_back(std::move(block));
  // The largest stay: a later record's bound is the rest of the same file, never more.
  std::sort(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) { return a->capacity() > b->capacity(); });
  if (kept_.size() > kKept) kept_.pop_back();
}

}  // namespace trawl
