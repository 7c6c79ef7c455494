// DiffLab's Linux shim: AppKit's NSIndexPath additions (declared in Cocoa/Cocoa.h beside this
// file) on GNUstep base's NSIndexPath. An index path of an item is [section, item], as on Apple's
// platforms. Manual reference counting: the class method returns an autoreleased object.
#import "Cocoa/Cocoa.h"

@implementation NSIndexPath (IGListLinuxShim)

+ (NSIndexPath *)indexPathForItem:(NSInteger)item inSection:(NSInteger)section {
    NSUInteger indexes[2] = {(NSUInteger)section, (NSUInteger)item};
    return [NSIndexPath indexPathWithIndexes:indexes length:2];
}

- (NSInteger)item {
    return (NSInteger)[self indexAtPosition:1];
}

- (NSInteger)section {
    return (NSInteger)[self indexAtPosition:0];
}

@end
