#include "trawl/search/plan.h"

namespace trawl {

const char* strategy_name(Strategy s) {
  switch (s) {
    case Strategy::record_by_record: return "record by record";
    case Strategy::lanes: return "job lanes";
    case Strategy::panel: return "pattern panel";
    case Strategy::filtered_panel: return "seed-filtered pattern panel";
    case Strategy::screened: return "screened job lanes";
    case Strategy::paired: return "paired job lanes";
    case Strategy::indexed: return "pattern index";
  }
  return "?";
}

bool first_end_decides(Command command, const SearchOptions& options) {
  return command == Command::contains && !options.n_filter_on();
}

bool counts_as_scanned(Command command, const SearchOptions& options) {
  return command == Command::count && !options.n_filter_on() && !options.overhang;
}

std::string SearchPlan::describe() const {
  std::string line = std::string("search plan: ") + strategy_name(strategy);
  if (!index.empty()) line += " (" + index + ")";
  if (first_end_decides) line += ", first end decides";
  if (counted) line += ", ends counted as scanned";
  return line;
}

}  // namespace trawl
