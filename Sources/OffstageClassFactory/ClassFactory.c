#include <dlfcn.h>
#include <stddef.h>
#include "OffstageClassFactory.h"

// Linux has no Objective-C runtime to make an object from its class (`NSClassFromString` then `alloc`/`init`),
// and Swift makes an object from a metatype only through a `required` initializer, which `NSObject.init()` is not.
// But `NSObject.init()` has a vtable entry (Foundation exports its method descriptor), which every subclass
// overrides or inherits: the Swift runtime looks the subclass's entry up, and this calls that allocating
// initializer with the Swift calling convention (the metatype as `self`, in the context register).

/// The allocating initializer `init()` of a class: takes the class's metadata as `self`, returns the object +1.
typedef const void *(*AllocatingInitializer)(const void *metadata __attribute__((swift_context)))
    __attribute__((swiftcall));

/// The Swift runtime's lookup of a class's vtable entry for a method (exported by libswiftCore).
extern void *swift_lookUpClassMethod(const void *metadata, const void *method, const void *description);

const void *offstage_make_object(const void *metadata) {
    // `NSObject.init()`'s method descriptor and `NSObject`'s class descriptor, from Foundation.
    const void *method = dlsym(RTLD_DEFAULT, "$s10Foundation8NSObjectCACycfCTq");
    const void *descriptor = dlsym(RTLD_DEFAULT, "$s10Foundation8NSObjectCMn");
    if (method == NULL || descriptor == NULL) return NULL;
    AllocatingInitializer initializer =
        (AllocatingInitializer)swift_lookUpClassMethod(metadata, method, descriptor);
    return initializer == NULL ? NULL : initializer(metadata);
}
