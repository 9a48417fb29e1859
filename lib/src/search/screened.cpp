// The screened strategy: records are screened on their bytes for each pattern's piece, and
// coded and given jobs only for the strands the screen passes.
#include <algorithm>

#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

void ScreenedRecords::make(const LaneContext& ctx, bool filtered) {
  const std::size_t npat = ctx.patterns.size();
  if (!ctx.kernel.screen || ctx.options.overhang || filtered || ctx.options.k > kScreenMaxK ||
      npat == 0 || npat > kScreenMaxPatterns || ctx.patterns.max_length() > 64)
    return;
  std::vector<ScreenPieces> screens(npat);
  for (std::size_t pi = 0; pi < npat; ++pi)
    if (!make_screen(ctx, static_cast<std::uint32_t>(pi), screens[pi])) return;
  screens_ = std::move(screens);
}

bool ScreenedRecords::make_screen(const LaneContext& ctx, std::uint32_t pi, ScreenPieces& sp) {
  // (One scratch: the forward words are read before the reverse ones.)
  scratch_.clear();
  const StrandProfile fwd = ctx.profile_into(pi, Strand::fwd, scratch_);
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
  sp.k = ctx.options.k;
  for (unsigned b = 0; b < 256; ++b)
    sp.peq[0][b & 31] |= static_cast<std::uint16_t>(fwd.peq[ctx.class_of[b]] >> best_at);
  if (!ctx.options.searches_rc()) {
    std::copy(std::begin(sp.peq[0]), std::end(sp.peq[0]), std::begin(sp.peq[1]));
    return true;
  }
  // The reverse strand has an end <= k exactly where reverse(complement(P)) has one in the
  // forward text (edit distances keep under reversing both strings), and so wherever the
  // reverse complement of the piece has one: character j of that is complement(P[a + 15
  // - j]), row a + 15 - j of the rc profile (complement(P)).
  scratch_.clear();
  const StrandProfile rc = ctx.profile_into(pi, Strand::rc, scratch_);
  if (rc.classes_hint != fwd.classes_hint) return false;
  for (unsigned b = 0; b < 256; ++b)
    sp.peq[1][b & 31] |= static_cast<std::uint16_t>(reversed_rows(rc.peq[ctx.class_of[b]], best_at, kScreenPiece));
  return true;
}

std::size_t ScreenedRecords::gather(LaneGroup& group, const LaneContext& ctx,
                                    std::span<const std::string_view> texts, std::uint64_t group_steps) {
  // Records only, coded later if the screen passes them (screen): a lean loop, as most
  // records of a screened group are never looked at again.
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  const std::uint64_t jobs_per_record = std::uint64_t{npat} * ctx.strands();
  std::uint64_t coded = 0, steps = 0;
  screened_.clear();
  texts_.clear();
  std::size_t r = 0;
  for (; r < texts.size(); ++r) {
    const std::uint64_t n = texts[r].size();
    const bool scanned = n <= kMaxText && jobs_per_record * n <= kRecordSteps;
    const std::uint64_t record_steps = scanned ? jobs_per_record * n : 0;
    if (r > 0 && (steps + record_steps > group_steps || (screened_.size() + 1) * jobs_per_record > kGroupJobs)) break;
    LaneGroup::Record& rec = group.records.emplace_back();
    rec.text = texts[r];
    rec.patterns = npat;
    if (!scanned) continue;  // (the ordinary path)
    rec.codes_offset = static_cast<std::uint32_t>(coded);
    // No jobs until the screen passes it: most records are never visited again.
    rec.first_job = 0;
    rec.live = 0;
    coded += n;
    steps += record_steps;
    screened_.push_back(static_cast<std::uint32_t>(r));
    texts_.push_back({reinterpret_cast<const std::uint8_t*>(texts[r].data()), static_cast<std::uint32_t>(n)});
  }
  group.fwd.resize(coded);
  return r;
}

void ScreenedRecords::screen(LaneGroup& group, const LaneContext& ctx) {
  if (screened_.empty()) return;
  // (The screen reads the records' bytes as they are: texts_.)
  const auto npat = static_cast<std::uint32_t>(ctx.patterns.size());
  const unsigned strands = ctx.strands();
  const std::size_t count = screened_.size();
  flags_.resize(count * npat);
  for (std::uint32_t pi = 0; pi < npat; ++pi)
    ctx.kernel.screen(screens_[pi], texts_.data(), count, flags_.data() + std::size_t{pi} * count);
  if (strands == 2) group.rev.resize(group.fwd.size());
  // A record the screen passes is coded (both strands: traceback reads either) and given
  // jobs in the order of Record::live's bits: every pattern's forward job, then every
  // reverse one.
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t live = 0;
    for (unsigned s = 0; s < strands; ++s)
      for (std::uint32_t pi = 0; pi < npat; ++pi)
        live |= std::uint64_t{flags_[std::size_t{pi} * count + i] >> s & 1u} << (pi + s * npat);
    if (live == 0) continue;  // (most records: left as the lean loop made them)
    LaneGroup::Record& rec = group.records[screened_[i]];
    const auto n = static_cast<std::uint32_t>(rec.text.size());
    rec.first_job = static_cast<std::uint32_t>(group.jobs.size());
    rec.live = live;
    ctx.kernel.encode(ctx.class_of.data(), reinterpret_cast<const std::uint8_t*>(rec.text.data()), n,
                      group.fwd.data() + rec.codes_offset,
                      strands == 2 ? group.rev.data() + rec.codes_offset + n : nullptr);
    for (std::uint64_t bits = rec.live; bits; bits &= bits - 1) {
      const auto bit = static_cast<std::uint32_t>(__builtin_ctzll(bits));
      group.add_job(ctx, rec.codes_offset, bit >= npat, bit % npat, screened_[i], n);
    }
    rec.jobs = static_cast<std::uint32_t>(group.jobs.size() - rec.first_job);
  }
}

}  // namespace trawl
