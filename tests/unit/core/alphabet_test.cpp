// Alphabets (docs/semantics.md §5): the IUPAC base sets, which bytes match, complements
// (IUPAC letters, U, case), the text classes the kernels search, pattern validity and the
// alphabet names. The expected values are written out here from the table and the letter
// sets of docs/semantics.md §5, not derived from the library.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "trawl/core/alphabet.h"

using namespace trawl;

namespace {

constexpr std::uint8_t kA = 1, kC = 2, kG = 4, kT = 8;

std::uint8_t byte(char c) { return static_cast<std::uint8_t>(c); }
bool is_upper(int b) { return b >= 'A' && b <= 'Z'; }
bool is_lower(int b) { return b >= 'a' && b <= 'z'; }

// The IUPAC code table, upper case, with each letter's bases.
struct Code {
  char letter;
  std::uint8_t bases;
};
constexpr Code kCodes[] = {
    {'A', kA}, {'C', kC}, {'G', kG}, {'T', kT}, {'U', kT},
    {'R', kA | kG}, {'Y', kC | kT}, {'S', kC | kG}, {'W', kA | kT}, {'K', kG | kT}, {'M', kA | kC},
    {'B', kC | kG | kT}, {'D', kA | kG | kT}, {'H', kA | kC | kT}, {'V', kA | kC | kG},
    {'N', kA | kC | kG | kT}, {'X', 0}};

bool is_iupac_letter(int b) {
  for (const Code& c : kCodes)
    if (b == c.letter || b == (c.letter | 0x20)) return true;
  return false;
}

}  // namespace

TEST_CASE("alphabet names parse and print both ways; unknown names do not parse") {
  for (Alphabet a : {Alphabet::iupac, Alphabet::dna, Alphabet::ascii}) {
    const auto parsed = parse_alphabet(alphabet_name(a));
    REQUIRE(parsed.has_value());
    CHECK(*parsed == a);
  }
  CHECK(alphabet_name(Alphabet::iupac) == "iupac");
  CHECK(alphabet_name(Alphabet::dna) == "dna");
  CHECK(alphabet_name(Alphabet::ascii) == "ascii");
  for (std::string_view bad : {"", "DNA", "Iupac", "rna", "ascii ", "protein"})
    CHECK_FALSE(parse_alphabet(bad).has_value());
}

TEST_CASE("iupac_bases: the IUPAC table in both cases, 0 for X and every other byte") {
  for (const Code& c : kCodes) {
    CAPTURE(c.letter);
    CHECK(iupac_bases(byte(c.letter)) == c.bases);
    CHECK(iupac_bases(byte(static_cast<char>(c.letter | 0x20))) == c.bases);
  }
  for (int b = 0; b < 256; ++b)
    if (!is_iupac_letter(b)) {
      CAPTURE(b);
      CHECK(iupac_bases(static_cast<std::uint8_t>(b)) == 0);
    }
}

TEST_CASE("iupac matching is base-set intersection, any case; non-IUPAC text matches nothing") {
  const AlphabetSpec spec{Alphabet::iupac, false};
  for (int p = 0; p < 256; ++p)
    for (int t = 0; t < 256; ++t) {
      const bool want = (iupac_bases(static_cast<std::uint8_t>(p)) & iupac_bases(static_cast<std::uint8_t>(t))) != 0;
      if (spec.matches(static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(t)) != want) {
        FAIL_CHECK("iupac matches(" << p << ", " << t << ") != " << want);
        return;
      }
    }
  CHECK(spec.matches(byte('N'), byte('a')));
  CHECK(spec.matches(byte('a'), byte('N')));
  CHECK(spec.matches(byte('U'), byte('t')));
  CHECK(spec.matches(byte('R'), byte('g')));
  CHECK_FALSE(spec.matches(byte('R'), byte('C')));
  CHECK_FALSE(spec.matches(byte('X'), byte('N')));
  CHECK_FALSE(spec.matches(byte('N'), byte('X')));
  CHECK_FALSE(spec.matches(byte('N'), byte('.')));  // non-IUPAC text bytes match nothing (§5)
  CHECK_FALSE(spec.matches(byte('N'), byte('E')));
}

