// The interposition points through which a host runs an app's queued work in its own time (Linux only).
// Linked only into executables that run simulated app code in-process, it defines libdispatch's enqueue and wait
// functions, libc's clocks and sleeps and CoreFoundation's run loop; on a thread where a host has entered an app
// (offstage_enter, OffstageAppContext.h) they hand the app's work and clock reads to the host, and everywhere else
// they forward to the real libdispatch, libc and CoreFoundation, so other code in the process is untouched.
#ifndef OFFSTAGE_APP_EXECUTION_H
#define OFFSTAGE_APP_EXECUTION_H

#include <OffstageAppContext.h>

/// libdispatch's main queue.
void *_Nonnull offstage_main_queue(void);
/// libdispatch's global queue of default quality of service (a background queue).
void *_Nonnull offstage_background_queue(void);
/// The label a libdispatch queue was made with ("" when none), to name it in a stall's error.
const char *_Nonnull offstage_queue_label(void *_Nonnull queue);

/// The `info` of a `CFRunLoopTimer`'s context: for a Foundation `Timer`, the `Timer` object.
void *_Nullable offstage_timer_info(void *_Nonnull timer);
/// Calls a block without releasing it (a dispatch source's handler runs at each of its events).
void offstage_call_block(void *_Nullable block);

/// Tries, without waiting, what `wait` waits for; 0 when it succeeded (a semaphore's count is then taken).
long offstage_try_wait(int kind, void *_Nonnull object);

/// One symbol the interposition needs, as the process resolved it at load.
typedef struct {
    /// The symbol's name (`dispatch_async`, `clock_gettime`, `_dispatch_source_type_timer`…).
    const char *_Nonnull name;
    /// What virtual time loses without it ("Task.sleep fires after real seconds, not virtual ones").
    const char *_Nonnull loses;
    /// Nonzero when its real definition (libdispatch's, libc's, CoreFoundation's) was found.
    int found;
    /// 1 when the process resolves the name to the interposition's definition (calls from shared libraries
    /// reach it), 0 when to another (they escape virtual time), -1 for a symbol the interposition only uses.
    int interposed;
} offstage_symbol_status;

/// How many symbols the interposition needs (every one is reported by `offstage_interposition_symbol`).
int offstage_interposition_symbol_count(void);
/// The symbol at `index` (0 ..< count) and how it was resolved at load.
offstage_symbol_status offstage_interposition_symbol(int index);

#endif
