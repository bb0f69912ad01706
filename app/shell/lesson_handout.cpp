#include "lesson_handout.h"

#include <glad/gl.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <tuple>
#include <variant>

#include "atomic_file.h"
#include "class_mode.h"
#include "exit_codes.h"
#include "figure_cairo.h"
#include "figure_export.h"
#include "figures.h"
#include "headless_context.h"
#include "headless_frames.h"
#include "lesson_mode.h"
#include "lesson_speaker.h"
#include "panel_figure.h"
#include "png_writer.h"
#include "presenter.h"
#include "scenarios.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using viz::Figure;
using viz::FigureAnchor;
using viz::FigureFont;
using viz::FigureRole;
using viz::FigureText;

// "07": a step's number in file names, so that they sort in the lesson's order.
std::string two_digits(int n) {
  return format("%02d", n);
}

// --- collecting the steps -----------------------------------------------------------------------

// The panels a step shows when it names none: the lab's first picture, and its measured bars
// where it has them.
std::vector<FigurePanel> default_panels(const std::vector<FigurePanel>& offered) {
  std::vector<FigurePanel> panels;
  if (!offered.empty()) panels.push_back(offered.front());
  if (std::find(offered.begin(), offered.end(), FigurePanel::Bars) != offered.end() &&
      (panels.empty() || panels.front() != FigurePanel::Bars))
    panels.push_back(FigurePanel::Bars);
  return panels;
}

std::string device_line(const LabInstance& lab) {
  const auto& d = lab.device().device;
  if (!d) return "model only: no GPU measured these numbers (" + lab.device().reason + ")";
  return format("measured on %s (CC %d.%d, %d SMs)", d->name.c_str(), d->cc_major, d->cc_minor,
                d->sm_count);
}

// Every step of `lesson`, shown in turn in `scene` and read back: figures (when `figures`),
// numbers, question and answer. Throws LessonError for a panel a step's lab does not have.
Handout collect_handout(const Lesson& lesson, HeadlessScene& scene, UiState& ui,
                        const viz::Theme& theme, bool figures) {
  Handout h;
  h.name = lesson.name;
  h.title = lesson.title;
  h.audience = lesson.audience;
  h.deck = lesson.deck;
  h.date = figure_date_text();
  start_lesson(ui, scene.labs, lesson);
  for (int k = 0; k < static_cast<int>(lesson.steps.size()); ++k) {
    const LessonStep& step = lesson.steps[static_cast<std::size_t>(k)];
    go_to_lesson_step(ui, scene.labs, k);
    LabInstance& lab = scene.labs.lab(ui.lab);
    lab_shown(lab);
    if (!scene.wait_until_idle(std::chrono::seconds(120)))
      std::cerr << "warplens render: step " << k + 1 << ": the GPU did not finish within 120 s\n";
    begin_lab_frame(lab);
    if (k == 0) {
      h.device = device_line(lab);
      h.measured = lab.device().device.has_value();
    }
    HandoutStep s;
    s.number = k + 1;
    s.title = step.title;
    s.slide = step.slide;
    s.scenario = step.scenario.name;
    s.caption = step.scenario.summary;
    s.predict = step.predict;
    if (const LabPresenter* p = lab.presenter()) s.numbers = p->key_numbers();
    if (s.numbers.empty()) s.numbers = key_numbers_from(lab.compare_column());
    if (step.predict || !step.scenario.question.empty()) {
      const auto question = predict_question(lab, step.scenario);
      s.question = question ? question->text : step.scenario.question;
      s.answer = answer_lines(lab);
      if (s.answer.empty()) s.answer.emplace_back("the lab has no count to check: see the numbers");
    }
    if (figures) {
      LabFigures* lab_figures = lab.figures();
      const std::vector<FigurePanel> offered =
          lab_figures ? lab_figures->figure_panels() : std::vector<FigurePanel>{};
      for (const FigurePanel panel : step.panels.empty() ? default_panels(offered) : step.panels) {
        if (std::find(offered.begin(), offered.end(), panel) == offered.end()) {
          throw LessonError(step.where + ": step " + std::to_string(k + 1) + ": scenario " +
                            s.scenario + " has no " + to_string(panel) +
                            " panel; its panels: " + figure_panel_list(offered));
        }
        if (lab_figures->show_figure_panel(panel)) scene.wait_until_idle(std::chrono::seconds(120));
        auto data = lab_figures->figure_panel(panel);
        if (!data) {
          s.problems.push_back(std::string(to_string(panel)) + " panel: nothing to draw (" +
                               lab.error() + ")");
          continue;
        }
        data->step = ui.view_step;
        s.figures.push_back(panel_figure(*data, theme, figure_source_line(*data, s.scenario)));
        s.figure_names.emplace_back(to_string(panel));
      }
    }
    if (const std::string error = lab.error(); !error.empty()) s.problems.push_back(error);
    h.steps.push_back(std::move(s));
  }
  return h;
}

