// Passes over a batch's 64 lanes that the compiler vectorises compile twice on x86-64, for the baseline and for AVX2
// (four 8-byte lane slots a step instead of two), and the loader picks the one the processor runs (an ifunc), as
// numerics/math_binary32.cpp's FMA clones do. GCC clones function templates; clang-15 does not ("multiversioned
// functions do not yet support function templates"), so there CLREF_AVX2_TEMPLATE_CLONES is empty and the template
// runs its baseline code. Internal to the interpreter.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CLREF_AVX2_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define CLREF_AVX2_CLONES
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CLREF_AVX2_TEMPLATE_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define CLREF_AVX2_TEMPLATE_CLONES
#endif
