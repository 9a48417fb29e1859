#pragma once
// PatternIndex: the pigeonhole pieces of a large DNA pattern panel, indexed once per run and
// shared by every thread, so that a short record costs its candidate (pattern, strand)
// pairs rather than every pattern. Each pattern (and, searching both strands, its reverse
// complement as the forward text reads it) is cut into k + 1 pieces, of which an alignment
// with at most k edits leaves one aligned with none, or (where that finds fewer seeds by
// chance) into k / 2 + 1 longer pieces, of which it leaves one aligned with at most one
// edit; the q bases such a piece starts with in the text (exactly, or each way one edit can
// change them) are its seeds, and where one occurs bounds where the alignment can end
// (seeds::strand_range). A record's
// q-grams are looked up once; the (pattern, strand) pairs whose pieces start with one of
// them are the candidates, each with the part of its strand to scan, and the others have
// no end with cost <= k. Pure, thread safe once built.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trawl/core/pattern_set.h"
#include "trawl/core/search_options.h"
#include "trawl/core/uninitialized_vector.h"
#include "trawl/search/seed_filter.h"

namespace trawl {

class PatternIndex {
 public:
  // Seeds are the first q bases of each piece, q = the shortest piece, at most kMaxSeed (a
  // presence bitmap of 4^q bits) and at least kMinSeed (shorter ones pass nearly every text).
  static constexpr unsigned kMaxSeed = 11;
  static_assert(kMaxSeed <= kMaxSeedKeyBases);
  static constexpr unsigned kMinSeed = 6;
  // At most this many table entries (4 bytes each): the index stays under 100 MB.
  static constexpr double kMaxSeeds = 16e6;

  // How patterns are cut: the plan's choice, or (tests, benchmarks) one of the two.
  enum class Pieces { automatic, exact, one_edit };

  // Null where the index cannot answer exactly (alphabets other than dna and iupac,
  // overhang, patterns longer than 64 or with a position that is not exactly one of A, C,
  // G, T, pieces shorter than kMinSeed) or, unless `force`, where it would not pay (pays():
  // panels so small, or with seeds so unselective, that looking up a text's seeds and
  // scanning the candidates would cost about what scanning every pair does).
  static std::shared_ptr<const PatternIndex> build(const PatternSet& patterns, const SearchOptions& options,
                                                   bool force = false, Pieces pieces = Pieces::automatic);

  // One (pattern, strand) that may have an end with cost <= k in a text: its strand's codes
  // [range.begin, range.end) hold every such end (StrandRange).
  struct Candidate {
    std::uint32_t pattern = 0;
    bool rc = false;
    StrandRange range;
  };
  // A seed found in a text: its key (then its rank, then where its entries start), its
  // start, its entries.
  struct Seed {
    std::uint32_t key, at, count;
  };
  // Per thread: a text's seeds, and its pieces found as (scan << 32 | diagonal + 2^31).
  struct Scratch {
    UninitializedVector<Seed> seeds;  // (written ahead of its size: no clearing)
    UninitializedVector<std::uint32_t> keys, at;  // a kernel's look-up (SeedKeysFn)
    std::vector<std::uint64_t> found;
    // The text in two bits a base (kPad words before and after it), and where a code
    // matches several bases or none (both bits set): for plausible().
    std::vector<std::uint64_t> bases, wild;
  };
  // The candidates of a text of n class codes in forward order, by pattern, forward strand
  // first. False where the index cannot tell (more than two codes that match several bases,
  // such as N in iupac, within one seed): every pair must be scanned. The seeds are looked up
  // by `seed_keys` (a kernel's KernelFns::seed_keys: each gives the same answer).
  bool candidates(const std::uint8_t* codes, std::size_t n, SeedKeysFn seed_keys, Scratch& scratch,
                  std::vector<Candidate>& out) const;

  // Table entries: a seed of a piece each.
  std::size_t seeds() const { return entries_.size(); }
  // Pieces per pattern strand, and the edits each may have.
  unsigned pieces() const { return scheme_.parts; }
  unsigned piece_edits() const { return scheme_.edits; }
  unsigned seed_length() const { return q_; }
  std::size_t bytes() const {
    return (offsets_.size() + rank_.size()) * sizeof(std::uint32_t) + entries_.size() * sizeof(Entry) +
           present_.size() * sizeof(std::uint64_t) + profiles_.size() * sizeof(ScanProfile);
  }
  // For the log (-v): seed length, pieces, memory.
  std::string describe() const;