// --- pages --------------------------------------------------------------------------------------

constexpr float kPageW = 595.28f, kPageH = 841.89f;  // A4 in points
constexpr float kMargin = 54, kFooter = 28;
constexpr float kBody = 10.5f, kSmall = 8.5f;

// Words of `text` in lines no wider than `width` (figure units), by cairo's own measure; a
// word wider than the line stands alone. Paragraphs ("\n") are kept.
std::vector<std::string> wrap(const std::string& text, FigureFont font, float size, float width) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string paragraph = text.substr(start, end - start);
    std::string line;
    std::size_t at = 0;
    while (at < paragraph.size()) {
      std::size_t next = paragraph.find(' ', at);
      if (next == std::string::npos) next = paragraph.size();
      const std::string word = paragraph.substr(at, next - at);
      at = next + 1;
      if (word.empty()) continue;
      const std::string longer = line.empty() ? word : line + " " + word;
      if (!line.empty() && viz::measure_figure_text(font, size, longer) > width) {
        lines.push_back(line);
        line = word;
      } else {
        line = longer;
      }
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// A page being filled from the top.
class PageWriter {
 public:
  explicit PageWriter(const viz::Theme& theme) : theme_(theme) { new_page(); }

  void new_page() {
    pages_.emplace_back();
    Figure& f = pages_.back();
    f.width = kPageW;
    f.height = kPageH;
    f.background = viz::Rgb{1, 1, 1};
    y_ = kMargin;
  }
  [[nodiscard]] float room() const { return kPageH - kMargin - kFooter - y_; }
  [[nodiscard]] float y() const { return y_; }
  void skip(float dy) { y_ += dy; }

  /// Wrapped text; starts a new page first where its first line would not fit.
  void text(const std::string& text, FigureFont font, float size, bool muted = false,
            FigureRole role = FigureRole::Note, float indent = 0) {
    const float line_h = size * 1.35f;
    for (const std::string& line : wrap(text, font, size, kPageW - 2 * kMargin - indent)) {
      if (room() < line_h) new_page();
      FigureText t;
      t.x = kMargin + indent;
      t.y = y_ + 0.5f * line_h;
      t.text = line;
      t.role = role;
      t.font = font;
      t.size = size;
      t.color = muted ? theme_.muted_text : theme_.text;
      page().add(t);
      y_ += line_h;
    }
  }
  /// Text heights, for layout before drawing (the same wrap).
  [[nodiscard]] static float height(const std::string& text, FigureFont font, float size,
                                    float indent = 0) {
    return static_cast<float>(wrap(text, font, size, kPageW - 2 * kMargin - indent).size()) * size *
           1.35f;
  }

  /// `f` scaled by `s`, its top-left at the current line, then the line moves under it.
  void figure(const Figure& f, float s) {
    const float x = kMargin, y = y_;
    const auto at = [&](float fx, float fy) { return std::pair{x + s * fx, y + s * fy}; };
    viz::FigureRect back;
    back.rect = {x, y, x + s * f.width, y + s * f.height};
    back.role = FigureRole::Rule;
    back.fill = f.background;
    back.stroke_width = 0.5f;
    back.stroke = theme_.rule;
    page().add(back);
    const auto scaled = [&](viz::Rect r) {
      const auto [x0, y0] = at(r.x0, r.y0);
      const auto [x1, y1] = at(r.x1, r.y1);
      return viz::Rect{x0, y0, x1, y1};
    };
    for (const viz::FigureItem& item : f.items) {
      std::visit(
          [&](auto p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, viz::FigureRect>) {
              p.rect = scaled(p.rect);
              p.stroke_width *= s;
            } else if constexpr (std::is_same_v<T, viz::FigureLine>) {
              std::tie(p.x0, p.y0) = at(p.x0, p.y0);
              std::tie(p.x1, p.y1) = at(p.x1, p.y1);
              p.width *= s;
              p.dash *= s;
            } else if constexpr (std::is_same_v<T, viz::FigureHatch>) {
              p.rect = scaled(p.rect);
              p.spacing *= s;
            } else {
              std::tie(p.x, p.y) = at(p.x, p.y);
              p.size *= s;
            }
            page().add(std::move(p));
          },
          item);
    }
    y_ += s * f.height;
  }

  Figure& page() { return pages_.back(); }
  std::vector<Figure>& pages() { return pages_; }

 private:
  const viz::Theme& theme_;
  std::vector<Figure> pages_;
  float y_ = kMargin;
};

