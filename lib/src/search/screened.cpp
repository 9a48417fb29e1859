// The screened strategy: a few patterns of 16 characters or more in short records. Each
// pattern's 16-character piece (and its reverse complement) is looked for in the records'
// bytes first (KernelFns::screen); a strand whose piece has no end <= k has none of its
// own, so records are coded and given jobs only for the strands the screen passes.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/searcher.h"

namespace trawl {

using namespace lanes;

void Searcher::make_screens() {
  const std::size_t npat = patterns_.size();
  if (!kernel_.screen || options_.overhang || seed_filter_.enabled() || options_.k > kScreenMaxK ||
      npat == 0 || npat > kScreenMaxPatterns || patterns_.max_length() > 64)
    return;
  std::vector<ScreenPieces> screens(npat);
  for (std::size_t pi = 0; pi < npat; ++pi)
    if (!make_screen(static_cast<std::uint32_t>(pi), screens[pi])) return;
  screens_ = std::move(screens);
}

bool Searcher::make_screen(std::uint32_t pi, ScreenPieces& sp) {
  // (profile_of reuses one scratch: the forward words are read before the reverse ones.)
  const StrandProfile fwd = profile_of(pi, Strand::fwd);
  if (fwd.m < kScreenPiece || fwd.classes_hint > 16) return false;
  // The piece: the 16 characters that match the fewest classes (an N matches all).
  std::uint32_t best_at = 0, best_matches = UINT32_MAX;
  for (std::uint32_t a = 0; a + kScreenPiece <= fwd.m; ++a) {
    std::uint32_t matches = 0;
    for (std::uint32_t c = 0; c < fwd.classes_hint; ++c)
      matches += static_cast<std::uint32_t>(__builtin_popcountll(fwd.peq[c] >> a & 0xFFFF));
    if (matches < best_matches) {
      best_matches = matches;
      best_at = a;
    }
  }
  // The screen looks a byte up as b & 31 (the letters of either case are 1-26): each entry
  // is the piece's words of every byte of that value ORed (exact for letters, whose cases
  // are one class in dna and iupac; never less than a byte matches for the others).
  sp.k = options_.k;
  for (unsigned b = 0; b < 256; ++b)
    sp.peq[0][b & 31] |= static_cast<std::uint16_t>(fwd.peq[class_of_[b]] >> best_at);
  if (!options_.searches_rc()) {
    std::copy(std::begin(sp.peq[0]), std::end(sp.peq[0]), std::begin(sp.peq[1]));
    return true;
  }
  // The reverse strand has an end <= k exactly where reverse(complement(P)) has one in the
  // forward text (edit distances keep under reversing both strings), and so wherever the
  // reverse complement of the piece has one: character j of that is complement(P[a + 15
  // - j]), row a + 15 - j of the rc profile (complement(P)).
  const StrandProfile rc = profile_of(pi, Strand::rc);
  if (rc.classes_hint != fwd.classes_hint) return false;
  for (unsigned b = 0; b < 256; ++b)
    sp.peq[1][b & 31] |= static_cast<std::uint16_t>(reversed_rows(rc.peq[class_of_[b]], best_at, kScreenPiece));
  return true;
}

std::size_t Searcher::gather_screened(std::span<const std::string_view> texts, std::uint64_t group_steps) {
  // Records only, coded later if the screen passes them (screen_group): a lean loop, as
  // most records of a screened group are never looked at again.
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  const std::uint64_t jobs_per_record = std::uint64_t{npat} * (options_.searches_rc() ? 2 : 1);
  std::uint64_t coded = 0, steps = 0;
  screen_texts_.clear();
  std::size_t r = 0;
  for (; r < texts.size(); ++r) {
    const std::uint64_t n = texts[r].size();
    const bool scanned = n <= kMaxText && jobs_per_record * n <= kRecordSteps;
    const std::uint64_t record_steps = scanned ? jobs_per_record * n : 0;
    if (r > 0 && (steps + record_steps > group_steps || (screened_.size() + 1) * jobs_per_record > kGroupJobs)) break;
    PrescanRecord& rec = pre_records_.emplace_back();
    rec.text = texts[r];
    rec.patterns = npat;
    if (!scanned) continue;  // (the ordinary path, in select_prescanned)
    rec.codes_offset = static_cast<std::uint32_t>(coded);
    // No jobs until the screen passes it: most records are never visited again.
    rec.first_job = 0;
    rec.live = 0;
    coded += n;
    steps += record_steps;
    screened_.push_back(static_cast<std::uint32_t>(r));
    screen_texts_.push_back({reinterpret_cast<const std::uint8_t*>(texts[r].data()), static_cast<std::uint32_t>(n)});
  }
  pre_fwd_.resize(coded);
  return r;
}

void Searcher::screen_group() {
  // (The screen reads the records' bytes as they are: screen_texts_.)
  const auto npat = static_cast<std::uint32_t>(patterns_.size());
  const unsigned strands = options_.searches_rc() ? 2 : 1;
  const std::size_t count = screened_.size();
  screen_flags_.resize(count * npat);
  for (std::uint32_t pi = 0; pi < npat; ++pi)
    kernel_.screen(screens_[pi], screen_texts_.data(), count, screen_flags_.data() + std::size_t{pi} * count);
  if (strands == 2) pre_rev_.resize(pre_fwd_.size());
  // A record the screen passes is coded (both strands: traceback reads either) and given
  // jobs in the order of PrescanRecord::live's bits: every pattern's forward job, then
  // every reverse one.
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t live = 0;
    for (unsigned s = 0; s < strands; ++s)
      for (std::uint32_t pi = 0; pi < npat; ++pi)
        live |= std::uint64_t{screen_flags_[std::size_t{pi} * count + i] >> s & 1u} << (pi + s * npat);
    if (live == 0) continue;  // (most records: left as the lean loop made them)
    PrescanRecord& rec = pre_records_[screened_[i]];
    const auto n = static_cast<std::uint32_t>(rec.text.size());
    rec.first_job = static_cast<std::uint32_t>(pre_jobs_.size());
    rec.live = live;
    kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), n,
                   pre_fwd_.data() + rec.codes_offset, strands == 2 ? pre_rev_.data() + rec.codes_offset + n : nullptr);
    for (std::uint64_t bits = rec.live; bits; bits &= bits - 1) {
      const auto bit = static_cast<std::uint32_t>(__builtin_ctzll(bits));
      add_job(rec.codes_offset, bit >= npat, bit % npat, screened_[i], n);
    }
    rec.jobs = static_cast<std::uint32_t>(pre_jobs_.size() - rec.first_job);
  }
}

}  // namespace trawl
