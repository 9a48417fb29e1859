// The SIMD job kernels against the scalar one (itself checked against the naive oracle by
// the differential test), on job lists whose runs of jobs over one text take the
// shared-text lane layout (a panel of patterns on one record strand, kernel_jobs.h) in
// whole batches, part batches and leftovers, mixed with jobs of their own texts.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/random_text.h"
#include "trawl/kernel/kernel.h"
#include "trawl/core/pattern_set.h"

using namespace trawl;

namespace {

using trawl::test::random_text;

using EndKey = std::tuple<std::uint32_t, std::uint32_t, std::int32_t>;  // job, pos, cost

std::vector<EndKey> sorted_ends(const std::vector<JobEnd>& ends, std::size_t found) {
  std::vector<EndKey> keys;
  for (std::size_t e = 0; e < found; ++e) keys.emplace_back(ends[e].job, ends[e].pos, ends[e].cost);
  std::sort(keys.begin(), keys.end());
  return keys;
}

}  // namespace

TEST_CASE("job kernels: runs of jobs over one text give the scalar kernel's ends and columns") {
  std::mt19937_64 rng(20261204);
  int cases = 0;
  for (int iter = 0; iter < 120; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 3 == 2 ? Alphabet::ascii : iter % 2 ? Alphabet::dna : Alphabet::iupac;
    const std::string letters = opt.alphabet.alphabet == Alphabet::ascii ? "abc" : "ACGTN";
    const std::string pattern_letters = opt.alphabet.alphabet == Alphabet::ascii ? "abc" : "ACGT";
    // Narrow lanes (every m <= 32) on two thirds of the cases, wide ones on the rest.
    const std::size_t max_m = iter % 3 == 0 ? 64 : 32;
    const std::int32_t k = static_cast<std::int32_t>(rng() % 5);
    // Every fourth case only patterns of at least min(4t - 2, 2t + 8) characters, t = k + 3,
    // where the AVX-512 shared-text kernel checks counted scores every few steps
    // (kernel_jobs.h, counted_pays); the others mix in short ones, where it scores every step.
    const std::size_t t = static_cast<std::size_t>(k) + 3;
    const std::size_t min_m = iter % 4 == 1 ? std::min(4 * t - 2, 2 * t + 8) : 1;
    std::vector<Pattern> patterns;
    const std::size_t npat = 1 + rng() % 80;
    for (std::size_t i = 0; i < npat; ++i)
      patterns.push_back({"p" + std::to_string(i), random_text(rng, min_m + rng() % (max_m - min_m + 1), pattern_letters)});
    const PatternSet ps(patterns, opt);
    std::vector<std::uint8_t> class_of(256);
    for (unsigned b = 0; b < 256; ++b) class_of[b] = opt.alphabet.text_class(static_cast<std::uint8_t>(b));

    // Texts, each with a pattern planted (so ends come early, late or not at all), coded.
    // Every other case gives them one length, as a record's two strands have: runs over
    // different texts of one length may then share a batch, a text per vector.
    std::vector<std::vector<std::uint8_t>> codes(1 + rng() % 6);
    const std::size_t one_length = iter % 2 ? 0 : 1 + rng() % 300;
    for (auto& c : codes) {
      std::string t = random_text(rng, one_length ? one_length : rng() % 300, letters);
      if (!t.empty() && rng() % 2) {
        const std::string& p = patterns[rng() % npat].seq;
        const std::size_t at = rng() % t.size();
        t.replace(at, std::min(p.size(), t.size() - at), p.substr(0, std::min(p.size(), t.size() - at)));
      }
      for (char ch : t) c.push_back(class_of[static_cast<std::uint8_t>(ch)]);
    }
    // Runs over one text of every length around the lane counts (8, 16, 32, 64 lanes) and
    // the kernels' batch sizes (two or four vectors), and single jobs of any text between them.
    std::vector<std::uint64_t> scratch;
    std::vector<ScanJob> jobs;
    auto add = [&](std::size_t pi, const std::vector<std::uint8_t>& text) {
      const bool rc = opt.alphabet.alphabet != Alphabet::ascii && rng() % 2;  // ascii has no rc
      const StrandProfile prof = ps.profile(pi, rc ? Strand::rc : Strand::fwd, scratch);
      jobs.push_back({prof.peq, text.data(), static_cast<std::uint32_t>(text.size()), prof.m,
                      prof.classes_hint, ~std::uint64_t{0}, prof.m, 0});
      if (rng() % 4 == 0) {  // a column carried over from a text before, as a long record's parts are
        ScanJob before = jobs.back();
        const auto& earlier = codes[rng() % codes.size()];
        before.text = earlier.data();
        before.len = static_cast<std::uint32_t>(earlier.size());
        std::vector<JobEnd> ends(earlier.size() + 1);
        JobState carried;
        scalar_kernel().scan_jobs(&before, 1, k, ends.data(), &carried, false);
        jobs.back().vp = carried.vp;
        jobs.back().vn = carried.vn;
        jobs.back().score = carried.score;
      }
    };
    const std::size_t runs = 1 + rng() % 5;
    for (std::size_t r = 0; r < runs; ++r) {
      const auto& text = codes[rng() % codes.size()];
      static constexpr std::size_t kRunLengths[] = {1, 4, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65, 95, 96, 97, 100, 127, 128, 129};
      const std::size_t len = kRunLengths[rng() % std::size(kRunLengths)];
      for (std::size_t i = 0; i < len; ++i) add(rng() % npat, text);
      for (std::size_t i = rng() % 3; i > 0; --i) add(rng() % npat, codes[rng() % codes.size()]);
    }
    std::size_t total = 0;
    for (const ScanJob& j : jobs) total += j.len;

    for (bool first_only : {false, true}) {
      std::vector<JobEnd> want_ends(total + 1);
      std::vector<JobState> want_finals(jobs.size());
      const std::size_t want_found = scalar_kernel().scan_jobs(jobs.data(), jobs.size(), k, want_ends.data(),
                                                               want_finals.data(), first_only);
      const std::vector<EndKey> want = sorted_ends(want_ends, want_found);
      for (const KernelFns* kernel : available_kernels()) {
        CAPTURE(iter);
        CAPTURE(first_only);
        const std::string name = kernel->name;
        CAPTURE(name);
        std::vector<JobEnd> got_ends(total + 1);
        std::vector<JobState> got_finals(jobs.size());
        const std::size_t got_found =
            kernel->scan_jobs(jobs.data(), jobs.size(), k, got_ends.data(), got_finals.data(), first_only);
        REQUIRE(sorted_ends(got_ends, got_found) == want);
        // Final columns: every job's, or (first_only) those of the jobs that found no end,
        // which contains carries on from.
        std::vector<bool> has_end(jobs.size());
        for (const EndKey& e : want) has_end[std::get<0>(e)] = true;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          if (first_only && has_end[j]) continue;
          const std::uint64_t mask = jobs[j].m == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << jobs[j].m) - 1;
          CAPTURE(j);
          CAPTURE(jobs[j].m);
          CAPTURE(jobs[j].len);
          CAPTURE(jobs.size());
          CHECK((got_finals[j].vp & mask) == (want_finals[j].vp & mask));
          CHECK((got_finals[j].vn & mask) == (want_finals[j].vn & mask));
          CHECK(got_finals[j].score == want_finals[j].score);
        }
        ++cases;
      }
    }
  }
  MESSAGE("job kernel cases: " << cases);
}