std::string number_line(const KeyNumber& n) {
  // A value-less number is one line already ("copy kernel, ...: no GPU").
  std::string line = n.value.empty() ? n.label : n.label + ": " + n.value;
  if (!n.note.empty()) line += " (" + n.note + ")";
  return line;
}

std::string numbers_heading(const Handout& h) {
  return h.measured ? "Numbers, measured on this GPU and from the model:"
                    : "Numbers from the model only (no GPU measured them):";
}

// What a step's page holds: the whole step (figures, caption, numbers, its question pointing
// at the answers); a question the class answers (its title and question only: the figures, the
// explanation and the numbers give the answer away); or that question's answer page.
enum class PageKind { Step, Asked, Answer };

// The page of step `s`: one page, the figures shrinking to the room its text leaves.
// `answer_page`: the page number its question's answer is on.
void step_page(PageWriter& w, const Handout& h, const HandoutStep& s, PageKind kind,
               int answer_page) {
  w.new_page();
  const float content_w = kPageW - 2 * kMargin;
  w.text((kind == PageKind::Answer ? "Answer to step " : "Step ") + std::to_string(s.number) +
             " of " + std::to_string(h.steps.size()) +
             (s.slide.empty() ? "" : " \u2022 slide " + s.slide),
         FigureFont::Regular, kSmall, true, FigureRole::Source);
  w.text(s.title, FigureFont::Bold, 15, false, FigureRole::Title);
  w.skip(4);
  const std::string question =
      s.question.empty() ? std::string()
                         : "Question: " + s.question +
                               (kind == PageKind::Answer
                                    ? std::string()
                                    : " (answer on page " + std::to_string(answer_page) + ")");
  if (kind == PageKind::Asked) {
    w.skip(8);
    w.text(question, FigureFont::Bold, kBody, false, FigureRole::Header);
    w.skip(8);
    w.text(
        "The figure, the explanation and the numbers of this step give the answer away: they "
        "are on page " +
            std::to_string(answer_page) + ".",
        FigureFont::Regular, kBody, true);
    return;
  }
  w.text(s.caption, FigureFont::Regular, kBody);
  w.skip(8);
  // What goes under the figures, measured first so the figures take what is left.
  std::vector<std::string> numbers;
  for (const KeyNumber& n : s.numbers) numbers.push_back(number_line(n));
  std::vector<std::string> answer;
  if (kind == PageKind::Answer)
    for (const std::string& a : s.answer) answer.push_back("Answer: " + a);
  float under = 0;
  if (!numbers.empty()) {
    under += PageWriter::height(numbers_heading(h), FigureFont::Bold, kBody) + 10;
    for (const std::string& n : numbers)
      under += PageWriter::height("\u2022 " + n, FigureFont::Regular, kBody, 10);
  }
  if (!question.empty()) under += PageWriter::height(question, FigureFont::Bold, kBody) + 10;
  for (const std::string& a : answer) under += PageWriter::height(a, FigureFont::Bold, kBody);
  for (const std::string& p : s.problems)
    under += PageWriter::height("Not shown: " + p, FigureFont::Regular, kSmall);
  const float gap = 10;
  const float room = w.room() - under - gap * static_cast<float>(s.figures.size());
  float total_h = 0;  // the figures' heights at the content width
  for (const Figure& f : s.figures) total_h += f.height * content_w / std::max(1.0f, f.width);
  const float shrink = total_h > room && total_h > 0 ? std::max(0.2f, room / total_h) : 1.0f;
  for (const Figure& f : s.figures) {
    w.figure(f, shrink * content_w / std::max(1.0f, f.width));
    w.skip(gap);
  }
  if (!numbers.empty()) {
    w.skip(4);
    w.text(numbers_heading(h), FigureFont::Bold, kBody, false, FigureRole::Header);
    for (const std::string& n : numbers)
      w.text("\u2022 " + n, FigureFont::Regular, kBody, false, FigureRole::Value, 10);
  }
  if (!question.empty()) {
    w.skip(8);
    w.text(question, FigureFont::Bold, kBody, false, FigureRole::Header);
  }
  for (const std::string& a : answer) w.text(a, FigureFont::Bold, kBody, false, FigureRole::Value);
  for (const std::string& p : s.problems)
    w.text("Not shown: " + p, FigureFont::Regular, kSmall, true, FigureRole::ModelOnly);
}

}  // namespace

