#include "trawl/partition/task_source.h"

#include <cstring>
#include <new>

namespace trawl {

bool TaskSource::next(Task& t) {
  t.records.clear();
  t.has_chunk = false;
  t.keep = UINT64_MAX;
  if (!skipped_) skip_to_range();
  const bool filled = (long_ && emit_window(t)) || next_filled(t);
  t.input_bytes = reader_.bytes_read();
  return filled;
}

bool TaskSource::next_filled(Task& t) {
  t.is_window = false;
  if (next_records(t)) return true;
  return long_ && emit_window(t);
}

// --shard: the records before the range are read (and checked) as next() reads them, and
// dropped.
void TaskSource::skip_to_range() {
  skipped_ = true;
  RecordBatch scratch;
  while (next_record_ < range_.first) {
    scratch.clear();
    if (!reader_.next(scratch, FastxReader::kWhole)) return;
    ++next_record_;
  }
}

// A batch of whole records of about the sizer's residues; the last record goes to long_
// where it is longer than that.
bool TaskSource::next_records(Task& t) {
  if (next_record_ >= range_.end) return false;
  const std::uint64_t task_bases = sizer_.bases();
  if (reader_.mates() != MateLayout::none) return next_pairs(t, task_bases);
  // FASTA records are only cut out here and parsed by a worker, so reading keeps up with
  // many threads.
  if (reader_.next_chunk(t.chunk, task_bases)) {
    t.has_chunk = true;
    t.records.first_record = next_record_;
    if (t.chunk.records > range_.end - next_record_) t.keep = range_.end - next_record_;
    next_record_ += std::min<std::uint64_t>(t.chunk.records, range_.end - next_record_);
    t.input_mark = reader_.mark();
    return true;
  }
  t.records.first_record = next_record_;
  bool took_long = false;
  // (A sequence in lines longer than a task is read only that far here: see read_long.)
  while (t.records.bases() < task_bases && next_record_ + t.records.size() < range_.end &&
         reader_.next(t.records, task_bases)) {
    const std::size_t last = t.records.size() - 1;
    if (reader_.sequence_open() || t.records.seq(last).size() > task_bases) {
      take_long_record(t.records);  // sets next_record_ past the long record
      took_long = true;
      break;
    }
  }
  if (!took_long) next_record_ = t.records.first_record + t.records.size();
  t.input_mark = took_long ? mark_in_long_record(0) : reader_.mark();
  return t.records.size() > 0;
}

// Paired input: whole pairs of whole mates (a later step may decide per pair within one
// batch), so a batch ends after a mate 2 and a long mate only makes a bigger batch.
bool TaskSource::next_pairs(Task& t, std::uint64_t task_bases) {
  RecordBatch& rb = t.records;
  rb.first_record = next_record_;
  while ((rb.bases() < task_bases || rb.size() % 2 == 1) && next_record_ + rb.size() < range_.end &&
         reader_.next(rb, FastxReader::kWhole)) {
  }
  next_record_ += rb.size();
  t.input_mark = reader_.mark();
  return rb.size() > 0;
}

// Moves the last record of the batch out into long_ (no copy when it is alone).
void TaskSource::take_long_record(RecordBatch& rb) {
  auto rec = std::make_shared<LongRecord>();
  const std::size_t last = rb.size() - 1;
  rec->text_idx = rb.first_record + last;
  rec->name = std::string(rb.name(last));
  if (rb.keeps_records()) {
    rec->kept = true;
    rec->header = std::string(rb.header(last));
    rec->qual = std::string(rb.qual(last));
    rec->kind = rb.kinds[last];
    if (!(rb.qual_spans[last].offset & RecordBatch::kBorrowed)) rb.quals.resize(rb.qual_spans[last].offset);
    rb.header_spans.pop_back();
    rb.qual_spans.pop_back();
    rb.kinds.pop_back();
  }
  rb.seq_bases -= rb.seq_spans[last].length;
  if (rb.seq_spans[last].offset & RecordBatch::kBorrowed) {
    // A one-line sequence of a mapped file stays where it is (FastxReader::next lent it).
    rec->seq = rb.seq(last);
    rec->mapping = rb.borrowed_mapping;
  } else if (reader_.sequence_open()) {
    // The rest of a sequence in lines goes into a block while its first windows are
    // searched: room for the rest of the file where that is known, else grown as needed.
    const std::string_view first = rb.seq(last);
    const std::uint64_t bound = reader_.sequence_bound();
    rec->block = make_block(first.size() + (bound > 0 ? bound : kFirstBlock));
    std::memcpy(rec->block->data(), first.data(), first.size());
    rec->seq = {rec->block->data(), first.size()};
    rec->complete = false;
    rb.seqs.resize(rb.seq_spans[last].offset);
  } else if (last == 0) {
    rec->storage.swap(rb.seqs);
    rec->seq = rec->storage;
  } else {
    rec->storage = std::string(rb.seq(last));
    rec->seq = rec->storage;
    rb.seqs.resize(rb.seq_spans[last].offset);
  }
  rb.names.resize(rb.name_spans[last].offset);
  rb.name_spans.pop_back();
  rb.seq_spans.pop_back();
  rb.first_record = rec->text_idx - last;
  if (last == 0) rb.clear();
  long_ = std::move(rec);
  next_record_ = long_->text_idx + 1;
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  if (paired_) {
    pattern_ = long_->text_idx < npat ? static_cast<std::uint32_t>(long_->text_idx) : npat;
    pattern_end_ = long_->text_idx < npat ? pattern_ + 1 : npat;
  } else {
    pattern_ = 0;
    pattern_end_ = npat;
  }
  window_begin_ = 0;
  part_ = 0;
  // A --paired surplus record has no pattern: one task that only counts it.
  no_pattern_ = pattern_ == pattern_end_;
  if (no_pattern_) pattern_end_ = pattern_ + 1;
}

// A position `offset` bytes into the long record, where it lies in a mapped input file
// (FastxReader lent it), else where the reader is. Windows a task leaves to later tasks
// are read from the mapping, so they must stay; releasing too early would only cost page
// faults (a read-only file mapping reads its pages again), never wrong bytes. A window
// reads at most m + k before its start, except when a run crosses its border (k >= m),
// which the margin of a whole window covers in all but extreme cases.
InputMark TaskSource::mark_in_long_record(std::uint64_t offset) const {
  if (!long_->mapping) return reader_.mark();
  return {long_->mapping, long_->seq.data() + offset};
}

// A block of at least `capacity` bytes; smaller where the system will not give that much
// address space at once (the block then grows as it fills).
std::shared_ptr<TextBlock> TaskSource::make_block(std::uint64_t capacity) {
  for (;; capacity /= 2) {
    try {
      return blocks_->get(static_cast<std::size_t>(capacity));
    } catch (const std::bad_alloc&) {
      if (capacity <= kFirstBlock) throw;
    }
  }
}

// Reads the long record on until it holds `want` bytes or all of it. A block that fills is
// replaced by one twice its size; the tasks that view the old one keep it alive.
void TaskSource::read_long(std::uint64_t want) {
  LongRecord& r = *long_;
  while (!r.complete && r.seq.size() < want) {
    const std::size_t have = r.seq.size();
    if (have == r.block->capacity()) {
      std::shared_ptr<TextBlock> bigger = make_block(2 * std::uint64_t{r.block->capacity()});
      std::memcpy(bigger->data(), r.block->data(), have);
      r.block = std::move(bigger);
    }
    const std::size_t room = static_cast<std::size_t>(
        std::min<std::uint64_t>(r.block->capacity() - have, std::max<std::uint64_t>(want - have, kReadStep)));
    const std::size_t got = reader_.read_sequence(r.block->data() + have, room);
    r.seq = {r.block->data(), have + got};
    r.complete = !reader_.sequence_open();
  }
}

bool TaskSource::emit_window(Task& t) {
  if (pattern_ >= pattern_end_) {
    long_.reset();
    return false;
  }
  const std::uint64_t size = sizer_.bases();
  // A record still being read gets a window once the text reaches a window past it (room
  // for the runs that cross its end); once a window found that too short, to count a record
  // without a pattern, or to place a region (which may count from the end), all of it is
  // read first.
  if (!long_->complete)
    read_long(region_ || no_pattern_ || long_->too_short.load(std::memory_order_relaxed)
                  ? ~std::uint64_t{0}
                  : window_begin_ + 2 * size);
  t.is_window = true;
  WindowTask& w = t.window;
  w.record = long_;
  w.text = long_->seq;
  w.partial = !long_->complete;
  w.block = long_->block;
  w.pattern = pattern_;
  // A pattern's windows go part by part (several --region ranges), in increasing offset.
  if (region_) region_->spans(w.text.size(), parts_);
  const Span part = region_ ? parts_[part_] : Span{0, w.text.size()};
  w.offset = part.offset;
  w.length = part.length;
  const std::uint64_t n = part.length;
  w.window.begin = window_begin_;
  w.window.end = window_begin_ + size < n ? window_begin_ + size : Window::kOpen;
  const bool part_done = w.window.end == Window::kOpen || no_pattern_;
  w.last_window = part_done && (!region_ || part_ + 1 >= parts_.size() || no_pattern_);
  w.last_of_record = w.last_window && pattern_ + 1 == pattern_end_;
  w.no_pattern = no_pattern_;
  t.input_mark = window_mark(w);
  window_begin_ = part_done ? 0 : w.window.end;
  if (w.last_window) {
    ++pattern_;
    part_ = 0;
  } else if (part_done) {
    ++part_;
  }
  t.records.first_record = long_->text_idx;
  return true;
}

// What is released once a window task is written: all that was read, after the record's
// last task; before that, nothing of a record lent by a mapped file that a later task
// reads (the last pattern's windows pass its pages in order; see mark_in_long_record).
InputMark TaskSource::window_mark(const WindowTask& w) const {
  if (w.last_of_record) return reader_.mark();
  const bool last_pattern = pattern_ + 1 == pattern_end_;
  // (max_task_bases_: the largest window any task of this record may have.)
  const std::uint64_t behind = max_task_bases_ + patterns_.max_length();
  const std::uint64_t begin = w.offset + w.window.begin;  // (in the record)
  return mark_in_long_record(last_pattern && begin > behind ? begin - behind : 0);
}

}  // namespace trawl
