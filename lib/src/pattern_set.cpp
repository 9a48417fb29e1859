#include "trawl/pattern_set.h"

#include <stdexcept>

namespace trawl {
namespace {

StrandProfile make_profile(std::string used, const AlphabetSpec& alphabet) {
  StrandProfile p;
  p.m = static_cast<std::uint32_t>(used.size());
  p.words = (p.m + 63) / 64;
  p.used = std::move(used);
  const unsigned classes = alphabet.class_count();
  p.peq.assign(std::size_t{classes} * p.words, 0);
  // Which classes each distinct pattern byte matches, computed once per byte value.
  std::uint64_t seen[4] = {};
  std::vector<std::uint8_t> classes_of[256];
  for (std::uint32_t j = 0; j < p.m; ++j) {
    auto b = static_cast<std::uint8_t>(p.used[j]);
    if (!((seen[b >> 6] >> (b & 63)) & 1u)) {
      seen[b >> 6] |= std::uint64_t{1} << (b & 63);
      for (unsigned c = 0; c < classes; ++c)
        if (alphabet.matches_class(b, static_cast<std::uint8_t>(c)))
          classes_of[b].push_back(static_cast<std::uint8_t>(c));
    }
    for (std::uint8_t c : classes_of[b])
      p.peq[std::size_t{c} * p.words + (j >> 6)] |= std::uint64_t{1} << (j & 63);
  }
  return p;
}

}  // namespace

PatternSet::PatternSet(std::vector<Pattern> patterns, const SearchOptions& options)
    : patterns_(std::move(patterns)) {
  profiles_.reserve(2 * patterns_.size());
  for (const Pattern& pat : patterns_) {
    if (pat.seq.empty())
      throw std::invalid_argument("pattern '" + pat.id + "' is empty");
    if (auto bad = find_invalid_pattern_byte(options.alphabet.alphabet, pat.seq)) {
      auto b = static_cast<unsigned char>(pat.seq[*bad]);
      std::string shown = (b >= 0x21 && b < 0x7f) ? std::string(1, static_cast<char>(b))
                                                  : "byte " + std::to_string(b);
      throw std::invalid_argument("pattern '" + pat.id + "' has invalid " +
                                  std::string(alphabet_name(options.alphabet.alphabet)) +
                                  " character '" + shown + "' at position " +
                                  std::to_string(*bad + 1));
    }
    profiles_.push_back(make_profile(pat.seq, options.alphabet));
    if (options.searches_rc()) {
      std::string comp = pat.seq;
      for (char& c : comp)
        c = static_cast<char>(options.alphabet.complement(static_cast<std::uint8_t>(c)));
      profiles_.push_back(make_profile(std::move(comp), options.alphabet));
    } else {
      profiles_.emplace_back();
    }
    if (pat.seq.size() > max_length_) max_length_ = static_cast<std::uint32_t>(pat.seq.size());
  }
}

}  // namespace trawl
