#pragma once
// Private to the searcher's source files: the sizes that shape job-lane groups and the
// small helpers several strategies share. (Why each size is what it is: docs/performance.md,
// "Searcher constants".)
#include <cstddef>
#include <cstdint>

namespace trawl::lanes {

// Ends are taken from the kernel this many text characters at a time, so the buffer stays
// small whatever the record length. Not smaller: a SIMD kernel cuts each chunk into one
// segment per lane, and every segment but the first re-reads m + k characters to warm up.
constexpr std::size_t kScanChunk = 65536;

// Work groups: at most this many lane steps (the bound on their ends) and jobs, so the
// buffers stay small. Records longer than kMaxText gain nothing from a lane of their own:
// the tiled kernel already spreads them over every lane.
constexpr std::uint64_t kGroupSteps = std::uint64_t{1} << 16;
constexpr std::size_t kGroupJobs = 4096;
constexpr std::size_t kMaxText = 4096;
// The pattern index's jobs cover only the candidates' parts of a record, so long records
// (reads of tens of kilobases) gain from it as much as short ones; longer records than this
// (windows of a chromosome) keep the ordinary scan, so a group's codes stay bounded.
constexpr std::size_t kMaxIndexedText = std::size_t{1} << 18;
// The most lanes any kernel runs side by side (kernel_jobs.h: four vectors of 16): a chunk
// of jobs cuts a run over one text only after a multiple of this many.
constexpr std::size_t kPanelBatch = 64;
// Sets of up to this many patterns with precomputed profiles keep a job per pattern and
// strand ready (48 bytes each, per thread).
constexpr std::size_t kPanelJobsLimit = 16384;
// Where the first end decides (contains), forward strands are scanned over this many codes
// first: most texts that hit at all do so early, and are then never coded past it.
constexpr std::uint64_t kFirstEndHead = 128;
// A record goes into lanes only if all its jobs together take at most this many steps (so
// a group's ends, at most one per step, stay a few MB); a record with more patterns than
// that goes pattern by pattern through the ordinary path.
constexpr std::uint64_t kRecordSteps = std::uint64_t{1} << 20;
// A pattern panel takes records up to this long, and this many steps of its jobs (a group's
// ends, at most one per step, then stay within tens of MB): its jobs share the record's
// codes, where the text-tiled kernel would make every job's equality words again (long
// reads).
constexpr std::size_t kMaxPanelText = std::size_t{1} << 16;
constexpr std::uint64_t kPanelRecordSteps = std::uint64_t{1} << 22;
// A panel is filtered (SeedFilter) only if the filter can rule out at least this many of a
// record's jobs: its look-ups cost about as much per text character as a job or two.
constexpr std::size_t kSeedFilterMinScans = 8;
// Filtered or screened, a group holds several times kGroupSteps: the few jobs its records
// keep then fill the kernel's vectors across more records, with fewer calls.
constexpr std::uint64_t kFilteredGroupScale = 4;
constexpr std::uint64_t kScreenedGroupScale = 16;

// The screen: pieces of kScreenPiece characters (a 16-bit lane) are selective enough for k
// up to kScreenMaxK (a random 16-mer rarely comes within 3 or 4 edits of a short read),
// and at most kScreenMaxPatterns patterns keep a record's jobs within 64 bits
// (LaneGroup::Record::live).
constexpr std::int32_t kScreenMaxK = 4;
constexpr std::size_t kScreenMaxPatterns = 32;

// --paired jobs over part of a strand are a multiple of this many steps long: the kernel's
// lanes advance in blocks that end where the first of them ends, and ranges of every
// length made blocks of a step or two.
constexpr std::uint32_t kPartQuantum = 16;

inline std::uint64_t saturating_sub(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

// Rows first .. first + count - 1 of a profile word in reverse order: row j of the result is
// row first + count - 1 - j of `word` (the profile of the reversed pattern, or piece).
inline std::uint64_t reversed_rows(std::uint64_t word, std::uint32_t first, std::uint32_t count) {
  std::uint64_t reversed = 0;
  for (std::uint32_t j = 0; j < count; ++j) reversed |= (word >> (first + count - 1 - j) & 1) << j;
  return reversed;
}

}  // namespace trawl::lanes
