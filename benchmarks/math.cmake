add_executable(clref_math_bench ${CMAKE_CURRENT_LIST_DIR}/math_bench.cpp)
target_link_libraries(clref_math_bench PRIVATE numerics)