TEST_CASE("encode: every kernel maps bytes to classes forward and reversed, any length and offset") {
  std::mt19937_64 rng(20261203);
  std::uint8_t table[256];
  for (unsigned b = 0; b < 256; ++b) table[b] = static_cast<std::uint8_t>(rng() % 17);
  // Guards around the outputs: an encoder must write exactly [0, n) forward and
  // [rev_end - n, rev_end) reversed, whole 64-byte blocks and a short tail alike.
  constexpr std::size_t kGuard = 80;
  constexpr std::uint8_t kUntouched = 0xEE;
  int cases = 0;
  for (const KernelFns* kernel : available_kernels()) {
    CAPTURE(kernel->name);
    for (std::size_t n = 0; n <= 300; n += n < 140 ? 1 : 37) {
      for (std::size_t offset : {0, 1, 13, 63}) {
        std::vector<std::uint8_t> src(offset + n + kGuard);
        for (std::uint8_t& b : src) b = static_cast<std::uint8_t>(rng());
        const std::uint8_t* in = src.data() + offset;
        for (int outputs = 1; outputs <= 3; ++outputs) {
          CAPTURE(n);
          CAPTURE(offset);
          CAPTURE(outputs);
          std::vector<std::uint8_t> fwd(n + 2 * kGuard, kUntouched), rev(n + 2 * kGuard, kUntouched);
          kernel->encode(table, in, n, outputs & 1 ? fwd.data() + kGuard : nullptr,
                         outputs & 2 ? rev.data() + kGuard + n : nullptr);
          std::vector<std::uint8_t> want_fwd(n + 2 * kGuard, kUntouched), want_rev(n + 2 * kGuard, kUntouched);
          for (std::size_t i = 0; i < n; ++i) {
            if (outputs & 1) want_fwd[kGuard + i] = table[in[i]];
            if (outputs & 2) want_rev[kGuard + n - 1 - i] = table[in[i]];
          }
          REQUIRE(fwd == want_fwd);
          REQUIRE(rev == want_rev);
          ++cases;
        }
      }
    }
  }
  MESSAGE("encode: " << cases << " cases");
}

