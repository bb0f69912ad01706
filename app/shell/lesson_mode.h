// Lesson mode (`warplens --lesson NAME|FILE`): the window shows one step of a lesson (lesson.h)
// at a time in the presenter layout; Page Down / Page Up (what presentation clickers send) and
// → / ← move between steps, Home / End go to the first and last; the status bar says the
// lesson's title and "step k of n". Each step applies its scenario as the picker would (live
// measurement as the scenario has it), then the step's view, its step of the access and
// predict-then-reveal. The speaker view (lesson_speaker.h) shows the step's note, the next
// step's title, the question and its answer for the laptop's screen.
#pragma once

#include <string>
#include <vector>

#include "lab.h"
#include "lesson.h"
#include "ui_state.h"
#include "workbench.h"

namespace warplens::app {

/// A lesson being taught: the lesson and the step shown (held by UiState::lesson).
struct LessonRun {
  Lesson lesson;
  int step = 0;          ///< 0-based; the status bar says step + 1
  int catalog = -1;      ///< the step's scenario in the window's catalog (UiState::scenario)
  double started = -1;   ///< ImGui time of the first frame in lesson mode; -1: not drawn yet
  bool speaker = false;  ///< key S: the speaker view open (a second window, or in this one)
};

/// Starts teaching `lesson`: ui.lesson set, its first step applied. Throws LessonError for an
/// empty lesson.
void start_lesson(UiState& ui, Workbench& labs, Lesson lesson);

/// Shows step `index` (0-based, clamped to the lesson) of ui.lesson: its scenario applied (a
/// preset or changed scenario goes into ui.loaded, replacing one of the same name), the
/// presenter layout, the step's view, its step of the access (`step = K`; the own-kernel lab's
/// K-th access) and, for `predict = "hidden"`, the class mode with the answer hidden. Nothing
/// when no lesson runs.
void go_to_lesson_step(UiState& ui, Workbench& labs, int index);

/// The lesson's moves: what Page Down / →, Page Up / ←, Home and End ask for.
enum class LessonMove { Next, Previous, First, Last };

/// Applies `move` (stays at the first or last step rather than wrapping). Returns whether the
/// step changed.
bool move_lesson(UiState& ui, Workbench& labs, LessonMove move);

/// This frame's lesson keys (Page Down, Page Up, → , ←, Home, End; S opens or closes the speaker
/// view). Returns whether one was pressed; the caller then leaves the arrows alone. Call while
/// ImGui reads the window's keys and no text field has them.
bool handle_lesson_keys(UiState& ui, Workbench& labs);

/// "step k of n: step title • Lesson title", for the status bar (the picker showing another
/// scenario: "off the lesson at step k of n ..."); empty when no lesson runs.
std::string lesson_status(const UiState& ui);

/// What the speaker view shows for the step shown (and, in a handout, what a page prints).
struct SpeakerNotes {
  std::string lesson;    ///< the lesson's title
  std::string position;  ///< "step 3 of 20"
  std::string title;     ///< the step's title
  std::string slide;     ///< the seed slide it follows (may be empty)
  std::string note;      ///< the speaker note (may be empty)
  std::string next;      ///< "next: <title of step k+1>", or "last step"
  std::string question;  ///< the question asked (the step's, else the lab's); empty: none
  /// The answer: the model's count per request, the GPU trace's, the measured GB/s, each said
  /// as such ("model only, no GPU" where nothing was measured); empty without a question.
  std::vector<std::string> answer;
  std::string clock;  ///< "12:04 since the lesson started"
};

/// The speaker view's content for ui.lesson's step shown with `shown` (the step's lab), `now`
/// seconds of ImGui time. Needs a lesson (std::logic_error otherwise).
SpeakerNotes speaker_notes(const UiState& ui, const LabInstance& shown, double now);

/// The answer lines of `shown`'s question (SpeakerNotes::answer); empty when the lab asks none.
std::vector<std::string> answer_lines(const LabInstance& shown);

/// "m:ss" (or "h:mm:ss") of `seconds` >= 0.
std::string clock_text(double seconds);

}  // namespace warplens::app
