// The shared-memory family's parts for the registry (lab_parts.h): four labs on one session, each
// with its own instance, preset table and kernels; one measure verb for the four.
#include "lab_parts.h"
#include "measure_shared.h"
#include "shared_labs.h"
#include "shared_scenario.h"

namespace warplens::app {

LabParts lab_parts_Banks() {
  return {"bandwidth",        make_lab<BankLab>,  parse_banks_table, shared_counter_case,
          measure_shared_lab, banks_kernels_once, banks_verify_cases};
}

LabParts lab_parts_Transpose() {
  return {"bandwidth",        make_lab<TransposeLab>, parse_transpose_table, transpose_counter_case,
          measure_shared_lab, transpose_kernels_once};
}

LabParts lab_parts_Matmul() {
  return {"throughput",        make_lab<MatmulLab>, parse_matmul_table,
          shared_counter_case, measure_shared_lab,  matmul_kernels_once};
}

LabParts lab_parts_Reduction() {
  return {"bandwidth",         make_lab<ReductionLab>, parse_reduction_table,
          shared_counter_case, measure_shared_lab,     reduction_kernels_once};
}

}  // namespace warplens::app
