# A lab is one folder, app/labs/<name>/ (docs/adding-a-lab.md):
#   gpu/    its GPU half: kernels, launchers, plans and checks; sees CUDA and the model, no GL;
#   .       its app half: session, panels, lab unit, presets, scenarios, measure verb;
#   tests/  its test programs (tests/CMakeLists.txt there, warplens_add_test).
#
# warplens_add_lab(NAME
#   GPU_SOURCES f...   the GPU half's host code, built in every build (plans, checks, models)
#   CUDA_SOURCES f...  the GPU half's CUDA code (.cu, or .cpp reaching the CUDA runtime), built
#                      when the CUDA toolkit is found
#   STUB f             built instead of CUDA_SOURCES in a model-only build: the lab's GPU entry
#                      points throwing "built without the CUDA toolkit" (gpu.h)
#   CUDA_LIBS l...     what CUDA_SOURCES link besides the CUDA runtime (CUDA::nvrtc)
#   APP_SOURCES f...   the app half (left out: a GPU half whose window side is still to come,
#                      no warplens_<name>_app and no registry entry yet)
#   USES lab...        the labs whose GPU half this lab's code or tests include
#                      (scripts/check-structure allows an include from another lab's folder only
#                      when it is named here))
# makes two static libraries, each linked only downward:
#   warplens_<name>_gpu  GPU_SOURCES + CUDA_SOURCES or STUB; includes gpu/; links warplens_kernels
#                        (gpu.h, CUDA runtime, model, index) and the USES labs' GPU halves;
#   warplens_<name>_app  APP_SOURCES; includes the folder; links warplens_<name>_gpu, the widgets
#                        (and so app/core) and interop;
# adds tests/ when the folder has one, and appends warplens_<name>_app to the global property
# WARPLENS_LAB_APP_TARGETS (app/labs/CMakeLists.txt links them all into warplens_app_labs).
function(warplens_add_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 LAB "" "STUB"
                        "GPU_SOURCES;CUDA_SOURCES;CUDA_LIBS;APP_SOURCES;USES")
  if(LAB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "warplens_add_lab(${name}): unknown arguments ${LAB_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT LAB_STUB AND LAB_CUDA_SOURCES)
    message(FATAL_ERROR "warplens_add_lab(${name}): CUDA_SOURCES without a STUB for model-only builds")
  endif()
  set(gpu warplens_${name}_gpu)
  set(app warplens_${name}_app)

  if(WARPLENS_HAVE_CUDA)
    add_library(${gpu} STATIC ${LAB_GPU_SOURCES} ${LAB_CUDA_SOURCES})
    target_link_libraries(${gpu} PUBLIC ${LAB_CUDA_LIBS})
    target_compile_options(${gpu} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:${WARPLENS_WARNINGS}>
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
  else()
    add_library(${gpu} STATIC ${LAB_GPU_SOURCES} ${LAB_STUB})
    target_compile_options(${gpu} PRIVATE ${WARPLENS_WARNINGS})
  endif()
  target_include_directories(${gpu} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/gpu)
  target_link_libraries(${gpu} PUBLIC warplens_kernels)
  foreach(used IN LISTS LAB_USES)
    target_link_libraries(${gpu} PUBLIC warplens_${used}_gpu)
  endforeach()

  if(LAB_APP_SOURCES)
    add_library(${app} STATIC ${LAB_APP_SOURCES})
    target_include_directories(${app} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(${app} PUBLIC ${gpu} warplens_app_widgets warplens_interop)
    target_compile_options(${app} PRIVATE ${WARPLENS_WARNINGS})
    set_property(GLOBAL APPEND PROPERTY WARPLENS_LAB_APP_TARGETS ${app})
    set_property(GLOBAL APPEND PROPERTY WARPLENS_LAB_TARGETS ${gpu} ${app})
  else()  # a GPU half whose window side is still to come (not in the registry yet)
    set_property(GLOBAL APPEND PROPERTY WARPLENS_LAB_TARGETS ${gpu})
  endif()

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/tests/CMakeLists.txt)
    add_subdirectory(tests)
  endif()
endfunction()
