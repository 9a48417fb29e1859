#pragma once
// The allowed values of the numeric options and the one wording of a range error, shared by
// validate() and by a front end that must reject a number too large for its field.
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>

namespace trawl {

// Whole numbers from min to max, inclusive.
struct WholeRange {
  std::int64_t min;
  std::uint64_t max;
};

inline constexpr WholeRange kKRange{0, INT_MAX};                // -k
inline constexpr WholeRange kThreadsRange{0, INT_MAX};          // --threads (0 = all cores)
inline constexpr WholeRange kCompressLevelRange{0, 3};          // --compress-level (ISA-L's)
inline constexpr WholeRange kMinMarginRange{1, INT_MAX};         // demux --min-margin
inline constexpr WholeRange kMaxOpenRange{1, 1 << 20};           // demux --max-open
// --batch-bases: at most 2^40, so that a window's reach (a few task sizes added up) cannot wrap.
inline constexpr WholeRange kBatchBasesRange{1, std::uint64_t{1} << 40};
inline constexpr WholeRange kRowGroupRowsRange{1, SIZE_MAX};    // --row-group-rows

// "VALUE is out of range; give a whole number from MIN to MAX" (the part after "OPTION: ").
std::string range_text(std::string_view value, WholeRange range);

// "OPTION: VALUE is out of range; give a whole number from MIN to MAX".
std::string out_of_range(std::string_view option, std::string_view value, WholeRange range);

// "OPTION: VALUE is out of range; give a number from MIN to MAX", every number in plain
// decimal (no exponent), as short as still reads back as the same float.
std::string out_of_range(std::string_view option, float value, float min, float max);

}  // namespace trawl
