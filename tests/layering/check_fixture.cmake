# The layering check must reject each violation planted in tests/layering/tree, and only those.
# cmake -DCHECK=<check_layering.cmake> -P check_fixture.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/tree
                        -DCONFIG=${CMAKE_CURRENT_LIST_DIR}/tree/modules.cmake -P ${CHECK}
                RESULT_VARIABLE status ERROR_VARIABLE out OUTPUT_VARIABLE out)
if(status EQUAL 0)
  message(FATAL_ERROR "the layering check accepted the fixture tree")
endif()
set(expected
    "numerics/format.hpp: #include \"interpreter/module.hpp\": module numerics may not include headers of module interpreter"
    "interpreter/diagnostic.hpp: #include \"interpreter/module.hpp\": a public header includes the internal header interpreter/module.hpp"
    "api/opencl/program.cpp: #include \"interpreter/module.hpp\": interpreter/module.hpp is internal to module interpreter"
    "module api: the public header api/missing.hpp does not exist"
    "module opencl: the exception ALLOW api/opencl/queue.cpp:interpreter/module.hpp is no longer needed")
foreach(e IN LISTS expected)
  string(FIND "${out}" "${e}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layering check did not report\n  ${e}\nIt printed:\n${out}")
  endif()
endforeach()
# Allowed: a lower module's public header, the same module's internal header, an exception.
foreach(fine "interpreter/module.hpp: " "api/host.hpp: " "api/opencl/kernel.cpp: ")
  string(FIND "${out}" "${fine}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the layering check rejected an allowed include of ${fine}\nIt printed:\n${out}")
  endif()
endforeach()
message(STATUS "the layering check reports the planted problems and only those")
