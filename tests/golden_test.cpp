// Golden figures: every scenario `warplens render --all --model-only` draws, compared with a
// committed manifest (tests/golden/CONFIG.txt, lines `NAME WIDTHxHEIGHT HASH BLOCKS`). A refactor
// that should change no pixel proves it here.
//
// HASH is FNV-1a-64 of the decoded RGBA pixels: equal means pixel-identical. llvmpipe does not
// draw the same last bit on every x86-64 CPU (2026-11-29: on an AMD EPYC with AVX-512, 6 pixels of
// misaligned's 1280x720 picture, at the corners of a rounded tab, were 1 level off the Intel
// machine's that drew the manifests), so a figure whose hash differs passes when its BLOCKS agree:
// the mean luma (Rec. 601) of each 32x32-pixel block, in 1/64ths of a level, within kBlockTolerance
// (a quarter level). Those 6 pixels move their block's mean by 0.006 levels; one digit changed in
// the 13-px font moves it by about 2, one 1-px line moved across a block by about 4.
//
// The same binary rewrites the manifests: `golden_tests --update-golden DIR` (what
// scripts/update-goldens runs), so the hash has one implementation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

constexpr int kBlock = 32;           ///< block side, pixels (the last row and column may be less)
constexpr int kBlockTolerance = 16;  ///< 1/64ths of a luma level: a quarter level
constexpr int kBlockUnitsPerLevel = 64;

struct Figure {
  int width = 0, height = 0;
  std::string hash;                   ///< 16 hex digits; empty when the PNG could not be decoded
  std::vector<std::uint16_t> blocks;  ///< mean luma of each block, row by row, 1/64 level
};

/// The largest difference of two figures' block means (1/64 levels); -1 when their sizes or
/// block counts differ.
int block_difference(const Figure& a, const Figure& b) {
  if (a.width != b.width || a.height != b.height || a.blocks.size() != b.blocks.size() ||
      a.blocks.empty())
    return -1;
  int worst = 0;
  for (std::size_t i = 0; i < a.blocks.size(); ++i)
    worst = std::max(worst, std::abs(int{a.blocks[i]} - int{b.blocks[i]}));
  return worst;
}

/// Same pixels, or the same blocks within the tolerance (see the top of this file).
bool same_figure(const Figure& expected, const Figure& rendered) {
  if (expected.width != rendered.width || expected.height != rendered.height) return false;
  if (!expected.hash.empty() && expected.hash == rendered.hash) return true;
  const int d = block_difference(expected, rendered);
  return d >= 0 && d <= kBlockTolerance;
}

// The blocks as text: base64 (RFC 4648) of each mean's two bytes, little-endian.
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string encode_blocks(const std::vector<std::uint16_t>& blocks) {
  std::vector<unsigned char> bytes;
  for (const std::uint16_t b : blocks) {
    bytes.push_back(static_cast<unsigned char>(b & 0xff));
    bytes.push_back(static_cast<unsigned char>(b >> 8));
  }
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (n > 1) v |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) v |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kBase64[(v >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

/// Empty when `text` is not the encoding of whole 16-bit means.
std::vector<std::uint16_t> decode_blocks(const std::string& text) {
  std::vector<unsigned char> bytes;
  std::uint32_t v = 0;
  int bits = 0;
  for (const char c : text) {
    if (c == '=') break;
    const char* at = std::strchr(kBase64, c);
    if (!at || c == '\0') return {};
    v = (v << 6) | static_cast<std::uint32_t>(at - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<unsigned char>((v >> bits) & 0xff));
    }
  }
  if (bytes.size() % 2) return {};
  std::vector<std::uint16_t> blocks(bytes.size() / 2);
  for (std::size_t i = 0; i < blocks.size(); ++i)
    blocks[i] = static_cast<std::uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);
  return blocks;
}

std::string describe(const Figure& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
         (f.hash.empty() ? "undecodable" : f.hash);
}

/// The figure of decoded RGBA pixels (not of a PNG's bytes: the encoder may change, the picture
/// may not).
Figure figure_of(const Png& png) {
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
  for (int by = 0; by < png.height; by += kBlock) {
    for (int bx = 0; bx < png.width; bx += kBlock) {
      const int x1 = std::min(png.width, bx + kBlock), y1 = std::min(png.height, by + kBlock);
      std::uint64_t luma = 0;  // 1000ths of a level
      for (int y = by; y < y1; ++y) {
        for (int x = bx; x < x1; ++x) {
          const unsigned char* p = png.at(x, y);
          luma += 299u * p[0] + 587u * p[1] + 114u * p[2];
        }
      }
      const std::uint64_t n =
          static_cast<std::uint64_t>(x1 - bx) * static_cast<std::uint64_t>(y1 - by);
      f.blocks.push_back(
          static_cast<std::uint16_t>((luma * kBlockUnitsPerLevel + n * 500) / (n * 1000)));
    }
  }
  return f;
}

