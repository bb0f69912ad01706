# warplens_add_test(NAME
#   SOURCES f...       the program's sources (.cpp; .cu too, in a CUDA build)
#   LINKS l...         the layer it tests (the smallest target that has what it calls), and any
#                      library it reads its results with (stb, libxml2, giflib)
#   LABEL l            its ctest label: gpu (skips without a device), render, cli, soak, ...
#   DEFINITIONS d...   compile definitions (WARPLENS_SOURCE_DIR="...", ...)
#   DEPENDS t...       programs it runs, built before it (warplens, warplens-bench)
#   TIMEOUT s          seconds per test case (ctest's default otherwise)
#   COST c             ctest's COST of each case: the long sweeps start first, so the two cores
#                      of CI are not left with one long test at the end (a clean clone has no
#                      costs recorded by an earlier run)
#   RUN_SERIAL         nothing else runs beside it (timing and memory judgements)
#   OPTIMIZED          its own sources at the build type's optimisation, not -O0 (below): a
#                      test that computes in them, e.g. a loop over 2^24 indices through the
#                      header-only index functions
#   OWN_MAIN           the program has its own main() (links GTest::gtest, not gtest_main)
#   NO_DISCOVER)       a program that is not a test by itself (a probe a test runs)
# builds the test program into <build>/tests/ whatever folder declares it (the scripts run
# build/tests/<name>), with the project's warnings and tests/ on its include path (the shared
# test helpers), and registers its GoogleTest cases with ctest (gtest_discover_tests).
include(GoogleTest)

function(warplens_add_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "RUN_SERIAL;OWN_MAIN;NO_DISCOVER;OPTIMIZED"
                        "TIMEOUT;LABEL;COST" "SOURCES;LINKS;DEFINITIONS;DEPENDS")
  if(T_UNPARSED_ARGUMENTS OR NOT T_SOURCES)
    message(FATAL_ERROR "warplens_add_test(${name}): SOURCES required; unknown: ${T_UNPARSED_ARGUMENTS}")
  endif()
  # A model-only build (no CUDA) has no GPU path for a GPU test to reach: it would only skip, so
  # it is not built. scripts/test's sanitizer build is model-only; its first build, with CUDA,
  # builds every GPU test, and they skip there without a device.
  if(T_LABEL STREQUAL "gpu" AND NOT WARPLENS_HAVE_CUDA)
    return()
  endif()
  add_executable(${name} ${T_SOURCES})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  # The shared test helpers (test_support.h, headless_gl_test.h, ...) for a lab's tests too.
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  if(T_NO_DISCOVER)
    set(gtest)
  elseif(T_OWN_MAIN)
    set(gtest GTest::gtest)
  else()
    set(gtest GTest::gtest_main)
  endif()
  target_link_libraries(${name} PRIVATE ${T_LINKS} ${gtest})
  target_compile_options(${name} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${WARPLENS_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
  # The program's own C++ unoptimised (after the build type's -O2, so it wins): a test is
  # assertions over what the libraries, still at -O2, compute (OPTIMIZED where it computes
  # itself). Optimising the tests' sources was about half of each of CI's two builds; -O0
  # compiles them in a third to a half of the time (2026-11-29, 2 cores: model_tests' unity
  # source 37 s -> 11 s under clang with the sanitizers, 18 s -> 9 s under GCC).
  if(NOT T_OPTIMIZED)
    target_compile_options(${name} PRIVATE
      $<$<AND:$<CONFIG:RelWithDebInfo,Release>,$<COMPILE_LANGUAGE:CXX>>:-O0>)
  endif()
  if(T_DEFINITIONS)
    target_compile_definitions(${name} PRIVATE ${T_DEFINITIONS})
  endif()
  if(T_DEPENDS)
    add_dependencies(${name} ${T_DEPENDS})
  endif()
  if(T_NO_DISCOVER)
    return()
  endif()
  set(properties)
  if(T_LABEL)
    list(APPEND properties LABELS ${T_LABEL})
  endif()
  if(T_TIMEOUT)
    list(APPEND properties TIMEOUT ${T_TIMEOUT})
  endif()
  if(T_COST)
    list(APPEND properties COST ${T_COST})
  endif()
  if(T_RUN_SERIAL)
    list(APPEND properties RUN_SERIAL TRUE)
  endif()
  if(properties)
    gtest_discover_tests(${name} PROPERTIES ${properties})
  else()
    gtest_discover_tests(${name})
  endif()
endfunction()
