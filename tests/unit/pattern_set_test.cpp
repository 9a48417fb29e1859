// PatternSet profiles: every bit of every profile, built on demand, precomputed and by every
// kernel's builder (KernelFns::build_peq), on both strands, equals its definition (pattern position j matches text class c), for every
// alphabet and for lengths around the 16-position groups and 64-bit words of the builder.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "trawl/kernel.h"
#include "trawl/pattern_set.h"

using namespace trawl;

TEST_CASE("pattern profiles match their definition bit for bit") {
  std::mt19937_64 rng(20261203);
  const std::string iupac_letters = "ACGTURYSWKMBDHVNacgturyswkmbdhvn";
  const std::string dna_letters = "ACGTacgt";
  const std::vector<std::uint32_t> lengths = {1, 2, 15, 16, 17, 23, 31, 32, 33, 63, 64, 65, 100, 128, 129, 200};
  for (Alphabet alphabet : {Alphabet::dna, Alphabet::iupac, Alphabet::ascii}) {
    for (bool ignore_case : {false, true}) {
      SearchOptions options;
      options.alphabet = {alphabet, ignore_case};
      std::vector<Pattern> patterns;
      for (std::uint32_t m : lengths) {
        std::string seq;
        for (std::uint32_t j = 0; j < m; ++j) {
          if (alphabet == Alphabet::dna) seq += dna_letters[rng() % dna_letters.size()];
          else if (alphabet == Alphabet::iupac) seq += iupac_letters[rng() % iupac_letters.size()];
          else seq += static_cast<char>(1 + rng() % 255);
        }
        patterns.push_back({"p" + std::to_string(m), seq});
      }
      const PatternSet precomputed(patterns, options);
      const PatternSet on_demand(patterns, options, /*precompute_limit=*/0);
      REQUIRE(precomputed.precomputed());
      REQUIRE_FALSE(on_demand.precomputed());
      const unsigned classes = options.alphabet.class_count();
      std::vector<std::uint64_t> scratch;
      for (std::size_t i = 0; i < patterns.size(); ++i) {
        for (Strand strand : {Strand::fwd, Strand::rc}) {
          if (strand == Strand::rc && !options.searches_rc()) continue;
          const StrandProfile a = precomputed.profile(i, strand, scratch);
          std::vector<std::uint64_t> copy(a.peq, a.peq + std::size_t{classes} * a.words);
          const StrandProfile b = on_demand.profile(i, strand, scratch);
          const std::string& seq = patterns[i].seq;
          // Each kernel's builder, where the alphabet has planes (at most 16 classes).
          std::vector<std::vector<std::uint64_t>> built;
          if (const ClassPlanes* planes = on_demand.class_planes(strand)) {
            for (const KernelFns* kernel : available_kernels()) {
              built.emplace_back(std::size_t{classes} * a.words, ~std::uint64_t{0});
              kernel->build_peq(*planes, classes, seq, built.back().data());
            }
          } else {
            CHECK(classes > 16);
          }
          for (unsigned c = 0; c < classes; ++c)
            for (std::uint32_t j = 0; j < seq.size(); ++j) {
              auto byte = static_cast<std::uint8_t>(seq[j]);
              if (strand == Strand::rc) byte = options.alphabet.complement(byte);
              const bool expected = options.alphabet.matches_class(byte, static_cast<std::uint8_t>(c));
              INFO("alphabet ", alphabet_name(alphabet), " m=", seq.size(), " strand ",
                   strand_char(strand), " class ", c, " position ", j);
              CHECK(((copy[std::size_t{c} * a.words + (j >> 6)] >> (j & 63)) & 1u) == expected);
              CHECK(b.eq(j, static_cast<std::uint8_t>(c)) == expected);
              for (const auto& words : built)
                CHECK(((words[std::size_t{c} * a.words + (j >> 6)] >> (j & 63)) & 1u) == expected);
            }
          // No bits past the pattern's end.
          for (unsigned c = 0; c < classes; ++c)
            if (seq.size() % 64 != 0) {
              CHECK((b.peq_of(static_cast<std::uint8_t>(c))[b.words - 1] >> (seq.size() % 64)) == 0);
              for (const auto& words : built)
                CHECK((words[std::size_t{c} * a.words + a.words - 1] >> (seq.size() % 64)) == 0);
            }
        }
      }
    }
  }
}