 private:
  // A piece whose seed is a table key: its scan (pattern * 2 + rc) and where it lies in the
  // pattern (its start; rc: its end, as the forward text reads it reversed), as
  // scan << kAtBits | at.
  using Entry = std::uint32_t;
  static constexpr unsigned kAtBits = 7;
  static constexpr Entry kAtMask = (Entry{1} << kAtBits) - 1;
  static Entry entry_of(std::uint32_t scan, std::uint32_t at) { return scan << kAtBits | at; }

  // A scan's pattern as the forward text reads it (rc: the reverse complement), bit j of
  // [b] set where position j is base b: enough to tell, one word wide, whether a
  // candidate's range holds an end with cost <= k at all (most seeds found by chance do
  // not), before a job is made for it.
  struct ScanProfile {
    std::uint64_t peq[4];
    std::uint64_t packed[2];  // position j's base in bits 2j, 2j + 1
  };

  // A way to cut the patterns: into `parts` pieces with up to `edits` edits, seeds of q
  // bases, `found` seeds per text position by chance (expected, at most).
  struct Scheme {
    unsigned parts = 0, edits = 0, q = 0;
    double found = 0;
  };

  PatternIndex() = default;
  // The scheme whose seeds a text finds fewest of by chance; parts == 0: none can serve.
  static Scheme scheme_of(const PatternSet& patterns, int k, unsigned strands, Pieces pieces);
  // Fills the table with every pattern's pieces' seeds. False: a pattern position is not
  // exactly one base.
  bool add_pieces(const PatternSet& patterns, const std::array<std::uint8_t, 256>& base_of_byte);
  // The seeds of a text that have entries, in text order, into s.seeds. False where the
  // index cannot tell.
  bool seeds_of(const std::uint8_t* codes, std::size_t n, SeedKeysFn seed_keys, Scratch& s) const;
  // The same for a text with codes that match several bases, each such code read as each of
  // them in turn.
  bool seeds_of_any(const std::uint8_t* codes, std::size_t n, UninitializedVector<Seed>& seeds) const;
  // Whether an occurrence of the scan's pattern (as the forward text reads it) could have
  // its positions on forward diagonals [lo, hi] (text position minus pattern position), as
  // one found at diagonals [lo + k, hi - k] must: at most k positions match the text on none
  // of them. Rules out most seeds found by chance for a few operations a diagonal. Needs
  // pack(): never "no" where occurs() would say yes.
  bool plausible(std::uint32_t scan, const Scratch& s, std::int64_t lo, std::int64_t hi, std::int64_t n) const;
  // The text's codes into s.bases and s.wild.
  void pack(const std::uint8_t* codes, std::size_t n, Scratch& s) const;
  static constexpr std::int64_t kPad = 3;  // words: diagonals reach m + k <= 96 positions out

  // Whether the forward text codes [a, b) hold an approximate occurrence of the scan's
  // pattern with cost <= k (Myers' bit-vector search from a fresh start; a code that
  // matches several bases matches each of them, so never "no" where there is one).
  bool occurs(std::uint32_t scan, const std::uint8_t* codes, std::uint32_t a, std::uint32_t b) const;
  // Whether looking up every q-gram and checking the `found` pieces found per position
  // costs less than scanning every pair (`scans` lane steps per text position).
  static bool pays(double found, std::size_t scans);

  // A seed with more text codes that match several bases (an IUPAC code such as N in
  // iupac) than this is not looked up: the text cannot be told.
  static constexpr int kMaxAmbiguous = 2;

  std::array<std::uint8_t, 16> bases_of_class_{};  // [text class]: bit b, base b ("ACGT") matches
  // [text class]: the one base it matches (0 where none), or kAmbiguousBase where several.
  std::array<std::uint8_t, 16> base_of_code_{};
  Scheme scheme_;
  bool screen_ = false;  // plausible() before occurs()
  unsigned q_ = 0;
  std::int32_t k_ = 0;
  bool rc_ = false;
  std::vector<std::uint8_t> length_;     // per pattern
  // 1 where seed `key` has entries, else 0.
  std::uint32_t has_entries(std::uint32_t key) const {
    return static_cast<std::uint32_t>(present_[key >> 6] >> (key & 63) & 1);
  }
  // Where a present key's entries are: offsets_[rank_of(key)] to offsets_[rank_of(key) + 1].
  std::uint32_t rank_of(std::uint32_t key) const {
    return rank_[key >> 6] +
           static_cast<std::uint32_t>(__builtin_popcountll(present_[key >> 6] & ((std::uint64_t{1} << (key & 63)) - 1)));
  }
  std::vector<std::uint32_t> offsets_;   // [rank of a present key], and one past the last
  std::vector<std::uint32_t> rank_;      // [word of present_]: the present keys before it
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> present_;   // bit [seed]: it has entries (a small table, read first)
  std::vector<ScanProfile> profiles_;    // [scan]
};

}  // namespace trawl
