// Golden figures: every scenario `warplens render --all --model-only` draws, hashed by its
// decoded RGBA pixels and compared with a committed manifest (tests/golden/CONFIG.txt, lines
// `NAME WIDTHxHEIGHT HASH`). A refactor that should change no pixel proves it here.
//
// The same binary rewrites the manifests: `golden_tests --update-golden DIR` (what
// scripts/update-goldens runs), so the hash has one implementation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace warplens::test {
namespace {

const std::string kGoldenDir = WARPLENS_GOLDEN_DIR;

// --- configurations --------------------------------------------------------------------------

struct GoldenConfig {
  const char* name;  ///< manifest file name without .txt, and the test's name
  int width, height;
  const char* theme;
  int scale;
};

void PrintTo(const GoldenConfig& c, std::ostream* os) {
  *os << c.name;
}

constexpr GoldenConfig kConfigs[] = {
    {"render-all-1600x960-light", 1600, 960, "light", 1},
    {"render-all-1920x1080-dark-scale2", 1920, 1080, "dark", 2},
};

/// The reference renderer is Mesa's llvmpipe, whatever else the machine has: glvnd would put an
/// NVIDIA EGL device first, and Mesa a hardware one, and either draws other pixels.
std::string reference_renderer_env() {
  const char* mesa = "/usr/share/glvnd/egl_vendor.d/50_mesa.json";
  std::string env = "LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe ";
  if (std::filesystem::exists(mesa))
    env += std::string("__EGL_VENDOR_LIBRARY_FILENAMES=") + mesa + " ";
  return env;
}

std::string render_args(const GoldenConfig& c) {
  return "render --all --model-only --size " + std::to_string(c.width) + "x" +
         std::to_string(c.height) + " --theme " + c.theme + " --scale " + std::to_string(c.scale);
}

// --- hashing ---------------------------------------------------------------------------------

/// FNV-1a, 64-bit: a checksum of the picture, not a security hash.
struct Fnv1a64 {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(const unsigned char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
  void add_u32(std::uint32_t v) {
    const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 24)};
    add(b, 4);
  }
};

struct Figure {
  int width = 0, height = 0;
  std::string hash;  ///< 16 hex digits; empty when the PNG could not be decoded
  bool operator==(const Figure& o) const {
    return width == o.width && height == o.height && hash == o.hash;
  }
};

std::string describe(const Figure& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
         (f.hash.empty() ? "undecodable" : f.hash);
}

/// The PNG's decoded RGBA pixels (not its bytes: the encoder may change, the picture may not).
Figure hash_png(const std::string& path) {
  const Png png = load_png(path);
  Figure f;
  if (!png.rgba) return f;
  f.width = png.width;
  f.height = png.height;
  Fnv1a64 fnv;
  fnv.add_u32(static_cast<std::uint32_t>(png.width));
  fnv.add_u32(static_cast<std::uint32_t>(png.height));
  fnv.add(png.rgba.get(), static_cast<std::size_t>(png.width) * png.height * 4);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, fnv.h);
  f.hash = hex;
  return f;
}

using Manifest = std::map<std::string, Figure>;  // scenario name → figure, sorted by name

/// The GL renderer `warplens render` reports under the reference environment, e.g.
/// "llvmpipe (LLVM 15.0.6, 256 bits) (4.5 (Core Profile) Mesa 22.3.6)"; empty if none.
std::string current_renderer() {
  const std::string png = temp_path("renderer") + ".png";
  const auto r = run_command(reference_renderer_env() + kWarplens +
                             " render --model-only --scenario aligned --out " + png);
  std::filesystem::remove(png);
  const auto at = r.output.find("GL: ");
  if (r.exit_code != 0 || at == std::string::npos) return "";
  std::string gl = r.output.substr(at + 4, r.output.find('\n', at) - at - 4);
  if (!gl.empty() && gl.back() == ')') gl.pop_back();  // the report's closing parenthesis
  return gl;
}
constexpr const char* kRendererLine = "# renderer: ";

/// Renders every scenario of `c` into `dir` and hashes each PNG; `error` says why not.
Manifest render_and_hash(const GoldenConfig& c, const std::string& dir, std::string& error) {
  std::filesystem::remove_all(dir);
  const auto r = run_command(reference_renderer_env() + kWarplens + " " + render_args(c) +
                             " --out-dir " + dir);
  Manifest m;
  if (r.exit_code != 0) {
    error =
        "warplens " + render_args(c) + " exited " + std::to_string(r.exit_code) + ":\n" + r.output;
    return m;
  }
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".png") m[e.path().stem().string()] = hash_png(e.path().string());
  return m;
}

// --- manifests -------------------------------------------------------------------------------

std::string manifest_path(const std::string& dir, const GoldenConfig& c) {
  return (std::filesystem::path(dir) / (std::string(c.name) + ".txt")).string();
}