Figure hash_png(const std::string& path) {
  return figure_of(load_png(path));
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
    std::string blocks;
    fields >> name >> size >> f.hash >> blocks;
    std::istringstream(size) >> f.width >> x >> f.height;
    f.blocks = decode_blocks(blocks);
    m[name] = f;
  }
  return true;
}

void write_manifest(const std::string& path, const GoldenConfig& c, const Manifest& m,
                    const std::string& renderer) {
  std::ofstream out(path);
  out << "# warplens " << render_args(c) << "\n"
      << kRendererLine << renderer << "\n"
      << "# NAME WxH HASH BLOCKS: FNV-1a-64 of each PNG's decoded RGBA pixels (width, height,\n"
      << "# pixels), then the mean luma of each " << kBlock << "x" << kBlock << " block in 1/"
      << kBlockUnitsPerLevel << " levels (base64 of 16-bit\n"
      << "# little-endian means, row by row): tests/golden_test.cpp. Drawn by Mesa llvmpipe\n"
      << "# (Debian 12: Mesa 22.3, LLVM 15); another CPU may draw a few pixels a level off,\n"
      << "# which the blocks allow.\n"
      << "# Regenerate with scripts/update-goldens, only when a change is meant to change "
         "pixels.\n";
  for (const auto& [name, f] : m)
    out << name << " " << f.width << "x" << f.height << " " << f.hash << " "
        << encode_blocks(f.blocks) << "\n";
}

/// Every difference between the committed manifest and what was rendered, one line each.
std::vector<std::string> differences(const Manifest& expected, const Manifest& rendered) {
  std::vector<std::string> out;
  for (const auto& [name, f] : rendered) {
    const auto it = expected.find(name);
    if (it == expected.end())
      out.push_back("  not in the manifest:  " + name + " (" + describe(f) + ")");
    else if (!same_figure(it->second, f)) {
      const int d = block_difference(it->second, f);
      out.push_back("  pixels differ:        " + name + " (manifest " + describe(it->second) +
                    ", rendered " + describe(f) +
                    (d < 0 ? std::string(", no blocks to compare")
                           : ", a block's mean luma " +
                                 std::to_string(static_cast<double>(d) / kBlockUnitsPerLevel) +
                                 " levels off") +
                    ")");
    }
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

// The comparison allows what another CPU's llvmpipe draws differently (a few pixels a level off)
// and nothing a change to WarpLens draws: here one digit's worth of pixels inked.
TEST(GoldenBlocks, AFewPixelsALevelOffPassAndOneDigitMoreFails) {
  const std::string path = temp_path("golden-blocks") + ".png";
  const auto r =
      run_command(reference_renderer_env() + kWarplens +
                  " render --model-only --scenario misaligned --size 1280x720 --out " + path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Png png = load_png(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(png.rgba);
  const std::size_t bytes = static_cast<std::size_t>(png.width) * png.height * 4;
  const auto copy = [&] {
    Png c;
    c.width = png.width;
    c.height = png.height;
    c.rgba.reset(static_cast<unsigned char*>(std::malloc(bytes)));  // stbi_image_free is free
    std::memcpy(c.rgba.get(), png.rgba.get(), bytes);
    return c;
  };
  const Figure original = figure_of(png);
  // What the AMD EPYC drew where the manifests' Intel machine drew misaligned (2026-11-29): six
  // pixels of one rounded corner, each channel one level off.
  Png level_off = copy();
  for (int i = 0; i < 6; ++i) {
    unsigned char* p =
        level_off.rgba.get() + (static_cast<std::size_t>(10 + 2 * i) * png.width + 131) * 4;
    for (int ch = 0; ch < 3; ++ch)
      p[ch] = static_cast<unsigned char>(p[ch] < 255 ? p[ch] + 1 : 254);
  }
  const Figure near = figure_of(level_off);
  EXPECT_NE(near.hash, original.hash);
  EXPECT_TRUE(same_figure(original, near)) << block_difference(original, near);
  // One more digit in the 13-px font: about 30 of its 7x13 pixels inked, in the same corner.
  Png digit = copy();
  for (int i = 0; i < 30; ++i) {
    unsigned char* p =
        digit.rgba.get() + (static_cast<std::size_t>(40 + i / 5) * png.width + 40 + i % 5) * 4;
    for (int ch = 0; ch < 3; ++ch) p[ch] = static_cast<unsigned char>(p[ch] > 128 ? 20 : 235);
  }
  EXPECT_FALSE(same_figure(original, figure_of(digit)))
      << block_difference(original, figure_of(digit));
  // The manifest's text of the blocks reads back as written.
  EXPECT_EQ(decode_blocks(encode_blocks(original.blocks)), original.blocks);
  EXPECT_TRUE(decode_blocks("not base64!").empty());
}

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
    // A figure that has not changed keeps its line, so a machine whose llvmpipe draws a few
    // pixels a level off rewrites only the figures a change is meant to change.
    Manifest written = rendered;
    for (auto& [name, f] : written) {
      const auto it = old.find(name);
      if (it != old.end() && same_figure(it->second, f) && !it->second.blocks.empty())
        f = it->second;
    }
    write_manifest(path, c, written, current_renderer());
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
