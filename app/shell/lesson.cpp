#include "lesson.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "embedded.h"
#include "frontends.h"
#include "scenarios.h"
#include "toml_fields.h"

namespace warplens::assets {  // the built-in scenarios' text, in builtin_scenarios()'s order
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::assets

namespace warplens::lesson_assets {  // assets/lessons/*.toml
extern const EmbeddedFile files[];
extern const std::size_t file_count;
}  // namespace warplens::lesson_assets

namespace warplens::app {

namespace {

// Reads one lesson's TOML, every error placed at its file:line:column.
class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) {}

  [[nodiscard]] std::string where(const toml::node& node) const {
    return where(node.source().begin);
  }
  [[nodiscard]] std::string where(const toml::source_position& at) const {
    return origin_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  }
  [[noreturn]] void fail(const toml::node& node, const std::string& what) const {
    throw LessonError(where(node) + ": " + what);
  }

  // `key` of `t` as a non-empty string; nullopt when absent.
  std::optional<std::string> text(const toml::table& t, std::string_view key) const {
    const toml::node* node = t.get(key);
    if (!node) return std::nullopt;
    const auto* s = node->as_string();
    if (!s || s->get().find_first_not_of(" \t\r\n") == std::string::npos)
      fail(*node, std::string(key) + " must be a non-empty string");
    return s->get();
  }
  std::string required_text(const toml::table& t, std::string_view key,
                            const std::string& what) const {
    auto value = text(t, key);
    if (!value) fail(t, "missing " + std::string(key) + " (" + what + ")");
    return *value;
  }

  const std::string& origin() const { return origin_; }

 private:
  const std::string& origin_;
};

// The keys a step may hold besides the tables that change its scenario.
const std::set<std::string, std::less<>> kStepKeys = {"scenario", "preset",   "title", "caption",
                                                      "look_for", "slide",    "note",  "step",
                                                      "predict",  "question", "view",  "panels"};

// Every key (as "copy.matrix.width") the built-in scenarios use in their lab table `table`
// (e.g. "copy"): what a step may change there.
void collect_keys(const toml::table& t, const std::string& prefix, std::set<std::string>& keys) {
  for (const auto& [key, node] : t) {
    const std::string name = prefix + "." + std::string(key.str());
    keys.insert(name);
    if (const auto* sub = node.as_table()) collect_keys(*sub, name, keys);
  }
}

const std::set<std::string>& builtin_table_keys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> all;
    for (std::size_t i = 0; i < assets::file_count; ++i) {
      const toml::table t = parse_toml_text(assets::files[i].text);
      for (const auto& [key, node] : t)
        if (const auto* sub = node.as_table()) collect_keys(*sub, std::string(key.str()), all);
    }
    return all;
  }();
  return keys;
}

// Merges `change` over `base` (a scenario's lab table), refusing keys no built-in scenario's
// table of that name uses (a typo would otherwise be ignored by the lab's parser).
void merge_change(const Reader& r, toml::table& base, const toml::table& change,
                  const std::string& path) {
  for (const auto& [key, node] : change) {
    const std::string name = path + "." + std::string(key.str());
    if (!builtin_table_keys().count(name)) {
      std::string known;
      for (const std::string& k : builtin_table_keys()) {
        if (k.rfind(path + ".", 0) != 0 || k.find('.', path.size() + 1) != std::string::npos)
          continue;
        known += (known.empty() ? "" : ", ") + k.substr(path.size() + 1);
      }
      r.fail(node, "[" + path + "] has no key \"" + std::string(key.str()) +
                       "\" in any built-in scenario (it has: " + known + ")");
    }
    if (const auto* sub = node.as_table()) {
      auto* into = base.get_as<toml::table>(key.str());
      if (!into) into = base.insert_or_assign(key.str(), toml::table{}).first->second.as_table();
      merge_change(r, *into, *sub, name);
      continue;
    }
    base.insert_or_assign(key.str(), node);
  }
}

