// The default thread count's CPUs (run/cpus.h): a cgroup quota rounds up to whole CPUs and
// "max" or -1 is no limit; the affinity mask caps the count (taskset -c 0 gives one CPU).
#include <doctest/doctest.h>
#include <sched.h>

#include <algorithm>
#include <thread>

#include "trawl/run/cpus.h"

using namespace trawl;

TEST_CASE("cpus: cgroup quotas in whole CPUs, rounded up") {
  CHECK(cpus_of_cpu_max("max 100000") == std::nullopt);
  CHECK(cpus_of_cpu_max("150000 100000") == 2);
  CHECK(cpus_of_cpu_max("200000 100000\n") == 2);
  CHECK(cpus_of_cpu_max("50000 100000") == 1);
  CHECK(cpus_of_cpu_max("") == std::nullopt);
  CHECK(cpus_of_quota("-1", "100000") == std::nullopt);
  CHECK(cpus_of_quota("400000", "100000") == 4);
  CHECK(cpus_of_quota("x", "100000") == std::nullopt);
  CHECK(cpus_of_quota("100000", "0") == std::nullopt);
}

TEST_CASE("cpus: the affinity mask caps the CPUs") {
  const int all = available_cpus();
  CHECK(all >= 1);
  CHECK(all <= static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  int pinned = 0;
  std::thread([&] {  // (affinity is per thread: the test's own threads keep theirs)
    cpu_set_t one;
    CPU_ZERO(&one);
    cpu_set_t mine;
    REQUIRE(sched_getaffinity(0, sizeof mine, &mine) == 0);
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &mine)) {
        CPU_SET(c, &one);
        break;
      }
    REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
    pinned = available_cpus();
  }).join();
  CHECK(pinned == 1);
}
