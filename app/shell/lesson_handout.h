// A lesson headless (`warplens render --lesson NAME|FILE`): its handout, or every step drawn as
// the window draws it.
//
// The handout: --format pdf, one PDF (cairo's PDF surface: vector, text as text) of A4 pages: a
// title page naming the device and the date its numbers came from, one page per step (its
// seed slide, title, the scenario's explanation, the step's panels as the figures of
// `render --panel`, its numbers, measured on this GPU or model only and said so, and its
// question), then the answers. --format svg: the steps' figures as SVGs into a folder;
// --format md: the same SVGs and a Markdown page of the handout beside them (course pages).
//
// The steps drawn: --out-dir DIR writes DIR/NN-SCENARIO.png per step (the window's frame in
// lesson mode) and DIR/NN-SCENARIO-speaker.png (its speaker view); --audit audits every step's
// frame (layout_audit.h) and exits 1 when any fails.
#pragma once

#include <string>
#include <vector>

#include "figure.h"
#include "frontends.h"
#include "lab.h"
#include "lesson.h"

namespace warplens::app {

enum class HandoutFormat { Pdf, Svg, Markdown };

/// Parses "pdf", "svg" or "md"; throws std::invalid_argument.
HandoutFormat parse_handout_format(const std::string& text);

/// What one step puts into a handout, collected once from the labs (lesson_handout.cpp).
struct HandoutStep {
  int number = 0;  ///< 1-based
  std::string title, slide, scenario;
  std::string caption;  ///< the scenario's explanation (its summary)
  std::vector<viz::Figure> figures;
  std::vector<std::string> figure_names;  ///< the panels' names, as `render --panel` calls them
  std::vector<KeyNumber> numbers;         ///< the presenter's key numbers of the step
  bool predict = false;                   ///< the numbers give the answer away: answers page
  std::string question;                   ///< empty: the step asks none
  std::vector<std::string> answer;        ///< answer_lines (lesson_mode.h)
  std::vector<std::string> problems;      ///< a panel it could not draw, a GPU error
};

struct Handout {
  std::string name, title, audience, deck;
  std::string device;  ///< "measured on NVIDIA H100 ... (CC 9.0, 132 SMs)" or "model only ..."
  bool measured = false;
  std::string date;  ///< figure_date_text()
  std::vector<HandoutStep> steps;
};

/// The handout's A4 pages (595 x 842 figure units, 1 unit = 1 pt at 210 mm), as figures: the
/// title page, one page per step, the answers. Text is wrapped by cairo's measure; a step's
/// figures shrink to what the page has left under its text.
std::vector<viz::Figure> handout_pages(const Handout& handout, const viz::Theme& theme);

/// The handout as Markdown; `figure_files[k]` are step k's SVGs' file names (beside the page).
std::string handout_markdown(const Handout& handout,
                             const std::vector<std::vector<std::string>>& figure_files);

/// A lesson's render: with `format`, the handout to `out` (pdf: a file; svg, md: a folder,
/// created); else the steps' PNGs to `out_dir` and / or their audit (options.audit), `width` x
/// `height` pixels. Returns the exit code: 0; 1 a GL, GPU, cairo or file failure, or an audit
/// that fails; 2 a bad lesson (its file:line:column) or bad options.
int render_lesson(const ViewOptions& options, const std::string& lesson,
                  const std::optional<HandoutFormat>& format, const std::string& out,
                  const std::string& out_dir, int width, int height);

}  // namespace warplens::app
