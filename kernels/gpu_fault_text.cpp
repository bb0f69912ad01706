// The host-side text of gpu_fault.h, in every build.
#include <cstdio>
#include <string>

#include "gpu_fault.h"

namespace warplens::gpu {

std::string out_of_memory_text(const std::string& what, const std::optional<DeviceMemory>& memory) {
  if (what.find("out of memory") == std::string::npos) return what;
  if (!memory) return what + " (free memory unknown; another process may hold the GPU's memory)";
  char text[200];
  std::snprintf(text, sizeof text,
                " (%.1f of %.1f GiB free: another process may hold the rest; close it and "
                "measure again)",
                static_cast<double>(memory->free_bytes) / (1 << 30),
                static_cast<double>(memory->total_bytes) / (1 << 30));
  return what + text;
}

}  // namespace warplens::gpu
