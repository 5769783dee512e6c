add_executable(clref_verdict_bench ${CMAKE_CURRENT_LIST_DIR}/verdict_bench.cpp)
target_link_libraries(clref_verdict_bench PRIVATE numerics Threads::Threads)
