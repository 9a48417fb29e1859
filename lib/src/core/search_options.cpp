#include "trawl/core/search_options.h"

#include <cmath>
#include <string>
#include <utility>

#include "trawl/core/ranges.h"

namespace trawl {

std::vector<std::string> validate_all(const SearchOptions& o) {
  std::vector<std::string> problems;
  if (o.k < 0) problems.push_back(out_of_range("-k", std::to_string(o.k), kKRange));
  if (o.overhang) {
    float a = *o.overhang;
    if (!(a >= 0.0f && a <= 1.0f)) problems.push_back(out_of_range("--overhang", a, 0.0f, 1.0f));
    if (o.alphabet.alphabet == Alphabet::ascii)
      problems.emplace_back("--overhang is supported for --alphabet iupac and dna only");
  }
  if (!(o.max_n_frac >= 0.0f && o.max_n_frac <= 1.0f))
    problems.push_back(out_of_range("--max-n-frac", o.max_n_frac, 0.0f, 1.0f));
  if (o.alphabet.ignore_case && o.alphabet.alphabet != Alphabet::ascii)
    problems.emplace_back(
        "--ignore-case applies to --alphabet ascii only (iupac and dna ignore case anyway)");
  return problems;
}

std::string validate(const SearchOptions& o) {
  std::vector<std::string> problems = validate_all(o);
  return problems.empty() ? std::string() : std::move(problems.front());
}

std::uint32_t right_overhang_steps(const SearchOptions& o, std::uint32_t m) {
  if (!o.overhang) return 0;
  float a = *o.overhang;
  // Documented difference: Sassy's 0/0 = NaN gives no right overhang for alpha = 0, k = 0.
  if (a == 0.0f) return m;
  // Single precision on purpose: Sassy computes (k + alpha) / alpha in f32.
  float steps = std::ceil((static_cast<float>(o.k) + a) / a);
  if (!(steps < static_cast<float>(m))) return m;
  return static_cast<std::uint32_t>(steps);
}

std::int32_t overhang_cost(const SearchOptions& o, std::uint32_t j) {
  if (!o.overhang) return static_cast<std::int32_t>(j);
  return static_cast<std::int32_t>(std::floor(static_cast<float>(j) * *o.overhang));
}

}  // namespace trawl
