// The preset round trip every lab's tests run on its own state (each lab's
// tests/<lab>_preset_test.cpp): a preset written from the lab's current parameters
// (preset_writer.h) reads back to the same state, for every built-in scenario of the lab and for
// 200 of the soak's random changes (random_session_change). Host only: the labs' sessions with
// host sinks, no GL, no GPU.
//
// A lab's test gives a Host: constructed from the Lab, with `session` (its session, model only),
// `static State state_of(const Scenario&)` (the state its unit's apply() sets) and
// `std::string section() const` (its table as the unit's preset_section() writes it).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "preset_writer.h"
#include "scenarios.h"
#include "stand_in_lab.h"

namespace warplens::test {

/// A LabInstance that only writes its table (current_preset_text needs no more).
class SectionLab final : public StandInLab {
 public:
  explicit SectionLab(std::function<std::string()> section) : section_(std::move(section)) {}
  [[nodiscard]] std::string preset_section() const override { return section_(); }

 private:
  std::function<std::string()> section_;
};

/// The built-in scenarios of `lab`, in catalog order.
inline std::vector<const app::Scenario*> scenarios_of(app::Lab lab) {
  std::vector<const app::Scenario*> list;
  for (const app::Scenario& s : app::builtin_scenarios())
    if (s.lab == lab) list.push_back(&s);
  return list;
}

/// `host`'s preset text, written as scenario `shown` would be.
template <typename Host>
std::string written_preset(const Host& host, app::Lab lab, const app::Scenario& shown) {
  return app::current_preset_text(SectionLab([&] { return host.section(); }), lab, shown);
}

/// Writes `first`'s preset as `shown` and parses it back as a user's preset: the state apply()
/// sets for it must be `first`'s, and with `fresh_lab`, so must be the state of a fresh lab of
/// the same kind it is applied to (a session's set() is what costs: the global lab's heatmap of
/// the whole launch, the own kernel's totals).
template <typename Host>
void expect_round_trip(const Host& first, app::Lab lab, const app::Scenario& shown,
                       const std::string& what, bool fresh_lab = true) {
  const std::string text = written_preset(first, lab, shown);
  app::Scenario back;
  try {
    back = app::parse_preset(text, "written.toml");
  } catch (const app::ScenarioError& e) {
    ADD_FAILURE() << what << ": the written preset does not parse: " << e.what() << "\n" << text;
    return;
  }
  EXPECT_EQ(back.lab, lab) << what;
  EXPECT_EQ(back.name, shown.name) << what;
  EXPECT_EQ(back.title, shown.title) << what;
  EXPECT_EQ(back.summary, shown.summary) << what;
  EXPECT_EQ(back.look_for, shown.look_for) << what;
  EXPECT_EQ(back.question, shown.question) << what;
  EXPECT_EQ(back.presenter, shown.presenter) << what;
  EXPECT_TRUE(Host::state_of(back) == first.session.state()) << what << "\n" << text;
  if (!fresh_lab) return;
  Host second(lab);
  second.apply(back);
  EXPECT_EQ(second.session.error(), "") << what << "\n" << text;
  EXPECT_TRUE(second.session.state() == first.session.state()) << what << "\n" << text;
}

/// `state` set on a fresh lab (it must be accepted as is), then round-tripped.
template <typename Host, typename State>
void expect_state_round_trips(app::Lab lab, const State& state, const std::string& what) {
  Host host(lab);
  host.session.set(state);
  ASSERT_EQ(host.session.error(), "") << what;
  ASSERT_TRUE(host.session.state() == state) << what << ": the session changed the state";
  expect_round_trip(host, lab, *scenarios_of(lab).front(), what);
}

/// Every built-in scenario of `lab` round-trips (there is at least one).
template <typename Host>
void builtin_round_trips(app::Lab lab) {
  const auto scenarios = scenarios_of(lab);
  ASSERT_FALSE(scenarios.empty()) << app::to_string(lab);
  for (const app::Scenario* s : scenarios) {
    Host first(lab);
    first.apply(*s);
    ASSERT_EQ(first.session.error(), "") << s->name;
    expect_round_trip(first, lab, *s, s->name);
  }
}

/// 200 of the soak's random changes (seed 2024) from the lab's default parameters; every 25th
/// round the next built-in scenario of the lab is applied first, so the monkey also turns the
/// knobs of a matrix, a struct, a tile... Each change is round-tripped, every 10th (and the
/// last) also through a fresh lab.
template <typename Host>
void monkey_round_trips(app::Lab lab) {
  const auto scenarios = scenarios_of(lab);
  ASSERT_FALSE(scenarios.empty()) << app::to_string(lab);
  std::mt19937 rng(2024);
  Host host(lab);
  std::size_t next = 0;
  int changed = 0;
  for (int round = 0; round < 200; ++round) {
    const auto before = host.session.state();
    const app::Scenario& shown = *scenarios[next % scenarios.size()];
    if (round % 25 == 24) {
      host.apply(shown);
      ++next;
    }
    random_session_change(host.session, rng);  // the lab's overload, by its session's namespace
    changed += !(host.session.state() == before);
    expect_round_trip(host, lab, shown,
                      std::string(app::to_string(lab)) + " round " + std::to_string(round),
                      round % 10 == 9);
    if (::testing::Test::HasFailure()) return;  // one state's failure, not 200 of them
  }
  EXPECT_GE(changed, 50) << app::to_string(lab) << ": the monkey changed too little to prove much";
}

/// Parsing `text` fails with a "written.toml: " error that contains `message_part`.
inline void expect_refused(const std::string& text, const std::string& message_part) {
  SCOPED_TRACE(text);
  try {
    (void)app::parse_preset(text, "written.toml");
    ADD_FAILURE() << "parsed without an error";
  } catch (const app::ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("written.toml: ", 0), 0u) << what;
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

/// `text` with its first `from` replaced by `to` (which must be there).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " not in\n" << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace warplens::test
