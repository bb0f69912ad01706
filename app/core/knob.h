// A lab's knob, written once: the key its presets use, the label its panel shows, the values it
// takes and how it reads and sets the lab's state. A lab keeps one table of its knobs
// (std::vector<Knob<State>>); the preset writer (write_knobs), the preset reader (read_knobs),
// the soak's monkey (random_knob_change), the parameter panel (draw_knob, knob_widgets.h) and
// the presenter strip (draw_strip_knobs, for the knobs that name themselves there) are driven
// from that table, so a new knob is one line of it (docs/adding-a-lab.md).
//
// Values are integers (std::int64_t): a count, a size in bytes or elements as the label's unit
// says, a boolean (0/1), or an enumerator's value. A named knob (`names` not empty) is written to
// and read from presets as the name of its value (values[i] is names[i]). A text knob (`text`
// and `parse_text` set) is written and read as the text of a value made of several numbers, e.g.
// a block shape "32x8" (the value packs them; the knob's functions are the only ones that know
// how). A string knob (`get_string` and `set_string` set) holds text the lab reads itself, e.g.
// a CuTe layout "Sw<3,2,3> o (32,32):(32,1)"; its integer get/set are unused.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "memory_model.h"
#include "toml_fields.h"

namespace warplens::app {

/// How the parameter panel draws a knob (knob_widgets.h).
enum class KnobStyle {
  Slider,  ///< an integer slider over [low, high], as wide as the panel
  Radio,   ///< one radio button per value, on one line
  Combo,   ///< a drop-down of the values' labels, as wide as the panel
  Input,   ///< an integer field (+/- buttons); values below `low` are refused
  Check,   ///< a checkbox (values 0 and 1)
};

template <typename State>
struct Knob {
  std::string key{};    ///< the preset's key in the lab's table; "matrix.width" for a nested table
  std::string label{};  ///< the panel's heading, with its unit ("Offset (elements)")
  KnobStyle style = KnobStyle::Slider;
  std::int64_t low = 0, high = 0;      ///< Slider and Input: the range the panel offers
  std::vector<std::int64_t> values{};  ///< the values offered (Radio, Combo, a named knob's)
  std::vector<std::string> names{};    ///< a named knob's preset names, one per value
  std::vector<std::string> labels{};   ///< the panel's words for the values (default: names or
                                       ///< the numbers)
  std::vector<std::int64_t> picks{};   ///< what the soak's monkey sets (empty: it leaves the knob)
  bool wide = false;      ///< a 64-bit integer (an offset or a stride in elements); else 32 bits
  bool required = false;  ///< a preset must set it (else the state's default stays)
  std::function<std::int64_t(const State&)> get{};
  std::function<void(State&, std::int64_t)> set{};
  /// What the panel and the monkey do after a change (not the preset reader, which takes the
  /// preset as written): e.g. a struct layout's fields are 4-byte floats.
  std::function<void(State&)> then{};
  std::function<bool(const State&)> applies{};  ///< empty: always; the panel disables it otherwise
  std::function<bool(const State&)> shown{};    ///< empty: always; the panel hides it otherwise
  std::function<bool(const State&)> written{};  ///< empty: always written to a preset
  /// A text knob: the preset's text of a value, and the value of a preset's text (throws
  /// std::invalid_argument saying what is wrong with it).
  std::function<std::string(std::int64_t)> text{};
  std::function<std::int64_t(const std::string&)> parse_text{};
  /// A string knob: the state's text, and setting it (throws std::invalid_argument saying what
  /// is wrong with the text; the state is then unchanged).
  std::function<std::string(const State&)> get_string{};
  std::function<void(State&, const std::string&)> set_string{};
  /// The presenter strip (LabInstance::draw_knobs; draw_strip_knobs, knob_widgets.h): the knob's
  /// short name there ("word"; empty: not on the strip), when it is there (empty: whenever the
  /// panel shows it) and, for a knob of values, the strip's word for each (default: label_of).
  /// On the strip a knob of values is a drop-down (StripStyle::Buttons: a row of buttons, the
  /// current one lit; StripStyle::Check, for two values: a checkbox that is on at the second), a
  /// Check knob a checkbox, any other an integer slider over [low, high] or over `strip_range`
  /// for the state (a tile's pitch from its width), `strip_chars` digits wide.
  ///
  /// A worded knob (`strip_text` set) says what it is inside its control, with no label before
  /// it: its full words for a value ("carveout 50 %") where they fit, else its brief ones
  /// ("50 %"). It is as wide as its longest full words over its values (a range's: over its two
  /// ends), within its share of the strip and never narrower than its brief words. A slider over
  /// [low, high] (or `strip_range`), or over its values' indices (StripStyle::Slider: a cache's
  /// working sets); a knob of values otherwise a drop-down previewing its words.
  /// `strip_tip`: the tooltip of a value (a worded knob's, a button's).
  std::string strip{};
  std::function<bool(const State&)> strip_when{};
  std::vector<std::string> strip_words{};
  enum class StripStyle { Auto, Check, Buttons, Slider };
  StripStyle strip_style = StripStyle::Auto;
  std::function<std::pair<std::int64_t, std::int64_t>(const State&)> strip_range{};
  float strip_chars = 6;
  std::function<std::string(std::int64_t value, bool brief)> strip_text{};
  std::function<std::string(std::int64_t value)> strip_tip{};

