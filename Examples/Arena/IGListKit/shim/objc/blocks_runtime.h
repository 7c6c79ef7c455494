// DiffLab's Linux shim: GNUstep base's headers (GNUstepBase/GSVersionMacros.h), compiled by clang
// with blocks, include <objc/blocks_runtime.h>, which only libobjc2 ships. Debian's GNUstep uses
// gcc's libobjc, so the blocks runtime is libBlocksRuntime (package libblocksruntime-dev), whose
// header is <Block.h>.
#include <Block.h>
