// What differs between the four shared-memory labs (banks, transpose, matmul, reduction) below
// their panels: the access the bank view shows, which state changes need new timings, and the
// kernels the worker times. One entry per lab in shared_kinds.cpp; the session, the scenario
// parser and the verbs look a lab up here instead of switching on it.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include "knob.h"
#include "measure_shared.h"
#include "measured_table.h"
#include "shared_session.h"
#include "shared_ui.h"
#include "toml_fields.h"

namespace warplens::app {

struct SharedKind {
  Lab lab;
  /// The bank probe's own lab: the student picks the warp of the block, and the access shown is
  /// the probe's pattern, no kernel's. Elsewhere the view shows warp 0 of the kernel's block.
  bool picks_warp;
  /// The lab's views include its kernel's global read and write (the transpose's tabs).
  bool global_views;
  /// What the view says where the variant chosen has no shared-memory access (the naive
  /// multiply, the copy and naive transposes); null where every variant has one.
  const char* no_access_text;
  /// The lab's checks of `state` beyond its access's (the bank probe's warp within its block);
  /// throws std::invalid_argument. Null: none.
  void (*check)(const SharedState& state);
  /// The measured bars of its variants (shared_ui.h); null: the lab shows measured rows
  /// instead (the bank probe's cycles).
  SharedBars (*bars)(const SharedState& state, const SharedSession::Measured& m);
  /// Notes under its numbers and in its figure; `all_variants`: no single measurement of the
  /// variant shown is on screen. Null: none.
  std::vector<std::string> (*notes)(const SharedState& state, bool all_variants);
  /// The shared access the bank view shows (nullopt: the kernel has none, e.g. the naive
  /// transpose). Throws std::invalid_argument for parameters the lab refuses.
  std::optional<gpu::BankProbeParams> (*shown_access)(const SharedState& state);
  /// Whether two states of this lab time the same kernels (the bank view's choices do not
  /// count).
  bool (*same_measurement)(const SharedState& a, const SharedState& b);
  /// Times the lab's kernels for `state` into `out` (every variant where the lab compares
  /// several); `status` says what runs. Throws GpuError (gpu::Cancelled when `cancel` is set).
  void (*time)(gpu::SharedLab& lab, const SharedState& state, SharedSession::Measured& out,
               const std::atomic<bool>* cancel,
               const std::function<void(const std::string&)>& status);

  // --- `warplens measure --lab NAME` (measure_shared.h) ---
  /// Takes the lab's parameters from the command line's options; std::invalid_argument for a
  /// bad value.
  void (*apply_options)(const MeasureOptions& options, SharedState& state);
  /// Whether the options ask for every variant (no --variant, or no --block-size for matmul).
  bool (*every_variant)(const MeasureOptions& options);
  nlohmann::json (*measure_rows)(gpu::SharedLab& lab, const SharedMeasureOptions& options);
  /// The text table's columns of its rows (measured_table.h), after "kernel".
  std::vector<TableColumn> (*text_columns)();
  const char* value_key;   ///< the row's headline field: "gbps", "gflops", "cycles_per_request"
  const char* value_unit;  ///< its unit in CSV

  // --- the preset writer, the soak's monkey and the presenter strip ---
  /// The lab's knobs (shared_knobs.h): its preset table without `model` (shared_preset.cpp adds
  /// it), the monkey's changes and the strip's knobs are driven from them.
  const std::vector<Knob<SharedState>>& (*knobs)();
};

/// The entry of a shared-memory lab; std::invalid_argument for any other lab.
const SharedKind& shared_kind(Lab lab);

/// The warp of the block whose access the bank view shows: the one picked where the lab lets
/// the student pick (SharedKind::picks_warp), else warp 0.
inline int shown_warp(const SharedState& state) {
  return shared_kind(state.lab).picks_warp ? state.warp : 0;
}

}  // namespace warplens::app
