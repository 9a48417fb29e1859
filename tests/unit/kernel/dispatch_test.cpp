// Kernel dispatch: the CPU probe lists scalar first and only kernels this CPU can run;
// find_kernel resolves names ("auto" = the fastest); and every available kernel's scan,
// scan_first and build_peq give the scalar kernel's results (which the DP oracle checks
// here too) on seeded random cases, scanned whole and in chunks.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/random_text.h"
#include "trawl/core/pattern_set.h"
#include "trawl/kernel/cpu.h"
#include "trawl/kernel/kernel.h"

using namespace trawl;

namespace {

using trawl::test::random_text;

struct Ends {
  std::vector<std::pair<std::uint64_t, std::int32_t>> list;
  bool operator==(const Ends&) const = default;
};

// Scans `codes` from the start of the text (fresh column D(j, 0) = j) with `scan`, cut into
// consecutive chunks at `cuts` (positions, increasing), and returns every end <= k.
Ends scan_in_chunks(ScanFn scan, const StrandProfile& prof, const std::vector<std::uint8_t>& codes,
                    std::int32_t k, const std::vector<std::size_t>& cuts) {
  std::vector<std::uint64_t> vp(prof.words, ~std::uint64_t{0}), vn(prof.words, 0);
  ColumnState state{vp.data(), vn.data(), static_cast<std::int64_t>(prof.m)};
  std::vector<EndCost> out(codes.size() + 1);
  Ends ends;
  std::size_t from = 0;
  std::vector<std::size_t> bounds = cuts;
  bounds.push_back(codes.size());
  for (std::size_t to : bounds) {
    const std::size_t found = scan(prof, state, codes.data() + from, to - from, from, k, out.data());
    for (std::size_t e = 0; e < found; ++e) ends.list.emplace_back(out[e].pos, out[e].cost);
    from = to;
  }
  return ends;
}

}  // namespace

TEST_CASE("CPU probe: scalar first, then only the kernels this CPU supports, fastest last") {
  const std::vector<const KernelFns*> kernels = available_kernels();
  REQUIRE(!kernels.empty());
  CHECK(kernels.front() == &scalar_kernel());
  CHECK(std::string(kernels.front()->name) == "scalar");
  std::vector<std::string> names;
  for (const KernelFns* k : kernels) {
    REQUIRE(k != nullptr);
    names.emplace_back(k->name);
    CHECK((k->scan != nullptr));
    CHECK((k->scan_first != nullptr));
    CHECK((k->scan_jobs != nullptr));
    CHECK((k->encode != nullptr));
    CHECK((k->build_peq != nullptr));
    CHECK((k->seed_lookup != nullptr));
    CHECK((k->seed_spans != nullptr));
    CHECK((k->seed_keys != nullptr));
  }
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  CHECK((scalar_kernel().screen == nullptr));  // the scalar kernel never screens
#if defined(__x86_64__)
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2");
  const bool avx512 = __builtin_cpu_supports("avx512f");
  CHECK((std::find(names.begin(), names.end(), "avx2") != names.end()) == avx2);
  CHECK((std::find(names.begin(), names.end(), "avx512") != names.end()) == avx512);
  if (avx2) CHECK(std::string(avx2_kernel().name) == "avx2");
  if (avx512) CHECK(std::string(avx512_kernel().name) == "avx512");
#else
  CHECK(kernels.size() == 1);
#endif
  MESSAGE("available kernels: " << [&] {
    std::string s;
    for (const auto& n : names) s += n + " ";
    return s;
  }());
}

TEST_CASE("cpu_features: one probe, each feature as the compiler's own probe has it") {
  const CpuFeatures& cpu = cpu_features();
  CHECK(&cpu_features() == &cpu);
#if defined(__x86_64__)
  __builtin_cpu_init();
  CHECK(cpu.popcnt == static_cast<bool>(__builtin_cpu_supports("popcnt")));
  CHECK(cpu.avx2 == static_cast<bool>(__builtin_cpu_supports("avx2")));
  CHECK(cpu.avx512f == static_cast<bool>(__builtin_cpu_supports("avx512f")));
  CHECK(cpu.avx512bw == static_cast<bool>(__builtin_cpu_supports("avx512bw")));
  CHECK(cpu.avx512bitalg == static_cast<bool>(__builtin_cpu_supports("avx512bitalg")));
  CHECK(cpu.avx512vbmi == static_cast<bool>(__builtin_cpu_supports("avx512vbmi")));
  CHECK(cpu.avx512vpopcntdq == static_cast<bool>(__builtin_cpu_supports("avx512vpopcntdq")));
#else
  CHECK_FALSE(cpu.avx2);
  CHECK_FALSE(cpu.avx512f);
#endif
}

TEST_CASE("find_kernel: known names, auto = the fastest available, unknown or missing -> null") {
  const std::vector<const KernelFns*> kernels = available_kernels();
  CHECK(find_kernel("scalar") == &scalar_kernel());
  CHECK(find_kernel("auto") == kernels.back());
  for (const KernelFns* k : kernels) CHECK(find_kernel(k->name) == k);
  for (const char* bad : {"", "Scalar", "AVX2", "sse4", "avx", "auto ", "neon"}) {
    CAPTURE(bad);
    CHECK(find_kernel(bad) == nullptr);
  }
  for (const char* simd : {"avx2", "avx512"}) {
    const bool present = std::any_of(kernels.begin(), kernels.end(),
                                     [&](const KernelFns* k) { return std::string(k->name) == simd; });
    CAPTURE(simd);
    CHECK((find_kernel(simd) != nullptr) == present);
  }
}

