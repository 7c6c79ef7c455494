// DiffLab's Linux shim: Apple's <TargetConditionals.h>, as IGListCompatibility.h reads it.
// Linux is none of Apple's embedded, simulator or Catalyst targets, so IGListCompatibility.h
// takes its macOS branch and imports <Cocoa/Cocoa.h> (our shim beside this file).
#ifndef IGLIST_LINUX_TARGET_CONDITIONALS_H
#define IGLIST_LINUX_TARGET_CONDITIONALS_H
#define TARGET_OS_EMBEDDED 0
#define TARGET_OS_SIMULATOR 0
#define TARGET_OS_MACCATALYST 0
#endif
