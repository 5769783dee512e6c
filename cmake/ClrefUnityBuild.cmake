# Unity builds of the modules (docs/BUILDING.md, "What makes the build fast").
#
#   -DCLREF_UNITY_BUILD=ON [-DCLREF_UNITY_BUILD_BATCH_SIZE=N]
#
# compiles each module's sources in batches of N (CMake's UNITY_BUILD: one translation unit includes N .cpp files),
# so that the C++20 standard library, Boost.Multiprecision and the modules' own headers are parsed, and their
# inline functions and templates compiled, once per batch instead of once per file: a cold build of the tool and the
# ICD takes about half the CPU time. An edit recompiles its whole batch, so it is off by default (for incremental work
# with ccache) and on in scripts/quickstart.sh and CI (.ci/run), which build from scratch.
#
# Every module's sources must therefore compile together: names in anonymous namespaces and `static` functions are
# unique across a module's files (a clash is a redefinition error in the unity build, fixed by renaming), and no .cpp
# file has `using namespace` at file scope outside a namespace it opens. Sources with their own COMPILE_OPTIONS or
# COMPILE_DEFINITIONS (e.g. numerics/math_binary32.cpp's -ffp-contract=fast) are compiled on their own by CMake.
# The tests are not batched: they build with scripts/test.sh, and Catch2 files share helper names freely.
option(CLREF_UNITY_BUILD "Compile each module's sources in batches (CMake unity builds): faster cold builds" OFF)
set(CLREF_UNITY_BUILD_BATCH_SIZE 16 CACHE STRING "Sources per unity batch with CLREF_UNITY_BUILD")

# Called once, after every module is declared (clref_module, cmake/ClrefModules.cmake): sets UNITY_BUILD on the
# libraries and executables defined in the modules' folders.
function(clref_unity_build)
  if(NOT CLREF_UNITY_BUILD)
    return()
  endif()
  get_property(modules GLOBAL PROPERTY CLREF_MODULES)
  foreach(m IN LISTS modules)
    get_property(dir GLOBAL PROPERTY CLREF_MODULE_${m}_DIR)
    get_property(targets DIRECTORY ${CMAKE_SOURCE_DIR}/${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|EXECUTABLE)$")
        set_target_properties(${t} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${CLREF_UNITY_BUILD_BATCH_SIZE})
      endif()
    endforeach()
  endforeach()
endfunction()
