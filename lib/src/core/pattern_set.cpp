#include "trawl/core/pattern_set.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


namespace trawl {

PatternSet::PatternSet(const SearchOptions& options, std::size_t precompute_limit)
    : alphabet_(options.alphabet), rc_(options.searches_rc()), precompute_limit_(precompute_limit) {
  classes_ = alphabet_.class_count();
  for (unsigned b = 0; b < 256; ++b) {
    const auto byte = static_cast<std::uint8_t>(b);
    for (int strand = 0; strand < 2; ++strand) {
      const std::uint8_t used = strand ? alphabet_.complement(byte) : byte;
      for (unsigned c = 0; c < classes_; ++c)
        if (alphabet_.matches_class(used, static_cast<std::uint8_t>(c))) {
          classes_of_[strand][b].push_back(static_cast<std::uint8_t>(c));
          if (classes_ <= 16) planes_[strand][c >> 3][b] |= static_cast<std::uint8_t>(1u << (c & 7));
        }
    }
    const char one = static_cast<char>(byte);
    valid_[b] = !find_invalid_pattern_byte(alphabet_.alphabet, std::string_view(&one, 1));
  }
}

PatternSet::PatternSet(const std::vector<Pattern>& patterns, const SearchOptions& options,
                       std::size_t precompute_limit)
    : PatternSet(options, precompute_limit) {
  for (const Pattern& pat : patterns) add(pat.id, pat.seq);
  finish();
}

bool PatternSet::all_valid(std::string_view seq) const {
  // Local pointer: stores through char* may alias any member, so the loop would otherwise
  // reload it for every byte (loading millions of patterns is serial work).
  const bool* valid = valid_.data();
  // Four independent chains: one would add a dependent step per byte.
  unsigned ok[4] = {1, 1, 1, 1};
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(seq.data());
  std::size_t i = 0;
  for (; i + 4 <= seq.size(); i += 4)
    for (unsigned j = 0; j < 4; ++j) ok[j] &= valid[bytes[i + j]];
  for (; i < seq.size(); ++i) ok[0] &= valid[bytes[i]];
  return (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
}

std::string PatternSet::invalid_reason(std::string_view id, std::string_view seq) const {
  if (seq.empty()) return "pattern '" + std::string(id) + "' is empty";
  if (all_valid(seq)) return {};
  const auto bad = find_invalid_pattern_byte(alphabet_.alphabet, seq);
  auto b = static_cast<unsigned char>(seq[*bad]);
  std::string shown = (b >= 0x21 && b < 0x7f) ? "'" + std::string(1, static_cast<char>(b)) + "'"
                     : b == ' '                ? "' ' (a space)"
                     : b == '\t'               ? "'\\t' (a tab)"
                                               : "'byte " + std::to_string(b) + "'";
  return "pattern '" + std::string(id) + "' has invalid " +
         std::string(alphabet_name(alphabet_.alphabet)) + " character " + shown +
         " at position " + std::to_string(*bad + 1);
}

std::string_view PatternSet::keep(std::string_view bytes) {
  if (bytes.size() > arena_left_) {
    // Blocks that double from 64 KiB to 4 MiB (or one of its own for a longer string); the
    // large ones in whole huge pages, as a million patterns' ids and bytes otherwise fault
    // in 4 KiB at a time.
    const std::size_t last = arena_.empty() ? 0 : arena_.back().capacity();
    const std::size_t block = std::max(std::clamp<std::size_t>(2 * last, std::size_t{1} << 16, std::size_t{4} << 20), bytes.size());
    arena_.emplace_back();
    arena_.back().reserve(HugePageAllocator<char>::room_for(block));
    arena_at_ = arena_.back().data();
    arena_left_ = arena_.back().capacity();
  }
  if (!bytes.empty()) std::memcpy(arena_at_, bytes.data(), bytes.size());
  const std::string_view kept(arena_at_, bytes.size());
  arena_at_ += bytes.size();
  arena_left_ -= bytes.size();
  return kept;
}

void PatternSet::add(std::string_view id, std::string_view seq) { add(id, seq, nullptr); }

void PatternSet::add(std::string_view id, std::string_view seq, std::shared_ptr<const void> owner) {
  if (seq.empty() || !all_valid(seq)) throw std::invalid_argument(invalid_reason(id, seq));
  if (seq.size() > UINT32_MAX)
    throw std::invalid_argument("pattern '" + std::string(id) + "' is longer than 4 GiB");
  if (id_runs_.empty() || id_runs_.back().first_line != 0)
    id_runs_.push_back({size(), 0, explicit_ids_.size()});
  explicit_ids_.push_back(keep(id));
  seq_begin_.push_back(owner ? seq.data() : keep(seq).data());
  seq_length_.push_back(static_cast<std::uint32_t>(seq.size()));
  max_length_ = std::max(max_length_, static_cast<std::uint32_t>(seq.size()));
  if (owner && (owners_.empty() || owners_.back() != owner)) owners_.push_back(std::move(owner));
}

std::string_view PatternSet::id(std::size_t i, IdRoom& room) const {
  // The last run that starts at or before pattern i (an empty run may share its start with
  // the next one; upper_bound finds the latter). Most sets have one run.
  auto run = id_runs_.begin();
  if (id_runs_.size() > 1)
    run = std::prev(std::upper_bound(id_runs_.begin(), id_runs_.end(), i,
                                     [](std::size_t at, const IdRun& r) { return at < r.first_pattern; }));
  const std::uint64_t offset = i - run->first_pattern;
  if (run->first_line == 0) return explicit_ids_[run->first_explicit + offset];
  const char* end = std::to_chars(room.data(), room.data() + room.size(), run->first_line + offset).ptr;
  return {room.data(), static_cast<std::size_t>(end - room.data())};
}

namespace {

// Calls line(begin, length, index) for every line of [begin, end) (trailing spaces, tabs and
// '\r' dropped: they are invisible in an editor, and a sheet exported from a spreadsheet has
// them; a last line without '\n' included); stops early where it returns false. Line ends are
// found 64 bytes at a time, not by a memchr call per line: for short patterns the call
// costs more than the line.
template <class Line>
void for_each_line(const char* begin, const char* end, Line line) {
  std::uint64_t index = 0;
  const char* start = begin;  // of the current line
  auto emit = [&](const char* stop) {
    std::size_t len = static_cast<std::size_t>(stop - start);
    while (len > 0 && (start[len - 1] == '\r' || start[len - 1] == ' ' || start[len - 1] == '\t')) --len;
    const bool go = line(start, len, index++);
    start = stop + 1;
    return go;
  };
  const char* p = begin;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  auto mask16 = [&](const char* at) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, newline))));
  };
  for (; end - p >= 64; p += 64) {
    std::uint64_t ends = mask16(p) | mask16(p + 16) << 16 | mask16(p + 32) << 32 | mask16(p + 48) << 48;
    for (; ends != 0; ends &= ends - 1)
      if (!emit(p + __builtin_ctzll(ends))) return;
  }
