# Build-time generated sources: the glad GL/EGL loader, and text files (shaders, scenario
# presets) embedded into the binary so it runs from any directory.

function(warplens_generate_glad target)
  set(out ${CMAKE_BINARY_DIR}/glad)
  set(exts EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query
           EGL_EXT_platform_base EGL_EXT_platform_device EGL_NV_device_cuda
           EGL_KHR_surfaceless_context EGL_KHR_create_context EGL_KHR_no_config_context
           EGL_MESA_platform_surfaceless)
  list(JOIN exts "," ext_list)
  add_custom_command(
    OUTPUT ${out}/src/gl.c ${out}/src/egl.c ${out}/include/glad/gl.h ${out}/include/glad/egl.h
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${out}
    COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=3.3,egl=1.5
            --extensions ${ext_list} --out-path ${out} c --loader
    COMMENT "Generating GL 3.3 core and EGL 1.5 loaders with glad"
    VERBATIM)
  add_library(${target} STATIC ${out}/src/gl.c ${out}/src/egl.c)
  target_include_directories(${target} SYSTEM PUBLIC ${out}/include)
  target_link_libraries(${target} PUBLIC ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# warplens_embed_text(<out.cpp> <namespace> <file>...) writes a C++ source with one
# `extern const std::string_view <name>` per file (name = file stem with '.' and '-' as '_'),
# plus a table `files[]` of {relative path, contents}.
function(warplens_embed_text out_cpp ns)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DNS=${ns} -DBASE=${CMAKE_SOURCE_DIR}
            "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "Embedding ${ns} text files"
    VERBATIM)
endfunction()