TEST_CASE("screen: whether each text holds an end <= k of either piece, as the scalar job kernel finds") {
  std::mt19937_64 rng(20261205);
  int cases = 0;
  for (int iter = 0; iter < 200; ++iter) {
    SearchOptions opt;
    opt.alphabet.alphabet = iter % 2 ? Alphabet::dna : Alphabet::iupac;
    const std::uint32_t m = kScreenPiece;
    // Mostly the k the searcher screens with (<= 4), now and then any k < m.
    const auto k = static_cast<std::int32_t>(iter % 4 == 3 ? rng() % m : rng() % 5);
    // Two pieces as the searcher makes them: a pattern's forward profile and its reverse
    // complement's, looked up by byte & 31 (each entry the OR over the bytes of that value).
    const std::string seq = random_text(rng, m, iter % 2 == 0 && iter % 3 == 0 ? "ACGTNR" : "ACGT");
    const PatternSet ps({{"p", seq}}, opt);
    std::vector<std::uint64_t> scratch_fwd, scratch_rc;
    const StrandProfile prof[2] = {ps.profile(0, Strand::fwd, scratch_fwd), ps.profile(0, Strand::rc, scratch_rc)};
    ScreenPieces pieces{};
    pieces.k = k;
    std::vector<std::uint8_t> class_of(256);
    for (unsigned b = 0; b < 256; ++b) class_of[b] = opt.alphabet.text_class(static_cast<std::uint8_t>(b));
    for (unsigned p = 0; p < 2; ++p)
      for (unsigned b = 0; b < 256; ++b)
        pieces.peq[p][b & 31] |= static_cast<std::uint16_t>(prof[p].peq[class_of[b]]);

    // Texts back to back in one buffer (the last one ends the allocation), of one length or
    // of any (blocks then end inside texts), some holding the pattern with an edit or two,
    // some empty, mostly bases in either case and now and then other bytes.
    const std::size_t ntext = 1 + rng() % 200;
    const std::size_t one_length = iter % 2 ? 0 : rng() % 200;
    const std::string letters = iter % 4 == 0 ? "ACGTNacgtn-*.@[" : "ACGTNacgtn";
    std::string all;
    std::vector<std::pair<std::size_t, std::uint32_t>> spans;
    for (std::size_t t = 0; t < ntext; ++t) {
      std::string text = random_text(rng, one_length ? one_length : rng() % 300, letters);
      if (!text.empty() && rng() % 3 == 0) {
        std::string planted = seq;
        if (rng() % 2) planted[rng() % planted.size()] = "ACGT"[rng() % 4];
        if (rng() % 2 && planted.size() > 1) planted.erase(rng() % planted.size(), 1);
        const std::size_t at = rng() % text.size();
        text.replace(at, std::min(planted.size(), text.size() - at), planted.substr(0, std::min(planted.size(), text.size() - at)));
      }
      spans.emplace_back(all.size(), static_cast<std::uint32_t>(text.size()));
      all += text;
    }
    std::vector<std::uint8_t> bytes(all.begin(), all.end());
    std::vector<ScreenText> texts;
    for (const auto& [off, len] : spans) texts.push_back({bytes.data() + off, len});

    // Wanted: any end of the piece's job in the scalar job kernel, on the bytes as looked up
    // (exactly), and on their classes (never more than the screen finds).
    std::vector<std::uint8_t> want(ntext, 0), real(ntext, 0);
    for (unsigned p = 0; p < 2; ++p)
      for (bool looked_up : {true, false}) {
        std::vector<std::uint64_t> peq32(32);
        for (unsigned v = 0; v < 32; ++v) peq32[v] = pieces.peq[p][v];
        std::vector<std::uint8_t> codes(bytes.size());
        for (std::size_t i = 0; i < bytes.size(); ++i) codes[i] = looked_up ? bytes[i] & 31 : class_of[bytes[i]];
        std::vector<ScanJob> jobs;
        for (const auto& [off, len] : spans)
          jobs.push_back({looked_up ? peq32.data() : prof[p].peq, codes.data() + off, len, m,
                          looked_up ? 32u : prof[p].classes_hint, ~std::uint64_t{0}, m, 0});
        std::vector<JobEnd> ends(codes.size() + 1);
        std::vector<JobState> finals(jobs.size());
        const std::size_t found = scalar_kernel().scan_jobs(jobs.data(), jobs.size(), k, ends.data(), finals.data(), false);
        for (std::size_t e = 0; e < found; ++e) (looked_up ? want : real)[ends[e].job] |= static_cast<std::uint8_t>(1u << p);
      }
    for (std::size_t t = 0; t < ntext; ++t) REQUIRE((real[t] & ~want[t]) == 0);
    for (const KernelFns* kernel : available_kernels()) {
      if (!kernel->screen) continue;
      CAPTURE(iter);
      CAPTURE(m);
      CAPTURE(k);
      const std::string name = kernel->name;
      CAPTURE(name);
      std::vector<std::uint8_t> got(ntext, 0xFF);
      kernel->screen(pieces, texts.data(), texts.size(), got.data());
      REQUIRE(got == want);
      ++cases;
    }
  }
  MESSAGE("screen cases: " << cases);
}

