// A lab as one unit: the interface every lab implements (LabInstance) and the registry that
// lists the labs (LabInfo, one per line of lab_list.h, with the parts each lab defines in its
// folder, lab_parts.h). The shell — the window, the headless renders, A/B compare, the scenario
// picker, the keys and the status bar — loops over the registry and talks to a lab only through
// this interface.
//
// A LabInstance is one live copy of a lab: its session (parameters, model, worker thread) and
// its GL views. The window holds one per lab (side B); A/B compare makes a second one of the
// shown lab (side A). Instances are made the first time they are needed, on the GL thread.
#pragma once

#include <imgui.h>

#include <any>
#include <atomic>
#include <functional>
#include <initializer_list>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "counter_checks.h"
#include "figure_panel.h"
#include "gpu.h"
#include "imgui_layer.h"
#include "kernels_once.h"
#include "lab_id.h"
#include "measure_options.h"
#include "memory_model.h"
#include "predict.h"
#include "theme.h"

namespace warplens::app {

enum class BottomView;  // ui_state.h

struct Scenario;
struct ScenarioTable;
struct UiState;

/// A side's headline number for A/B compare: bandwidth (GB/s = 10^9 bytes/s of what the kernel
/// asks to read + write) or, for the matrix multiply, throughput (GFLOP/s).
struct Headline {
  std::optional<double> value;  ///< nullopt: not measured (yet), or no GPU
  std::string unit;             ///< "GB/s" or "GFLOP/s"
  std::string what;             ///< e.g. "padded transpose, read + write"
  bool busy = false;            ///< a measurement is running
  std::string note;             ///< e.g. "WRONG RESULT", "no GPU"
};

/// B's headline over A's, when both are measured and A's is positive.
std::optional<double> headline_ratio(const Headline& a, const Headline& b);

/// One of the few numbers the presenter layout shows large, beside the view: the scenario's
/// lesson in numbers (what its "look for" names).
struct KeyNumber {
  std::string label;  ///< what it is, e.g. "model, per warp request"
  std::string value;  ///< e.g. "32 wavefronts", "2179 GB/s", "measuring…"
  std::string note;   ///< e.g. "GPU counters: 32.00 (model 32.00) ✓"; may be empty
};

/// One side's column of the A/B table (compare.h): texts as the table shows them.
struct CompareColumn {
  std::string parameters;       ///< e.g. "tiled transpose, tile 32, 8 rows per block, n = 8192"
  std::string access;           ///< the access the view shows, e.g. "load of warp 0"
  std::string model;            ///< the model's cost per warp request, e.g. "5 sectors, 80.0 %"
  std::string counters;         ///< the GPU's counters for the same access, or why there are none
  bool counters_stale = false;  ///< the counters belong to earlier parameters
  Headline headline;
  /// Numbers the lesson needs beside the model's per-request count, shown after it (the global
  /// lab's sectors of several warps together: distinct against summed).
  std::vector<KeyNumber> more;
};

/// Whether the measurement of a lab's current parameters is on screen, for the live path's checks
/// (the GPU smoke run's live-path test, the fault drill): read each frame, as the window draws.
struct LiveReading {
  bool measured = false;         ///< the headline (GB/s, GFLOP/s, the section's numbers) is current
  bool counters = false;         ///< its counter line is current and read (true: the lab has none)
  bool counters_differ = false;  ///< that line marks a count that differs from the model (✗)
  std::string text;              ///< what was read, one line, for a failure's message
};

/// What a lab's panels draw with during one frame.
struct LabFrame {
  UiState& ui;
  const viz::ImGuiLayer& layer;
  const viz::Theme& theme;
  /// Draws the shell's scenario picker (the catalog, the scenario's text, the preset field):
  /// the first thing of every lab's parameter panel.
  std::function<void()> draw_scenario_picker;
};

/// A lab's optional part (LabInstance::stages()): stepping through a sequence of accesses (keys
/// . and ,; app/shell/class_mode.h). Stepping walks the access shown wavefront by wavefront or
/// sector by sector (view_step.h). A lab whose lesson is a sequence of accesses names them as
/// stages (the AoS struct's three field loads; the transpose's global read, shared tile, global
/// write): stepping past the last step of one stage goes on to the first of the next, and back.
class LabStages {
 public:
  virtual ~LabStages() = default;
  [[nodiscard]] virtual int step_stages() const = 0;
  [[nodiscard]] virtual int step_stage() const = 0;  ///< 0 .. step_stages() - 1
  /// Shows stage `stage` (0 .. step_stages() - 1); other values are ignored. A lab whose views
  /// follow `ui` (the transpose's tabs) says so there.
  virtual void go_to_step_stage(UiState& ui, int stage) = 0;
  /// What stage `step_stage()` shows, e.g. "load of field y" (the status bar); empty with one.
  [[nodiscard]] virtual std::string step_stage_name() const = 0;
};

/// A lab's optional part (LabInstance::figures()): its panels as figures (`render --panel`, the
/// window's Export figure; figure_export.h).
class LabFigures {
 public:
  virtual ~LabFigures() = default;
  /// The panels this lab can export for its parameters now: only what the window shows (a
  /// measured panel once measured).
  [[nodiscard]] virtual std::vector<FigurePanel> figure_panels() const = 0;
  /// Shows `panel` if the lab must switch views for it (the transpose's warp panel is its global
  /// read, unless the global write is shown); the shell then waits until idle() and asks
  /// figure_panel(). False when the lab need not switch (or has no such panel).
  virtual bool show_figure_panel(FigurePanel panel) {
    (void)panel;
    return false;
  }
  /// The data `panel` draws (the trace and the model's analysis the view shows, the numbers,
  /// the heatmap, the measured sweep or bars); nullopt when the lab has no such panel now.
  [[nodiscard]] virtual std::optional<FigurePanelData> figure_panel(FigurePanel panel) const = 0;
};

/// A lab's optional part (LabInstance::views()): views of its own beside the main one, which keys
/// 1..4 and a lesson step's `view` pick (the global lab's numbers, heatmap and sweeps; the
/// transpose's accesses; the own-kernel lab's access and source).
class LabViews {
 public:
  virtual ~LabViews() = default;
  /// Keys 1..4 (`view` 0..3): picks one of the lab's views; false when it has no view `view`.
  virtual bool pick_view(UiState& ui, int view) = 0;
  /// A lab with bottom views (LabInfo::bottom_views): starts what `view` needs (a sweep's
  /// measurements, on a GPU) around `scenario`'s parameters, or the lab's defaults where it is
  /// another lab's scenario; the word size of a sweep `sweep_word_bytes`. Default: nothing.
  virtual void open_bottom_view(BottomView view, const Scenario& scenario, int sweep_word_bytes) {
    (void)view;
    (void)scenario;
    (void)sweep_word_bytes;
  }
};

/// A lab's optional part (LabInstance::access_walk()): a program of several accesses shown one at
/// a time (the own-kernel lab's rows), walked by the arrow keys and `render --step K`.
class LabAccessWalk {
 public:
  virtual ~LabAccessWalk() = default;
  /// The arrow keys ← (-1) and → (+1): the previous or next access (held at the first and the
  /// last); false where the lab's view shows no access now (the arrows then go to the previous
  /// or next scenario).
  virtual bool arrow_key(int direction) = 0;
  /// `render --step K` and a lesson step's `step`: shows access `step` (1-based). Throws
  /// std::invalid_argument, naming the accesses there are, for one the program does not have.
  virtual void go_to_access(int step) = 0;
};

/// A lab's optional part (LabInstance::predict()): predict, then reveal (key Q, predict.h).
class LabPredict {
 public:
  virtual ~LabPredict() = default;
  /// The question for the access shown and its answers (model, GPU trace, measured GB/s);
  /// nullopt where the access shown has no count to guess now.
  [[nodiscard]] virtual std::optional<PredictAnswer> predict_answer() const = 0;
};

/// A lab's optional part (LabInstance::presenter()): the presenter layout's strip and its large
/// numbers (key P). Without it the strip has no knobs and the shell builds the large numbers
/// from compare_column() (model, counters, headline).
class LabPresenter {
 public:
  virtual ~LabPresenter() = default;
  /// The scenario's one or two knobs on one line of the presenter strip (compact controls; the
  /// full panel stays one key away). Default: none.
  virtual void draw_knobs(LabFrame& frame) { (void)frame; }
  /// The numbers the presenter layout shows large. Default: empty, and the shell builds them
  /// from compare_column().
  [[nodiscard]] virtual std::vector<KeyNumber> key_numbers() const { return {}; }
};

/// A lab's optional part (LabInstance::frame_hooks()): what it does around the frames it is
/// drawn in (lab_shown, begin_lab_frame, end_lab_frame call these; without the part, nothing).
class LabFrameHooks {
 public:
  virtual ~LabFrameHooks() = default;
  /// The lab is on screen this frame (a lab may wait for this before it measures).
  virtual void shown() {}
  /// Called first each frame the lab is drawn: copy the worker's results once for the panels.
  virtual void begin_frame() {}
  /// After both sides are drawn (the shell calls it on side B once per frame).
  virtual void end_frame(UiState& ui) { (void)ui; }
};

/// A lab's optional part (LabInstance::layout_hints()): how the shell lays the lab out where it
/// differs from the usual (the defaults below, without the part).
class LabLayoutHints {
 public:
  virtual ~LabLayoutHints() = default;
  /// Whether the view needs height more than width (a bank grid of up to 32 rows): the
  /// presenter's A/B sets two such views side by side, other views one over the other.
  [[nodiscard]] virtual bool tall_view() const { return false; }
  /// Whether a figure's status bar shows the shell's footer (scenario, device, model) instead
  /// of status_text(); the cache lab's own line already names its section and device.
  [[nodiscard]] virtual bool figure_footer() const { return true; }
};

/// A lab's optional part (LabInstance::memory_models()): a view and predicted numbers that follow
/// a memory model the student picks (today's, or a historical teaching model: Fermi, Kepler,
/// G80). Without it, today's (model::HardwareModel::Modern).
class LabMemoryModels {
 public:
  virtual ~LabMemoryModels() = default;
  /// The memory model the view and the predicted numbers follow.
  [[nodiscard]] virtual model::HardwareModel shown_model() const = 0;
};

/// The optional parts a lab offers (LabInstance::offers()): a null pointer is a part not offered.
struct LabOffers {
  LabStages* stages = nullptr;
  LabFigures* figures = nullptr;
  LabViews* views = nullptr;
  LabAccessWalk* access_walk = nullptr;
  LabPredict* predict = nullptr;
  LabPresenter* presenter = nullptr;
  LabFrameHooks* frame_hooks = nullptr;
  LabLayoutHints* layout_hints = nullptr;
  LabMemoryModels* memory_models = nullptr;
};

class LabInstance {
 public:
  virtual ~LabInstance() = default;

