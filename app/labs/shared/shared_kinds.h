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
#include "toml_fields.h"

namespace warplens::app {

struct SharedKind {
  Lab lab;
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

}  // namespace warplens::app
