# Sanitizer and fuzzing builds (issue 18). `scripts/test` configures a second build folder,
# build-asan, with clang and
#   -DWARPLENS_SANITIZE=address,undefined -DWARPLENS_WITH_CUDA=OFF
# so every host test runs under AddressSanitizer (with LeakSanitizer) and UndefinedBehavior-
# Sanitizer, and the libFuzzer targets of tests/fuzz/ (WARPLENS_FUZZ) are built and run there.
# That build is model-only: nvcc does not take -fsanitize, and the CUDA runtime under ASan needs
# protect_shadow_gap=0; GPU tests skip there as they do without a device.

set(WARPLENS_SANITIZE "" CACHE STRING
    "Sanitizers for every C/C++ target, as -fsanitize= takes them (e.g. address,undefined)")

if(WARPLENS_SANITIZE)
  if(WARPLENS_HAVE_CUDA)
    message(WARNING "WarpLens: WARPLENS_SANITIZE with CUDA is not tested; configure with "
                    "-DWARPLENS_WITH_CUDA=OFF (the .cu files are not instrumented)")
  endif()
  # Any report ends the program with a non-zero exit: UBSan does not recover.
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=${WARPLENS_SANITIZE};-fno-omit-frame-pointer;-fno-sanitize-recover=undefined>")
  add_link_options("-fsanitize=${WARPLENS_SANITIZE}")
  # The optimisation stays RelWithDebInfo's -O2 (2026-11-29, 2 cores): -O0 halved this build's
  # compile (442 s, not 860 s) but its tests ran up to ten times slower (the handout's PDF
  # 428 s, not 52 s); -O1 saved about a tenth of the compile and its tests took 834 s of CPU
  # against 581 s (verify's catalog 114 s, not 56 s; both runs had other work beside them).
  message(STATUS "WarpLens: sanitizers ${WARPLENS_SANITIZE}")
endif()

# libFuzzer needs clang; its targets link the sanitizer runtime, which also supplies the coverage
# hooks the instrumented libraries call from every other program of the build. So the fuzz
# targets come with a clang build that has AddressSanitizer on.
set(_warplens_fuzz_default OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND WARPLENS_SANITIZE MATCHES "address")
  set(_warplens_fuzz_default ON)
endif()
option(WARPLENS_FUZZ "Build and test the libFuzzer targets (tests/fuzz/; clang with ASan)"
       ${_warplens_fuzz_default})
if(WARPLENS_FUZZ AND NOT (CMAKE_CXX_COMPILER_ID STREQUAL "Clang"
                          AND WARPLENS_SANITIZE MATCHES "address"))
  message(FATAL_ERROR "WARPLENS_FUZZ needs clang (CXX=clang++) and "
                      "-DWARPLENS_SANITIZE=address,undefined")
endif()
message(STATUS "WarpLens: fuzz targets ${WARPLENS_FUZZ}")

# Every executable of the build gets tests/sanitizers/sanitizer_defaults.cpp: the sanitizers'
# default options and LeakSanitizer's suppressions for leaks inside system libraries (Mesa, X11),
# so a test binary, or the warplens binary a test starts, reports the same under ctest as by hand.
function(warplens_add_sanitizer_defaults dir)
  if(NOT WARPLENS_SANITIZE)
    return()
  endif()
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/sanitizers/sanitizer_defaults.cpp)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    warplens_add_sanitizer_defaults(${subdir})
  endforeach()
endfunction()