  // --- life on the GL thread --------------------------------------------------------------
  /// Once per frame: traces through interop, collects the worker's finished measurements.
  virtual void update() = 0;
  /// Whether the trace and the measurements for the current parameters are in (or failed).
  [[nodiscard]] virtual bool idle() const = 0;
  /// Asks for the timed measurement again (space bar).
  virtual void remeasure() = 0;
  /// The CUDA device the lab measures on, or why there is none.
  [[nodiscard]] virtual const gpu::DeviceQuery& device() const = 0;
  /// The last problem, one line; empty when none.
  [[nodiscard]] virtual std::string error() const = 0;
  /// The fault drill and GPU tests: runs `task` on the lab's GPU worker as a job of its own (the
  /// GPU turn held), e.g. the trapping kernel (gpu_fault.h: fault_probe). False when the lab has
  /// no worker; the caller then runs nothing.
  virtual bool run_on_worker(std::function<void(const std::atomic<bool>& cancel)> task) {
    (void)task;
    return false;
  }

  // --- parameters ----------------------------------------------------------------------------
  /// Takes a scenario's parameters (`model`, when set, replaces the scenario's memory model).
  virtual void apply(const Scenario& scenario, std::optional<model::HardwareModel> model) = 0;
  /// Takes the parameters of another instance of the same lab (A/B compare starts so).
  virtual void copy_parameters_from(const LabInstance& other) = 0;
  /// The lab's table of a preset for the current parameters, as TOML text written by toml++
  /// ("[copy]\nword_bytes = 4\n..."): every parameter of the state that the lab's parser
  /// (LabInfo::parse_table) reads, so that apply() of the parsed preset gives the same state.
  /// The shell adds the common fields (preset_writer.h: current_preset_text).
  [[nodiscard]] virtual std::string preset_section() const = 0;
  /// `warplens-bench soak`: one random change of one parameter, to a value the lab's parameter
  /// panel offers, made through the session's own setter as the panel makes it. A candidate the
  /// lab's checks refuse is not set. Default: no change.
  virtual void random_change(std::mt19937& rng) { (void)rng; }

