# `cmake --install build --prefix P` and `cpack -G DEB` (scripts/package): the two programs, the
# man page and the reference made from the CLI's help at build time, the built-in scenarios as
# presets to copy, the desktop entry, its icon and the AppStream metadata.
include(GNUInstallDirs)
# Debian's name: share/doc/warplens (GNUInstallDirs' default would be share/doc/WarpLens).
set(WARPLENS_INSTALL_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/warplens)

# --- The reference and the man page, from the binary's own --help ---------------------------
set(WARPLENS_DOCS_DIR ${CMAKE_BINARY_DIR}/docs)
set(WARPLENS_VERBS window render analyze measure list verify)
set(WARPLENS_REFERENCE_PAGES ${WARPLENS_DOCS_DIR}/reference/README.md)
foreach(verb IN LISTS WARPLENS_VERBS)
  list(APPEND WARPLENS_REFERENCE_PAGES ${WARPLENS_DOCS_DIR}/reference/warplens-${verb}.md)
endforeach()
add_custom_command(
  OUTPUT ${WARPLENS_REFERENCE_PAGES} ${WARPLENS_DOCS_DIR}/warplens.h2m
  COMMAND ${CMAKE_COMMAND} -DWARPLENS=$<TARGET_FILE:warplens>
          -DOUT_DIR=${WARPLENS_DOCS_DIR}/reference
          -DH2M_IN=${PROJECT_SOURCE_DIR}/docs/man/warplens.h2m
          -DH2M_OUT=${WARPLENS_DOCS_DIR}/warplens.h2m
          -P ${PROJECT_SOURCE_DIR}/cmake/HelpPages.cmake
  DEPENDS warplens ${PROJECT_SOURCE_DIR}/cmake/HelpPages.cmake
          ${PROJECT_SOURCE_DIR}/docs/man/warplens.h2m
  COMMENT "Writing the command reference from warplens --help"
  VERBATIM)
set(WARPLENS_DOC_OUTPUTS ${WARPLENS_REFERENCE_PAGES})

