// contains where the first end decides: the forward jobs carried on past their head, then
// the reverse strands of those that found no end.
#include "lanes.h"
#include "trawl/search/lane_strategies.h"

namespace trawl {

using namespace lanes;

void FirstEndPass::finish(LaneGroup& group, const LaneContext& ctx) {
  const std::size_t jobs = group.jobs.size();
  has_end_.assign(jobs, 0);  // by forward job, for both passes below
  for (const JobEnd& e : group.raw_ends) has_end_[e.job] = 1;
  rest_jobs_.clear();
  rest_of_.clear();
  std::uint32_t rest_coded = LaneGroup::kNoJobs;  // the last record coded in full
  for (std::size_t j = 0; j < jobs; ++j) {
    const LaneGroup::JobSource& src = group.sources[j];
    const std::string_view text = group.records[src.record].text;
    if (group.jobs[j].len == text.size()) continue;
    group.jobs[j].len = static_cast<std::uint32_t>(text.size());  // the whole text from here on
    if (has_end_[j]) continue;
    if (src.record != rest_coded) {
      rest_coded = src.record;
      ctx.kernel.encode(ctx.class_of.data(), reinterpret_cast<const std::uint8_t*>(text.data()) + kFirstEndHead,
                        text.size() - kFirstEndHead, group.fwd.data() + src.codes + kFirstEndHead, nullptr);
    }
    // Carried on from the head's last column, as one scan would have.
    ScanJob rest = group.jobs[j];
    rest.text += kFirstEndHead;
    rest.len -= static_cast<std::uint32_t>(kFirstEndHead);
    rest.vp = group.finals[j].vp;
    rest.vn = group.finals[j].vn;
    rest.score = group.finals[j].score;
    rest_jobs_.push_back(rest);
    rest_of_.push_back(static_cast<std::uint32_t>(j));
  }
  const std::size_t ends_before = group.raw_ends.size();
  rest_final_.resize(rest_jobs_.size());
  group.scan_chunked(ctx, rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), true, false);
  for (std::size_t e = ends_before; e < group.raw_ends.size(); ++e) {
    JobEnd& end = group.raw_ends[e];
    end.pos += static_cast<std::uint32_t>(kFirstEndHead);
    end.job = rest_of_[end.job];
    has_end_[end.job] = 1;
  }
  for (std::size_t i = 0; i < rest_jobs_.size(); ++i) group.finals[rest_of_[i]] = rest_final_[i];
  if (ctx.options.searches_rc()) scan_reverse_where_no_end(group, ctx);
}

void FirstEndPass::scan_reverse_where_no_end(LaneGroup& group, const LaneContext& ctx) {
  // The reverse strands of the forward jobs that found no end, appended and scanned.
  const std::size_t fwd_jobs = group.jobs.size();
  group.rc_job.assign(fwd_jobs, LaneGroup::kNoJobs);
  std::uint32_t rev_encoded = LaneGroup::kNoJobs;  // the last record whose reverse codes exist
  for (std::size_t j = 0; j < fwd_jobs; ++j) {
    if (has_end_[j]) continue;
    const LaneGroup::JobSource fwd = group.sources[j];
    if (fwd.record != rev_encoded) {
      rev_encoded = fwd.record;
      const std::string_view text = group.records[rev_encoded].text;
      ctx.kernel.encode(ctx.class_of.data(), reinterpret_cast<const std::uint8_t*>(text.data()),
                        text.size(), nullptr, group.rev.data() + fwd.codes + text.size());
    }
    group.rc_job[j] = static_cast<std::uint32_t>(group.jobs.size());
    group.add_job(ctx, fwd.codes, true, fwd.pattern, fwd.record, group.jobs[j].len);
  }
  group.fix_up_jobs();
  const std::size_t jobs = group.jobs.size();
  group.finals.resize(jobs);
  group.scan_chunked(ctx, group.jobs.data() + fwd_jobs, jobs - fwd_jobs, static_cast<std::uint32_t>(fwd_jobs),
                     group.finals.data() + fwd_jobs, true, false);
}

}  // namespace trawl