  // --- drawing (between ImGuiLayer::begin_frame and end_frame) -------------------------------
  /// The parameter panel; it starts with frame.draw_scenario_picker().
  virtual void draw_parameters(LabFrame& frame, ImVec2 pos, ImVec2 size) = 0;
  /// The lab's view(s). `side_name` ("A" or "B" in A/B compare, else null) prefixes the title
  /// and keeps the two sides' windows apart.
  virtual void draw_view(LabFrame& frame, ImVec2 pos, ImVec2 size, const char* side_name) = 0;
  /// Height, in pixels, of the numbers under the view for a body of `body_h` pixels; `cap` is
  /// the most the shell allows (presenter scales keep 70 % of the body for the view).
  [[nodiscard]] virtual float numbers_height(const LabFrame& frame, float body_h,
                                             float cap) const = 0;
  /// The numbers under the view.
  virtual void draw_numbers(LabFrame& frame, ImVec2 pos, ImVec2 size) = 0;
  /// The status bar's line while nothing is wrong.
  [[nodiscard]] virtual std::string status_text() const = 0;
  /// Where the picture came from, for `render`'s one-line report ("trace from the GPU kernel
  /// on NVIDIA H100 ...", "host model only (...)").
  [[nodiscard]] virtual std::string source_text() const = 0;

