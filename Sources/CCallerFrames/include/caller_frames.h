#ifndef FAULTLINE_CALLER_FRAMES_H
#define FAULTLINE_CALLER_FRAMES_H

#include <stdint.h>

/// Writes the return addresses of up to `capacity` callers of the function
/// that calls it, innermost first, by walking the frame pointers, and
/// returns how many it wrote. It reads only within the calling thread's
/// stack, so a frame without a frame pointer ends the walk early instead of
/// reading elsewhere. About a nanosecond per frame: a cheap key for a
/// cache of what the frames mean.
int faultline_caller_frames(uintptr_t *addresses, int capacity);

/// As `faultline_caller_frames`, but passes over the frames below `mark`
/// (an address on the calling thread's stack, 0 for none) without writing
/// them: the frames of a library's own calls under its entry point, the
/// same for every caller, stay out of a key that must tell callers apart.
int faultline_caller_frames_above(uintptr_t mark, uintptr_t *addresses, int capacity);

/// How many frames of the calling thread lie below `mark` (its own frame
/// among them): those `faultline_caller_frames_above` passes over. 0 for a
/// mark of 0.
int faultline_caller_frames_below(uintptr_t mark);

#endif