#endif
  for (const char* nl; p < end && (nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))); p = nl + 1)
    if (!emit(nl)) return;
  if (start < end) emit(end);
}

}  // namespace

void PatternSet::add_sheet(std::string_view text, std::shared_ptr<const void> owner) {
  const std::size_t old_count = size(), old_runs = id_runs_.size(), old_explicit = explicit_ids_.size();
  std::unordered_map<std::string_view, std::uint64_t> line_of;  // id -> its line
  std::string error;
  for_each_line(text.data(), text.data() + text.size(), [&](const char* begin, std::size_t len, std::uint64_t index) {
    if (len == 0) return true;
    const std::string line = std::to_string(index + 1);
    std::string_view id = line, seq(begin, len);
    if (const std::size_t tab = seq.find('\t'); tab != std::string_view::npos) {
      id = seq.substr(0, tab);
      seq = seq.substr(tab + 1);
      if (id.empty()) error = "line " + line + ": no name before the tab";
    }
    if (error.empty() && (seq.size() > UINT32_MAX || !all_valid(seq)))
      error = "line " + line + ": " + (seq.size() > UINT32_MAX ? "pattern '" + std::string(id) + "' is longer than 4 GiB" : invalid_reason(id, seq));
    if (!error.empty()) return false;
    add(id, seq, owner);
    const auto [at, fresh] = line_of.emplace(explicit_ids_.back(), index + 1);
    if (!fresh) error = "line " + line + ": pattern id '" + std::string(id) + "' is on line " + std::to_string(at->second) + " too";
    return error.empty();
  });
  if (error.empty()) return;
  seq_begin_.resize(old_count);
  seq_length_.resize(old_count);
  id_runs_.resize(old_runs);
  explicit_ids_.resize(old_explicit);
  throw std::invalid_argument(error);
}

