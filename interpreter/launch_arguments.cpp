// Binding a launch's arguments (launch_state.hpp): the work-group arena and the buffers' allocation tags, the image
// and sampler tables, and the device queues' handles.
#include "interpreter/launch_state.hpp"
#include "interpreter/svm.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace clref::interpreter {

std::string argName(const LoweredKernel& k, size_t i) {
  return "argument " + std::to_string(i) + (k.params[i].name.empty() ? "" : " (" + k.params[i].name + ")");
}

void bindBuffersAndLocals(LaunchState& s) {
  const LoweredKernel& kernel = s.kernel;
  const std::vector<ArgBinding>& args = s.args;
  LocalMemoryLayout local = checkLaunchLimits(kernel, args, s.config.localMemSize);
  s.workgroupArenaBytes = local.bytes;
  s.localArgOffset = std::move(local.argOffset);
  for (size_t i = 0; i < kernel.params.size(); ++i)
    if (kernel.params[i].kind == ParamKind::Buffer && args[i].svmPointer && kernel.addressBits != 64)
      throw std::invalid_argument("argument " + std::to_string(i) +
                                  " is an SVM pointer, and SVM needs a 64-bit module (this one is 32-bit)");
  // Per param, the tag its pointer carries: a buffer bound to several parameters is one allocation.
  s.paramTag.assign(kernel.params.size(), 0);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    s.paramTag[i] = kernel.params[i].tag;
    if (kernel.params[i].kind != ParamKind::Buffer || args[i].null || args[i].svmPointer) continue;
    for (size_t j = 0; j < i; ++j)
      if (kernel.params[j].kind == ParamKind::Buffer && !args[j].null && args[j].base == args[i].base &&
          args[j].size == args[i].size) {
        s.paramTag[i] = s.paramTag[j];
        break;
      }
  }
}

// Image and sampler arguments (OpenCL SPIR-V Environment §2.8.2 [[_kernel_arguments]]): an image parameter takes
// an image of its type (Dim and Arrayed of its OpTypeImage; a depth image type a CL_DEPTH image, OpenCL C 3.0
// §6.2.2.4 [[cl_khr_depth_images]]) whose storage holds every level; a sampler parameter a sampler with valid
// modes. The tables the handles index are built here.
void bindImagesAndSamplers(const LoweredKernel& k, const std::vector<ArgBinding>& args, LaunchState& s) {
  for (uint32_t i : k.imageParams) {
    const KernelParam& p = k.params[i];
    const images::ImageView* v = args[i].image;
    if (!v)
      throw std::invalid_argument(argName(k, i) + " is an image parameter (" + p.typeName + ") but no image was given");
    if (v->desc.type != p.imageType)
      throw std::invalid_argument(argName(k, i) + " is " + p.typeName + " but the image is " +
                                  std::string(images::nameOf(v->desc.type)));
    if ((v->desc.format.order == images::ChannelOrder::Depth) != p.depth)
      throw std::invalid_argument(argName(k, i) + " is " + p.typeName + " but the image's channel order is " +
                                  std::string(images::nameOf(v->desc.format.order)) +
                                  (p.depth ? " (a depth image type takes CL_DEPTH images)"
                                           : " (CL_DEPTH images need a depth image type)"));
    const uint64_t need = images::storageBytes(v->desc);
    if (v->bytes < need || (need && !v->data))
      throw std::invalid_argument(argName(k, i) + ": the image's storage holds " + std::to_string(v->bytes) +
                                  " bytes, its description needs " + std::to_string(need));
    s.images.push_back(v);
  }
  // Which images no other argument's memory overlaps (the lane executor's reads of a read_only one need no record).
  s.imageExclusive.assign(s.images.size(), svm::inUse() ? 0 : 1);
  // As addresses: a NULL buffer argument (no memory, maybe a size) is no pointer to add a size to.
  auto overlaps = [](const uint8_t* a, uint64_t an, const uint8_t* b, uint64_t bn) {
    const uintptr_t x = uintptr_t(a), y = uintptr_t(b);
    return x && y && an && bn && x < y + bn && y < x + an;
  };
  for (size_t m = 0; m < s.images.size(); ++m) {
    const images::ImageView& v = *s.images[m];
    for (size_t j = 0; j < s.images.size() && s.imageExclusive[m]; ++j)
      if (j != m && overlaps(v.data, v.bytes, s.images[j]->data, s.images[j]->bytes)) s.imageExclusive[m] = 0;
    for (const ArgBinding& a : args)
      if (!a.image && !a.svmPointer && overlaps(v.data, v.bytes, a.base, a.size)) s.imageExclusive[m] = 0;
  }
  for (uint32_t i : k.samplerParams) {
    const images::Sampler& sm = args[i].sampler;
    auto addressingValid = [](images::AddressingMode a) {
      return uint32_t(a) >= uint32_t(images::AddressingMode::None) &&
             uint32_t(a) <= uint32_t(images::AddressingMode::MirroredRepeat);
    };
    auto filterValid = [](images::FilterMode f) {
      return f == images::FilterMode::Nearest || f == images::FilterMode::Linear;
    };
    if (!addressingValid(sm.addressing) || !filterValid(sm.filter) || !filterValid(sm.mipFilter))
      throw std::invalid_argument(argName(k, i) + ": the sampler's addressing or filter mode is not a valid value");
    s.samplers.push_back(sm);
  }
  s.samplers.insert(s.samplers.end(), k.constantSamplers.begin(), k.constantSamplers.end());
}

void bindQueues(LaunchState& s) {
  const LoweredKernel& kernel = s.kernel;
  const std::vector<ArgBinding>& args = s.args;
  s.queueHandle.assign(kernel.params.size(), 0);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (kernel.params[i].kind != ParamKind::Queue) continue;
    if (!args[i].queue)
      throw std::invalid_argument(argName(kernel, i) + " is a queue_t parameter but no device queue was given");
    s.queueHandle[i] = kQueueHandleTag | s.enqueue.family->queueIndex(*args[i].queue);
  }
}

}  // namespace clref::interpreter