  [[nodiscard]] bool applies_to(const State& s) const { return !applies || applies(s); }
  /// A named knob's preset name for `value` (the number as text if it has none).
  [[nodiscard]] std::string name_of(std::int64_t value) const {
    for (std::size_t i = 0; i < values.size() && i < names.size(); ++i)
      if (values[i] == value) return names[i];
    return std::to_string(value);
  }
  /// The panel's word for `value` (its label, its name, its text, or the number).
  [[nodiscard]] std::string label_of(std::int64_t value) const {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] == value) {
        if (i < labels.size()) return labels[i];
        if (i < names.size()) return names[i];
      }
    return text ? text(value) : std::to_string(value);
  }
};

namespace knob_detail {

/// The table a dotted key lives in and its last part ("matrix.width" -> [matrix], "width").
inline std::pair<std::string, std::string> split_key(const std::string& key) {
  const auto dot = key.rfind('.');
  if (dot == std::string::npos) return {"", key};
  return {key.substr(0, dot), key.substr(dot + 1)};
}

inline std::string one_of(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace knob_detail

/// Adds every knob's value to `table` (a nested key's to its sub-table, made when needed), its
/// name for a named knob, a boolean for a Check knob, an integer otherwise; a knob whose
/// `written` says no is left out.
template <typename State>
void write_knobs(toml::table& table, const State& state, const std::vector<Knob<State>>& knobs) {
  for (const auto& k : knobs) {
    if (k.written && !k.written(state)) continue;
    const auto [parent, leaf] = knob_detail::split_key(k.key);
    toml::table* t = &table;
    if (!parent.empty()) {
      if (!table.contains(parent)) table.insert(parent, toml::table{});
      t = table[parent].as_table();
    }
    if (k.get_string) {
      t->insert_or_assign(leaf, k.get_string(state));
      continue;
    }
    const std::int64_t v = k.get(state);
    if (k.text) {
      t->insert_or_assign(leaf, k.text(v));
    } else if (!k.names.empty()) {
      t->insert_or_assign(leaf, k.name_of(v));
    } else if (k.style == KnobStyle::Check) {
      t->insert_or_assign(leaf, v != 0);
    } else {
      t->insert_or_assign(leaf, v);
    }
  }
}

/// Sets every knob found in `table` on `state` (a knob the table lacks keeps the state's value;
/// a required one throws). Throws ScenarioError naming the preset and the key for a value of the
/// wrong type, an integer beyond 32 bits, or a name the knob does not know. Range checks are the
/// lab's (its plan refuses what it cannot run).
template <typename State>
void read_knobs(const ScenarioTable& scenario, const toml::table& table, State& state,
                const std::vector<Knob<State>>& knobs) {
  for (const auto& k : knobs) {
    const auto [parent, leaf] = knob_detail::split_key(k.key);
    const toml::table* t = &table;
    if (!parent.empty()) t = table[parent].as_table();
    if (!t || !t->contains(leaf)) {
      if (k.required) throw scenario.error("missing or mistyped key \"" + k.key + "\"");
      continue;
    }
    const auto node = (*t)[leaf];
    if (k.set_string) {
      const auto* text = node.as_string();
      if (!text)
        throw scenario.error("\"" + k.key + "\" must be a text, e.g. \"" + k.get_string(state) +
                             "\"");
      try {
        k.set_string(state, text->get());
      } catch (const std::invalid_argument& e) {
        throw scenario.error(k.key + ": " + e.what());
      }
    } else if (k.parse_text) {
      const auto* text = node.as_string();
      if (!text)
        throw scenario.error("\"" + k.key + "\" must be a text, e.g. \"" + k.text(k.get(state)) +
                             "\"");
      try {
        k.set(state, k.parse_text(text->get()));
      } catch (const std::invalid_argument& e) {
        throw scenario.error(k.key + ": " + e.what());
      }
    } else if (!k.names.empty()) {
      const auto* text = node.as_string();
      const std::string got = text ? text->get() : "";
      std::size_t i = 0;
      while (i < k.names.size() && k.names[i] != got) ++i;
      if (!text || i == k.names.size()) {
        std::ostringstream what;
        what << k.key << " must be " << knob_detail::one_of(k.names) << " (got ";
        if (text)
          what << '"' << got << '"';
        else
          what << node;  // as TOML writes it: 3, 2.5, true
        throw scenario.error(what.str() + ")");
      }
      k.set(state, k.values[i]);
    } else if (k.style == KnobStyle::Check) {
      const auto* b = node.as_boolean();
      if (!b) throw scenario.error("\"" + k.key + "\" must be true or false");
      k.set(state, b->get() ? 1 : 0);
    } else if (k.wide) {
      const auto v = integer_value(node);
      if (!v) throw scenario.error("missing or mistyped key \"" + k.key + "\"");
      k.set(state, *v);
    } else {
      k.set(state, scenario.int_value(*t, leaf, 0));
    }
  }
}

/// One knob that applies to `state` and has picks set to one of them, then its `then` (the
/// soak's monkey, LabInstance::random_change); false when no knob applies.
template <typename State>
bool random_knob_change(std::mt19937& rng, State& state, const std::vector<Knob<State>>& knobs) {
  std::vector<const Knob<State>*> open;
  for (const auto& k : knobs)
    if (k.applies_to(state) && !k.picks.empty()) open.push_back(&k);
  if (open.empty()) return false;
  const Knob<State>& k = *open[rng() % open.size()];
  k.set(state, k.picks[rng() % k.picks.size()]);
  if (k.then) k.then(state);
  return true;
}

/// An enumerator (or an integer, a bool) as a knob's value.
template <typename E>
std::int64_t knob_value(E e) {
  return static_cast<std::int64_t>(e);
}

/// Each of `list` (enumerators, integers) as a knob's value, in order.
template <typename Range>
std::vector<std::int64_t> knob_values(const Range& list) {
  std::vector<std::int64_t> v;
  for (const auto& e : list) v.push_back(knob_value(e));
  return v;
}

/// `knob` made a named knob of `enumerators` (any range of them): each one's value, and its
/// preset name as the enumeration's own to_string spells it (the name the parser of that
/// enumeration reads), so the names are written once.
template <typename State, typename Range, typename ToString>
Knob<State> named(Knob<State> knob, const Range& enumerators, ToString&& to_string) {
  for (const auto& e : enumerators) {
    knob.values.push_back(knob_value(e));
    knob.names.emplace_back(to_string(e));
  }
  return knob;
}

/// The same for a braced list: named(knob, {A, B}, to_string).
template <typename State, typename E, typename ToString>
Knob<State> named(Knob<State> knob, std::initializer_list<E> enumerators, ToString&& to_string) {
  return named<State, std::initializer_list<E>, ToString>(std::move(knob), enumerators,
                                                          std::forward<ToString>(to_string));
}

/// The hardware model every lab's preset names (`model = "kepler"`): its names as
/// model::parse_hardware_model reads them, the monkey's picks the three the labs teach with.
template <typename State>
Knob<State> model_knob(std::function<std::int64_t(const State&)> get,
                       std::function<void(State&, std::int64_t)> set) {
  using model::HardwareModel;
  Knob<State> k;
  k.key = "model";
  k.label = "Memory model";
  k.style = KnobStyle::Combo;
  k = named(std::move(k),
            {HardwareModel::Modern, HardwareModel::FermiCaching, HardwareModel::FermiL2Only,
             HardwareModel::Kepler, HardwareModel::G80},
            [](HardwareModel m) { return model::to_string(m); });
  k.picks = knob_values(std::initializer_list<HardwareModel>{
      HardwareModel::Modern, HardwareModel::Kepler, HardwareModel::FermiCaching});
  k.get = std::move(get);
  k.set = std::move(set);
  return k;
}

/// The knob of `knobs` called `key`; nullptr if none.
template <typename State>
const Knob<State>* find_knob(const std::vector<Knob<State>>& knobs, const std::string& key) {
  for (const auto& k : knobs)
    if (k.key == key) return &k;
  return nullptr;
}

}  // namespace warplens::app
