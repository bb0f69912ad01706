# Read by cpack (CPACK_PROJECT_CONFIG_FILE): the .deb's Depends, from dpkg-shlibdeps over the
# built programs. Libraries no Debian package records (NVIDIA's CUDA installer) are left to the
# CUDA dependencies CMake named by what they are (cmake/Install.cmake).
if(CPACK_GENERATOR STREQUAL "DEB")
  find_program(WARPLENS_SHLIBDEPS dpkg-shlibdeps)
  if(NOT WARPLENS_SHLIBDEPS)
    message(FATAL_ERROR "dpkg-shlibdeps not found (Debian: dpkg-dev)")
  endif()
  set(work "${CPACK_PACKAGE_DIRECTORY}/_CPack_Packages/warplens-shlibdeps")
  file(MAKE_DIRECTORY "${work}/debian")
  file(WRITE "${work}/debian/control" "Source: warplens\n\nPackage: warplens\nArchitecture: any\n")
  execute_process(
    COMMAND ${WARPLENS_SHLIBDEPS} -O --ignore-missing-info -e ${CPACK_WARPLENS_BINARIES}
    WORKING_DIRECTORY "${work}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "shlibs:Depends=")
    message(FATAL_ERROR "dpkg-shlibdeps failed (${rc}): ${err}")
  endif()
  string(REGEX REPLACE ".*shlibs:Depends=([^\n]*).*" "\\1" depends "${out}")
  set(depends "${depends}, ${CPACK_WARPLENS_EXTRA_DEPENDS}")
  if(CPACK_WARPLENS_CUDA_DEPENDS)
    set(depends "${depends}, ${CPACK_WARPLENS_CUDA_DEPENDS}")
  endif()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${depends}")
endif()
