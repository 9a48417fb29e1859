#pragma once
// Alphabets (docs/semantics.md §5): which pattern bytes are valid, which pattern/text byte
// pairs match, and the complement used for the reverse-complement strand. Pure functions,
// thread safe.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace trawl {

enum class Alphabet : std::uint8_t { iupac, dna, ascii };

std::string_view alphabet_name(Alphabet a);
std::optional<Alphabet> parse_alphabet(std::string_view name);

// How pattern and text bytes compare. `ignore_case` only matters for ascii
// (iupac and dna are always case-insensitive).
struct AlphabetSpec {
  Alphabet alphabet = Alphabet::iupac;
  bool ignore_case = false;

  // True when pattern byte `p` matches text byte `t` (the table of docs/semantics.md §5).
  bool matches(std::uint8_t p, std::uint8_t t) const;
  // Reverse-complement strand exists (dna, iupac).
  bool has_complement() const { return alphabet != Alphabet::ascii; }
  // Complement of one byte, case kept; bytes without a complement are returned unchanged.
  std::uint8_t complement(std::uint8_t b) const;

  // Text bytes are searched as small "classes": two bytes with the same class match the
  // same pattern bytes. iupac: the 4-bit base set (16 classes); dna: A C G T or other (5);
  // ascii: the byte itself, lower-cased with ignore_case (256).
  unsigned class_count() const;
  std::uint8_t text_class(std::uint8_t t) const;
  // True when pattern byte `p` matches every text byte of class `cls`.
  bool matches_class(std::uint8_t p, std::uint8_t cls) const;
};

// Index of the first byte of `pattern` that is not valid for `a`, or nullopt if all are.
std::optional<std::size_t> find_invalid_pattern_byte(Alphabet a, std::string_view pattern);

// The N filter counts literal N and n only (docs/semantics.md §8).
inline bool is_n_byte(std::uint8_t b) { return (b | 0x20) == 'n'; }

// IUPAC base set of a byte: bit 0 A, 1 C, 2 G, 3 T; 0 for X and for any non-IUPAC byte.
std::uint8_t iupac_bases(std::uint8_t b);

}  // namespace trawl
