#include "preset_writer.h"

#include <toml++/toml.h>

#include "toml_fields.h"

namespace warplens::app {

std::string preset_text(Lab id, const Scenario& shown, std::string_view section) {
  toml::table top;
  top.insert("name", shown.name);
  top.insert("lab", to_string(id));
  top.insert("title", shown.title);
  top.insert("summary", shown.summary);
  if (!shown.look_for.empty()) top.insert("look_for", shown.look_for);
  if (!shown.question.empty()) top.insert("question", shown.question);
  if (shown.presenter) top.insert("presenter", *shown.presenter);
  toml::table lab_table;
  try {
    lab_table = parse_toml_text(section, "the lab's preset table");
  } catch (const toml::parse_error& e) {
    throw ScenarioError(std::string(to_string(id)) +
                        " lab's preset table: " + std::string(e.description()));
  }
  for (auto&& [key, node] : lab_table) top.insert(key, std::move(node));
  return toml_text(top);
}

std::string current_preset_text(const LabInstance& lab, Lab id, const Scenario& shown) {
  return preset_text(id, shown, lab.preset_section());
}

}  // namespace warplens::app