/// Reads `NAME WIDTHxHEIGHT HASH` lines; `#` starts a comment line. False if the file is missing.
bool read_manifest(const std::string& path, Manifest& m, std::string* renderer = nullptr) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (renderer && line.rfind(kRendererLine, 0) == 0) *renderer = line.substr(12);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, size;
    Figure f;
    char x = 0;
    fields >> name >> size >> f.hash;
    std::istringstream(size) >> f.width >> x >> f.height;
    m[name] = f;
  }
  return true;
}

void write_manifest(const std::string& path, const GoldenConfig& c, const Manifest& m,
                    const std::string& renderer) {
  std::ofstream out(path);
  out << "# warplens " << render_args(c) << "\n"
      << kRendererLine << renderer << "\n"
      << "# FNV-1a-64 of each PNG's decoded RGBA pixels (width, height, pixels): tests/"
         "golden_test.cpp.\n"
      << "# Drawn by Mesa llvmpipe (Debian 12: Mesa 22.3, LLVM 15, an x86-64 CPU with AVX);\n"
      << "# another Mesa, or a CPU without AVX, draws other pixels.\n"
      << "# Regenerate with scripts/update-goldens, only when a change is meant to change "
         "pixels.\n";
  for (const auto& [name, f] : m)
    out << name << " " << f.width << "x" << f.height << " " << f.hash << "\n";
}

/// Every difference between the committed manifest and what was rendered, one line each.
std::vector<std::string> differences(const Manifest& expected, const Manifest& rendered) {
  std::vector<std::string> out;
  for (const auto& [name, f] : rendered) {
    const auto it = expected.find(name);
    if (it == expected.end())
      out.push_back("  not in the manifest:  " + name + " (" + describe(f) + ")");
    else if (!(it->second == f))
      out.push_back("  pixels differ:        " + name + " (manifest " + describe(it->second) +
                    ", rendered " + describe(f) + ")");
  }
  for (const auto& [name, f] : expected)
    if (!rendered.count(name)) out.push_back("  no longer rendered:   " + name);
  return out;
}

// --- the test --------------------------------------------------------------------------------

class GoldenFigures : public ::testing::TestWithParam<GoldenConfig> {};

TEST_P(GoldenFigures, EveryScenarioMatchesTheManifest) {
  const GoldenConfig& c = GetParam();
  const std::string manifest = manifest_path(kGoldenDir, c);
  Manifest expected;
  std::string golden_renderer;
  ASSERT_TRUE(read_manifest(manifest, expected, &golden_renderer))
      << "no manifest " << manifest << "; create it with scripts/update-goldens";
  // Pixels are only comparable from the renderer that drew the manifest (llvmpipe's vector
  // width follows the CPU, its rasteriser the Mesa version).
  const std::string renderer = current_renderer();
  ASSERT_FALSE(renderer.empty()) << "warplens render reported no GL renderer";
  if (!golden_renderer.empty() && renderer != golden_renderer)
    GTEST_SKIP() << "the golden figures were drawn by \"" << golden_renderer
                 << "\"; this machine draws with \"" << renderer
                 << "\", whose pixels differ for reasons other than WarpLens's code";
  const std::string dir = temp_path(c.name);
  std::string error;
  const Manifest rendered = render_and_hash(c, dir, error);
  ASSERT_TRUE(error.empty()) << error;
  const auto diffs = differences(expected, rendered);
  if (diffs.empty()) {
    std::filesystem::remove_all(dir);
    return;
  }
  std::string report;
  for (const auto& d : diffs) report += d + "\n";
  if (diffs.size() == rendered.size())
    report += "Every figure differs: is this the Mesa and CPU the manifest's header names?\n";
  ADD_FAILURE() << diffs.size() << " figure(s) of `warplens " << render_args(c) << "` differ from "
                << manifest << ":\n"
                << report << "The rendered PNGs are kept in " << dir
                << ".\nIf the change is meant to change these pixels, look at them, then run "
                   "scripts/update-goldens and commit tests/golden/.";
}

INSTANTIATE_TEST_SUITE_P(RenderAll, GoldenFigures, ::testing::ValuesIn(kConfigs),
                         [](const auto& p) {
                           std::string n = p.param.name;
                           for (char& ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

// --- --update-golden DIR ---------------------------------------------------------------------

int update_goldens(const std::string& golden_dir) {
  for (const GoldenConfig& c : kConfigs) {
    const std::string dir = temp_path(c.name);
    std::string error;
    const Manifest rendered = render_and_hash(c, dir, error);
    std::filesystem::remove_all(dir);
    if (!error.empty() || rendered.empty()) {
      std::cerr << "update-golden: " << (error.empty() ? "no PNG rendered" : error) << "\n";
      return 1;
    }
    const std::string path = manifest_path(golden_dir, c);
    Manifest old;
    read_manifest(path, old);
    write_manifest(path, c, rendered, current_renderer());
    const auto diffs = differences(old, rendered);
    std::cout << path << ": " << rendered.size() << " scenarios, " << diffs.size() << " changed\n";
    for (const auto& d : diffs) std::cout << d << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace warplens::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--update-golden")
      return warplens::test::update_goldens(argv[i + 1]);
  return RUN_ALL_TESTS();
}
