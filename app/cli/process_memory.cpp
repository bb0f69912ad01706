// This process's memory (process_memory.h).
#include "process_memory.h"

#include <malloc.h>

#include <fstream>
#include <sstream>

namespace warplens::bench {

HostMemory host_memory() {
  HostMemory m;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    const auto kib = [&] { return std::stoll(line.substr(line.find(':') + 1)) * 1024; };
    if (line.rfind("RssAnon:", 0) == 0) m.anon = kib();
    if (line.rfind("RssFile:", 0) == 0) m.file = kib();
    if (line.rfind("RssShmem:", 0) == 0) m.rss += kib();
  }
  m.rss += m.anon + m.file;
  m.heap_in_use = static_cast<std::int64_t>(mallinfo2().uordblks);
  return m;
}

std::map<std::string, MappingUse> anonymous_by_mapping() {
  std::map<std::string, MappingUse> by;
  std::ifstream smaps("/proc/self/smaps");
  std::string line, name;
  std::int64_t bytes = 0;
  const auto flags_pinned = [](const std::string& flags) {
    std::istringstream words(flags.substr(flags.find(':') + 1));
    std::string w;
    while (words >> w)
      if (w == "lo" || w == "dc") return true;
    return false;
  };
  while (std::getline(smaps, line)) {
    const auto space = line.find(' ');
    if (space == std::string::npos) continue;
    if (line[space - 1] != ':') {  // a mapping's header: range perms offset dev inode [path]
      std::istringstream fields(line);
      std::string range, perms, offset, dev, inode;
      fields >> range >> perms >> offset >> dev >> inode;
      std::getline(fields >> std::ws, name);
      if (name.empty()) name = "(no name)";
      bytes = 0;
    } else if (line.rfind("Anonymous:", 0) == 0) {
      bytes = std::stoll(line.substr(space)) * 1024;
    } else if (line.rfind("VmFlags:", 0) == 0) {  // the mapping's last line
      MappingUse& use = by[flags_pinned(line) ? name + " (pinned)" : name];
      ++use.mappings;
      use.bytes += bytes;
    }
  }
  return by;
}

}  // namespace warplens::bench