  // --- A/B compare and figures ---------------------------------------------------------------
  /// This side's column of the A/B table (labs with LabInfo::compare only).
  [[nodiscard]] virtual CompareColumn compare_column() const { return {}; }
  /// The live path's reading (LiveReading); by default from compare_column(): its headline has a
  /// value and no measurement runs, its counters are current and hold a reading (a lab whose
  /// counter text is "\u2014 (no counters in this lab)" counts as read).
  [[nodiscard]] virtual LiveReading live_reading() const;
  /// The numbers behind a figure: adds "model_shown", "model", "gpu_trace" (what the lab
  /// shows) and "measured" (what the GPU measured; empty without a GPU) to `figure`.
  virtual void figure_numbers(nlohmann::json& figure) const = 0;

  // --- optional parts (LabOffers): nullptr when the lab does not offer one -------------------
  /// The parts this lab offers; default: none.
  [[nodiscard]] virtual LabOffers offers() { return {}; }
  [[nodiscard]] LabOffers offers() const { return const_cast<LabInstance*>(this)->offers(); }
  /// Stepping through a sequence of accesses (LabStages); without it, one stage.
  [[nodiscard]] LabStages* stages() const { return offers().stages; }
  /// Panels as figures (LabFigures); without it, `render --panel` and Export figure offer none.
  [[nodiscard]] LabFigures* figures() const { return offers().figures; }
  /// Views of its own that keys 1..4 pick (LabViews); without it, the keys do nothing here.
  [[nodiscard]] LabViews* views() const { return offers().views; }
  /// A program's accesses walked one by one (LabAccessWalk); without it, ← → go to the previous
  /// and next scenario and `render --step K` steps the view into its access.
  [[nodiscard]] LabAccessWalk* access_walk() const { return offers().access_walk; }
  /// Predict, then reveal (LabPredict); without it, the class mode says the lab has no count to
  /// guess.
  [[nodiscard]] LabPredict* predict() const { return offers().predict; }
  /// The presenter strip's knobs and large numbers (LabPresenter).
  [[nodiscard]] LabPresenter* presenter() const { return offers().presenter; }
  /// What the lab does around its frames (LabFrameHooks).
  [[nodiscard]] LabFrameHooks* frame_hooks() const { return offers().frame_hooks; }
  /// How the shell lays it out where that differs from the usual (LabLayoutHints).
  [[nodiscard]] LabLayoutHints* layout_hints() const { return offers().layout_hints; }
  /// The memory models its view follows (LabMemoryModels); without it, today's.
  [[nodiscard]] LabMemoryModels* memory_models() const { return offers().memory_models; }
};

/// The predict part's answer for the access `lab` shows; nullopt when the lab offers no predict
/// part (LabInstance::predict()) or the access has no count to guess.
std::optional<PredictAnswer> predict_answer(const LabInstance& lab);

/// `render --step K` and a lesson step's `step` on `lab`: its access K where it walks a program's
/// accesses (LabAccessWalk), else `ui_view_step` = K (the view steps into its access). Throws
/// std::invalid_argument for an access the program does not have.
void go_to_step(LabInstance& lab, int step, int& ui_view_step);

/// The shell's calls of a lab's frame hooks (LabFrameHooks): nothing where it offers none.
void lab_shown(LabInstance& lab);
void begin_lab_frame(LabInstance& lab);
void end_lab_frame(LabInstance& lab, UiState& ui);

/// The memory model `lab`'s view follows (LabMemoryModels); today's where it offers no choice.
model::HardwareModel shown_model(const LabInstance& lab);

/// `lab`'s layout hints (LabLayoutHints), or their defaults where it offers none.
bool tall_view(const LabInstance& lab);
bool figure_footer(const LabInstance& lab);

/// One of `values`, picked uniformly by `rng` (for LabInstance::random_change).
template <typename T>
T pick_one(std::mt19937& rng, std::initializer_list<T> values) {
  return *(values.begin() + static_cast<std::ptrdiff_t>(rng() % values.size()));
}

/// A LabInstance that lives through one session (copy_session.h, shared_session.h, ...): the
/// life on the GL thread, the device, the error and A/B's parameter copy all go to the session.
/// `Session` has update(), idle(), remeasure(), device(), error(), gpu_mode(), run_on_worker(task),
/// state() and set(state).
/// Views the session publishes to must be built before it: derive from a struct holding them
/// first (base classes are built in the order they are listed).
template <typename Session>
class SessionLab : public LabInstance {
 public:
  [[nodiscard]] Session& session() { return session_; }
  [[nodiscard]] const Session& session() const { return session_; }

