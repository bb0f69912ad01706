# Run at build time (cmake -P) after warplens is built: one Markdown page per verb from the
# binary's own `--help` (so the reference cannot drift from the CLI), an index of them, and the
# help2man include file that adds every verb's help and the exit codes to the man page.
#   WARPLENS  the built binary     OUT_DIR  folder of the pages     H2M_IN/H2M_OUT  include file
set(verbs window render analyze measure list verify)
set(index "# Command reference\n\nGenerated at build time from `warplens --help` and\n")
string(APPEND index "`warplens VERB --help`; do not edit (the sources are in app/cli/).\n\n")
set(h2m_verbs "")
file(MAKE_DIRECTORY "${OUT_DIR}")
foreach(verb IN LISTS verbs)
  if(verb STREQUAL "window")
    set(args --help)
    set(title "warplens (the window)")
    set(command "warplens --help")
  else()
    set(args ${verb} --help)
    set(title "warplens ${verb}")
    set(command "warplens ${verb} --help")
  endif()
  execute_process(COMMAND "${WARPLENS}" ${args} OUTPUT_VARIABLE help ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR help STREQUAL "")
    message(FATAL_ERROR "`${command}` failed (${rc}): ${err}")
  endif()
  file(WRITE "${OUT_DIR}/warplens-${verb}.md"
       "# ${title}\n\nGenerated at build time from `${command}`; do not edit.\n"
       "Exit codes, formats and definitions: [the reference index](README.md).\n\n"
       "```text\n${help}```\n")
  string(APPEND index "- [${title}](warplens-${verb}.md)\n")
  if(NOT verb STREQUAL "window")
    # groff: a leading '.' or '\'' would be read as a request; \e is a literal backslash.
    string(REPLACE "\\" "\\e" man_help "${help}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" man_help "${man_help}")
    string(APPEND h2m_verbs ".SS \"warplens ${verb}\"\n.nf\n${man_help}.fi\n")
  endif()
endforeach()
string(APPEND index "\nHand-written pages (docs/reference/ in the sources, installed beside these):\n")
string(APPEND index "[commands](commands.md), [the window](window.md), [exit codes](exit-codes.md),\n")
string(APPEND index "[presets](presets.md), [the model](model.md), [figures](figures.md),\n")
string(APPEND index "[installing](installing.md).\n")
file(WRITE "${OUT_DIR}/README.md" "${index}")
file(READ "${H2M_IN}" h2m)
file(WRITE "${H2M_OUT}" "${h2m}\n[COMMANDS]\n${h2m_verbs}")
