#include "trawl/core/alphabet.h"

#include <array>

namespace trawl {
namespace {

constexpr std::uint8_t A = 1, C = 2, G = 4, T = 8;

// Base sets of the IUPAC letters (upper case); every other byte maps to 0.
constexpr std::array<std::uint8_t, 256> make_iupac_table() {
  std::array<std::uint8_t, 256> t{};
  auto set = [&t](char letter, std::uint8_t bases) {
    t[static_cast<unsigned char>(letter)] = bases;
    t[static_cast<unsigned char>(letter | 0x20)] = bases;
  };
  set('A', A); set('C', C); set('G', G); set('T', T); set('U', T);
  set('R', A | G); set('Y', C | T); set('S', C | G); set('W', A | T);
  set('K', G | T); set('M', A | C); set('B', C | G | T); set('D', A | G | T);
  set('H', A | C | T); set('V', A | C | G); set('N', A | C | G | T);
  set('X', 0);
  return t;
}
constexpr auto kIupacBases = make_iupac_table();

constexpr std::array<bool, 256> make_iupac_letters() {
  std::array<bool, 256> t{};
  for (char c : std::string_view("ACGTURYSWKMBDHVNX")) {
    t[static_cast<unsigned char>(c)] = true;
    t[static_cast<unsigned char>(c | 0x20)] = true;
  }
  return t;
}
constexpr auto kIupacLetters = make_iupac_letters();

// IUPAC complement, case kept. U complements to A (it is T); Sassy leaves U unchanged,
// which would make an rc search of a U look for T on the reverse strand.
constexpr std::array<std::uint8_t, 256> make_complement(bool iupac) {
  std::array<std::uint8_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) t[i] = static_cast<std::uint8_t>(i);
  auto pair = [&t](char a, char b) {
    for (int lower = 0; lower < 2; ++lower) {
      auto x = static_cast<unsigned char>(lower ? (a | 0x20) : a);
      auto y = static_cast<unsigned char>(lower ? (b | 0x20) : b);
      t[x] = y;
      t[y] = x;
    }
  };
  pair('A', 'T');
  pair('C', 'G');
  if (iupac) {
    pair('R', 'Y'); pair('K', 'M'); pair('B', 'V'); pair('D', 'H');
    t['U'] = 'A';
    t['u'] = 'a';
  }
  return t;
}
constexpr auto kIupacComplement = make_complement(true);
constexpr auto kDnaComplement = make_complement(false);

// dna classes: A=0 C=1 G=2 T=3, anything else 4 (matches nothing).
constexpr std::uint8_t kDnaOther = 4;
constexpr std::uint8_t dna_class(std::uint8_t b) {
  switch (b | 0x20) {
    case 'a': return 0;
    case 'c': return 1;
    case 'g': return 2;
    case 't': return 3;
    default: return kDnaOther;
  }
}

constexpr std::uint8_t ascii_lower(std::uint8_t b) {
  return (b >= 'A' && b <= 'Z') ? static_cast<std::uint8_t>(b | 0x20) : b;
}

}  // namespace

std::string_view alphabet_name(Alphabet a) {
  switch (a) {
    case Alphabet::iupac: return "iupac";
    case Alphabet::dna: return "dna";
    case Alphabet::ascii: return "ascii";
  }
  return "?";
}

std::optional<Alphabet> parse_alphabet(std::string_view name) {
  if (name == "iupac") return Alphabet::iupac;
  if (name == "dna") return Alphabet::dna;
  if (name == "ascii") return Alphabet::ascii;
  return std::nullopt;
}

std::uint8_t iupac_bases(std::uint8_t b) { return kIupacBases[b]; }

bool AlphabetSpec::matches(std::uint8_t p, std::uint8_t t) const {
  switch (alphabet) {
    case Alphabet::iupac: return (kIupacBases[p] & kIupacBases[t]) != 0;
    case Alphabet::dna: return dna_class(p) != kDnaOther && dna_class(p) == dna_class(t);
    case Alphabet::ascii: return ignore_case ? ascii_lower(p) == ascii_lower(t) : p == t;
  }
  return false;
}

std::uint8_t AlphabetSpec::complement(std::uint8_t b) const {
  switch (alphabet) {
    case Alphabet::iupac: return kIupacComplement[b];
    case Alphabet::dna: return kDnaComplement[b];
    case Alphabet::ascii: return b;
  }
  return b;
}

unsigned AlphabetSpec::class_count() const {
  switch (alphabet) {
    case Alphabet::iupac: return 16;
    case Alphabet::dna: return 5;
    case Alphabet::ascii: return 256;
  }
  return 256;
}

std::uint8_t AlphabetSpec::text_class(std::uint8_t t) const {
  switch (alphabet) {
    case Alphabet::iupac: return kIupacBases[t];
    case Alphabet::dna: return dna_class(t);
    case Alphabet::ascii: return ignore_case ? ascii_lower(t) : t;
  }
  return t;
}

bool AlphabetSpec::matches_class(std::uint8_t p, std::uint8_t cls) const {
  switch (alphabet) {
    case Alphabet::iupac: return (kIupacBases[p] & cls) != 0;
    case Alphabet::dna: return dna_class(p) != kDnaOther && dna_class(p) == cls;
    case Alphabet::ascii: return (ignore_case ? ascii_lower(p) : p) == cls;
  }
  return false;
}

std::optional<std::size_t> find_invalid_pattern_byte(Alphabet a, std::string_view pattern) {
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    auto b = static_cast<std::uint8_t>(pattern[i]);
    bool ok = a == Alphabet::ascii || (a == Alphabet::iupac && kIupacLetters[b]) ||
              (a == Alphabet::dna && dna_class(b) != kDnaOther);
    if (!ok) return i;
  }
  return std::nullopt;
}

}  // namespace trawl
