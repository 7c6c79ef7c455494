// DiffLab's Linux shim for building IGListKit's diff on GNUstep base (gcc Objective-C runtime).
// Force-included (`clang -include`) before every IGListKit file by Scripts/build-iglistkit.
// Apple's Foundation defines these macros; GNUstep base 1.28 does not.
#ifndef IGLIST_LINUX_PREFIX_H
#define IGLIST_LINUX_PREFIX_H

// Swift renaming has no meaning here.
#ifndef NS_SWIFT_NAME
#define NS_SWIFT_NAME(name)
#endif

// Apple's FOUNDATION_EXTERN: C linkage, also from Objective-C++ (IGListDiff.mm).
#ifndef FOUNDATION_EXTERN
#ifdef __cplusplus
#define FOUNDATION_EXTERN extern "C"
#else
#define FOUNDATION_EXTERN extern
#endif
#endif

#endif