int builtin_index(std::string_view name) {
  const auto& catalog = builtin_scenarios();
  for (std::size_t i = 0; i < catalog.size(); ++i)
    if (catalog[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string read_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LessonError(path + ": cannot open the " + what);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw LessonError(path + ": cannot read the " + what);
  return text.str();
}

LessonStep parse_step(const Reader& r, const toml::table& t, int number) {
  LessonStep step;
  step.where = r.where(t);
  const std::string label = "step " + std::to_string(number);
  // Keys first: an unknown scalar is a typo; a table changes the scenario's table of its name.
  std::vector<std::pair<std::string, const toml::table*>> changes;
  for (const auto& [key, node] : t) {
    if (kStepKeys.count(key.str())) continue;
    if (const auto* sub = node.as_table()) {
      changes.emplace_back(std::string(key.str()), sub);
      continue;
    }
    r.fail(node, label + ": unknown key \"" + std::string(key.str()) +
                     "\" (a step has scenario or preset, title, caption, look_for, slide, note, "
                     "step, predict, question, view, panels, and tables that change the "
                     "scenario's table)");
  }
  const auto scenario = r.text(t, "scenario");
  const auto preset = r.text(t, "preset");
  if (scenario.has_value() == preset.has_value())
    r.fail(t, label +
                  ": needs scenario = \"NAME\" (a built-in scenario) or preset = \"FILE\", "
                  "one of them");
  std::string base_text, base_origin;
  if (scenario) {
    const int index = builtin_index(*scenario);
    if (index < 0)
      r.fail(*t.get("scenario"), label + ": no built-in scenario is called \"" + *scenario +
                                     "\" (warplens list names them)");
    base_text = std::string(assets::files[static_cast<std::size_t>(index)].text);
    base_origin = std::string(assets::files[static_cast<std::size_t>(index)].path);
    if (changes.empty()) step.builtin_index = index;
  } else {
    std::filesystem::path path(*preset);
    if (path.is_relative()) path = std::filesystem::path(r.origin()).parent_path() / path;
    base_origin = path.string();
    try {
      base_text = read_file(base_origin, "preset file");
    } catch (const LessonError& e) {
      r.fail(*t.get("preset"), label + ": " + e.what());
    }
  }
  try {
    if (changes.empty()) {
      step.scenario = parse_preset(base_text, base_origin);
    } else {
      toml::table merged = parse_toml_text(base_text, base_origin);
      for (const auto& [name, change] : changes) {
        auto* into = merged.get_as<toml::table>(name);
        if (!into) {
          std::string tables;
          for (const auto& [key, node] : merged)
            if (node.is_table())
              tables += (tables.empty() ? "[" : ", [") + std::string(key.str()) + "]";
          r.fail(*change, label + ": the scenario has no [" + name + "] table to change (it has " +
                              (tables.empty() ? std::string("none") : tables) + ")");
        }
        merge_change(r, *into, *change, name);
      }
      // The lab's parser reads the merged preset; its errors point at the first change.
      try {
        step.scenario =
            parse_preset(toml_text(merged), r.where(*changes.front().second) + ": " + label);
      } catch (const ScenarioError& e) {
        throw LessonError(e.what());
      }
      step.scenario.name += "+step" + std::to_string(number);
    }
  } catch (const toml::parse_error& e) {
    throw LessonError(base_origin + ":" + std::to_string(e.source().begin.line) + ":" +
                      std::to_string(e.source().begin.column) + ": " +
                      std::string(e.description()));
  } catch (const ScenarioError& e) {
    r.fail(t, label + ": " + e.what());
  }
  // A changed scenario's own explanation describes the parameters it no longer has.
  if (const auto title = r.text(t, "title")) {
    if (!changes.empty()) step.scenario.title = *title;  // the window's picker shows it
  } else if (!changes.empty()) {
    r.fail(t, label + " changes scenario " + (scenario ? *scenario : *preset) +
                  ": give it title = \"...\" (the scenario's own title is of its unchanged "
                  "parameters)");
  }
  if (const auto caption = r.text(t, "caption")) {
    step.scenario.summary = *caption;
  } else if (!changes.empty()) {
    r.fail(t, label + " changes scenario " + (scenario ? *scenario : *preset) +
                  ": give it caption = \"...\" (the scenario's own explanation is of its "
                  "unchanged parameters)");
  }
  if (const auto look_for = r.text(t, "look_for")) {
    step.scenario.look_for = *look_for;
  } else if (!changes.empty()) {
    step.scenario.look_for.clear();
  }
  step.title = r.text(t, "title").value_or(step.scenario.title);
  step.slide = r.text(t, "slide").value_or("");
  step.note = r.text(t, "note").value_or("");
  if (const toml::node* k = t.get("step")) {
    const auto v = integer_value(toml::node_view<const toml::node>(k));
    if (!v || *v < 0 || *v > 4096) r.fail(*k, label + ": step must be an integer 0..4096");
    step.view_step = static_cast<int>(*v);
  }
  if (const toml::node* p = t.get("predict")) {
    const auto* s = p->as_string();
    if (!s || s->get() != "hidden")
      r.fail(*p, label +
                     ": predict must be \"hidden\" (the step asks, its answer hidden until "
                     "the reveal)");
    step.predict = true;
  }
  if (const auto question = r.text(t, "question")) step.scenario.question = *question;
  if (const toml::node* v = t.get("view")) {
    const auto* s = v->as_string();
    try {
      if (!s) throw std::invalid_argument("view must be a string");
      step.view = parse_bottom_view(s->get());
    } catch (const std::invalid_argument& e) {
      r.fail(*v, label + ": " + e.what());
    }
    if (!lab_info(step.scenario.lab).bottom_views) {
      std::string owners;  // the labs that have the view
      for (const LabInfo& info : lab_registry())
        if (info.bottom_views)
          owners += std::string(owners.empty() ? "" : " or ") + to_string(info.id);
      r.fail(*v, label + ": view = \"" + s->get() + "\" is the " + owners + " lab's; scenario " +
                     step.scenario.name + " is in the " + to_string(step.scenario.lab) + " lab");
    }
  }
  if (const toml::node* p = t.get("panels")) {
    const auto* list = p->as_array();
    if (!list || list->empty()) r.fail(*p, label + ": panels must be a list of panel names");
    for (const toml::node& item : *list) {
      const auto* s = item.as_string();
      try {
        if (!s) throw std::invalid_argument("a panel's name is a string");
        step.panels.push_back(parse_figure_panel(s->get()));
      } catch (const std::invalid_argument& e) {
        r.fail(item, label + ": " + e.what());
      }
    }
  }
  return step;
}

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

Lesson parse_lesson(std::string_view toml_text, const std::string& origin,
                    const std::string& fallback_name) {
  toml::table root;
  try {
    root = parse_toml_text(toml_text, origin);
  } catch (const toml::parse_error& e) {
    throw LessonError(origin + ":" + std::to_string(e.source().begin.line) + ":" +
                      std::to_string(e.source().begin.column) + ": " +
                      std::string(e.description()));
  }
  const Reader r(origin);
  for (const auto& [key, node] : root) {
    static const std::set<std::string, std::less<>> known = {"name", "title", "audience", "deck",
                                                             "step"};
    if (!known.count(key.str()))
      r.fail(node, "unknown key \"" + std::string(key.str()) +
                       "\" (a lesson has name, title, audience, deck and [[step]] tables)");
  }
  Lesson lesson;
  lesson.origin = origin;
  lesson.name = r.text(root, "name").value_or(fallback_name);
  if (!valid_name(lesson.name)) {
    if (const toml::node* n = root.get("name"))
      r.fail(*n, "name must be lower-case letters, digits and '-'");
    throw LessonError(origin + ":1:1: the file's name \"" + lesson.name +
                      "\" is no lesson name (lower-case letters, digits and '-'): give it "
                      "name = \"...\"");
  }
  lesson.title = r.required_text(root, "title", "one line: what the lesson teaches");
  lesson.audience = r.required_text(root, "audience", "one line: who it is for");
  lesson.deck = r.text(root, "deck").value_or("");
  const toml::node* steps = root.get("step");
  if (!steps) r.fail(root, "a lesson needs its steps: [[step]] tables, each with scenario = ...");
  const toml::array* list = steps->as_array();
  if (!list || !list->is_array_of_tables())
    r.fail(*steps, "step must be [[step]] tables, one per step");
  if (list->size() > static_cast<std::size_t>(kMaxLessonSteps))
    r.fail(*steps, "a lesson has at most " + std::to_string(kMaxLessonSteps) + " steps (this one " +
                       std::to_string(list->size()) + ")");
  int number = 0;
  for (const toml::node& node : *list)
    lesson.steps.push_back(parse_step(r, *node.as_table(), ++number));
  return lesson;
}

Lesson load_lesson_file(const std::string& path) {
  return parse_lesson(read_file(path, "lesson file"), path,
                      std::filesystem::path(path).stem().string());
}

const std::vector<Lesson>& builtin_lessons() {
  static const std::vector<Lesson> lessons = [] {
    std::vector<Lesson> list;
    for (std::size_t i = 0; i < lesson_assets::file_count; ++i) {
      const std::string path(lesson_assets::files[i].path);
      list.push_back(parse_lesson(lesson_assets::files[i].text, path,
                                  std::filesystem::path(path).stem().string()));
    }
    return list;
  }();
  return lessons;
}

Lesson find_lesson(const std::string& name_or_path) {
  for (const Lesson& lesson : builtin_lessons())
    if (lesson.name == name_or_path) return lesson;
  const bool path = name_or_path.find('/') != std::string::npos ||
                    std::filesystem::path(name_or_path).extension() == ".toml" ||
                    std::filesystem::exists(name_or_path);
  if (path) return load_lesson_file(name_or_path);
  std::string names;
  for (const Lesson& lesson : builtin_lessons()) names += (names.empty() ? "" : ", ") + lesson.name;
  throw LessonError("no built-in lesson is called \"" + name_or_path +
                    "\" and no such file exists (built-in: " + names + ")");
}

}  // namespace warplens::app
