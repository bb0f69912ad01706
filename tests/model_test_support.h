// What the memory-model tests share: an access pattern in one call, the global and shared analyses
// of its warp, the historical models' short names, and parameterized cases named after themselves.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "access_pattern.h"
#include "memory_model.h"

namespace warplens::model::test {

inline AccessPattern pattern(const std::string& index, int word_bytes = 4,
                             Space space = Space::Global, Op op = Op::Load,
                             BlockShape block = {32, 1}, int warp = 0) {
  return {.space = space,
          .op = op,
          .word_bytes = word_bytes,
          .block = block,
          .index = index,
          .warp = warp};
}

inline AccessPattern shared_pattern(const std::string& index, int word_bytes = 4,
                                    BlockShape block = {32, 1}, int warp = 0) {
  return pattern(index, word_bytes, Space::Shared, Op::Load, block, warp);
}

inline GlobalAnalysis global(const AccessPattern& p, HardwareModel model = HardwareModel::Modern) {
  return analyze_global(evaluate_lanes(p), p.word_bytes, p.op, model);
}

inline SharedAnalysis shared(const AccessPattern& p, HardwareModel model = HardwareModel::Modern) {
  return analyze_shared(evaluate_lanes(p), p.word_bytes, p.op, model);
}

// Names a parameterized test after its case's `name`.
template <typename Case>
std::string case_name(const testing::TestParamInfo<Case>& param_info) {
  return param_info.param.name;
}

inline constexpr auto kFermiCa = HardwareModel::FermiCaching;
inline constexpr auto kFermiCg = HardwareModel::FermiL2Only;
inline constexpr auto kKepler = HardwareModel::Kepler;
inline constexpr auto kG80 = HardwareModel::G80;

}  // namespace warplens::model::test