HandoutFormat parse_handout_format(const std::string& text) {
  if (text == "pdf") return HandoutFormat::Pdf;
  if (text == "svg") return HandoutFormat::Svg;
  if (text == "md") return HandoutFormat::Markdown;
  throw std::invalid_argument("render --lesson --format must be pdf, svg or md (got \"" + text +
                              "\")");
}

std::vector<Figure> handout_pages(const Handout& h, const viz::Theme& theme) {
  PageWriter w(theme);
  // Title page.
  w.skip(120);
  w.text(h.title, FigureFont::Bold, 22, false, FigureRole::Title);
  w.skip(10);
  w.text(h.audience, FigureFont::Regular, 12, true);
  if (!h.deck.empty()) w.text("Follows the slides " + h.deck, FigureFont::Regular, 12, true);
  w.skip(24);
  w.text("Numbers: " + h.device, FigureFont::Bold, kBody, false, FigureRole::Source);
  w.text("Date: " + h.date + " \u2022 WarpLens, lesson " + h.name, FigureFont::Regular, kBody,
         false, FigureRole::Source);
  w.skip(24);
  w.text("Steps", FigureFont::Bold, 12, false, FigureRole::Header);
  for (const HandoutStep& s : h.steps) {
    w.text(
        std::to_string(s.number) + ". " + s.title + " (page " + std::to_string(s.number + 1) + ")",
        FigureFont::Regular, kBody, false, FigureRole::Label, 10);
  }
  // Then the steps' pages; the pages of the questions the class answers; the other answers.
  const int first_step_page = static_cast<int>(w.pages().size()) + 1;
  int answer_pages = 0;
  for (const HandoutStep& s : h.steps) answer_pages += s.predict ? 1 : 0;
  const int answers_page = first_step_page + static_cast<int>(h.steps.size()) + answer_pages;
  int next_answer_page = first_step_page + static_cast<int>(h.steps.size());
  for (const HandoutStep& s : h.steps) {
    step_page(w, h, s, s.predict ? PageKind::Asked : PageKind::Step,
              s.predict ? next_answer_page++ : answers_page);
  }
  for (const HandoutStep& s : h.steps)
    if (s.predict) step_page(w, h, s, PageKind::Answer, 0);
  w.new_page();
  w.text("Answers", FigureFont::Bold, 15, false, FigureRole::Title);
  w.text("Numbers: " + h.device + ", " + h.date, FigureFont::Regular, kSmall, true,
         FigureRole::Source);
  w.skip(8);
  for (const HandoutStep& s : h.steps) {
    if (s.question.empty() || s.predict) continue;
    w.text("Step " + std::to_string(s.number) + ": " + s.title, FigureFont::Bold, kBody, false,
           FigureRole::Header);
    w.text(s.question, FigureFont::Regular, kBody, true, FigureRole::Note, 10);
    for (const std::string& a : s.answer)
      w.text(a, FigureFont::Regular, kBody, false, FigureRole::Value, 10);
    w.skip(6);
  }
  if (answer_pages > 0) {
    w.text("The questions of steps asked in class are answered on pages " +
               std::to_string(first_step_page + static_cast<int>(h.steps.size())) + " to " +
               std::to_string(answers_page - 1) + ", with their figures.",
           FigureFont::Regular, kBody, true);
  }
  // Footers: the lesson and the page.
  auto& pages = w.pages();
  for (std::size_t i = 0; i < pages.size(); ++i) {
    FigureText t;
    t.x = kPageW - kMargin;
    t.y = kPageH - kMargin * 0.6f;
    t.text = "WarpLens \u2022 " + h.name + " \u2022 page " + std::to_string(i + 1) + " of " +
             std::to_string(pages.size());
    t.role = FigureRole::Source;
    t.size = kSmall;
    t.color = theme.muted_text;
    t.anchor = FigureAnchor::Right;
    pages[i].add(t);
  }
  return pages;
}

