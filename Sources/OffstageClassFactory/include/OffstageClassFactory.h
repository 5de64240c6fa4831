#ifndef OFFSTAGE_CLASS_FACTORY_H
#define OFFSTAGE_CLASS_FACTORY_H

/// Makes an instance of the `NSObject` subclass whose class metadata is given, through that class's own `init()`
/// (the override in its vtable, or the one it inherits), as `[[cls alloc] init]` does on iOS. Returns the new
/// object retained (+1), or NULL when Foundation's `NSObject` symbols cannot be found.
const void *_Nullable offstage_make_object(const void *_Nonnull metadata);

#endif
