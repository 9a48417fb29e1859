// contains where the first end decides (no N filter): every forward job was scanned over
// its head only and stopped at its first end; here the others carry on over the rest of
// their text, and the reverse strands of those that still found none are scanned. A record
// that hits early is never coded past its head, nor reversed.
#include "lanes.h"
#include "trawl/search/searcher.h"

namespace trawl {

using namespace lanes;

void Searcher::continue_first_end() {
  const std::size_t jobs = pre_jobs_.size();
  has_end_.assign(jobs, 0);  // by forward job, for both passes below
  for (const JobEnd& e : pre_raw_ends_) has_end_[e.job] = 1;
  rest_jobs_.clear();
  rest_of_.clear();
  std::uint32_t rest_coded = kNoJobs;  // the last record coded in full
  for (std::size_t j = 0; j < jobs; ++j) {
    const std::string_view text = pre_records_[sources_[j].record].text;
    if (pre_jobs_[j].len == text.size()) continue;
    pre_jobs_[j].len = static_cast<std::uint32_t>(text.size());  // the whole text from here on
    if (has_end_[j]) continue;
    if (sources_[j].record != rest_coded) {
      rest_coded = sources_[j].record;
      kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(text.data()) + kFirstEndHead,
                     text.size() - kFirstEndHead, pre_fwd_.data() + sources_[j].codes + kFirstEndHead, nullptr);
    }
    // Carried on from the head's last column, as one scan would have.
    ScanJob rest = pre_jobs_[j];
    rest.text += kFirstEndHead;
    rest.len -= static_cast<std::uint32_t>(kFirstEndHead);
    rest.vp = pre_final_[j].vp;
    rest.vn = pre_final_[j].vn;
    rest.score = pre_final_[j].score;
    rest_jobs_.push_back(rest);
    rest_of_.push_back(static_cast<std::uint32_t>(j));
  }
  const std::size_t ends_before = pre_raw_ends_.size();
  rest_final_.resize(rest_jobs_.size());
  scan_chunked(rest_jobs_.data(), rest_jobs_.size(), 0, rest_final_.data(), true);
  for (std::size_t e = ends_before; e < pre_raw_ends_.size(); ++e) {
    pre_raw_ends_[e].pos += static_cast<std::uint32_t>(kFirstEndHead);
    pre_raw_ends_[e].job = rest_of_[pre_raw_ends_[e].job];
    has_end_[pre_raw_ends_[e].job] = 1;
  }
  for (std::size_t i = 0; i < rest_jobs_.size(); ++i) pre_final_[rest_of_[i]] = rest_final_[i];
  if (options_.searches_rc()) scan_reverse_where_no_end();
}

void Searcher::scan_reverse_where_no_end() {
  // The reverse strands of the forward jobs that found no end, appended and scanned.
  const std::size_t fwd_jobs = pre_jobs_.size();
  pre_rc_job_.assign(fwd_jobs, kNoJobs);
  std::uint32_t rev_encoded = kNoJobs;  // the last record whose reverse codes exist
  for (std::size_t j = 0; j < fwd_jobs; ++j) {
    if (has_end_[j]) continue;
    const JobSource fwd = sources_[j];
    if (fwd.record != rev_encoded) {
      rev_encoded = fwd.record;
      const std::string_view text = pre_records_[rev_encoded].text;
      kernel_.encode(class_of_.data(), reinterpret_cast<const std::uint8_t*>(text.data()),
                     text.size(), nullptr, pre_rev_.data() + fwd.codes + text.size());
    }
    pre_rc_job_[j] = static_cast<std::uint32_t>(pre_jobs_.size());
    add_job(fwd.codes, true, fwd.pattern, fwd.record, pre_jobs_[j].len);
  }
  fix_up_jobs();
  const std::size_t jobs = pre_jobs_.size();
  pre_final_.resize(jobs);
  scan_chunked(pre_jobs_.data() + fwd_jobs, jobs - fwd_jobs, static_cast<std::uint32_t>(fwd_jobs),
               pre_final_.data() + fwd_jobs, true);
}

}  // namespace trawl