std::string handout_markdown(const Handout& h,
                             const std::vector<std::vector<std::string>>& figure_files) {
  // A step's figures, explanation and numbers (of a question the class answers: with the answers).
  const auto body = [&](const HandoutStep& s) {
    std::string md = s.caption + "\n\n";
    const auto k = static_cast<std::size_t>(s.number - 1);
    for (std::size_t i = 0; k < figure_files.size() && i < figure_files[k].size(); ++i)
      md += "![" + s.figure_names[i] + " panel of " + s.scenario + "](" + figure_files[k][i] +
            ")\n\n";
    if (!s.numbers.empty()) {
      md += "**" + numbers_heading(h) + "**\n\n";
      for (const KeyNumber& n : s.numbers) md += "- " + number_line(n) + "\n";
      md += "\n";
    }
    for (const std::string& p : s.problems) md += "*Not shown: " + p + "*\n\n";
    return md;
  };
  std::string md = "# " + h.title + "\n\n*" + h.audience + "*\n\n";
  if (!h.deck.empty()) md += "Follows the slides " + h.deck + ".\n\n";
  md += "Numbers: " + h.device + ". Date: " + h.date + ". WarpLens, lesson `" + h.name + "`.\n";
  for (const HandoutStep& s : h.steps) {
    md += "\n## Step " + std::to_string(s.number) + ": " + s.title + "\n\n";
    if (!s.slide.empty()) md += "*Slide " + s.slide + "*\n\n";
    if (!s.predict) md += body(s);
    if (!s.question.empty()) md += "**Question:** " + s.question + " (answer below)\n\n";
  }
  md += "\n## Answers\n";
  for (const HandoutStep& s : h.steps) {
    if (s.question.empty()) continue;
    md += "\n### Step " + std::to_string(s.number) + ": " + s.title + "\n\n" + s.question + "\n\n";
    for (const std::string& a : s.answer) md += "- " + a + "\n";
    md += "\n";
    if (s.predict) md += body(s);
  }
  return md;
}

