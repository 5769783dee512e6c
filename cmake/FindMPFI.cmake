# MPFI (interval arithmetic on MPFR, Debian libmpfi-dev), which ships no pkg-config or CMake file: the imported
# target MPFI::MPFI.
find_path(MPFI_INCLUDE_DIR mpfi.h)
find_library(MPFI_LIBRARY mpfi)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MPFI REQUIRED_VARS MPFI_LIBRARY MPFI_INCLUDE_DIR)
if(MPFI_FOUND AND NOT TARGET MPFI::MPFI)
  add_library(MPFI::MPFI UNKNOWN IMPORTED)
  set_target_properties(MPFI::MPFI PROPERTIES IMPORTED_LOCATION "${MPFI_LIBRARY}"
                                              INTERFACE_INCLUDE_DIRECTORIES "${MPFI_INCLUDE_DIR}")
endif()