void PatternSet::add_list(std::string_view text, std::shared_ptr<const void> owner,
                          std::size_t parts, const ForEach& for_each,
                          const std::function<void(std::string_view piece)>& read) {
  struct Piece {
    const char* begin = nullptr;
    const char* end = nullptr;
    // Pass 1: its lines, and which of them are blank (no pattern, but numbered).
    std::uint64_t lines = 0;
    std::vector<std::uint64_t> blank;
    std::uint64_t first_line = 0, first_pattern = 0;  // its first line's number and pattern
    std::uint32_t max_length = 0;
    bool tab = false;   // a tab in it: the list is a sheet
    std::string error;  // the first invalid pattern of the piece
  };
  // Pieces start after a line end, so no line is cut.
  std::vector<Piece> pieces;
  const char* const text_end = text.data() + text.size();
  const char* at = text.data();
  parts = std::max<std::size_t>(1, parts);
  for (std::size_t i = 0; i < parts && at < text_end; ++i) {
    const char* end = i + 1 == parts ? text_end : text.data() + text.size() * (i + 1) / parts;
    if (end < at) end = at;
    if (end < text_end) {
      const auto* nl = static_cast<const char*>(std::memchr(end, '\n', static_cast<std::size_t>(text_end - end)));
      end = nl ? nl + 1 : text_end;
    }
    if (end > at) {
      Piece& p = pieces.emplace_back();
      p.begin = at;
      p.end = end;
    }
    at = end;
  }
  for_each(pieces.size(), [&](std::size_t i) {
    Piece& p = pieces[i];
    p.tab = std::memchr(p.begin, '\t', static_cast<std::size_t>(p.end - p.begin)) != nullptr;
    for_each_line(p.begin, p.end, [&](const char*, std::size_t len, std::uint64_t index) {
      ++p.lines;
      if (len == 0) p.blank.push_back(index);
      return true;
    });
  });
  // A tab anywhere: a sheet of named patterns (small: loaded line by line). (Looked for in
  // the pieces, in parallel: a mapped list's pages are read there first.)
  if (std::any_of(pieces.begin(), pieces.end(), [](const Piece& p) { return p.tab; })) {
    add_sheet(text, std::move(owner));
    return;
  }
  // Lay the pieces out one after the other behind what the set holds, and number the lines:
  // a run of ids from the first line, and a new one after each blank line.
  const std::size_t old_count = size(), old_runs = id_runs_.size();
  auto start_run = [&](std::uint64_t pattern, std::uint64_t line) {
    if (id_runs_.size() > old_runs) {
      IdRun& last = id_runs_.back();
      if (last.first_line + (pattern - last.first_pattern) == line) return;  // goes on
      if (last.first_pattern == pattern) {  // empty (blank lines one after the other)
        last.first_line = line;
        return;
      }
    }
    id_runs_.push_back({pattern, line, 0});
  };
  std::uint64_t line = 1, pattern = old_count;
  start_run(pattern, line);
  for (Piece& p : pieces) {
    p.first_line = line;
    p.first_pattern = pattern;
    for (std::size_t j = 0; j < p.blank.size(); ++j)
      start_run(p.first_pattern + p.blank[j] - j, p.first_line + p.blank[j] + 1);
    line += p.lines;
    pattern += p.lines - p.blank.size();
  }
  seq_begin_.resize(pattern);
  seq_length_.resize(pattern);
  for_each(pieces.size(), [&](std::size_t i) {
    Piece& p = pieces[i];
    const char** begin_out = seq_begin_.data() + p.first_pattern;
    std::uint32_t* length_out = seq_length_.data() + p.first_pattern;
    for_each_line(p.begin, p.end, [&](const char* begin, std::size_t len, std::uint64_t index) {
      if (len == 0) return true;
      const std::string_view seq(begin, len);
      if (len > UINT32_MAX || !all_valid(seq)) {
        // Named as add() would name it (the blank lines before it are numbered too).
        const std::string id = std::to_string(p.first_line + index);
        p.error = "line " + id + ": " + (len > UINT32_MAX ? "pattern '" + id + "' is longer than 4 GiB" : invalid_reason(id, seq));
        return false;
      }
      *begin_out++ = begin;
      *length_out++ = static_cast<std::uint32_t>(len);
      p.max_length = std::max(p.max_length, static_cast<std::uint32_t>(len));
      return true;
    });
    if (read) read({p.begin, static_cast<std::size_t>(p.end - p.begin)});
  });
  for (const Piece& p : pieces) {
    if (p.error.empty()) continue;
    seq_begin_.resize(old_count);
    seq_length_.resize(old_count);
    id_runs_.resize(old_runs);
    throw std::invalid_argument(p.error);
  }
  for (const Piece& p : pieces) max_length_ = std::max(max_length_, p.max_length);
  if (owner) owners_.push_back(std::move(owner));
}

