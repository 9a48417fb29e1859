#pragma once
// The bytes of a pattern list (-l): the file mapped where it is a regular file (no copy),
// else read whole (a pipe, `-l <(...)`, stdin). A PatternSet built from the list keeps
// views into these bytes, so it must outlive the set's use of them.
#include <optional>
#include <string>
#include <string_view>

#include "trawl/core/memory_pages.h"

namespace trawl {

class PatternListText {
 public:
  // `path` is a file or "-" (stdin). Throws InputError where it cannot be opened or read.
  explicit PatternListText(const std::string& path);
  ~PatternListText();
  PatternListText(const PatternListText&) = delete;
  PatternListText& operator=(const PatternListText&) = delete;

  std::string_view text() const { return mapped_.empty() ? std::string_view(read_) : mapped_; }
  // Drops the mapped pages wholly inside `piece` from resident memory (they are read again
  // from the page cache where touched again); a list read into memory stays.
  void release(std::string_view piece) const;
  // The same for the pages before `end` (a place in the text; one outside it releases
  // nothing); calls come in order.
  void release_before(const char* end);

 private:
  std::string_view mapped_;
  std::string read_;
  std::optional<pages::ReleaseBehind> behind_;  // where mapped
};

}  // namespace trawl
