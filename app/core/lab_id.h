// The labs' ids: one per line of the lab list (lab_list.h), in lecture order. Code outside the
// registry names a lab by its id and asks the registry for anything that differs between labs;
// it never switches on the id.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "lab_list.h"

namespace warplens::app {

#define WARPLENS_LAB_ENUMERATOR(id, name, title, short_title, key) id,
enum class Lab { WARPLENS_LABS(WARPLENS_LAB_ENUMERATOR) };
#undef WARPLENS_LAB_ENUMERATOR

/// What names a lab (lab_list.h).
struct LabIdentity {
  Lab id;
  const char* name;         ///< command line, presets, figures: "global"
  const char* title;        ///< the header's button: "Global memory"
  const char* short_title;  ///< the header's button where titles do not fit: "Global"
  char key;                 ///< the letter that opens the lab (lower case; 0: none)
};

#define WARPLENS_LAB_IDENTITY(id, name, title, short_title, key) \
  LabIdentity{Lab::id, name, title, short_title, key},
/// Every lab's identity in the enum's order: kLabIdentities[i].id == Lab(i).
inline constexpr std::array kLabIdentities = {WARPLENS_LABS(WARPLENS_LAB_IDENTITY)};
#undef WARPLENS_LAB_IDENTITY

inline constexpr std::size_t kLabCount = kLabIdentities.size();

/// The list's first lab: the one the window opens on, a preset without `lab` opens, and the
/// command line's verbs take without --lab.
inline constexpr Lab kFirstLab = kLabIdentities.front().id;

/// The lab's name on the command line, in presets (its table, e.g. [banks]) and in figures:
/// global | banks | transpose | matmul | reduction | cache | flight | kernel.
const char* to_string(Lab lab);
/// The lab called `text`; throws std::invalid_argument naming every lab's name otherwise.
Lab parse_lab(const std::string& text);

}  // namespace warplens::app
