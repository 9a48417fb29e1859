#pragma once
// PatternSet: every pattern, stored compactly in arenas, with its bit-parallel profile per
// strand. Built once before the search, then shared read-only by all threads.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trawl/core/search_options.h"
#include "trawl/core/uninitialized_vector.h"
#include "trawl/kernel/profile.h"

namespace trawl {

struct Pattern {
  std::string id;   // as printed in pat_id
  std::string seq;  // the bytes as given
};

class PatternSet {
 public:
  // Profiles are kept precomputed unless there are more than `precompute_limit` patterns or
  // they would take more than kPrecomputeBytes; then each is built on demand (about the cost
  // of scanning 50 bases). --paired uses each pattern once, so it passes 0.
  static constexpr std::size_t kPrecomputeLimit = std::size_t{1} << 40;
  static constexpr std::size_t kPrecomputeBytes = std::size_t{1} << 30;

  // Throws std::invalid_argument naming the pattern id and 1-based position of an invalid
  // byte, or an empty pattern.
  PatternSet(const std::vector<Pattern>& patterns, const SearchOptions& options,
             std::size_t precompute_limit = kPrecomputeLimit);

  // Incremental building, so millions of patterns never exist twice in memory:
  // construct with no patterns, add() each, then finish() once before searching.
  PatternSet(const SearchOptions& options, std::size_t precompute_limit = kPrecomputeLimit);
  void add(std::string_view id, std::string_view seq);  // validates; throws as above
  // The same, but `seq` is not copied: it stays a view into memory that `owner` keeps alive
  // as long as the set (a pattern FASTA file's mapping, whose one-line sequences the reader
  // lends).
  void add(std::string_view id, std::string_view seq, std::shared_ptr<const void> owner);
  // Runs body(0), ..., body(count - 1), possibly at the same time (see add_list).
  using ForEach = std::function<void(std::size_t count, const std::function<void(std::size_t)>& body)>;
  // Adds the patterns of a pattern list: one per line ("\n" or "\r\n", the last line may lack
  // it; trailing spaces and tabs dropped), blank lines skipped, each named by its 1-based line
  // number, exactly as add() would one by one. A list with a tab in it is a sheet: a line
  // "name<TAB>sequence" names its pattern (a line without a tab keeps its line number), and
  // an id twice is an error. The text is cut at line ends into `parts` pieces that `for_each` may load at
  // the same time (millions of --paired patterns are serial time before the search starts).
  // Throws as add() for the first invalid pattern of the list, leaving the set unchanged.
  // The patterns stay views into `text`, and their ids are not stored but spelled on demand:
  // copying millions of patterns with their ids and offsets would fill fresh memory that
  // the kernel must clear first, serial time before a --paired search. `owner` keeps the text
  // alive as long as the set (null: the caller does). `read` (optional) hears of each piece
  // once, when both passes are through with it, so a mapped list can leave resident memory
  // as it is read (its pages come back from the page cache where a pattern is used).
  void add_list(std::string_view text, std::shared_ptr<const void> owner, std::size_t parts,
                const ForEach& for_each, const std::function<void(std::string_view piece)>& read = {});
  void finish();

  std::size_t size() const { return seq_begin_.size(); }
  std::string_view seq(std::size_t i) const { return {seq_begin_[i], seq_length_[i]}; }
  // Room for an id that id() spells on demand (a list pattern's line number).
  using IdRoom = std::array<char, 20>;
  // The id of pattern i, as printed in pat_id: a view into the set or into `room`.
  std::string_view id(std::size_t i, IdRoom& room) const;
  // The profile of pattern i on one strand. Small sets keep every profile precomputed;
  // very large ones (e.g. one pattern per record with --paired) build it on demand at the
  // end of `scratch` (appended, so a caller can keep several), which must then outlive the
  // returned view and not grow while it is used.
  StrandProfile profile(std::size_t i, Strand s, std::vector<std::uint64_t>& scratch) const;
  // The same without peq (null), for callers that already hold the profile's words.
  StrandProfile profile_header(std::size_t i, Strand s) const;
  std::uint32_t max_length() const { return max_length_; }
  // Whether every profile is kept (else profile() builds one per call).
  bool precomputed() const { return precomputed_; }
  // The class planes of one strand (the rc strand's are those of the complemented byte), or
  // null where the alphabet has more than 16 classes.
  const ClassPlanes* class_planes(Strand s) const {
    return classes_ <= 16 ? &planes_[s == Strand::rc ? 1 : 0] : nullptr;
  }

 private:
  // add_list for a sheet (a list with tabs), line by line.
  void add_sheet(std::string_view text, std::shared_ptr<const void> owner);
  // The profile of `seq` (as given) on strand s.
  void build_peq(std::string_view seq, Strand s, std::uint64_t* peq) const;

  AlphabetSpec alphabet_;
  bool rc_ = false;
  std::size_t precompute_limit_ = kPrecomputeLimit;
  unsigned classes_ = 0;
  // Text classes each pattern byte matches, [0] as it is and [1] complemented (the rc
  // strand's profile is built from P itself through [1], so no complement of P is stored).
  std::array<std::array<std::vector<std::uint8_t>, 256>, 2> classes_of_;
  // The same as bit planes where there are at most 16 classes (iupac, dna): profiles of
  // --paired patterns are built per record, so this is a hot path.
  std::array<ClassPlanes, 2> planes_{};
  std::array<bool, 256> valid_{};  // allowed in a pattern
  // Why `seq` is not a valid pattern (named `id`), or empty where it is.
  std::string invalid_reason(std::string_view id, std::string_view seq) const;
  bool all_valid(std::string_view seq) const;

  // A copy of `bytes` at an address that never moves (blocks are never reallocated), for the
  // patterns and ids of add().
  std::string_view keep(std::string_view bytes);
  std::vector<HugePageVector<char>> arena_;  // blocks, used up to their capacity
  char* arena_at_ = nullptr;
  std::size_t arena_left_ = 0;
  std::vector<std::shared_ptr<const void>> owners_;  // of the lists' texts

  // Each pattern's bytes, in the arena or in a list's text. Uninitialized growth: add_list
  // sizes them first and fills them in parallel.
  HugePageVector<const char*> seq_begin_;
  HugePageVector<std::uint32_t> seq_length_;
  // Ids by runs of patterns: where first_line > 0, the run's patterns are a list's lines
  // numbered from first_line on (a blank line starts a new run); else their ids are
  // explicit_ids_ from first_explicit on.
  struct IdRun {
    std::uint64_t first_pattern = 0, first_line = 0, first_explicit = 0;
  };
  std::vector<IdRun> id_runs_;
  HugePageVector<std::string_view> explicit_ids_;
  bool precomputed_ = false;
  std::vector<std::uint64_t> peq_;          // precomputed profiles, back to back
  std::vector<std::uint64_t> peq_offsets_;  // [2i] forward, [2i+1] rc
  std::uint32_t max_length_ = 0;
};

}  // namespace trawl
