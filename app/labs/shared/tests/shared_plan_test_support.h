// Sizes the shared-memory labs' plan tests share: an H100's shared memory per block, and free
// device memory that no check refuses.
#pragma once

#include <cstdint>

namespace warplens::test {

inline constexpr int kH100Shared = 227 * 1024;
inline constexpr std::int64_t kPlenty = std::int64_t{64} << 30;

}  // namespace warplens::test
