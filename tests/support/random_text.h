#pragma once
// Seeded random texts for the property tests.
#include <cstddef>
#include <random>
#include <string>

namespace trawl::test {

// n letters drawn uniformly from `letters`.
inline std::string random_text(std::mt19937_64& rng, std::size_t n, const std::string& letters) {
  std::string s(n, ' ');
  for (char& c : s) c = letters[rng() % letters.size()];
  return s;
}

}  // namespace trawl::test
