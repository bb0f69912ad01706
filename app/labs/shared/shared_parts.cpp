// The shared-memory family's parts for the registry (lab_parts.h): four labs on one session, each
// with its own instance, preset table, kernels and bench table; one measure verb for the four.
#include "lab_parts.h"
#include "measure_shared.h"
#include "shared_bench.h"
#include "shared_labs.h"
#include "shared_scenario.h"

namespace warplens::app {

LabParts lab_parts_Banks() {
  return {"bandwidth",        make_lab<BankLab>,  parse_banks_table,  shared_counter_case,
          measure_shared_lab, banks_kernels_once, banks_verify_cases, banks_bench_tables};
}

LabParts lab_parts_Transpose() {
  return {"bandwidth",
          make_lab<TransposeLab>,
          parse_transpose_table,
          transpose_counter_case,
          measure_shared_lab,
          transpose_kernels_once,
          nullptr,
          transpose_bench_tables};
}

LabParts lab_parts_Matmul() {
  return {"throughput",
          make_lab<MatmulLab>,
          parse_matmul_table,
          shared_counter_case,
          measure_shared_lab,
          matmul_kernels_once,
          nullptr,
          matmul_bench_tables};
}

LabParts lab_parts_Reduction() {
  return {"bandwidth",
          make_lab<ReductionLab>,
          parse_reduction_table,
          shared_counter_case,
          measure_shared_lab,
          reduction_kernels_once,
          nullptr,
          reduction_bench_tables};
}

}  // namespace warplens::app
