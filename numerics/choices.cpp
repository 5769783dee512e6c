#include "choices.hpp"

#include <stdexcept>
#include <utility>

namespace clref::numerics {

namespace {
// Keep in the order of enum class Choice.
constexpr ChoiceInfo kChoices[] = {
    {Choice::Mad,
     "mad",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] mad: \"mad computes a * b + c ... whether or how the product is "
     "rounded ... is implementation-defined\"",
     "mad(a, b, c) evaluated fused (one rounding) or as a rounded product then a rounded sum",
     {"fused", "unfused"},
     0,
     ChoiceApi::OpenCL},
    {Choice::IntDivByZero,
     "int_div_by_zero",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]]: integer division by zero \"does not cause an exception but will "
     "result in an unspecified value\"",
     "value of x / 0 and x % 0 (with a warning)",
     {"zero", "all_ones", "dividend"},
     0,
     ChoiceApi::Both},
    {Choice::IntDivOverflow,
     "int_div_overflow",
     "SPIR-V 1.0 §3.32.13 [external] OpSDiv/OpSRem: behaviour is undefined for the minimum value / -1",
     "value of INT_MIN / -1 (and the remainder 0 for %)",
     {"wrap", "zero"},
     0,
     ChoiceApi::Both},
    {Choice::FloatToIntOutOfRange,
     "float_to_int_out_of_range",
     "OpenCL C 3.0 §6.4.3.3 [[out-of-range-behavior]]: out-of-range float to integer conversion without _sat is "
     "implementation-defined",
     "result of OpConvertFToS/FToU for NaN or out-of-range values without saturation",
     {"saturate", "min_value", "zero"},
     0,
     ChoiceApi::Both},
    {Choice::UninitialisedMemory,
     "uninitialised_memory",
     "OpenCL C 3.0 §6.7 [[address-space-qualifiers]]: private and local variables have no initial value",
     "bytes of private and local memory before their first store (reset for every work-item "
     "and work-group so results never depend on scheduling)",
     {"zero", "pattern"},
     0,
     ChoiceApi::Both},
    {Choice::UndefValue,
     "undef_value",
     "SPIR-V 1.0 §3.32.1 [external] OpUndef: \"each consumption ... may see a different value\"",
     "bits of an OpUndef result",
     {"zero", "pattern"},
     0,
     ChoiceApi::Both},
    {Choice::DefaultLocalSize,
     "default_local_size",
     "OpenCL 3.0 API §5.10 [[_executing_kernels]] clEnqueueNDRangeKernel: with local_work_size NULL \"the OpenCL "
     "implementation will determine how to break the global work-items\"",
     "work-group size when the host gives none: per dimension the largest divisor of the "
     "global size not above 64 (dimension 0) or 1 (others), or 1 everywhere",
     {"largest_divisor", "one"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ReducedPrecisionFunctions,
     "reduced_precision_functions",
     "OpenCL C 3.0 §6.15.2 [[math-functions]]: half_ functions have \"a maximum error of 8192 ulp\" and native_ "
     "functions \"implementation-defined\" accuracy",
     "value of half_* and native_* functions: the correctly rounded value of the underlying "
     "function (the verdict still applies the spec's looser bound to other implementations)",
     {"correctly_rounded"},
     0,
     ChoiceApi::OpenCL},
    {Choice::Mul24OutOfRange,
     "mul24_out_of_range",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]] mul24: \"If x and y are not in this range, the multiplication result "
     "is implementation-defined\" (signed [-2^23, 2^23-1], unsigned [0, 2^24-1]; also mad24)",
     "mul24/mad24 beyond 24 bits: multiply the low 24 bits (sign-extended for signed), as the "
     "description says, or the full 32-bit operands (the product's low 32 bits)",
     {"low_24_bits", "full_product"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ClampInvertedBounds,
     "clamp_inverted_bounds",
     "OpenCL C 3.0 §6.15.3 [[integer-functions]] and §6.15.4 [[common-functions]] clamp: \"Results are undefined if "
     "minval > maxval\"; GLSL.std.450 §2 [external] FClamp, UClamp, SClamp, NClamp: \"Result is undefined if "
     "minVal > maxVal\"",
     "clamp(x, minval, maxval) with minval > maxval: min(max(x, minval), maxval) (gives maxval, "
     "the spec's formula) or max(min(x, maxval), minval) (gives minval); integer and float, OpenCL and GLSL",
     {"min_of_max", "max_of_min"},
     0,
     ChoiceApi::Both},
    {Choice::SmoothstepInvertedEdges,
     "smoothstep_inverted_edges",
     "OpenCL C 3.0 §6.15.4 [[common-functions]] smoothstep: \"Results are undefined if edge0 >= edge1\"; "
     "GLSL.std.450 §2 [external] SmoothStep: \"Result is undefined if edge0 >= edge1\"",
     "smoothstep with edge0 >= edge1: the spec's formula t = clamp((x - edge0)/(edge1 - edge0), "
     "0, 1), t·t·(3 - 2t) evaluated exactly (x/0 as ±inf; GLSL's: each operation rounded), or NaN",
     {"formula", "nan"},
     0,
     ChoiceApi::Both},
    {Choice::NanPayload,
     "nan_payload",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] nan: \"The nancode may be placed in the significand of the resulting "
     "NaN\"",
     "bits of nan(nancode): the quiet NaN with the code's low bits in the rest of the significand, "
     "or the default quiet NaN (0x7e00, 0x7fc00000, 0x7ff8000000000000)",
     {"significand", "default_nan"},
     0,
     ChoiceApi::OpenCL},
    {Choice::RemquoQuotientBits,
     "remquo_quotient_bits",
     "OpenCL C 3.0 §6.15.2 [[math-functions]] remquo: \"remquo also calculates the lower seven bits of the integral "
     "quotient x/y\" (C99 §7.12.10.3 [external]: at least three; more are allowed)",
     "how many low bits of |x/y|'s integral quotient remquo stores in quo (with the sign of x/y): "
     "the seven the spec asks for, or 31 (all an int holds)",
     {"7", "31"},
     0,
     ChoiceApi::OpenCL},
    {Choice::LgammaSignUndefined,
     "lgamma_sign_undefined",
     "OpenCL C 3.0 §7.5.1 [[additional-requirements-beyond-c99-tc2]] lgamma_r: the sign is given for zero and negative "
     "integers (0); for a "
     "NaN or -inf argument Γ has no sign and the spec gives none",
     "value lgamma_r stores in signp for a NaN or -inf argument",
     {"zero", "one"},
     0,
     ChoiceApi::OpenCL},
    {Choice::VectorIndexOutOfRange,
     "vector_index_out_of_range",
     "SPIR-V 1.0 §3.32.12 [external] OpVectorExtractDynamic/OpVectorInsertDynamic: behaviour is undefined "
     "for an Index outside [0, number of components)",
     "a dynamic vector index out of range: warn and read 0 / leave the vector unchanged, or stop "
     "the work-item with a fault",
     {"zero_or_unchanged", "fault"},
     0,
     ChoiceApi::Both},
    {Choice::PtrDiffAcrossAllocations,
     "ptrdiff_across_allocations",
     "SPIR-V 1.4 §3.32.8 [external] OpPtrDiff, as C99 §6.5.6 [external] pointer subtraction: defined only for pointers "
     "into the same object",
     "OpPtrDiff across objects: warn and answer as if objects lay 2^20 elements apart in "
     "allocation order (never 0), or stop the work-item with a fault",
     {"tag_distance", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::CommonMinMaxSpecial,
     "common_minmax_special",
     "OpenCL C 3.0 §6.15.4 [[common-functions]] max/min: \"If x or y are infinite or NaN, the return values are "
     "undefined\"",
     "the common functions max/min with an infinite or NaN operand: fmax/fmin's rules (the larger "
     "/ smaller value; a NaN operand gives the other), or NaN",
     {"fmax_fmin_rules", "nan"},
     0,
     ChoiceApi::OpenCL},
    {Choice::DenormsAreZero,
     "denorms_are_zero",
     "OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]] -cl-denorms-are-zero: single precision denormals \"may be "
     "flushed "
     "to zero; double precision denormalized numbers may also be flushed\"; \"the OpenCL "
     "compiler can choose not to flush\"",
     "what a program built with -cl-denorms-are-zero flushes: float denormals, float and double "
     "denormals, or nothing",
     {"flush_float", "flush_float_and_double", "ignore"},
     0,
     ChoiceApi::OpenCL},
    {Choice::WorkGroupReductionOrder,
     "work_group_reduction_order",
     "OpenCL C 3.0 §6.15.16 [[work-group-functions]] NOTE: \"The order of floating-point operations is not "
     "guaranteed for the work_group_reduce_<op>, work_group_scan_inclusive_<op> and work_group_scan_exclusive_<op> "
     "built-in functions that operate on half, float and double data types\"",
     "the order of a floating-point work-group reduction or scan: left to right in local linear id order, or a "
     "balanced tree (pairwise halving for reductions, the work-efficient up-sweep/down-sweep scan for scans)",
     {"linear", "tree"},
     0,
     ChoiceApi::Both},
    {Choice::WorkGroupBroadcastOutOfRange,
     "work_group_broadcast_out_of_range",
     "OpenCL C 3.0 §6.15.16 [[work-group-functions]] work_group_broadcast: \"Behavior is undefined when local_id is "
     "greater or equal to the work-group size in the corresponding dimension\"",
     "work_group_broadcast from a local id outside the work-group: warn and give 0, or stop the work-item with a "
     "fault",
     {"zero", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::AtomicFloatMinMaxSignedZero,
     "atomic_float_min_max_signed_zero",
     "cl_ext_float_atomics [external] \"Modifications to the OpenCL C Specification\": \"min(-0, +0) = min(+0, -0) = "
     "+0 or "
     "-0\", and likewise max",
     "atomic_fetch_min/max of a half, float or double where the value in memory and the operand are zeros of opposite "
     "signs: -0 is the smaller (as IEEE 754's minimum and maximum), or the extension's formulas (min(x, y) = x if x < "
     "y "
     "and y otherwise, max(x, y) = y if x < y and x otherwise, x being the value in memory)",
     {"ordered", "formula"},
     0,
     ChoiceApi::Both},
    {Choice::SubgroupInactiveSource,
     "sub_group_inactive_source",
     "OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]] sub_group_non_uniform_broadcast (and the shuffle and "
     "rotate functions): \"The return value is undefined if the work item with sub-group local ID equal to index is "
     "inactive or if index is greater than or equal to the size of the sub-group\"; sub_group_ballot_bit_extract past "
     "the sub-group and sub_group_ballot_find_lsb/msb with no bit set are undefined too",
     "a sub-group function that reads the value of an inactive work-item or of an id outside the sub-group, or a "
     "ballot "
     "query the table leaves undefined: warn and give 0, or stop the work-item with a fault",
     {"zero", "fault"},
     0,
     ChoiceApi::Both},
    {Choice::SubgroupActiveSet,
     "sub_group_active_set",
     "OpenCL C 3.0 §6.15.20.1 [[sub-group-ballot-functions]]: the non-uniform functions \"need not be encountered by "
     "all "
     "work items in a sub-group\"; which work-items are active together at one is the implementation's",
     "the work-items of a sub-group that run a non-uniform sub-group function together: all that reach it when none "
     "of the sub-group can go further, the earliest instruction in the kernel first so that work-items still in a loop "
     "or a branch catch up (converged), or each work-item on its own (alone)",
     {"converged", "alone"},
     0,
     ChoiceApi::Both},
    {Choice::ImageAddressNoneOutOfRange,
     "image_address_none_out_of_range",
     "OpenCL C 3.0 §6.15.15.1 [[table-sampler-descriptor]] CLK_ADDRESS_NONE: \"the programmer guarantees that the "
     "image "
     "coordinates used to sample elements of the image refer to a location inside the image; otherwise the results "
     "are undefined\"",
     "a read with CLK_ADDRESS_NONE whose coordinate lies outside the image: the addressing formula goes on and the "
     "texels outside give the border colour (as CLK_ADDRESS_CLAMP's), with a warning; or stop the work-item with a "
     "fault",
     {"border_color", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageSamplerlessOutOfRange,
     "image_samplerless_out_of_range",
     "OpenCL C 3.0 §6.15.15.3 [[built-in-image-sampler-less-read-functions]]: sampler-less reads behave as reads with "
     "CLK_ADDRESS_NONE, whose results outside the image are undefined (§6.15.15.1 [[table-sampler-descriptor]]); "
     "§8.4 [[selecting-an-image-from-an-image-array]]: \"the result is undefined if w is not one of the integers 0, "
     "1, ... d_t - 1\"",
     "a sampler-less read outside the image (or of a layer beyond the array): the border colour, with a warning; or "
     "stop the work-item with a fault",
     {"border_color", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageLinearIntegerRead,
     "image_linear_integer_read",
     "OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]: \"The read_image{i|ui} calls support a nearest filter "
     "only. The filter_mode specified in sampler must be set to CLK_FILTER_NEAREST; otherwise the values returned are "
     "undefined.\"",
     "read_imagei/read_imageui with CLK_FILTER_LINEAR (or a linear mip filter): read as with CLK_FILTER_NEAREST (and "
     "the nearest mip level), with a warning; or stop the work-item with a fault",
     {"nearest", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageUnnormalizedRepeat,
     "image_unnormalized_repeat",
     "OpenCL C 3.0 §6.15.15.1 [[table-sampler-descriptor]] CLK_ADDRESS_REPEAT, CLK_ADDRESS_MIRRORED_REPEAT: \"This "
     "addressing mode can only be used with normalized coordinates. If normalized coordinates are not used, this "
     "addressing mode may generate image coordinates that are undefined.\"",
     "REPEAT or MIRRORED_REPEAT with unnormalized coordinates: addressed as CLK_ADDRESS_CLAMP_TO_EDGE, with a "
     "warning; or stop the work-item with a fault",
     {"clamp_to_edge", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageInfNanCoordinate,
     "image_inf_nan_coordinate",
     "OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: \"If values in (u,v,w) are INF or NaN, the behavior of "
     "read_image{f|i|ui} is undefined.\"",
     "a read whose coordinate (or array layer) is INF or NaN: the border colour of the image's order, with a warning; "
     "or stop the work-item with a fault",
     {"border_color", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageInfNanTexelFiltered,
     "image_inf_nan_texel_filtered",
     "OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]]: \"If the image channel type is CL_FLOAT or CL_HALF_FLOAT and "
     "any of the image elements T_ijk or T_ij is INF or NaN, the behavior of the built-in image read function is "
     "undefined.\"",
     "linear filtering over a channel holding INF or NaN: that channel is the filter formula under IEEE 754's rules "
     "for infinities (a NaN texel, 0 x INF or INF - INF give the default NaN, otherwise the INF), the other channels "
     "exact, with a warning; or stop the work-item with a fault",
     {"ieee_arithmetic", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageWrongReadFunction,
     "image_wrong_read_function",
     "OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]: \"Values returned by read_imagef for image objects "
     "with image_channel_data_type values not specified in the description above are undefined\" (read_imagei, "
     "read_imageui alike); §6.15.15.4 [[built-in-image-write-functions]] the same for writes",
     "a read or write function that does not match the image's channel type (read_imagef of CL_SIGNED_INT8, "
     "write_imageui of CL_FLOAT, ...): a read returns (0, 0, 0, 0) and a write stores nothing, with a warning; or "
     "stop the work-item with a fault",
     {"zero", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageWriteOutOfRange,
     "image_write_out_of_range",
     "OpenCL C 3.0 §6.15.15.4 [[built-in-image-write-functions]]: \"The behavior of write_imagef, write_imagei and "
     "write_imageui ... for (x, y) coordinate values that are not in the range (0 ... image width - 1, 0 ... image "
     "height - 1), respectively, is undefined.\"",
     "a write outside the image (or to a layer beyond the array): nothing is written, with a warning; or stop the "
     "work-item with a fault",
     {"ignore", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageMipLevelOutOfRange,
     "image_mip_level_out_of_range",
     "OpenCL C 3.0 §6.15.15.4 [[built-in-image-write-functions]] (cl_khr_mipmap_image_writes): \"lod must be in the "
     "range [0, miplevels-1]. ... Behavior is undefined if lod ... is not in range.\"; a sampler-less read's lod "
     "likewise (§6.15.15.3 [[built-in-image-sampler-less-read-functions]])",
     "a sampler-less read or a write at a mip level the image does not have (or a negative one): the read returns "
     "the border colour and the write stores nothing, with a warning; or stop the work-item with a fault",
     {"border_color", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageIntCoordSampler,
     "image_int_coord_sampler",
     "OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]]: \"The read_imagef calls that take integer coordinates "
     "must use a sampler with filter mode set to CLK_FILTER_NEAREST, normalized coordinates set to "
     "CLK_NORMALIZED_COORDS_FALSE and addressing mode set to CLK_ADDRESS_CLAMP_TO_EDGE, CLK_ADDRESS_CLAMP or "
     "CLK_ADDRESS_NONE; otherwise the values returned are undefined.\"",
     "a read with integer coordinates and another sampler: the integers are taken as exact coordinates under the "
     "sampler as given, with a warning; or stop the work-item with a fault",
     {"exact_coordinates", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageMipUnnormalized,
     "image_mip_unnormalized",
     "OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]] (cl_khr_mipmap_image): \"CL_SAMPLER_NORMALIZED_COORDS "
     "must be CL_TRUE for built-in functions described in the table above that read from a mipmapped image; "
     "otherwise behavior is undefined.\"",
     "a read of a mipmapped image with a lod or gradients through a sampler with unnormalized coordinates: the lod "
     "selects the level as for normalized coordinates and the coordinates address that level as given, with a "
     "warning; or stop the work-item with a fault",
     {"as_given", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageReadAfterWriteWithoutFence,
     "image_read_after_write_without_fence",
     "OpenCL C 3.0 §6.15.15.6 [[reading-and-writing-to-the-same-image-in-a-kernel]]: atomic_work_item_fence("
     "CLK_IMAGE_MEM_FENCE) \"can be used to make sure that sampler-less writes are visible to later reads by the same "
     "work-item\"; without it the value read is not guaranteed",
     "a read of an image element written earlier in the kernel without an image fence in between: the value most "
     "recently written, with a warning; or stop the work-item with a fault",
     {"latest_value", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageLodSelection,
     "image_lod_selection",
     "OpenCL C 3.0 §6.15.15.2 [[built-in-image-read-functions]] (cl_khr_mipmap_image): \"Use the gradients to compute "
     "the lod\", \"an element lookup in the mip level specified by lod\"; the lod \"is clamped to the minimum of "
     "(actual number of mip levels - 1) in the image or the value specified for CL_SAMPLER_LOD_MAX\"; no formula "
     "for the lod or for the levels it selects",
     "gl_rules: from gradients the lod is log2 of the larger Euclidean length of dPdx and dPdy scaled by the level-0 "
     "sizes (the array layer excluded), evaluated exactly and rounded to float; the lod is clamped to [max(lodMin, 0), "
     "min(lodMax, levels - 1)]; mip filter nearest takes level ceil(lod + 0.5) - 1, linear blends levels floor(lod) "
     "and floor(lod) + 1 with weights 1 - frac(lod) and frac(lod), exactly with the filter inside each level "
     "(OpenGL 4.6 §8.14 [external])",
     {"gl_rules"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImagePaddedChannelLayout,
     "image_padded_channel_layout",
     "OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: CL_Rx \"A two channel image format, where the first channel "
     "represents a RED component and the second channel is ignored\", CL_RGx three channels, CL_RGBx four of any "
     R"(type; OpenCL 1.2 API §5.3.1.1 "Image Format Descriptor" lists CL_Rx with CL_R (one channel), CL_RGx with CL_RG )"
     "(two), and CL_RGBx only with CL_UNORM_SHORT_565, CL_UNORM_SHORT_555 and CL_UNORM_INT_101010; the formats are "
     "optional (OpenCL 3.0 API §E.1 [[_summary_of_changes_from_opencl_1_0_to_opencl_1_1]]), and an application "
     "sizes its host memory for one layout or the other",
     "the padded orders through the OpenCL API: withhold offers neither CL_Rx nor CL_RGx nor CL_RGBx with an unpacked "
     "type (what 1.2 applications, the conformance suite among them, and 3.0 ones agree on); api_3_0 offers them "
     "with the 3.0 table's layout (CL_Rx two stored channels, CL_RGBx four of any type; CL_RGx, 3 channels, has no "
     "valid type); api_1_2 with the 1.2 table's (CL_Rx one stored channel, CL_RGx two, CL_RGBx packed only). The "
     "ignored channel reads as a missing one either way; images created through the C++ host API and case files "
     "name their layout themselves (images::ImageFormat::padded)",
     {"withhold", "api_3_0", "api_1_2"},
     0,
     ChoiceApi::OpenCL},
    {Choice::ImageCoordinatePrecision,
     "image_coordinate_precision",
     "OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE: unnormalized coordinates with CLK_FILTER_NEAREST and "
     "CLK_ADDRESS_NONE, CLK_ADDRESS_CLAMP_TO_EDGE or CLK_ADDRESS_CLAMP: the location \"will be computed without any "
     "loss of precision\"; \"For all other sampler combinations of normalized or unnormalized coordinates, filter and "
     "addressing modes, the relative error or precision of the addressing mode calculations and the image filter "
     "operation are not defined by this revision of the OpenCL specification.\"",
     "the addressing steps of the other sampler combinations: binary32 (the default) rounds each step (u = s · w_t, the "
     "REPEAT and MIRRORED_REPEAT steps, u − 0.5, the fractions a, b, c) to binary32 (round to nearest even), as the "
     "formulas' binary32 operands give them in every float pipeline and the conformance suite's reference, and keeps "
     "the filter's weights and sum exact on the rounded a, b, c; exact evaluates those formulas exactly as real "
     "numbers. The unnormalized nearest NONE/CLAMP/CLAMP_TO_EDGE case is exact either way",
     {"exact", "binary32"},
     1,
     ChoiceApi::OpenCL},
    {Choice::ImageFilterPrecision,
     "image_filter_precision",
     "OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE: \"For all other sampler combinations of normalized or "
     "unnormalized coordinates, filter and addressing modes, the relative error or precision of the addressing mode "
     "calculations and the image filter operation are not defined by this revision of the OpenCL specification.\"",
     "linear filtering (and the linear mip filter's blend of two levels): exact computes the weighted sum of the "
     "footprint's texels exactly and rounds it once. A verdict allows what any precision of the weights gives, a "
     "weighted average of a footprint: per component every value between the least and greatest value the conversion "
     "rules allow the texels of every footprint a coordinate one float step either side selects (the layer of an array "
     "exact), widened by 2, 4 or 8 ulps of the result format (one per texel blended; 2 more for a blend of levels) at "
     "the interval's largest magnitude; a zero of either sign where the interval holds zero, or a subnormal that may "
     "be flushed; any NaN and the infinity of an INF or NaN texel in a footprint other than the exact coordinate's",
     {"exact"},
     0,
     ChoiceApi::OpenCL},
    {Choice::PipeWorkGroupOrder,
     "pipe_work_group_order",
     "OpenCL C 3.0 §6.15.18.3 [[built-in-work-group-pipe-read-and-write-functions]]: \"The order of work-item based "
     "reservations that belong to different work-groups is implementation-defined.\" \"The order of work-group based "
     "reservations by different work-groups is implementation-defined.\"",
     "the order in which the work-groups of a kernel with pipe arguments reach its pipes, which orders their packets: "
     "clref runs such a kernel on one thread, one work-group after another, in ascending or descending linear "
     "work-group id (the work-items of a group in local id order either way). Recorded when a work-group's pipe "
     "operation follows another work-group's on the same pipe",
     {"ascending", "descending"},
     0,
     ChoiceApi::OpenCL},
    {Choice::PipeUncommittedReservation,
     "pipe_uncommitted_reservation",
     "OpenCL C 3.0 §6.15.18.5 [[restrictions-4]]: \"The following behavior is undefined: ... A kernel fails to call "
     "commit_read_pipe for any reservation ID obtained by a prior call to reserve_read_pipe. A kernel fails to call "
     "commit_write_pipe for any reservation ID obtained by a prior call to reserve_write_pipe.\" (the work-group and "
     "sub-group forms likewise)",
     "a pipe reservation not committed when the kernel ends: drop ends it with a warning (packets written to a write "
     "reservation never join the pipe, a read reservation's packets are gone, its room is given back); fault ends the "
     "launch with a fault naming how many there were and where the first was made (they are dropped all the same, so "
     "the pipe stays usable)",
     {"drop", "fault"},
     0,
     ChoiceApi::OpenCL},
    {Choice::SvmReadOnlyWrite,
     "svm_read_only_write",
     "OpenCL 3.0 API §5.6.1 [[svm-flags-table]] clSVMAlloc CL_MEM_READ_ONLY: \"Writing to a SVM buffer created with "
     "CL_MEM_READ_ONLY inside a kernel is undefined.\"",
     "a kernel's write into an SVM allocation made CL_MEM_READ_ONLY: fault stops the work-item with a fault naming the "
     "allocation; write stores the value as into any SVM memory, with a warning",
     {"fault", "write"},
     0,
     ChoiceApi::OpenCL},
    {Choice::AlignedOperandOverclaim,
     "aligned_operand_overclaim",
     "SPIR-V 1.0 §3.26 [external] Memory Access: Aligned \"This access has a known alignment, provided as a literal in "
     "the next operand\", and nothing says what follows when the claim is false; "
     "OpenCL SPIR-V Environment §2.10 [[_alignment_of_types]] asks only the type's alignment of an address: "
     "\"Behavior of an unaligned load or store is undefined.\"",
     "an OpLoad/OpStore whose address has the alignment its type needs but not the larger one its Aligned memory "
     "operand claims: fault stops the work-item, as for a misaligned access (the module's claim is false); "
     "type_alignment performs the access, with a warning, if its address has the alignment the access needs without "
     "the operand (a scalar's size, a vector's element size)",
     {"fault", "type_alignment"},
     0,
     ChoiceApi::Both},
    {Choice::GlslRoundHalf,
     "glsl_round_half",
     "GLSL.std.450 §2 [external] Round: \"Result is the value equal to the nearest whole number to x. The fraction 0.5 "
     "will round in a direction chosen by the implementation, presumably the direction that is fastest.\"",
     "GLSL.std.450 Round (GLSL round()) of a value halfway between two integers: away from zero (2.5 gives 3, -0.5 "
     "gives -1), or to the even integer (2.5 gives 2, -0.5 gives -0), as RoundEven; packSnorm*/packUnorm* round so too",
     {"away_from_zero", "to_even"},
     0,
     ChoiceApi::Vulkan},
    {Choice::GlslMinMaxNan,
     "glsl_min_max_nan",
     "GLSL.std.450 §2 [external] FMin, FMax: \"Result is y if y < x; otherwise result is x. Which operand is the "
     "result is undefined if one of the operands is a NaN.\" (FClamp: \"The semantics used by min() and max() are "
     "those of FMin and FMax.\")",
     "GLSL.std.450 FMin/FMax (GLSL min(), max(), and clamp() through them) of a NaN and a number: number gives the "
     "number, as NMin/NMax define it; formula gives the operand the description's comparison picks (x, the NaN, "
     "when x is the NaN)",
     {"number", "formula"},
     0,
     ChoiceApi::Vulkan},
    {Choice::ShaderDenormals,
     "shader_denormals",
     "Vulkan §A [external] Precision and Operation of SPIR-V Instructions: \"By default any denormalized "
     "floating-point value input into a shader or potentially generated by any instruction (except those listed above) "
     "or any extended instructions for GLSL in a shader may be flushed to zero.\" (DenormFlushToZero and "
     "DenormPreserve decide for their width)",
     "denormals of a shader width its entry point declares neither DenormPreserve nor DenormFlushToZero for: preserve "
     "keeps what the device's denormal settings keep (DeviceConfig::denormHalf/Float/Double, every width by default); "
     "flush flushes the operands and results of the shader's floating-point instructions at 16, 32 and 64 bits (as "
     "DenormFlushToZero; constants, bitcasts, loads and stores are never flushed). An execution mode still decides "
     "its width",
     {"preserve", "flush"},
     0,
     ChoiceApi::Vulkan},
    {Choice::VulkanContraction,
     "vulkan_contraction",
     "Vulkan §A [external] Evaluation of Expressions: \"Implementations may rearrange floating-point operations using "
     "any of the mathematical properties governing the expressions in precise arithmetic ... This includes, but is "
     "not limited to associativity and distributivity, and may involve a different number of rounding steps ... This "
     "rearrangement can be prevented for particular operations by using the NoContraction decoration.\" NOTE: "
     "\"in the absence of the NoContraction decoration implementations are allowed to implement a + b - a and "
     "(a × b)/a as b\": reassociation is allowed too, and clref keeps the program's order",
     "a shader's floating-point expressions without NoContraction: separate rounds every operation as written; fuse "
     "computes an OpFAdd or OpFSub one of whose operands is an OpFMul of the same type, neither decorated "
     "NoContraction, as one fused multiply-add (a·b ± c rounded once; the first operand's product when both are). "
     "Reassociation (a + b - a as b, a·b/a as a) is allowed too; clref keeps the program's order either way",
     {"separate", "fuse"},
     0,
     ChoiceApi::Vulkan},
    {Choice::VulkanNanInfSignedZero,
     "vulkan_nan_inf_signed_zero",
     "Vulkan §A [external] Precision and Operation of SPIR-V Instructions: \"By default, the implementation may "
     "perform optimizations on half, single, or double-precision floating-point instructions that ignore sign of a "
     "zero, or assume that arguments and results are not NaNs or infinities. If the entry point is declared with the "
     "SignedZeroInfNanPreserve Execution Mode, then NaNs, infinities, and the sign of zero must not be ignored.\" "
     "(with float controls 2: NSZ, NotInf and NotNaN are assumed, and SPIR-V 1.6 §3.15 [external] FP Fast Math Mode "
     "NotNaN/NotInf: an operation on such a value \"returns an undefined value\")",
     "NaNs, infinities and signed zeros in a shader without SignedZeroInfNanPreserve for their width: ieee computes "
     "them as IEEE 754 does (what the execution mode asks for); a device may give any value where one is an operand "
     "or result",
     {"ieee"},
     0,
     ChoiceApi::Vulkan},
    {Choice::ShaderOutOfBounds,
     "shader_out_of_bounds",
     "Vulkan §9 [external] Shader Out-of-Bounds Memory Access: \"Applications must not execute operations that would "
     "access out of bounds memory locations unless some form of bounds checking is enabled\", \"behavior is still "
     "undefined\"; Robust Buffer Access (robustBufferAccess): writes outside the range \"will either be discarded, "
     "or modify values within the memory range(s) bound to the underlying buffer\", reads \"will return one of the "
     "following values: ... Zero values ...\", atomics \"return an undefined value\"",
     "a shader's load, store or atomic outside the storage buffer, uniform buffer or push constants bound to a "
     "descriptor: fault stops the invocation with a fault naming the descriptor set and binding (as without "
     "robustBufferAccess, undefined); robust gives robustBufferAccess's semantics with the zero value: the whole "
     "access reads zeros (an atomic returns 0) and writes nothing, with a warning",
     {"fault", "robust"},
     0,
     ChoiceApi::Vulkan},
    {Choice::VulkanSRemSModNegative,
     "vulkan_srem_smod_negative",
     "Vulkan §A [external] Precision of GLSL.std.450 Instructions: \"If the maintenance8 feature is not enabled and if "
     "either operand to OpSRem and OpSMod instructions is negative the result is poison.\" (OpenCL defines them)",
     "a shader's OpSRem or OpSMod with a negative operand: spirv gives the value SPIR-V defines (OpSRem the sign of "
     "Operand 1, OpSMod of Operand 2), with a warning; fault stops the invocation with a fault",
     {"spirv", "fault"},
     0,
     ChoiceApi::Vulkan},
    {Choice::VulkanFRemFMod,
     "vulkan_frem_fmod",
     "Vulkan §A [external] Precision of Individual Operations: OpFRem \"Inherited from x - y × trunc(x/y)\", OpFMod "
     "\"Inherited from x - y × floor(x/y)\"; NOTE: \"The OpFRem and OpFMod instructions use cheap approximations of "
     "remainder ... such as FMod(x,x) computing x rather than 0\"",
     "a shader's OpFRem and OpFMod: exact gives the exact remainder (of truncated division; OpFMod's adds y once when "
     "the signs differ), correctly rounded; formula evaluates the formula with every operation rounded to the type: "
     "q = x/y, then trunc(q) or floor(q), y times it, x minus that (clref's quotient is correctly rounded, so "
     "FMod(x, x) is 0 either way)",
     {"exact", "formula"},
     0,
     ChoiceApi::Vulkan},
    {Choice::VulkanRounding,
     "vulkan_rounding",
     "Vulkan §A.4 [external] [[spirvenv-correctly-rounded]]: without RoundingModeRTE or RoundingModeRTZ \"they are "
     "rounded with implementation-defined rounding mode\"; [[spirvenv-correctly-rounded-impl-defined]]: \"either the "
     "floating-point value closest to and no less than x or the value closest to and no greater than x will be "
     "returned. Which value is chosen is implementation-defined.\"",
     "the rounding of a Vulkan shader's correctly rounded operations (OpFAdd, OpFSub, OpFMul, OpFDiv, the products by "
     "a scalar, conversions to floating point, sqrt, fma, the correctly rounded GLSL.std.450 functions and each step "
     "of the formula-defined ones) of a width for which its entry point declares neither RoundingModeRTE nor "
     "RoundingModeRTZ: to nearest even, or toward zero (as RoundingModeRTZ); OpenCL kernels always round to nearest "
     "even",
     {"nearest_even", "toward_zero"},
     0,
     ChoiceApi::Vulkan},
    {Choice::DeviceQueueCommandBytes,
     "device_queue_command_bytes",
     "OpenCL C 3.0 §6.15.19.1 [[built-in-functions-enqueuing-a-kernel]]: enqueue_kernel and enqueue_marker return "
     "\"CLK_DEVICE_QUEUE_FULL if queue is full\", and nothing sets how many commands a queue holds; "
     "OpenCL 3.0 API §5.1 [[queue-properties-table]] CL_QUEUE_SIZE \"Specifies the size of the device queue in "
     "bytes\", not how many of them a command takes",
     "the bytes of a device queue's CL_QUEUE_SIZE that one enqueued command (a kernel or a marker) takes until it "
     "starts: a queue holds CL_QUEUE_SIZE / that many commands not yet started, and enqueue_kernel or enqueue_marker "
     "beyond them returns CLK_DEVICE_QUEUE_FULL. 16 (the default): the preferred-size default queue "
     "(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, 256 KiB) holds 16 384, as the conformance suite asks of a device "
     "(test_cl_khr_command_buffer device_enqueue: 16 384 work-items each enqueue a child into it and ignore "
     "enqueue_kernel's result, so a device that passes holds them all); 128: 2 048, clref's capacity before the "
     "choice. A queue of CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE (16 MiB) holds 1 048 576 or 131 072",
     {"16", "128"},
     0,
     ChoiceApi::OpenCL},
};
static_assert(std::size(kChoices) == size_t(Choice::Count));
// Every choice has its option enum, a byte like the stored option index (Choices::get<C>()).
template <size_t... I> constexpr bool everyChoiceHasOptions(std::index_sequence<I...>) {
  return ((sizeof(ChoiceOptionsOf<Choice(I)>) == 1) && ...);
}
static_assert(everyChoiceHasOptions(std::make_index_sequence<size_t(Choice::Count)>{}));
}  // namespace

std::span<const ChoiceInfo> allChoices() { return kChoices; }
const Choices kDefaultChoices;
const ChoiceInfo& infoOf(Choice c) { return kChoices[size_t(c)]; }

Choices::Choices() {
  for (const auto& info : kChoices) values_[size_t(info.choice)] = info.defaultOption;
}

void Choices::set(Choice c, uint8_t option) {
  const auto& info = infoOf(c);
  if (option >= info.options.size() || info.options[option].empty())
    throw std::invalid_argument("choice " + std::string(info.name) + " has no option " + std::to_string(option));
  values_[size_t(c)] = option;
}

void Choices::set(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw std::invalid_argument("choice must be name=option, got '" + std::string(assignment) + "'");
  const auto name = assignment.substr(0, eq), option = assignment.substr(eq + 1);
  std::string known;
  for (const auto& info : kChoices) {
    known += (known.empty() ? "" : ", ") + std::string(info.name);
    if (info.name != name) continue;
    std::string opts;
    for (uint8_t i = 0; i < info.options.size() && !info.options[i].empty(); ++i) {
      if (info.options[i] == option) return set(info.choice, i);
      opts += (opts.empty() ? "" : ", ") + std::string(info.options[i]);
    }
    throw std::invalid_argument("choice " + std::string(name) + " has no option '" + std::string(option) +
                                "' (options: " + opts + ")");
  }
  throw std::invalid_argument("unknown choice '" + std::string(name) + "' (choices: " + known + ")");
}

std::string Choices::describe() const {
  std::string out;
  for (const auto& info : kChoices) {
    const auto v = get(info.choice);
    out += std::string(info.name) + "=" + std::string(info.options[v]) + (v == info.defaultOption ? " (default)" : "") +
           "\n";
  }
  return out;
}

ChoiceFreedom freedomOf(Choice c) {
  switch (c) {
    // OpenCL C 3.0 §6.15.2 [[math-functions]] mad: fused or product-then-sum, nothing else (full profile).
    case Choice::Mad: return {ChoiceKind::Set, true};
    // -cl-denorms-are-zero "may" flush (OpenCL 3.0 API §5.8.6.2 [[math-intrinsics-options]]): flushed or kept.
    case Choice::DenormsAreZero: return {ChoiceKind::Set, true};
    // cl_ext_float_atomics: "+0 or -0", which the two options give.
    case Choice::AtomicFloatMinMaxSignedZero: return {ChoiceKind::Set, true};
    // Any grouping of the work-items that reach the function; the options are two of them.
    case Choice::SubgroupActiveSet: return {ChoiceKind::Set, false};
    // OpenCL 3.0 API §5.3.1.1 [[image-format-descriptor]]: the padded orders follow one of the two tables, or the device does not offer them.
    case Choice::ImagePaddedChannelLayout: return {ChoiceKind::Set, true};
    case Choice::FloatToIntOutOfRange:
    case Choice::DefaultLocalSize:
    case Choice::Mul24OutOfRange:
    case Choice::NanPayload:
    case Choice::RemquoQuotientBits:
    case Choice::WorkGroupReductionOrder:
    case Choice::ImageLodSelection:
    case Choice::PipeWorkGroupOrder: return {ChoiceKind::Set, false};
    // half_ (8192 ulp), native_ (implementation-defined), and the image addressing steps' precision: within the
    // accuracy rows the verdicts apply.
    case Choice::ReducedPrecisionFunctions:
    case Choice::ImageCoordinatePrecision:
    // OpenCL C 3.0 §8.2 [[addressing-and-filter-modes]] NOTE: the filter's precision; images/verdict.cpp bounds it.
    case Choice::ImageFilterPrecision: return {ChoiceKind::Bound, false};
    case Choice::IntDivByZero:
    case Choice::IntDivOverflow:
    case Choice::UninitialisedMemory:
    case Choice::UndefValue:
    case Choice::ClampInvertedBounds:
    case Choice::SmoothstepInvertedEdges:
    case Choice::LgammaSignUndefined:
    case Choice::VectorIndexOutOfRange:
    case Choice::PtrDiffAcrossAllocations:
    case Choice::CommonMinMaxSpecial:
    case Choice::WorkGroupBroadcastOutOfRange:
    case Choice::SubgroupInactiveSource:
    case Choice::ImageAddressNoneOutOfRange:
    case Choice::ImageSamplerlessOutOfRange:
    case Choice::ImageLinearIntegerRead:
    case Choice::ImageUnnormalizedRepeat:
    case Choice::ImageInfNanCoordinate:
    case Choice::ImageInfNanTexelFiltered:
    case Choice::ImageWrongReadFunction:
    case Choice::ImageWriteOutOfRange:
    case Choice::ImageMipLevelOutOfRange:
    case Choice::ImageIntCoordSampler:
    case Choice::ImageMipUnnormalized:
    case Choice::ImageReadAfterWriteWithoutFence:
    case Choice::PipeUncommittedReservation:
    case Choice::SvmReadOnlyWrite:
    case Choice::AlignedOperandOverclaim: return {ChoiceKind::Free, false};
    // "a direction chosen by the implementation": a documented direction, of which the options are two.
    case Choice::GlslRoundHalf: return {ChoiceKind::Set, false};
    // One of the two operands, "undefined" which: the options give the number and, when x is the NaN, x (not y).
    case Choice::GlslMinMaxNan: return {ChoiceKind::Set, false};
    // "may be flushed to zero": flushed or preserved, what the two options give.
    case Choice::ShaderDenormals: return {ChoiceKind::Set, true};
    // Any rearrangement "using any of the mathematical properties": fusing is one of them.
    case Choice::VulkanContraction: return {ChoiceKind::Set, false};
    // NaNs, infinities and signed zeros "may be ignored": any value where one is involved.
    case Choice::VulkanNanInfSignedZero:
    case Choice::ShaderOutOfBounds:
    case Choice::VulkanSRemSModNegative: return {ChoiceKind::Free, false};
    // "Inherited from" the formula: within the bound the formula's operations inherit.
    case Choice::VulkanFRemFMod: return {ChoiceKind::Bound, false};
    // One of the two values around the exact one, chosen per operation: the options are two policies inside that bound.
    case Choice::VulkanRounding: return {ChoiceKind::Bound, false};
    // Any capacity a device documents: the options are two of them.
    case Choice::DeviceQueueCommandBytes: return {ChoiceKind::Set, false};
    case Choice::Count: break;
  }
  throw std::invalid_argument("freedomOf: not a choice");
}

std::string_view toString(ChoiceApi a) {
  switch (a) {
    case ChoiceApi::OpenCL: return "OpenCL";
    case ChoiceApi::Vulkan: return "Vulkan";
    case ChoiceApi::Both: return "both";
  }
  return "?";
}

std::string_view toString(ChoiceKind k) {
  switch (k) {
    case ChoiceKind::Bound: return "bound";
    case ChoiceKind::Set: return "set";
    case ChoiceKind::Free: return "free";
  }
  return "?";
}

}  // namespace clref::numerics