# help2man (Debian: help2man) turns `warplens --help`, `--version` and the include file (every
# verb's help, exit codes, environment) into warplens.1. Without it there is no man page.
find_program(HELP2MAN_EXECUTABLE help2man)
set(WARPLENS_MAN_PAGE "")
if(HELP2MAN_EXECUTABLE)
  set(WARPLENS_MAN_PAGE ${WARPLENS_DOCS_DIR}/warplens.1)
  add_custom_command(
    OUTPUT ${WARPLENS_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=0 WARPLENS_NO_COUNTERS=1
            ${HELP2MAN_EXECUTABLE} --no-info --no-discard-stderr --section=1
            --include=${WARPLENS_DOCS_DIR}/warplens.h2m
            --output=${WARPLENS_MAN_PAGE} $<TARGET_FILE:warplens>
    DEPENDS warplens ${WARPLENS_DOCS_DIR}/warplens.h2m
    COMMENT "Writing the man page warplens.1 with help2man"
    VERBATIM)
  list(APPEND WARPLENS_DOC_OUTPUTS ${WARPLENS_MAN_PAGE})
else()
  message(STATUS "WarpLens: help2man not found (Debian: help2man): no man page")
endif()
add_custom_target(docs ALL DEPENDS ${WARPLENS_DOC_OUTPUTS})

# --- Install ---------------------------------------------------------------------------------
if(WARPLENS_HAVE_CUDA)
  # NVIDIA's installer puts the CUDA libraries outside the loader's paths (/usr/local/cuda-X.Y):
  # the installed programs find them there by their RUNPATH, Debian's (in /usr/lib) by default.
  set(cuda_rpath ${CUDAToolkit_LIBRARY_DIR})
  if(TARGET CUDA::cupti)
    get_target_property(cupti_location CUDA::cupti IMPORTED_LOCATION)
    if(cupti_location)
      get_filename_component(cupti_dir ${cupti_location} DIRECTORY)
      list(APPEND cuda_rpath ${cupti_dir})
    endif()
  endif()
  list(REMOVE_DUPLICATES cuda_rpath)
  set_target_properties(warplens warplens-bench PROPERTIES INSTALL_RPATH "${cuda_rpath}")
endif()
install(TARGETS warplens warplens-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/scenarios/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/warplens/scenarios FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/warplens/lessons FILES_MATCHING PATTERN "*.toml")
install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/warplens.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/warplens.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/assets/desktop/io.github.warplens.WarpLens.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
if(WARPLENS_MAN_PAGE)
  install(FILES ${WARPLENS_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${WARPLENS_REFERENCE_PAGES} DESTINATION ${WARPLENS_INSTALL_DOCDIR}/reference)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${WARPLENS_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/guide ${PROJECT_SOURCE_DIR}/docs/reference
        DESTINATION ${WARPLENS_INSTALL_DOCDIR})

# --- The Debian package (cpack -G DEB, scripts/package) --------------------------------------
option(WARPLENS_DEB_CUDA_DEPENDS
       "Declare the CUDA libraries as Debian dependencies (OFF: the toolkit came from NVIDIA's \
runfile installer, which no package records; the RUNPATH finds its libraries)" ON)
set(CPACK_PACKAGE_NAME warplens)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "WarpLens")
# Who builds the package says who maintains it: WarpLens has no public address of its own yet.
set(WARPLENS_DEB_MAINTAINER "WarpLens maintainers <warplens@localhost>" CACHE STRING
    "The .deb's Maintainer field (name <address>)")
set(WARPLENS_DEB_HOMEPAGE "" CACHE STRING "The .deb's Homepage field (left out when empty)")
set(CPACK_PACKAGE_CONTACT "${WARPLENS_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "see how GPU memory accesses behave: sectors, banks, wavefronts, GB/s")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # warplens_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION education)
if(WARPLENS_DEB_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${WARPLENS_DEB_HOMEPAGE}")
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# The Debian dependencies are those dpkg-shlibdeps finds for the installed programs, computed at
# packaging time (cmake/CPackDebDepends.cmake), plus the GL/EGL libraries glad opens, Mesa's EGL
# for headless renders and the DejaVu fonts the binary opens by path; the CUDA libraries are
# added by their names below.
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/CPackDebDepends.cmake)
set(CPACK_WARPLENS_BINARIES "${CMAKE_BINARY_DIR}/app/warplens;${CMAKE_BINARY_DIR}/app/warplens-bench")
# glad's loader opens libEGL.so.1 and libGL.so.1 at run time: dpkg-shlibdeps cannot see them.
set(CPACK_WARPLENS_EXTRA_DEPENDS "libegl1, libgl1, libegl-mesa0 | libegl-vendor, fonts-dejavu-core")
# Mesa's software renderer (llvmpipe): a window restarted after a sticky GPU fault draws with it
# (viz/software_gl.h, docs/hardening.md); without it that window draws on the GPU again.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri")
set(cuda_text "Built without the CUDA toolkit: the model only, no GPU measurements.")
set(CPACK_WARPLENS_CUDA_DEPENDS "")
if(WARPLENS_HAVE_CUDA)
  # By what they are: the CUDA runtime, NVRTC and CUPTI of this toolkit's major version, as
  # Debian names them (libcudart12, ...) or as NVIDIA's apt repository does (cuda-cudart-12-4,
  # ...), and the driver's libcuda.so.1.
  set(M ${CUDAToolkit_VERSION_MAJOR})
  set(Mm ${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR})
  set(CPACK_WARPLENS_CUDA_DEPENDS
      "libcudart${M} | cuda-cudart-${Mm}, libnvrtc${M} | cuda-nvrtc-${Mm}, libcupti${M} | cuda-cupti-${Mm}, libcuda1 | libnvidia-compute | cuda-drivers")
  list(JOIN cuda_rpath ":" cuda_rpath_text)
  set(cuda_text "Built with CUDA ${CUDAToolkit_VERSION}. The CUDA libraries come from Debian's \
packages or NVIDIA's (found by the programs' RUNPATH ${cuda_rpath_text}).")
  if(NOT WARPLENS_DEB_CUDA_DEPENDS)
    set(CPACK_WARPLENS_CUDA_DEPENDS "")
    string(APPEND cuda_text " They are not declared as dependencies: install NVIDIA's CUDA \
${CUDAToolkit_VERSION} toolkit and driver.")
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
WarpLens runs real CUDA kernels with the parameters you choose and draws what one
warp's memory instruction does: lanes, bytes, 32-byte sectors, shared-memory banks
and wavefronts, beside the model's prediction, the GPU's counters and the measured
bandwidth. A teaching tool: presenter layout, stepping, predict-then-reveal, A/B
compare, figures for course notes (SVG, PDF, PNG, GIF).
${cuda_text}")
include(CPack)
