// The order of the layer's work at exit. The checking thread (enqueue_check.cpp) judges with clref's code, whose
// function-local statics (caches, tables) are constructed on first use, some only by a later check than the first (the
// accuracy rules of the first violation). A static's destructor runs at exit before every exit handler registered
// earlier, so a drain registered once would run after the destruction of statics that the checks still being judged
// then use. The layer links with --wrap=__cxa_atexit: each registration of a destructor by the layer's code registers
// the drain again after it, so that the drain always runs before every static of the layer is destroyed.
#pragma once

namespace clref::layer {

// From now on `drain` runs at exit (and when the layer is unloaded) before the destructor of any static of the layer's
// constructed so far or later. It may run several times: once per static constructed after this call.
void runAtExitBeforeStatics(void (*drain)());

}  // namespace clref::layer