void PatternSet::finish() {
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < size(); ++i)
    bytes += (rc_ ? 2 : 1) * std::size_t{classes_} * ((std::size_t{seq_length_[i]} + 63) / 64) * 8;
  precomputed_ = size() <= precompute_limit_ && bytes <= kPrecomputeBytes;
  if (!precomputed_) return;
  peq_offsets_.clear();
  peq_.clear();
  peq_offsets_.reserve(2 * size() + 1);
  for (std::size_t i = 0; i < size(); ++i) {
    const std::uint64_t m = seq_length_[i];
    const std::uint64_t size_one = std::uint64_t{classes_} * ((m + 63) / 64);
    for (int strand = 0; strand < 2; ++strand) {
      peq_offsets_.push_back(peq_.size());
      if (strand == 1 && !rc_) continue;
      peq_.resize(peq_.size() + size_one);
      build_peq(seq(i), strand ? Strand::rc : Strand::fwd,
                peq_.data() + peq_.size() - size_one);
    }
  }
}

void build_peq_from_planes(const ClassPlanes& planes, unsigned classes, std::string_view seq,
                           std::uint64_t* peq) {
  const std::size_t words = (seq.size() + 63) / 64;
  std::fill(peq, peq + std::size_t{classes} * words, 0);
#if defined(__SSE2__)
  // A bit transpose, 16 positions at a time: the positions' plane bytes are assembled in
  // registers (bytes stored to memory and loaded as a vector would stall the load), and one
  // movemask per class collects bit c of 16 bytes. (The obvious loop, OR one bit per
  // position into peq, is a chain of store-to-load dependencies through peq, and every
  // --paired record whose profile is built on demand would wait on it.)
  const bool two_planes = classes > 8;
  for (std::size_t w = 0; w < words; ++w) {
    const std::size_t base = w * 64;
    const std::size_t len = std::min<std::size_t>(64, seq.size() - base);
    for (std::size_t g = 0; g < len; g += 16) {
      // Plane bytes of 8 positions from `from`, as one register (not an array: the
      // compiler would keep that in memory).
      auto eight = [&](std::size_t from, const std::array<std::uint8_t, 256>& plane) {
        std::uint64_t bytes = 0;
        const std::size_t to = std::min(len, from + 8);
        for (std::size_t j = from; j < to; ++j)
          bytes |= std::uint64_t{plane[static_cast<std::uint8_t>(seq[base + j])]} << (8 * (j - from));
        return static_cast<long long>(bytes);
      };
      const __m128i plane[2] = {_mm_set_epi64x(eight(g + 8, planes[0]), eight(g, planes[0])),
                                two_planes ? _mm_set_epi64x(eight(g + 8, planes[1]), eight(g, planes[1]))
                                           : _mm_setzero_si128()};
      for (unsigned c = 0; c < classes; ++c) {
        // Bit c of each byte to the byte's top bit (16-bit shifts keep bytes apart here).
        const __m128i top = _mm_sll_epi16(plane[c >> 3], _mm_cvtsi32_si128(static_cast<int>(7 - (c & 7))));
        peq[std::size_t{c} * words + w] |= static_cast<std::uint64_t>(_mm_movemask_epi8(top)) << g;
      }
    }
  }
#else
  for (std::size_t j = 0; j < seq.size(); ++j) {
    const auto b = static_cast<std::uint8_t>(seq[j]);
    const unsigned mask = planes[0][b] | unsigned{planes[1][b]} << 8;
    for (unsigned c = 0; c < classes; ++c)
      if (mask >> c & 1u) peq[std::size_t{c} * words + (j >> 6)] |= std::uint64_t{1} << (j & 63);
  }
#endif
}

void PatternSet::build_peq(std::string_view seq, Strand s, std::uint64_t* peq) const {
  const std::size_t words = (seq.size() + 63) / 64;
  const int strand = s == Strand::rc ? 1 : 0;
  if (classes_ <= 16) {
    build_peq_from_planes(planes_[strand], classes_, seq, peq);
    return;
  }
  std::fill(peq, peq + std::size_t{classes_} * words, 0);
  for (std::size_t j = 0; j < seq.size(); ++j)
    for (std::uint8_t c : classes_of_[strand][static_cast<std::uint8_t>(seq[j])])
      peq[std::size_t{c} * words + (j >> 6)] |= std::uint64_t{1} << (j & 63);
}

StrandProfile PatternSet::profile_header(std::size_t i, Strand /*both strands alike*/) const {
  StrandProfile p;
  p.m = seq_length_[i];
  p.words = (p.m + 63) / 64;
  p.classes_hint = classes_;
  return p;
}

StrandProfile PatternSet::profile(std::size_t i, Strand s,
                                  std::vector<std::uint64_t>& scratch) const {
  StrandProfile p = profile_header(i, s);
  if (precomputed_) {
    p.peq = peq_.data() + peq_offsets_[2 * i + (s == Strand::rc ? 1 : 0)];
  } else {
    const std::size_t at = scratch.size();
    scratch.resize(at + std::size_t{classes_} * p.words);
    build_peq(seq(i), s, scratch.data() + at);
    p.peq = scratch.data() + at;
  }
  return p;
}

}  // namespace trawl
