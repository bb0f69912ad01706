#pragma once

// The version WarpLens reports (`warplens --version`, the man page): CMake's project version,
// and the git commit it was built from when built from a checkout (empty otherwise). Written at
// build time by cmake/VersionStamp.cmake.
namespace warplens::build {
extern const char* const version;
extern const char* const commit;
}  // namespace warplens::build
