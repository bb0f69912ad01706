// The tile lab's verify cases (tile_verify.h).
#include "tile_verify.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "tile_scenario.h"
#include "tma_model.h"

namespace warplens::app {

namespace {

/// The lab every case's launch uses: made on the first launch, on that launch's device, and
/// shared by the cases of one catalog.
struct SharedTileLab {
  std::unique_ptr<gpu::TileLab> lab;
  int device = -1;
  gpu::TileLab& on(int d) {
    if (!lab || device != d) {
      lab = std::make_unique<gpu::TileLab>(d);
      device = d;
    }
    return *lab;
  }
};

std::string case_name(const gpu::TileParams& t, const gpu::TileRead& r) {
  std::string name = std::string("tile/") + (t.fill == gpu::TileFill::Tma ? "tma" : "threads") +
                     "/" + std::string(gpu::to_string(t.swizzle)) + "/" +
                     std::to_string(t.element_bytes) + "B";
  if (t.pitch_bytes != 0) name += "/pitch-" + std::to_string(t.pitch_bytes);
  if (r.kind == gpu::TileReadKind::Ldmatrix) {
    name += "/ldmatrix.x" + std::to_string(r.matrices) + (r.trans ? ".trans" : "");
  } else {
    name += "/" + std::string(gpu::to_string(r.kind)) + "-" + std::to_string(r.index);
  }
  return name;
}

CounterCase make_case(const gpu::TileParams& tile, const gpu::TileRead& read,
                      const std::shared_ptr<SharedTileLab>& shared) {
  const model::SharedAnalysis model = gpu::tile_read_analysis(tile, read);
  CounterCase c;
  c.name = case_name(tile, read);
  c.kind = CaseKind::LabLaunch;
  c.lab_launch.model = model.wavefronts;
  c.lab_launch.ldmatrix = read.kind == gpu::TileReadKind::Ldmatrix;
  c.lab_launch.word_bytes = gpu::tile_read_lanes(tile, read).access_bytes;
  c.lab_launch.key = c.name;
  c.lab_launch.launch = [shared, tile, read](int device, int reads) {
    return shared->on(device).counter_launch(tile, read, reads);
  };
  return c;
}

}  // namespace

CounterCase tile_counter_case(const gpu::TileParams& tile, const gpu::TileRead& read) {
  return make_case(tile, read, std::make_shared<SharedTileLab>());
}

std::optional<CounterCase> tile_scenario_counter_case(const Scenario& scenario) {
  const TileState& st = tile_scenario(scenario);
  try {
    return tile_counter_case(st.tile, st.read);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::vector<CounterCase> tile_verify_cases(int compute_capability) {
  const auto shared = std::make_shared<SharedTileLab>();
  std::vector<CounterCase> cases;
  const auto add = [&](const gpu::TileParams& t, const gpu::TileRead& r) {
    const int major = compute_capability / 10, minor = compute_capability % 10;
    if (gpu::tile_unsupported(t, &r, major, minor)) return;
    cases.push_back(make_case(t, r, shared));
  };
  for (gpu::TileFill fill : {gpu::TileFill::Tma, gpu::TileFill::Threads}) {
    for (gpu::TmaSwizzle s : gpu::kTmaSwizzles) {
      for (int e : {1, 2, 4}) {
        gpu::TileParams t;
        t.fill = fill;
        t.swizzle = s;
        t.element_bytes = e;
        t.rows = 32;
        t.cols = (s == gpu::TmaSwizzle::None ? 128 : gpu::swizzle_span_bytes(s)) / e;
        add(t, {gpu::TileReadKind::Row, 0});
        add(t, {gpu::TileReadKind::Column, 0});
        add(t, {gpu::TileReadKind::Column, t.cols / 2 + 1});
        if (e != 2) continue;
        for (int n : {1, 2, 4}) {
          for (bool trans : {false, true}) {
            const gpu::TileRead ld{gpu::TileReadKind::Ldmatrix, 0, n, trans};
            try {
              gpu::check_tile_read(t, ld);
            } catch (const std::invalid_argument&) {
              continue;  // a form whose rows or columns leave the tile
            }
            add(t, ld);
          }
        }
      }
    }
  }
  // Padded rows, the classic cure told at a pitch the 16-byte rows of ldmatrix allow.
  gpu::TileParams padded;
  padded.fill = gpu::TileFill::Threads;
  padded.swizzle = gpu::TmaSwizzle::None;
  padded.element_bytes = 2;
  padded.rows = 32;
  padded.cols = 64;
  padded.pitch_bytes = 144;
  add(padded, {gpu::TileReadKind::Column, 0});
  for (int n : {1, 2, 4}) {
    for (bool trans : {false, true}) add(padded, {gpu::TileReadKind::Ldmatrix, 0, n, trans});
  }
  return cases;
}

}  // namespace warplens::app