TEST_CASE("every kernel's scan gives the scalar kernel's (and the oracle's) ends, whole and in chunks") {
  const std::uint64_t seed = 20261206;
  std::mt19937_64 rng(seed);
  const std::vector<const KernelFns*> kernels = available_kernels();
  int compared = 0;
  for (int iter = 0; iter < 150; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 3 == 2 ? Alphabet::ascii : iter % 3 ? Alphabet::dna : Alphabet::iupac;
    const bool ascii = opt.alphabet.alphabet == Alphabet::ascii;
    const std::string letters = ascii ? "abc" : "ACGTN";
    // Mostly single-word patterns (the SIMD tiling), some multi-word ones (scalar fallback).
    const std::size_t m = iter % 5 == 4 ? 65 + rng() % 100 : 1 + rng() % 64;
    const std::string pattern = random_text(rng, m, ascii ? "abc" : "ACGT");
    std::string text = random_text(rng, rng() % 2000, letters);
    for (int plant = 0; plant < 3 && text.size() > m; ++plant) {
      const std::size_t at = rng() % (text.size() - m);
      text.replace(at, m, pattern);
    }
    const auto k = static_cast<std::int32_t>(rng() % (m < 8 ? m : 8));
    const PatternSet ps({{"p", pattern}}, opt);
    const Strand strand = !ascii && rng() % 2 ? Strand::rc : Strand::fwd;
    std::vector<std::uint64_t> scratch;
    const StrandProfile prof = ps.profile(0, strand, scratch);
    std::vector<std::uint8_t> codes;
    for (char c : text) codes.push_back(opt.alphabet.text_class(static_cast<std::uint8_t>(c)));

    const Ends want = scan_in_chunks(scalar_kernel().scan, prof, codes, k, {});
    // The oracle's cost row of the strand's pattern (the rc strand searches complement(P)).
    const std::string searched = strand == Strand::rc ? trawl::oracle::complement(opt.alphabet, pattern) : pattern;
    SearchOptions plain = opt;
    const std::vector<std::int32_t> row = trawl::oracle::cost_row(searched, text, plain);
    Ends from_oracle;
    for (std::size_t p = 1; p < row.size(); ++p)
      if (row[p] <= k) from_oracle.list.emplace_back(p, row[p]);
    INFO("seed " << seed << " iter " << iter << " m " << m << " k " << k << " n " << text.size());
    REQUIRE(want == from_oracle);

    std::vector<std::size_t> cuts;
    for (std::size_t at = 0; !codes.empty() && cuts.size() < 4;) {
      at += 1 + rng() % (codes.size() / 2 + 1);
      if (at >= codes.size()) break;
      cuts.push_back(at);
    }
    for (const KernelFns* kernel : kernels) {
      CAPTURE(kernel->name);
      CHECK(scan_in_chunks(kernel->scan, prof, codes, k, {}) == want);
      CHECK(scan_in_chunks(kernel->scan, prof, codes, k, cuts) == want);
      // scan_first: only the first end (or none), and the column is left there.
      std::vector<std::uint64_t> vp(prof.words, ~std::uint64_t{0}), vn(prof.words, 0);
      ColumnState state{vp.data(), vn.data(), static_cast<std::int64_t>(prof.m)};
      std::vector<EndCost> out(codes.size() + 1);
      const std::size_t found = kernel->scan_first(prof, state, codes.data(), codes.size(), 0, k, out.data());
      CHECK(found == (want.list.empty() ? 0u : 1u));
      if (found == 1 && !want.list.empty()) {
        CHECK(out[0].pos == want.list[0].first);
        CHECK(out[0].cost == want.list[0].second);
        CHECK(state.score == want.list[0].second);
      }
      ++compared;
    }
  }
  MESSAGE("scan cases compared: " << compared);
}

TEST_CASE("every kernel's build_peq writes the profile PatternSet keeps") {
  const std::uint64_t seed = 77;
  std::mt19937_64 rng(seed);
  for (Alphabet a : {Alphabet::iupac, Alphabet::dna}) {
    SearchOptions opt;
    opt.alphabet.alphabet = a;
    std::vector<Pattern> patterns;
    const std::string letters = a == Alphabet::iupac ? "ACGTURYSWKMBDHVNXacgtn" : "ACGTacgt";
    for (std::size_t m : {1u, 5u, 63u, 64u, 65u, 128u, 200u})
      patterns.push_back({"p" + std::to_string(m), random_text(rng, m, letters)});
    const PatternSet ps(patterns, opt);
    for (std::size_t i = 0; i < ps.size(); ++i)
      for (Strand s : {Strand::fwd, Strand::rc}) {
        std::vector<std::uint64_t> scratch;
        const StrandProfile prof = ps.profile(i, s, scratch);
        const ClassPlanes* planes = ps.class_planes(s);
        REQUIRE(planes != nullptr);
        const std::size_t words = std::size_t{prof.classes_hint} * prof.words;
        for (const KernelFns* kernel : available_kernels()) {
          std::vector<std::uint64_t> peq(words, 0x5a5a5a5a5a5a5a5aull);
          kernel->build_peq(*planes, prof.classes_hint, ps.seq(i), peq.data());
          INFO("seed " << seed << " alphabet " << alphabet_name(a) << " m " << prof.m << " strand "
                       << strand_char(s) << " kernel " << kernel->name);
          CHECK(std::equal(peq.begin(), peq.end(), prof.peq));
        }
      }
  }
  CHECK((find_kernel("scalar")->build_peq != nullptr));
}