TEST_CASE("dna matching: A C G T any case only; N and other text bytes match nothing") {
  const AlphabetSpec spec{Alphabet::dna, false};
  auto base = [](int b) -> int {
    switch (b | 0x20) {
      case 'a': return 0;
      case 'c': return 1;
      case 'g': return 2;
      case 't': return 3;
      default: return -1;
    }
  };
  for (int p = 0; p < 256; ++p)
    for (int t = 0; t < 256; ++t) {
      const bool want = base(p) >= 0 && base(p) == base(t);
      if (spec.matches(static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(t)) != want) {
        FAIL_CHECK("dna matches(" << p << ", " << t << ") != " << want);
        return;
      }
    }
  CHECK_FALSE(spec.matches(byte('N'), byte('N')));
  CHECK_FALSE(spec.matches(byte('A'), byte('N')));
  CHECK_FALSE(spec.matches(byte('U'), byte('T')));  // U is IUPAC, not dna
}

TEST_CASE("ascii matching: bytes, case-sensitive unless ignore_case folds A-Z only") {
  const AlphabetSpec exact{Alphabet::ascii, false};
  const AlphabetSpec folded{Alphabet::ascii, true};
  auto lower = [](int b) { return is_upper(b) ? b | 0x20 : b; };
  for (int p = 0; p < 256; ++p)
    for (int t = 0; t < 256; ++t) {
      const auto pb = static_cast<std::uint8_t>(p), tb = static_cast<std::uint8_t>(t);
      if (exact.matches(pb, tb) != (p == t) || folded.matches(pb, tb) != (lower(p) == lower(t))) {
        FAIL_CHECK("ascii matches(" << p << ", " << t << ")");
        return;
      }
    }
  CHECK_FALSE(exact.matches(byte('a'), byte('A')));
  CHECK(folded.matches(byte('a'), byte('A')));
  CHECK(folded.matches(byte('Z'), byte('z')));
  CHECK_FALSE(folded.matches(byte('@'), byte('`')));  // 0x40 and 0x60 are not letters
  CHECK_FALSE(folded.matches(byte('['), byte('{')));
  CHECK_FALSE(folded.matches(0xC0, 0xE0));            // no folding beyond ASCII
}

TEST_CASE("complements: IUPAC pairs in both cases, U to A, self-complementary letters, others unchanged") {
  const AlphabetSpec iupac{Alphabet::iupac, false};
  const AlphabetSpec dna{Alphabet::dna, false};
  const AlphabetSpec ascii{Alphabet::ascii, false};
  CHECK(iupac.has_complement());
  CHECK(dna.has_complement());
  CHECK_FALSE(ascii.has_complement());
  CHECK_FALSE(AlphabetSpec{Alphabet::ascii, true}.has_complement());

  const std::string_view from = "ACGTURYKMBVDHSWNXacgturykmbvdhswnx";
  const std::string_view to = "TGCAAYRMKVBHDSWNXtgcaayrmkvbhdswnx";
  for (std::size_t i = 0; i < from.size(); ++i) {
    CAPTURE(from[i]);
    CHECK(iupac.complement(byte(from[i])) == byte(to[i]));
  }
  // Every other byte is its own complement; the pairs are involutions (U is one way: A -> T).
  for (int b = 0; b < 256; ++b) {
    const auto bb = static_cast<std::uint8_t>(b);
    CAPTURE(b);
    if (from.find(static_cast<char>(b)) == std::string_view::npos) CHECK(iupac.complement(bb) == bb);
    if ((b | 0x20) != 'u') CHECK(iupac.complement(iupac.complement(bb)) == bb);
    // Case is kept.
    CHECK(is_upper(iupac.complement(bb)) == is_upper(b));
    CHECK(is_lower(iupac.complement(bb)) == is_lower(b));
    // The complement of an IUPAC byte matches exactly the complements of what it matches.
    if (is_iupac_letter(b))
      for (char t : std::string_view("ACGT"))
        CHECK(iupac.matches(bb, byte(t)) == iupac.matches(iupac.complement(bb), iupac.complement(byte(t))));
  }
  // dna: only A C G T (any case) change.
  const std::string_view dna_from = "ACGTacgt", dna_to = "TGCAtgca";
  for (int b = 0; b < 256; ++b) {
    const auto bb = static_cast<std::uint8_t>(b);
    const auto at = dna_from.find(static_cast<char>(b));
    CAPTURE(b);
    CHECK(dna.complement(bb) == (at == std::string_view::npos ? bb : byte(dna_to[at])));
    CHECK(ascii.complement(bb) == bb);
  }
}

