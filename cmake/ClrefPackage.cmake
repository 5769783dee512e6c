# A Debian package of what cmake/ClrefInstall.cmake installs: `cpack -G DEB` in the build directory (after building
# the installed targets: clref, clref_opencl, clref_layer, clref_host) writes clref_<version>_<arch>.deb, installing
# under /usr, with the ICD's vendor file /etc/OpenCL/vendors/clref.icd naming /usr/lib/libclref_icd.so.
# tests/install/check_deb.sh builds it, extracts it and builds a program against it.
set(CPACK_PACKAGE_NAME clref)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "clref developers <clref@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "reference device for OpenCL kernels and Vulkan compute shaders")
set(CPACK_PACKAGE_DESCRIPTION
    "clref runs SPIR-V compute code exactly as the specifications say and judges other devices' output against the
values a conforming device may produce. The package holds the clref command, the OpenCL ICD with its vendor file,
the OpenCL check layer, and the C++ host API (a static library, its headers, a CMake package and clref.pc).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The install scripts run with CMAKE_INSTALL_PREFIX /usr under DESTDIR, so that the vendor file names the library
# where the package puts it (not the staging folder).
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries the tool, the ICD and the layer link (MPFR, GMP, MPFI, Vulkan loader), found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# OpenCL C needs clang-15 and llvm-spirv-15 at run time (without them programs from source fail to build, as a
# device without a compiler); the ICD is used through the loader.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-15, llvm-spirv-15, ocl-icd-libopencl1")
# The C++ host API is a static library: a program linking it needs its private dependencies (clref.pc, clrefConfig).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "libmpfr-dev, libgmp-dev, libmpfi-dev, spirv-tools, glslang-dev, nlohmann-json3-dev, pkg-config")
include(CPack)
