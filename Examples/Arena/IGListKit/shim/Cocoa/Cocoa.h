// DiffLab's Linux shim for <Cocoa/Cocoa.h>: only what IGListKit's diff needs from AppKit.
//
// IGListDiff.mm builds index paths with `+[NSIndexPath indexPathForItem:inSection:]`, one of
// AppKit's (and UIKit's) additions to NSIndexPath; GNUstep base has NSIndexPath without them.
// The implementation is NSIndexPath+IGListLinuxShim.m beside this folder: a two-index path
// (section, item), as on Apple's platforms.
#ifndef IGLIST_LINUX_COCOA_H
#define IGLIST_LINUX_COCOA_H

#import <Foundation/Foundation.h>

@interface NSIndexPath (IGListLinuxShim)
+ (NSIndexPath *)indexPathForItem:(NSInteger)item inSection:(NSInteger)section;
- (NSInteger)item;
- (NSInteger)section;
@end

#endif
