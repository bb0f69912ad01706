// Files written atomically: a temporary name in the same directory, then rename, so an
// interrupted export never leaves a half-written PNG, JSON or CSV.
#pragma once

#include <string>
#include <string_view>

namespace warplens::viz {

/// Writes `bytes` to `path`; throws std::runtime_error naming the path and the reason.
void write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace warplens::viz