int render_lesson(const ViewOptions& options, const std::string& lesson_name,
                  const std::optional<HandoutFormat>& format, const std::string& out,
                  const std::string& out_dir, int width, int height) {
  try {
    const Lesson lesson = find_lesson(lesson_name);  // fail before touching GL
    if (format && out.empty())
      throw std::invalid_argument(
          "render --lesson --format F needs --out (a file for pdf, a "
          "folder for svg and md)");
    if (!format && out_dir.empty() && !options.audit)
      throw std::invalid_argument(
          "render --lesson needs --format pdf|svg|md --out F (the handout), --out-dir DIR (each "
          "step's PNG) or --audit");
    const auto device = options.use_gpu ? gpu::query_device() : gpu::DeviceQuery{};
    viz::HeadlessContext context(device.device ? device.device->index : -1);
    HeadlessScene scene(options);
    UiState ui = catalog_ui(options);
    const viz::Theme& theme = viz::theme(options.theme);
    if (format) {
      const Handout h = collect_handout(lesson, scene, ui, theme, true);
      for (const HandoutStep& s : h.steps)
        for (const std::string& p : s.problems)
          std::cerr << "warplens render: step " << s.number << " (" << s.scenario << "): " << p
                    << "\n";
      if (*format == HandoutFormat::Pdf) {
        const auto pages = handout_pages(h, viz::theme(viz::ThemeName::Light));
        const std::filesystem::path folder = std::filesystem::path(out).parent_path();
        if (!folder.empty() && !std::filesystem::is_directory(folder))
          throw std::runtime_error("cannot write " + out + ": " + folder.string() +
                                   " is not a folder");
        viz::write_file_atomically(out, viz::render_pdf_pages(pages, 210, lesson.title));
        std::cout << "wrote " << out << " (" << pages.size() << " pages: lesson " << lesson.name
                  << ", " << h.steps.size() << " steps; " << h.device << "; cairo "
                  << viz::cairo_version_text() << ")\n";
        return kExitOk;
      }
      std::error_code ec;
      std::filesystem::create_directories(out, ec);
      if (ec || !std::filesystem::is_directory(out))
        throw std::runtime_error("cannot create " + out + ": " + ec.message());
      std::vector<std::vector<std::string>> files;
      for (const HandoutStep& s : h.steps) {
        files.emplace_back();
        for (std::size_t i = 0; i < s.figures.size(); ++i) {
          const std::string name =
              two_digits(s.number) + "-" + s.scenario + "-" + s.figure_names[i] + ".svg";
          viz::write_figure(s.figures[i], viz::FigureFormat::Svg, 160,
                            (std::filesystem::path(out) / name).string());
          files.back().push_back(name);
          std::cout << (std::filesystem::path(out) / name).string() << "\n";
        }
      }
      if (*format == HandoutFormat::Markdown) {
        const auto page = (std::filesystem::path(out) / (lesson.name + ".md")).string();
        viz::write_file_atomically(page, handout_markdown(h, files));
        std::cout << page << "\n";
      }
      return kExitOk;
    }
    // Each step as the window draws it: PNGs and / or the audit.
    if (!out_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(out_dir, ec);
      if (ec || !std::filesystem::is_directory(out_dir))
        throw std::runtime_error("cannot create " + out_dir + ": " + ec.message());
    }
    viz::RenderTarget target;
    LayoutAudit audit;
    nlohmann::json report = {{"findings", nlohmann::json::array()}, {"failing", 0}};
    std::ostream& files = options.audit ? std::cerr : std::cout;
    start_lesson(ui, scene.labs, lesson);
    for (int k = 0; k < static_cast<int>(lesson.steps.size()); ++k) {
      go_to_lesson_step(ui, scene.labs, k);
      lab_shown(scene.labs.lab(ui.lab));
      scene.wait_until_idle();
      scene.draw_still(ui, target, width, height, options.audit ? &audit : nullptr);
      const std::string name = two_digits(k + 1) + "-" + ui.lesson->lesson.steps[k].scenario.name;
      if (options.audit) add_audit_findings(report, "step " + name, audit);
      const std::string error = scene.labs.lab(ui.lab).error();
      if (!error.empty()) std::cerr << "warplens render: step " << name << ": " << error << "\n";
      if (out_dir.empty()) continue;
      const std::string file = (std::filesystem::path(out_dir) / (name + ".png")).string();
      viz::write_png(viz::read_framebuffer(width, height), file);
      files << file << "\n";
      // The speaker view of the step, as the laptop's window shows it.
      const SpeakerNotes notes = speaker_notes(ui, scene.labs.lab(ui.lab), ui.lesson->started);
      for (int frame = 0; frame < 2; ++frame) {
        target.bind(width, height);
        const viz::Rgb bg = theme.background;
        glClearColor(bg.r, bg.g, bg.b, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        scene.layer.begin_frame(width, height, 1.0f / 60.0f);
        draw_speaker_view(notes, scene.layer, theme, {0, 0},
                          {static_cast<float>(width), static_cast<float>(height)});
        scene.layer.end_frame();
      }
      glFinish();
      const std::string speaker =
          (std::filesystem::path(out_dir) / (name + "-speaker.png")).string();
      viz::write_png(viz::read_framebuffer(width, height), speaker);
      files << speaker << "\n";
    }
    if (options.audit) {
      std::cout << report.dump(2) << "\n";
      if (report["failing"].get<int>() > 0) return kExitRuntime;
    }
    return kExitOk;
  } catch (const LessonError& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const ScenarioError& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "warplens render: " << e.what() << "\n";
    return kExitRuntime;
  }
}

}  // namespace warplens::app
