// The classroom's two ways through one access (issue 14): stepping (keys `.` next, `,` previous,
// space play / pause while stepping; the views serve wavefronts or move sectors one per step,
// app/widgets/view_step.h) and predict-then-reveal (key Q; the view's answer and the numbers
// hidden while the panel asks for a guess, app/core/predict.h).
#pragma once

#include <imgui.h>

#include <string>

#include "imgui_layer.h"
#include "lab.h"
#include "theme.h"
#include "ui_state.h"

namespace warplens::app {

/// Seconds between two steps while playing.
inline constexpr double kStepPace = 0.8;

/// `.` (next step; from the whole access: step 0, nothing served), `,` (previous step) and, while
/// stepping, space (play / pause). Returns whether `c` was one of them (space while not stepping
/// is not: it measures again).
bool handle_step_key(UiState& ui, LabInstance& shown, ImWchar c);
/// Ends stepping when the shown lab changed, keeps the step within the views' steps, and moves
/// one step on while playing (`now`: ImGui time in seconds), stopping at the last.
void advance_steps(UiState& ui, LabInstance& shown, double now);
/// Moves one step on (a lab's next stage after the last step of one; LabInstance::step_stages);
/// false at the very end.
bool step_forward(UiState& ui, LabInstance& shown);
/// After a frame: the views' steps of the stage shown (a step back into the previous stage lands
/// on its last step once its views have reported them).
void steps_drawn(UiState& ui, int steps, const std::string& unit);
/// "wavefront 3 of 8 • . next • , previous • space play": for the status bar; empty when not
/// stepping.
std::string step_status(const UiState& ui, const LabInstance& shown);

/// Key Q: the class mode on (a new question for the access shown, answer hidden) or off.
void toggle_predict(UiState& ui, const LabInstance& shown, const Scenario& scenario);
/// The question the class mode asks: the scenario's own text when it has one, with the lab's
/// count; nullopt when the lab has nothing to guess.
std::optional<Question> predict_question(const LabInstance& shown, const Scenario& scenario);
/// Whether the class mode hides the view's answer and the numbers this frame.
[[nodiscard]] bool predict_hides_answer(const UiState& ui);
/// The class mode's panel at `pos`, `size`: the question with the guess fields and Guess /
/// Reveal buttons while hidden; the guess beside the answers (model, GPU trace, measured GB/s)
/// and Ask again once revealed.
/// `revealed`: the revealed stage's lines (revealed_lines), built once for the frame. `title`: the
/// scenario's title to head the panel (draw_title_beside) where the presenter strip could not show
/// it whole; empty: none.
void draw_predict_panel(UiState& ui, const LabInstance& shown, const viz::ImGuiLayer& layer,
                        const viz::Theme& theme, ImVec2 pos, ImVec2 size,
                        const std::vector<std::string>& revealed = {},
                        const std::string& title = {});
/// The revealed stage's lines: the guess beside the model, the GPU trace and the measurement
/// (Prediction::verdict_lines of the lab's answer); empty before the reveal or without one.
[[nodiscard]] std::vector<std::string> revealed_lines(const UiState& ui, const LabInstance& shown);
/// Height of the panel once revealed with `lines`, `width` wide (the numbers go under it).
[[nodiscard]] float revealed_panel_height(const std::vector<std::string>& lines,
                                          const viz::ImGuiLayer& layer, float width);

}  // namespace warplens::app
