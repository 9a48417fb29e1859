#pragma once
// A batch of whole records in one reusable arena: the unit of work handed from the reader
// to the searchers. Views stay valid until the batch is cleared.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace trawl {

struct RecordBatch {
  struct Span {
    std::uint64_t offset;
    std::uint64_t length;
  };

  std::uint64_t first_record = 0;  // global 0-based index of record 0 of this batch
  std::string names;               // text_id of every record, back to back
  std::string seqs;                // sequences, back to back, bytes exactly as read
  std::vector<Span> name_spans;
  std::vector<Span> seq_spans;
  // A long record searched in windows is kept whole elsewhere; when set, it is this batch's
  // only sequence (seq(0)).
  const std::string* external_seq = nullptr;

  std::size_t size() const { return seq_spans.size(); }
  std::uint64_t bases() const { return seqs.size(); }
  std::string_view name(std::size_t i) const {
    return {names.data() + name_spans[i].offset, name_spans[i].length};
  }
  std::string_view seq(std::size_t i) const {
    if (external_seq) return *external_seq;
    return {seqs.data() + seq_spans[i].offset, seq_spans[i].length};
  }
  void clear() {
    names.clear();
    seqs.clear();
    name_spans.clear();
    seq_spans.clear();
    external_seq = nullptr;
  }
};

}  // namespace trawl
