#pragma once
// A batch of whole records in one reusable arena: the unit of work handed from the reader
// to the searchers. Views stay valid until the batch is cleared.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trawl {

class MappedFile;  // trawl/reader.h

struct RecordBatch {
  struct Span {
    std::uint64_t offset;
    std::uint64_t length;
  };
  // A span whose offset has this bit is a view into `borrowed` (the raw FASTA block the
  // batch was parsed from, or a mapped input file) rather than into names/seqs: a one-line
  // sequence or a header needs no copy.
  static constexpr std::uint64_t kBorrowed = std::uint64_t{1} << 63;

  std::uint64_t first_record = 0;  // global 0-based index of record 0 of this batch
  std::string names;               // text_id of every record, back to back
  std::string seqs;                // sequences, back to back, bytes exactly as read
  std::vector<Span> name_spans;
  std::vector<Span> seq_spans;
  std::uint64_t seq_bases = 0;     // total length of all sequences
  const char* borrowed = nullptr;  // must outlive the batch's use while spans point into it
  // The mapped input file `borrowed` points into, when FastxReader::next() lent views of it
  // (kept alive with the batch); null for parsed chunks, whose owner keeps them.
  std::shared_ptr<MappedFile> borrowed_mapping;
  // A long record searched in windows is kept whole elsewhere; when it has data, it is this
  // batch's only sequence (seq(0)).
  std::string_view external_seq;
  // Set on the views of a long record's rows written before its last window: more rows of
  // the same record follow.
  bool record_continues = false;
  // Set where external_seq is only the part of the record read so far (its length is not
  // yet the record's).
  bool text_partial = false;

  // Only with ReaderOptions::keep_records, for writing records back out as read: each
  // record's header line (without '>' or '@'; in `names` or borrowed), its quality (FASTQ:
  // in `quals`) and what it was.
  enum class Kind : std::uint8_t { fasta, fastq, line };
  std::string quals;
  std::vector<Span> header_spans;
  std::vector<Span> qual_spans;
  std::vector<Kind> kinds;

  std::size_t size() const { return seq_spans.size(); }
  std::uint64_t bases() const { return seq_bases; }
  std::string_view name(std::size_t i) const { return view(names, name_spans[i]); }
  std::string_view seq(std::size_t i) const {
    if (external_seq.data() != nullptr) return external_seq;
    return view(seqs, seq_spans[i]);
  }
  bool keeps_records() const { return !kinds.empty(); }
  std::string_view header(std::size_t i) const { return view(names, header_spans[i]); }
  std::string_view qual(std::size_t i) const { return view(quals, qual_spans[i]); }
  // Adds record text of the kept kind (see keeps_records), after its header span.
  void add_kept(Kind kind, Span qual) {
    kinds.push_back(kind);
    qual_spans.push_back(qual);
  }
  // Drops the records from index n on (their bytes stay in the arenas, unused): a --shard's
  // last chunk may hold records of the next shard.
  void truncate(std::size_t n) {
    if (n >= size()) return;
    for (std::size_t i = n; i < seq_spans.size(); ++i) seq_bases -= seq_spans[i].length;
    name_spans.resize(n);
    seq_spans.resize(n);
    if (header_spans.size() > n) header_spans.resize(n);
    if (qual_spans.size() > n) qual_spans.resize(n);
    if (kinds.size() > n) kinds.resize(n);
  }
  void clear() {
    names.clear();
    seqs.clear();
    name_spans.clear();
    seq_spans.clear();
    seq_bases = 0;
    borrowed = nullptr;
    borrowed_mapping.reset();
    external_seq = {};
    record_continues = false;
    text_partial = false;
    quals.clear();
    header_spans.clear();
    qual_spans.clear();
    kinds.clear();
  }

 private:
  std::string_view view(const std::string& arena, Span s) const {
    const char* base = (s.offset & kBorrowed) ? borrowed : arena.data();
    return {base + (s.offset & ~kBorrowed), s.length};
  }
};

}  // namespace trawl
