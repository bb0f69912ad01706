// This process's memory as the soak samples it (bench_soak.cpp): the resident set and the heap,
// and the resident anonymous memory of each mapping's name (/proc/self/smaps). Linux only.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace warplens::bench {

// This process's memory: resident set (/proc/self/status: RssAnon, RssFile, RssShmem, kB) and
// the heap (glibc's mallinfo2, every arena).
struct HostMemory {
  std::int64_t rss = 0;   ///< all resident pages, bytes
  std::int64_t anon = 0;  ///< resident anonymous pages: the heap, stacks, mmaps of the process
  std::int64_t file = 0;  ///< resident file pages: code and read-only data of the program and libs
  std::int64_t heap_in_use = 0;  ///< bytes malloc has handed out and not got back
};

/// Reads /proc/self/status and mallinfo2 now.
HostMemory host_memory();

/// The resident anonymous bytes of each mapping's name (/proc/self/smaps "Anonymous:"): a file's
/// path, [heap], [stack], or "(no name)" for the mappings without one (mmap'ed by malloc's
/// arenas, the driver, the threads' stacks), with how many mappings each name has. What grows
/// between the soak's two samples outside the heap is named here.
struct MappingUse {
  std::int64_t bytes = 0;
  int mappings = 0;
};
/// A mapping the kernel keeps from being swapped or inherited (VmFlags "lo" locked, "dc" not
/// copied on fork: what pinning host memory for the GPU does, cuMemHostRegister) is counted
/// under its name with " (pinned)" added: such pages stay resident whatever malloc_trim does.
std::map<std::string, MappingUse> anonymous_by_mapping();

}  // namespace warplens::bench
