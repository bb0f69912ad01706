#include "atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace warplens::viz {

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    file.flush();
    if (!file) {
      const int e = errno;
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
  }
}

}  // namespace warplens::viz
