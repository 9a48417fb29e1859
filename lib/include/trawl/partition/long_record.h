#pragma once
// A record longer than a task: its sequence, where it is held while it is read, and the
// (pattern, window) tasks it is searched as, so that one chromosome keeps every thread busy.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/memory_pages.h"
#include "trawl/io/reader.h"
#include "trawl/search/searcher.h"

namespace trawl {

// Bytes appended in place and never moved: the sequence of a long record as it is read, so
// that windows of the part read so far can be searched while the rest is read. Address space
// for `capacity` bytes, touched only as written, in huge pages where the kernel allows (a
// chromosome would otherwise fault in page after small page).
class TextBlock {
 public:
  explicit TextBlock(std::size_t capacity) { bytes_.reserve(HugePageAllocator<char>::room_for(capacity)); }
  char* data() { return bytes_.data(); }
  std::size_t capacity() const { return bytes_.capacity(); }

 private:
  HugePageVector<char> bytes_;  // reserved, never resized: data() is the room
};

// Blocks that no task uses any more, for the next long record: a fresh block's pages are
// cleared by the kernel as they are first written, a large part of reading chromosome after
// chromosome (docs/performance.md). Blocks come back from any thread (the last task that
// viewed one), hence the lock; at most kKept are kept.
class BlockPool : public std::enable_shared_from_this<BlockPool> {
 public:
  // A block of at least `capacity` bytes, kept or new (may throw std::bad_alloc); it returns
  // here when its last user drops it.
  std::shared_ptr<TextBlock> get(std::size_t capacity);

 private:
  static constexpr std::size_t kKept = 2;
  void put(std::unique_ptr<TextBlock> block);
  std::mutex mutex_;
  std::vector<std::unique_ptr<TextBlock>> kept_;
};

// A record longer than a task, searched as (pattern, window) tasks of about a task's
// residues each. Its sequence is lent by a mapped input file, held in `storage`, or (in
// lines) read into `block` while its first windows are searched. Only the task source
// changes it; tasks read their own view of the part read.
struct LongRecord {
  std::uint64_t text_idx = 0;
  std::string name;
  // With ReaderOptions::keep_records: the header line, quality and kind (RecordBatch).
  std::string header, qual;
  RecordBatch::Kind kind = RecordBatch::Kind::fasta;
  bool kept = false;
  std::string_view seq;  // what has been read so far; all of it once `complete`
  bool complete = true;
  std::string storage;
  std::shared_ptr<MappedFile> mapping;
  std::shared_ptr<TextBlock> block;
  // Set by a task whose window's runs reach past the part read: windows are then given only
  // the whole record (see LongRecordAssembler for the task's own second search).
  mutable std::atomic<bool> too_short{false};
};

struct WindowTask {
  std::shared_ptr<const LongRecord> record;
  // The record's sequence as far as it had been read (all of it unless `partial`), and what
  // keeps those bytes alive where they are in a block the record may since have outgrown.
  std::string_view text;
  // --region: the part of `text` searched (one of them, with several ranges); hits are in its
  // coordinates until the assembler shifts them by `offset` (the whole text by default).
  std::uint64_t offset = 0;
  std::uint64_t length = std::string_view::npos;
  bool partial = false;
  std::shared_ptr<TextBlock> block;
  std::uint32_t pattern = 0;
  Window window;
  bool last_window = false;   // of this (record, pattern)
  bool last_of_record = false;
  bool no_pattern = false;    // --paired surplus record: counted, not searched
  bool incomplete = false;    // a partial text too short for the window: searched again later

  std::string_view searched() const { return text.substr(offset, length); }

  // The residues whose ends this task owns.
  std::uint64_t bases() const {
    return window.end == Window::kOpen ? searched().size() - window.begin : window.end - window.begin;
  }
};

}  // namespace trawl
