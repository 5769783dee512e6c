// OpenCL 3.0 API §5.7 [[_sampler_objects]]: clCreateSamplerWithProperties (with cl_khr_mipmap_image's
// CL_SAMPLER_MIP_FILTER_MODE, CL_SAMPLER_LOD_MIN, CL_SAMPLER_LOD_MAX), the deprecated clCreateSampler, retain,
// release and clGetSamplerInfo.
#include <cmath>
#include <cstring>

#include "icd/device_info.hpp"
#include "icd/image_support.hpp"

using namespace clref::cl;
namespace images = clref::images;

namespace {

bool addressingMode(cl_sampler_properties v, images::AddressingMode& out) {
  switch (v) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP:
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT: out = images::AddressingMode(cl_addressing_mode(v)); return true;
    default: return false;
  }
}

bool filterMode(cl_sampler_properties v, images::FilterMode& out) {
  if (v != CL_FILTER_NEAREST && v != CL_FILTER_LINEAR) return false;
  out = images::FilterMode(cl_filter_mode(v));
  return true;
}

// A cl_float property value: the float's bits in the low 32 bits of the cl_sampler_properties word, as an application
// writes it with `*(cl_float*)&properties[i]` on a little-endian host (the spec gives the type, cl_float, and no
// encoding of its own).
float floatProperty(cl_sampler_properties v) {
  const uint32_t bits = uint32_t(v);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The sampler property `name`, for the channel "api".
const char* propertyName(cl_sampler_properties name) {
  switch (name) {
    case CL_SAMPLER_NORMALIZED_COORDS: return "CL_SAMPLER_NORMALIZED_COORDS";
    case CL_SAMPLER_ADDRESSING_MODE: return "CL_SAMPLER_ADDRESSING_MODE";
    case CL_SAMPLER_FILTER_MODE: return "CL_SAMPLER_FILTER_MODE";
    case CL_SAMPLER_MIP_FILTER_MODE: return "CL_SAMPLER_MIP_FILTER_MODE";
    case CL_SAMPLER_LOD_MIN: return "CL_SAMPLER_LOD_MIN";
    case CL_SAMPLER_LOD_MAX: return "CL_SAMPLER_LOD_MAX";
    default: return "a property";
  }
}

cl_sampler createSampler(const char* fn, cl_context context, const cl_sampler_properties* properties,
                         bool keepProperties, cl_int* errcode_ret) {
  // OpenCL 3.0 API §5.7.1 [[_creating_sampler_objects]] clCreateSamplerWithProperties: CL_INVALID_CONTEXT.
  if (!validContext(context))
    return apiErrorRet(fn, errcode_ret, CL_INVALID_CONTEXT, "context {} is not a valid context", context);
  clref::host::Sampler s;  // the defaults: normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST
  std::vector<cl_sampler_properties> props;
  if (properties) {
    const bool mipmaps = imageExtension("cl_khr_mipmap_image");
    std::vector<cl_sampler_properties> seen;
    size_t i = 0;
    // A value the property does not take (clCreateSampler's arguments are these properties too).
    const auto badValue = [&](const char* required) {
      return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "{} is {}, not {}", propertyName(properties[i]),
                         hex(properties[i + 1]), required);
    };
    for (; properties[i] != 0; i += 2) {
      const cl_sampler_properties name = properties[i], v = properties[i + 1];
      // CL_INVALID_VALUE if a property name is not supported, its value is not valid, or it is given twice.
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE, "properties[{}] gives {} a second time", i,
                           propertyName(name));
      seen.push_back(name);
      switch (name) {
        case CL_SAMPLER_NORMALIZED_COORDS:
          if (v != CL_TRUE && v != CL_FALSE) return badValue("CL_TRUE or CL_FALSE");
          s.normalizedCoords = v == CL_TRUE;
          break;
        case CL_SAMPLER_ADDRESSING_MODE:
          if (!addressingMode(v, s.addressing))
            return badValue(
                "CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT or "
                "CL_ADDRESS_MIRRORED_REPEAT");
          break;
        case CL_SAMPLER_FILTER_MODE:
          if (!filterMode(v, s.filter)) return badValue("CL_FILTER_NEAREST or CL_FILTER_LINEAR");
          break;
        // cl_khr_mipmap_image (OpenCL 3.0 API §5.7.1 [[_creating_sampler_objects]], sampler properties table): the
        // filter between mip levels and the range the level of detail is clamped to.
        case CL_SAMPLER_MIP_FILTER_MODE:
          if (!mipmaps)
            return apiErrorRet(
                fn, errcode_ret, CL_INVALID_VALUE,
                "CL_SAMPLER_MIP_FILTER_MODE needs cl_khr_mipmap_image, which the device does not report");
          if (!filterMode(v, s.mipFilter)) return badValue("CL_FILTER_NEAREST or CL_FILTER_LINEAR");
          break;
        case CL_SAMPLER_LOD_MIN:
        case CL_SAMPLER_LOD_MAX: {
          const float f = floatProperty(v);
          if (!mipmaps)
            return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE,
                               "{} needs cl_khr_mipmap_image, which the device does not report", propertyName(name));
          if (std::isnan(f)) return badValue("a cl_float that is a number (it is NaN)");
          (name == CL_SAMPLER_LOD_MIN ? s.lodMin : s.lodMax) = f;
          break;
        }
        default:
          return apiErrorRet(fn, errcode_ret, CL_INVALID_VALUE,
                             "properties[{}] is {}, not a sampler property (CL_SAMPLER_NORMALIZED_COORDS, "
                             "CL_SAMPLER_ADDRESSING_MODE, CL_SAMPLER_FILTER_MODE{})",
                             i, hex(name),
                             mipmaps ? ", CL_SAMPLER_MIP_FILTER_MODE, CL_SAMPLER_LOD_MIN, CL_SAMPLER_LOD_MAX" : "");
      }
    }
    if (keepProperties) props.assign(properties, properties + i + 1);
  }
  auto owned = std::make_unique<_cl_sampler>();
  owned->context = context;
  owned->sampler = s;
  owned->propertyArray = std::move(props);
  registerObject(owned.get());
  retainInternal(context);
  return withError(errcode_ret, CL_SUCCESS, cl_sampler(owned.release()));
}

}  // namespace

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) try {
  ApiLock lock;
  return createSampler(__func__, context, sampler_properties, true, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_sampler>(__func__, errcode_ret); }

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.7.1 [[_creating_sampler_objects]] clCreateSampler (deprecated by 2.0): the sampler of these three
  // properties; CL_SAMPLER_PROPERTIES is then empty.
  const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                         normalized_coords,
                                         CL_SAMPLER_ADDRESSING_MODE,
                                         addressing_mode,
                                         CL_SAMPLER_FILTER_MODE,
                                         filter_mode,
                                         0};
  return createSampler(__func__, context, props, false, errcode_ret);
} catch (...) { return clref::cl::failedCall<cl_sampler>(__func__, errcode_ret); }

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.7.1 [[_creating_sampler_objects]] clRetainSampler: CL_INVALID_SAMPLER.
  if (!validSampler(sampler))
    return apiError(__func__, CL_INVALID_SAMPLER, "sampler {} is not a valid sampler object", sampler);
  retainExternal(sampler);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) try {
  ApiLock lock;
  if (!validSampler(sampler))
    return apiError(__func__, CL_INVALID_SAMPLER, "sampler {} is not a valid sampler object", sampler);
  releaseExternal(sampler);
  return CL_SUCCESS;
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) try {
  ApiLock lock;
  // OpenCL 3.0 API §5.7.2 [[_sampler_object_queries]] clGetSamplerInfo: CL_INVALID_SAMPLER; CL_INVALID_VALUE for another
  // param_name or a too small param_value_size.
  if (!validSampler(sampler))
    return apiError(__func__, CL_INVALID_SAMPLER, "sampler {} is not a valid sampler object", sampler);
  const InfoOut out{param_value_size, param_value, param_value_size_ret, __func__, param_name};
  const auto& s = sampler->sampler;
  const bool mipmaps = imageExtension("cl_khr_mipmap_image");
  switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: return out(sampler->refCount);
    case CL_SAMPLER_CONTEXT: return out(sampler->context);
    case CL_SAMPLER_NORMALIZED_COORDS: return out(cl_bool(s.normalizedCoords ? CL_TRUE : CL_FALSE));
    case CL_SAMPLER_ADDRESSING_MODE: return out(cl_addressing_mode(s.addressing));
    case CL_SAMPLER_FILTER_MODE: return out(cl_filter_mode(s.filter));
    case CL_SAMPLER_PROPERTIES: return out(sampler->propertyArray);
    case CL_SAMPLER_MIP_FILTER_MODE:
    case CL_SAMPLER_LOD_MIN:
    case CL_SAMPLER_LOD_MAX:
      if (!mipmaps)
        return apiError(__func__, CL_INVALID_VALUE,
                        "param_name {} is a query of cl_khr_mipmap_image, which the device does not report",
                        propertyName(param_name));
      if (param_name == CL_SAMPLER_MIP_FILTER_MODE) return out(cl_filter_mode(s.mipFilter));
      return out(cl_float(param_name == CL_SAMPLER_LOD_MIN ? s.lodMin : s.lodMax));
    default: return apiError(__func__, CL_INVALID_VALUE, "param_name {} is no sampler query", hex(param_name));
  }
} catch (...) { return clref::cl::failedCall<cl_int>(__func__, nullptr); }
