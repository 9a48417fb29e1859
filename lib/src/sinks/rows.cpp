#include "trawl/sinks/rows.h"

namespace trawl::rows {
namespace {

// `fields` with a mate column after text_id where `mate`.
std::vector<Column> columns_of(std::initializer_list<Field> fields, bool mate = false) {
  std::vector<Column> out;
  for (Field f : fields) {
    out.push_back(column(f));
    if (mate && f == Field::text_id) out.push_back(column(Field::mate));
  }
  return out;
}

}  // namespace

RowModel RowModel::hits(const PatternSet& patterns, const AlphabetSpec& alphabet, HitColumns columns) {
  std::vector<Column> cols =
      columns_of({Field::pat_id, Field::text_id, Field::cost, Field::strand, Field::start, Field::end}, columns.mate);
  if (columns.region) cols.push_back(column(Field::match_region));
  if (columns.cigar) cols.push_back(column(Field::cigar));
  for (ExtraColumn c : columns.extra) {
    switch (c) {
      case ExtraColumn::pattern_start: cols.push_back(column(Field::pattern_start)); break;
      case ExtraColumn::pattern_end: cols.push_back(column(Field::pattern_end)); break;
      case ExtraColumn::pat_idx: cols.push_back(column(Field::pat_idx)); break;
      case ExtraColumn::text_idx: cols.push_back(column(Field::text_idx)); break;
    }
  }
  RowModel model(patterns, Source::hits, std::move(cols));
  model.hit_columns_ = std::move(columns);
  model.alphabet_ = alphabet;
  model.mate_ = model.hit_columns_.mate;
  return model;
}

RowModel RowModel::count(const PatternSet& patterns, const ResultShape& shape) {
  if (shape.per_pattern_totals)
    return {patterns, Source::pattern_totals, columns_of({Field::pat_id, Field::count, Field::records})};
  RowModel model(patterns, Source::pair_counts, columns_of({Field::pat_id, Field::text_id, Field::count}, shape.mate));
  model.mate_ = shape.mate;
  return model;
}

RowModel RowModel::contains(const PatternSet& patterns, const ResultShape& shape) {
  RowModel model = shape.per_pair
                       ? RowModel(patterns, Source::pair_flags,
                                  columns_of({Field::pat_id, Field::text_id, Field::contains}, shape.mate))
                       : RowModel(patterns, Source::record_flags, columns_of({Field::text_id, Field::contains}, shape.mate));
  model.mate_ = shape.mate;
  return model;
}

}  // namespace trawl::rows