TEST_CASE("seed keys: every kernel finds the positions whose q bases have their bit set, as a naive look-up does") {
  std::mt19937_64 rng(0x5eedc0de);
  std::size_t checked = 0, ambiguous = 0, found_any = 0;
  for (const std::uint32_t q : {1u, 3u, 6u, 8u, 9u, 11u, kMaxSeedKeyBases}) {
    for (const unsigned density : {2u, 40u, 3000u}) {
      // Bits set at random (1 in `density` keys), and always those of one planted q-mer.
      std::vector<std::uint64_t> present(std::max<std::size_t>(1, (std::size_t{1} << (2 * q)) / 64));
      for (std::size_t key = 0; key < (std::size_t{1} << (2 * q)); ++key)
        if (rng() % density == 0) present[key >> 6] |= std::uint64_t{1} << (key & 63);
      std::uint8_t base_of_class[16];
      for (auto& b : base_of_class) b = static_cast<std::uint8_t>(rng() % 5 == 0 ? 0 : rng() % 4);
      base_of_class[15] = kAmbiguousBase;
      const SeedKeyQuery query{base_of_class, present.data(), q};
      for (int t = 0; t < 40; ++t) {
        const std::size_t n = t < 20 ? static_cast<std::size_t>(t) : rng() % 400;
        std::vector<std::uint8_t> codes(n);
        for (auto& c : codes) c = static_cast<std::uint8_t>(rng() % 15);
        if (n > 0 && rng() % 10 == 0) codes[rng() % n] = 15;
        // The answer, window by window.
        std::vector<std::uint32_t> want_keys, want_at;
        bool is_ambiguous = false;
        for (const std::uint8_t c : codes) is_ambiguous |= base_of_class[c] == kAmbiguousBase;
        for (std::size_t p = 0; p + q <= n && !is_ambiguous; ++p) {
          std::uint32_t key = 0;
          for (std::size_t j = p; j < p + q; ++j) key = key << 2 | base_of_class[codes[j]];
          if ((present[key >> 6] >> (key & 63) & 1) == 0) continue;
          want_keys.push_back(key);
          want_at.push_back(static_cast<std::uint32_t>(p));
        }
        ambiguous += is_ambiguous;
        found_any += !want_keys.empty();
        for (const KernelFns* kernel : available_kernels()) {
          ++checked;
          std::vector<std::uint32_t> keys(n), at(n);
          const std::size_t got = kernel->seed_keys(query, codes.data(), n, keys.data(), at.data());
          INFO(kernel->name << " q=" << q << " n=" << n << " density=" << density);
          if (is_ambiguous) {
            CHECK(got == kSeedKeysAmbiguous);
            continue;
          }
          REQUIRE(got == want_keys.size());
          keys.resize(got);
          at.resize(got);
          CHECK(keys == want_keys);
          CHECK(at == want_at);
        }
      }
    }
  }
  MESSAGE("seed keys: " << checked << " look-ups, " << ambiguous << " ambiguous texts, " << found_any << " with keys");
  CHECK(ambiguous > 0);
  CHECK(found_any > 0);
}
