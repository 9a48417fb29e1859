#include "trawl/run/progress.h"

#include <algorithm>
#include <cstdio>

namespace trawl {
namespace {

std::string size_text(double bytes) {
  char buf[32];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  else if (bytes >= 1e6) std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
  return buf;
}

std::string clock_text(double seconds) {
  const auto s = static_cast<unsigned long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%llu:%02llu", s / 60, s % 60);
  return buf;
}

}  // namespace

std::string progress_text(const RunStats& s, double seconds) {
  char counts[96];
  std::snprintf(counts, sizeof counts, "%llu records, %.1f Mbp, %llu hits", static_cast<unsigned long long>(s.records),
                static_cast<double>(s.bases) / 1e6, static_cast<unsigned long long>(s.hits));
  if (s.input_size == 0) return counts;
  const double part = std::min(1.0, static_cast<double>(s.input_read) / static_cast<double>(s.input_size));
  std::string text = std::to_string(static_cast<int>(part * 100)) + "% of " + size_text(static_cast<double>(s.input_size));
  if (seconds >= 1 && part > 0) text += ", " + clock_text(seconds * (1 - part) / part) + " left";
  return text + "; " + counts;
}

}  // namespace trawl
