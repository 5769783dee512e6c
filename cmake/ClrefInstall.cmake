# What `cmake --install build --prefix P` installs:
#   bin/clref                                   the command-line tool
#   lib/libclref_icd.so                         the OpenCL ICD (and OpenCL C API library)
#   lib/libclref_layer.so                       the check layer (OPENCL_LAYERS; layer/layer.hpp)
#   etc/OpenCL/vendors/clref.icd                its vendor file, naming the installed library
#   lib/libclref_host.a                         the C++ host API: one archive holding the objects
#                                               of numerics, images, interpreter, compiler, host and check
#   include/clref/{host,compiler,interpreter,images,numerics}/   the public headers (clref_module PUBLIC_HEADERS),
#                                               included as <clref/host/host.hpp>
#   lib/cmake/clref/                            the CMake package: find_package(clref), clref::host
#   lib/pkgconfig/clref.pc                      pkg-config (--static for the private libraries)
# -DCLREF_REGISTER_ICD=ON also writes /etc/OpenCL/vendors/clref.icd, registering clref with the
# system's ICD loader.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(CLREF_REGISTER_ICD "Install also registers the ICD system-wide (/etc/OpenCL/vendors/clref.icd)" OFF)

# The modules the host API is made of, and the external libraries they link: the package's
# private dependencies. A module linking a library not listed here fails the configuration, so
# that the installed package cannot miss it.
set(CLREF_HOST_MODULES numerics images interpreter compiler host check)
set(CLREF_HOST_DEPENDENCIES MPFI::MPFI PkgConfig::MPFR PkgConfig::GMP SPIRV-Tools-link SPIRV-Tools-opt SPIRV-Tools-static Threads::Threads
                             nlohmann_json::nlohmann_json glslang::glslang glslang::SPIRV glslang::HLSL
                             glslang::glslang-default-resource-limits)

set(objects)
set(seen)
foreach(m IN LISTS CLREF_HOST_MODULES)
  get_target_property(type ${m} TYPE)
  if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
    list(APPEND objects $<TARGET_OBJECTS:${m}>)
  endif()
  get_target_property(libraries ${m} INTERFACE_LINK_LIBRARIES)
  foreach(l IN LISTS libraries)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
    if(l AND NOT l IN_LIST CLREF_HOST_MODULES AND NOT l IN_LIST CLREF_HOST_DEPENDENCIES)
      message(FATAL_ERROR "module ${m} links ${l}: add it to CLREF_HOST_DEPENDENCIES (cmake/ClrefInstall.cmake) "
                          "and to the package's dependencies (cmake/clrefConfig.cmake.in, cmake/clref.pc.in)")
    endif()
  endforeach()
endforeach()

add_library(clref_host STATIC ${objects})
set_target_properties(clref_host PROPERTIES EXPORT_NAME host LINKER_LANGUAGE CXX)
target_include_directories(clref_host INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(clref_host INTERFACE cxx_std_20)
target_link_libraries(clref_host PRIVATE ${CLREF_HOST_DEPENDENCIES})

install(TARGETS clref RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS clref_opencl clref_layer LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS clref_host EXPORT clrefTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel)

# The vendor file names the installed library by its absolute path, so it is written at install
# time (the prefix may be given then: cmake --install --prefix).
set(icd_library "$<TARGET_FILE_NAME:clref_opencl>")
install(CODE "
  set(library \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/${icd_library}\")
  set(vendors \"${CMAKE_INSTALL_SYSCONFDIR}/OpenCL/vendors\")
  if(NOT IS_ABSOLUTE \"\${vendors}\")
    # GNUInstallDirs: the prefix /usr has its configuration in /etc (the Debian package, cmake/ClrefPackage.cmake).
    if(CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
      set(vendors \"/\${vendors}\")
    else()
      set(vendors \"\${CMAKE_INSTALL_PREFIX}/\${vendors}\")
    endif()
  endif()
  set(places \"\${vendors}\")
  set(register ${CLREF_REGISTER_ICD})  # a variable: install scripts run with policy CMP0012 unset
  if(register AND NOT DEFINED ENV{CLREF_INSTALL_NO_REGISTER})  # the install test sets it
    list(APPEND places /etc/OpenCL/vendors)
  endif()
  foreach(place IN LISTS places)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${place}/clref.icd (\${library})\")
    file(WRITE \"\$ENV{DESTDIR}\${place}/clref.icd\" \"\${library}\\n\")
  endforeach()
")

set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/clref)
install(EXPORT clrefTargets NAMESPACE clref:: DESTINATION ${package_dir} COMPONENT devel)
configure_package_config_file(cmake/clrefConfig.cmake.in ${CMAKE_BINARY_DIR}/package/clrefConfig.cmake
                              INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/clrefConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/clrefConfig.cmake ${CMAKE_BINARY_DIR}/package/clrefConfigVersion.cmake
        DESTINATION ${package_dir} COMPONENT devel)

# pkg-config: the prefix relative to the .pc file, so that the tree can be installed anywhere.
file(RELATIVE_PATH CLREF_PC_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" CLREF_PC_PREFIX "${CLREF_PC_PREFIX}")
configure_file(cmake/clref.pc.in ${CMAKE_BINARY_DIR}/package/clref.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/clref.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
