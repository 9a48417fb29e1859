#pragma once
// --region: each record of a batch is searched as its parts (one per record for a single
// range; several ranges, e.g. 1:150,-150:-1, may give more), every part as if it were a
// record, and the parts' hits are moved (one part each) or folded (several) back into the
// record's rows. Single-threaded per batch; reused between batches (no allocation in steady
// state).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "trawl/core/region.h"
#include "trawl/core/results.h"
#include "trawl/io/record_batch.h"

namespace trawl {

class RecordParts {
 public:
  // The shape the parts are searched in: hits, whatever the run's command (a record's count,
  // or contains, is then made from its folded hits, which --best needs per strand).
  static ResultShape searched_shape(ResultShape run_shape);

  // Cuts every record of `batch` into its parts (Region::spans; at least one per record).
  void split(const RecordBatch& batch, const Region& region);
  // The parts of the last split(), record by record, in increasing offset.
  std::span<const std::string_view> views() const { return views_; }

  // Whether the last split() gave every record exactly one part (a single range): views()
  // may then be searched as the batch's records in the run's own shape, and place() moves
  // their hits into place; otherwise they are searched as records 0, 1, ... in
  // searched_shape, and fold() makes the batch's rows.
  bool one_each() const { return one_each_; }
  // Moves the hits of searching views() as the batch's records (one_each()) to the records'
  // coordinates.
  void place(BatchResults& results) const;

  // Turns the hits of searching views() as records 0, 1, ... (in searched_shape) into the
  // results of the batch's records in `shape`, in place: hits moved to the record's
  // coordinates and output order, --best (`best`) keeping the best of each strand over the
  // parts; for count and contains, the rows those hits make, over `patterns` patterns.
  void fold(BatchResults& results, const ResultShape& shape, bool best, std::uint32_t patterns) const;

 private:
  static void order_record(std::vector<Hit>& hits, std::size_t from, std::size_t to, bool best);
  void answer(BatchResults& results, const ResultShape& shape, std::uint32_t patterns) const;

  std::uint64_t first_record_ = 0;
  bool one_each_ = true;
  std::vector<std::string_view> views_;
  std::vector<std::uint64_t> offsets_;  // where views_[v] starts in its record
  std::vector<std::uint32_t> record_;   // the batch's record of views_[v]
  std::vector<Span> spans_;
};

}  // namespace trawl
