#include "flight_knobs.h"

#include <cstdint>
#include <string>

#include "flight_ui_internal.h"

namespace warplens::app {

namespace {

std::vector<Knob<FlightState>> make_knobs() {
  using S = FlightState;
  // The strip turns the copy's word and loads where the Little's-law plot shows them.
  const auto littles_law = [](const S& s) { return s.section == FlightSection::LittlesLaw; };
  std::vector<Knob<S>> k;
  k.push_back(
      named<S>({.key = "section",
                .label = "Section",
                .style = KnobStyle::Radio,
                .picks = {knob_value(FlightSection::Latency), knob_value(FlightSection::LittlesLaw),
                          knob_value(FlightSection::Async)},
                .get = [](const S& s) { return knob_value(s.section); },
                .set = [](S& s, std::int64_t v) { s.section = static_cast<FlightSection>(v); }},
               {FlightSection::Latency, FlightSection::LittlesLaw, FlightSection::Async},
               [](FlightSection f) { return to_string(f); }));
  k.push_back({.key = "word_bytes",
               .label = "Word size (bytes per load)",
               .style = KnobStyle::Radio,
               .values = {4, 8, 16},
               .picks = {4, 8, 16},
               .get = [](const S& s) { return std::int64_t{s.stream.word_bytes}; },
               .set = [](S& s, std::int64_t v) { s.stream.word_bytes = static_cast<int>(v); },
               .strip = "word",
               .strip_when = littles_law,
               .strip_words = {"4 B", "8 B", "16 B"}});
  k.push_back({.key = "loads_per_thread",
               .label = "Loads in flight per thread",
               .style = KnobStyle::Radio,
               .values = {1, 2, 4, 8},
               .picks = {1, 2, 4, 8},
               .get = [](const S& s) { return std::int64_t{s.stream.loads_per_thread}; },
               .set = [](S& s, std::int64_t v) { s.stream.loads_per_thread = static_cast<int>(v); },
               .strip = "ILP",
               .strip_when = littles_law,
               .strip_words = {"1 load", "2 loads", "4 loads", "8 loads"}});
  k.push_back({.key = "block_threads",
               .label = "Threads per block",
               .style = KnobStyle::Radio,
               .values = {32, 64, 128, 256, 512, 1024},
               .picks = {64, 128, 256, 512, 1024},
               .get = [](const S& s) { return std::int64_t{s.stream.block_threads}; },
               .set = [](S& s, std::int64_t v) { s.stream.block_threads = static_cast<int>(v); }});
  k.push_back({.key = "dynamic_shared_kib",
               .label = "Dynamic shared memory per block (KiB), to lower occupancy",
               .low = 0,
               .high = 227,
               .picks = {0, 32, 64},
               .get = [](const S& s) { return s.stream.dynamic_shared_bytes / 1024; },
               .set = [](S& s, std::int64_t v) { s.stream.dynamic_shared_bytes = v * 1024; }});
  k.push_back({.key = "grid_stride",
               .label = "grid-stride loop",
               .style = KnobStyle::Check,
               .picks = {0, 1},
               .get = [](const S& s) { return std::int64_t{s.stream.grid_stride}; },
               .set = [](S& s, std::int64_t v) { s.stream.grid_stride = v != 0; }});
  k.push_back(
      {.key = "working_set_kib",
       .label = "Working set the ladder rings (KiB)",
       .low = 1,
       .high = 1 << 20,
       .picks = {16, 64, 1024},
       .get = [](const S& s) { return s.working_set_bytes / 1024; },
       .set = [](S& s, std::int64_t v) { s.working_set_bytes = v * 1024; },
       // The strip's slider steps through the ladder's working sets, which the device's
       // L2 sets: draw_flight_knobs gives them as the knob's values.
       .strip = "working set",
       .strip_when = [](const S& s) { return s.section == FlightSection::Latency; },
       .strip_style = Knob<S>::StripStyle::Slider,
       .strip_text = [](std::int64_t v, bool) { return flight_ui_detail::kib_text(v * 1024); },
       .strip_tip = [](std::int64_t) { return std::string("working set (the ringed point)"); }});
  return k;
}

}  // namespace

const std::vector<Knob<FlightState>>& flight_knobs() {
  static const std::vector<Knob<FlightState>> knobs = make_knobs();
  return knobs;
}

}  // namespace warplens::app
