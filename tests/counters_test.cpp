// Hardware counters without a GPU: the metric list, the one-line reasons, and what a build
// without CUPTI answers.
#include <gtest/gtest.h>

#include <string>

#include "counters.h"
#include "gpu.h"

namespace warplens::test {
namespace {

using gpu::CounterFailure;

TEST(CountersTest, MetricListNamesEveryCounterOnceInCounterSetOrder) {
  const std::vector<std::string> expected = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "l1tex__t_sector_hit_rate.pct",
      "lts__t_sector_hit_rate.pct",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
  };
  ASSERT_EQ(gpu::kCounterMetrics.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(gpu::kCounterMetrics[i].name, expected[i]);
    for (std::size_t j = 0; j < i; ++j) {
      EXPECT_NE(gpu::kCounterMetrics[i].field, gpu::kCounterMetrics[j].field)
          << "two metrics share a field: " << expected[i];
    }
  }
}

TEST(CountersTest, ValueLooksUpByMetricName) {
  gpu::CounterSet set;
  set.global_load_sectors = 4;
  set.l2_hit_rate_pct = 87.5;
  EXPECT_EQ(set.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4.0);
  EXPECT_EQ(set.value("lts__t_sector_hit_rate.pct"), 87.5);
  EXPECT_FALSE(set.value("dram__bytes_read.sum").has_value());  // not collected
  EXPECT_FALSE(set.value("no_such_metric").has_value());
}

TEST(CountersTest, EveryReasonIsOneLine) {
  for (int f = static_cast<int>(CounterFailure::NoCudaToolkit);
       f <= static_cast<int>(CounterFailure::Other); ++f) {
    const std::string text =
        gpu::counters_failure_text(static_cast<CounterFailure>(f), "call: CUPTI\nsaid so");
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    EXPECT_EQ(text.rfind("hardware counters unavailable", 0), 0u) << text;
    EXPECT_NE(text.find("(call: CUPTI said so)"), std::string::npos) << text;
  }
}

TEST(CountersTest, PrivilegeRefusalSaysHowAnAdminEnablesCounters) {
  const CounterFailure failure = gpu::counters_failure_for_cupti(35);  // INSUFFICIENT_PRIVILEGES
  ASSERT_EQ(failure, CounterFailure::InsufficientPrivileges);
  const std::string text = gpu::counters_failure_text(failure);
  EXPECT_NE(text.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << text;
  EXPECT_NE(text.find("/etc/modprobe.d/"), std::string::npos) << text;
  EXPECT_NE(text.find("root"), std::string::npos) << text;
}

TEST(CountersTest, CuptiCodesMapToTheirMachineReasons) {
  EXPECT_EQ(gpu::counters_failure_for_cupti(33), CounterFailure::VirtualGpu);
  EXPECT_EQ(gpu::counters_failure_for_cupti(40), CounterFailure::VirtualGpu);
  EXPECT_EQ(gpu::counters_failure_for_cupti(41), CounterFailure::ConfidentialComputing);
  EXPECT_EQ(gpu::counters_failure_for_cupti(42), CounterFailure::MiningProcessor);
  EXPECT_EQ(gpu::counters_failure_for_cupti(43), CounterFailure::Mig);
  EXPECT_EQ(gpu::counters_failure_for_cupti(44), CounterFailure::Sli);
  EXPECT_EQ(gpu::counters_failure_for_cupti(45), CounterFailure::Wsl);
  EXPECT_EQ(gpu::counters_failure_for_cupti(39), CounterFailure::ProfilerBusy);
  EXPECT_EQ(gpu::counters_failure_for_cupti(1), CounterFailure::Other);
  EXPECT_NE(gpu::counters_failure_text(CounterFailure::VirtualGpu).find("virtual GPU"),
            std::string::npos);
  EXPECT_NE(gpu::counters_failure_text(CounterFailure::NoCudaToolkit)
                .find("built without the CUDA toolkit"),
            std::string::npos);
}

// Without a GPU (this build machine, CI) or without CUDA, asking is safe and says why in one
// line; a session refuses with CountersUnavailable and never crashes.
TEST(CountersTest, AvailabilityIsAnsweredWithoutCrashing) {
  const std::optional<std::string> reason = gpu::counters_available(0);
  if (!gpu::built_with_cuda()) {
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("built without the CUDA toolkit"), std::string::npos) << *reason;
  }
  if (reason) {
    EXPECT_EQ(reason->find('\n'), std::string::npos) << *reason;
    EXPECT_THROW(gpu::CounterSession session(0), gpu::CountersUnavailable);
  }
  const std::optional<std::string> bad = gpu::counters_available(1 << 20);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->find('\n'), std::string::npos) << *bad;
}

}  // namespace
}  // namespace warplens::test