  void update() override { session_.update(); }
  [[nodiscard]] bool idle() const override { return session_.idle(); }
  void remeasure() override { session_.remeasure(); }
  [[nodiscard]] const gpu::DeviceQuery& device() const override { return session_.device(); }
  [[nodiscard]] std::string error() const override { return session_.error(); }
  bool run_on_worker(std::function<void(const std::atomic<bool>& cancel)> task) override {
    if (!session_.gpu_mode()) return false;
    session_.run_on_worker(std::move(task));
    return true;
  }
  /// Takes the other side's parameters; `other` is an instance of the same lab (the registry
  /// makes both sides of A/B from one line).
  void copy_parameters_from(const LabInstance& other) override {
    session_.set(dynamic_cast<const SessionLab&>(other).session_.state());
  }

 protected:
  template <typename... Args>
  explicit SessionLab(Args&&... args) : session_(std::forward<Args>(args)...) {}

  Session session_;
};

/// One line of the registry.
struct LabInfo {
  Lab id;             ///< its name on the command line and in presets: to_string(id) (lab_id.h)
  const char* title;  ///< the header's button: "Global memory"
  const char* short_title;  ///< the header's button where titles do not fit: "Global"
  /// Whether A/B compare can show two instances side by side, and what its ratio compares
  /// ("bandwidth", "throughput"); null: no compare in this lab.
  const char* compare_ratio;
  /// Makes an instance (GL context current; measures on the GPU unless `use_gpu` is false).
  std::unique_ptr<LabInstance> (*make)(bool use_gpu);
  /// Parses the lab's table of a preset into Scenario::parameters; throws ScenarioError
  /// naming the file and the problem.
  std::any (*parse_table)(const ScenarioTable& scenario);
  /// The counter case (verify's catalog) of the access a scenario of this lab shows, if it has
  /// one; null: the lab has no warp access to count.
  std::optional<CounterCase> (*counter_case)(const Scenario& scenario);
  /// `warplens measure` for this lab: times its kernels for the command line's options, or
  /// for `scenario` (one of this lab's; null: the options), and prints text, JSON or CSV.
  /// Returns the process exit code (exit_codes.h) with a one-line reason on stderr.
  int (*measure)(const MeasureOptions& options, const Scenario* scenario);
  /// `warplens-bench kernels-once` (kernels_once.h): launches each of the lab's kernels once on
  /// small sizes on `device` (the verb passes one_sm_view of the real GPU), then the kernels of
  /// each of `scenarios` (the lab's built-in scenarios) at their parameters with the sizes made
  /// small, and checks every result. A failure is a row with ok false, never an exception.
  std::vector<KernelRun> (*kernels_once)(const gpu::DeviceInfo& device,
                                         const std::vector<const Scenario*>& scenarios);
  /// The letter that opens the lab from the keyboard (lower case; 0: none).
  char key = 0;
  /// verify's cases this lab generates beside its scenarios' (e.g. every swizzle mode of a
  /// tile), for a GPU of `compute_capability` (10 x major + minor: 90 for 9.0; cases that GPU
  /// cannot run are left out); null: none.
  std::vector<CounterCase> (*verify_cases)(int compute_capability) = nullptr;
  /// `warplens-bench`'s tables of this lab on `device` (after the global copy's; `warplens-bench
  /// N NAME` prints this lab's alone), every row the median of `runs` timed launches, printed on
  /// stdout; throws GpuError on CUDA failure. Null: the lab has none.
  void (*bench_tables)(const gpu::DeviceInfo& device, int runs) = nullptr;
  /// Whether the lab has the views under its view (BottomView: numbers, heatmap and the offset
  /// and stride sweeps; keys 1..4, a lesson step's `view`): LabViews::open_bottom_view.
  bool bottom_views = false;
  /// An option of the command line's own for a preset file of this lab, e.g. "kernel": `warplens
  /// measure --kernel FILE` and `warplens render --kernel FILE` take a preset whose lab is this
  /// one (as --preset does, refusing another lab's), with `preset_option_help` as its help. Null:
  /// none (--preset serves).
  const char* preset_option = nullptr;
  const char* preset_option_help = nullptr;
};

/// Every lab, in lecture order; registry()[i].id == Lab(i).
const std::vector<LabInfo>& lab_registry();
const LabInfo& lab_info(Lab id);

}  // namespace warplens::app