TEST_CASE("text classes: class counts, and matches_class agrees with matches for every byte") {
  const AlphabetSpec specs[] = {{Alphabet::iupac, false}, {Alphabet::dna, false},
                                {Alphabet::ascii, false}, {Alphabet::ascii, true}};
  CHECK(specs[0].class_count() == 16);
  CHECK(specs[1].class_count() == 5);
  CHECK(specs[2].class_count() == 256);
  CHECK(specs[3].class_count() == 256);
  for (const AlphabetSpec& spec : specs) {
    CAPTURE(alphabet_name(spec.alphabet));
    CAPTURE(spec.ignore_case);
    int wrong = 0;
    for (int t = 0; t < 256; ++t) {
      const auto tb = static_cast<std::uint8_t>(t);
      const std::uint8_t cls = spec.text_class(tb);
      if (cls >= spec.class_count()) ++wrong;
      for (int p = 0; p < 256; ++p) {
        const auto pb = static_cast<std::uint8_t>(p);
        if (spec.matches_class(pb, cls) != spec.matches(pb, tb)) ++wrong;
      }
    }
    CHECK(wrong == 0);
  }
  // The documented class values.
  CHECK(specs[0].text_class(byte('r')) == (kA | kG));
  CHECK(specs[0].text_class(byte('.')) == 0);
  CHECK(specs[1].text_class(byte('a')) == 0);
  CHECK(specs[1].text_class(byte('T')) == 3);
  CHECK(specs[1].text_class(byte('N')) == 4);
  CHECK(specs[2].text_class(byte('Q')) == byte('Q'));
  CHECK(specs[3].text_class(byte('Q')) == byte('q'));
  // Bytes with the same class match the same pattern bytes (the point of classes): dna folds
  // every non-ACGT byte into one class.
  CHECK(specs[1].text_class(byte('N')) == specs[1].text_class(byte('-')));
  CHECK(specs[0].text_class(byte('N')) == specs[0].text_class(byte('n')));
}

TEST_CASE("find_invalid_pattern_byte: the first byte outside the alphabet's pattern letters") {
  CHECK_FALSE(find_invalid_pattern_byte(Alphabet::iupac, "ACGTURYSWKMBDHVNXacgturyswkmbdhvnx").has_value());
  CHECK_FALSE(find_invalid_pattern_byte(Alphabet::dna, "ACGTacgt").has_value());
  CHECK_FALSE(find_invalid_pattern_byte(Alphabet::iupac, "").has_value());
  CHECK(find_invalid_pattern_byte(Alphabet::iupac, "AEGT") == std::optional<std::size_t>(1));
  CHECK(find_invalid_pattern_byte(Alphabet::iupac, "ACG.") == std::optional<std::size_t>(3));
  CHECK(find_invalid_pattern_byte(Alphabet::dna, "ACNT") == std::optional<std::size_t>(2));
  CHECK(find_invalid_pattern_byte(Alphabet::dna, "ACGU") == std::optional<std::size_t>(3));
  CHECK(find_invalid_pattern_byte(Alphabet::dna, "XACN") == std::optional<std::size_t>(0));
  std::string every;
  for (int b = 0; b < 256; ++b) every.push_back(static_cast<char>(b));
  CHECK_FALSE(find_invalid_pattern_byte(Alphabet::ascii, every).has_value());
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    CAPTURE(b);
    CHECK(find_invalid_pattern_byte(Alphabet::iupac, one).has_value() == !is_iupac_letter(b));
    CHECK(find_invalid_pattern_byte(Alphabet::dna, one).has_value() ==
          (std::string_view("ACGTacgt").find(static_cast<char>(b)) == std::string_view::npos));
  }
}

TEST_CASE("is_n_byte: literal N and n only") {
  for (int b = 0; b < 256; ++b) {
    CAPTURE(b);
    CHECK(is_n_byte(static_cast<std::uint8_t>(b)) == (b == 'N' || b == 'n'));
  }
}
