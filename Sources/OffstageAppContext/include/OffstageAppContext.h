// Which simulated app the calling thread runs, and the record of its host: the state that OffstageKit reads and
// the interposition (OffstageAppExecution) acts on. It interposes nothing, so every app links it: in a process
// without the interposition (an app the daemon runs) no thread ever has a host, and OffstageKit acts for real.
#ifndef OFFSTAGE_APP_CONTEXT_H
#define OFFSTAGE_APP_CONTEXT_H

#include <stdint.h>

/// What a host provides for one app: where its queued work goes, how a waiting thread parks, its clocks.
typedef struct offstage_host {
    /// The host's object, passed back to the callbacks (not retained).
    void *_Nonnull owner;
    /// Takes work the app queued: run `function(context)` on `queue` after `delay_ns` of the host's time
    /// (never when negative). `queue` is the libdispatch queue the app named.
    void (*_Nonnull enqueue)(
        void *_Nonnull owner, void *_Nonnull queue, int64_t delay_ns, void *_Nullable context,
        void (*_Nonnull function)(void *_Nullable));
    /// Watches a dispatch group: run `function(context)` on `queue` once the group is empty.
    void (*_Nonnull notify)(
        void *_Nonnull owner, void *_Nonnull group, void *_Nonnull queue, void *_Nullable context,
        void (*_Nonnull function)(void *_Nullable));
    /// Before a `dispatch_sync` on `queue` runs in place: runs, on the calling thread, the work queued on
    /// `queue` that is due now, in order (a serial queue runs it first).
    void (*_Nonnull run_due)(void *_Nonnull owner, void *_Nonnull queue);
    /// Parks the calling thread until `offstage_try_wait(kind, object)` succeeds or `timeout_ns` of the host's
    /// time pass (never, when negative); returns 0 when it succeeded, nonzero on timeout.
    long (*_Nonnull wait)(void *_Nonnull owner, int kind, void *_Nonnull object, int64_t timeout_ns);
    /// Notes work the app's code started outside the host's threads (a network transfer on URLSession's
    /// thread); returns its number. The host's time stands still until every such piece has finished.
    int64_t (*_Nonnull begin_external)(void *_Nonnull owner);
    /// Ends external work `number`, from any thread: run `function(context)` on `queue` after `delay_ns`.
    void (*_Nonnull finish_external)(
        void *_Nonnull owner, int64_t number, void *_Nonnull queue, int64_t delay_ns, void *_Nullable context,
        void (*_Nonnull function)(void *_Nullable));
    /// A Foundation `Timer` was added to the main run loop (`added` nonzero) or its fire date changed (zero; the
    /// host ignores timers it does not hold). `timer` is the `CFRunLoopTimer`.
    void (*_Nonnull timer)(void *_Nonnull owner, void *_Nonnull timer, int added);
    /// Something happened to a dispatch source (`event`, an `OFFSTAGE_SOURCE_…`): made on `queue` (only timer sources
    /// are told), its timer set to `delay_ns` from now (negative: never) repeating every `interval_ns` (negative:
    /// once), its event or cancel handler set to `function(context)`, cancelled, activated, resumed or suspended.
    /// Returns nonzero when the source is a timer source the host keeps (its handlers then stay with the host).
    long (*_Nonnull source)(
        void *_Nonnull owner, int event, void *_Nonnull source, void *_Nullable queue, int64_t delay_ns,
        int64_t interval_ns, void *_Nullable context, void (*_Nullable function)(void *_Nullable));
    /// The host's monotonic clock and wall clock now, in nanoseconds (kept current by the host).
    int64_t uptime_ns;
    int64_t wall_ns;
} offstage_host;

/// What a thread is waiting on in `wait`.
/// (`OFFSTAGE_WAIT_TIME`: nothing but time, a `nanosleep`; `object` is then the host.)
enum { OFFSTAGE_WAIT_SEMAPHORE = 1, OFFSTAGE_WAIT_GROUP = 2, OFFSTAGE_WAIT_TIME = 3 };

/// What happened to a dispatch source, for `source`.
enum {
    OFFSTAGE_SOURCE_CREATED = 1,
    OFFSTAGE_SOURCE_TIMER = 2,
    OFFSTAGE_SOURCE_EVENT_HANDLER = 3,
    OFFSTAGE_SOURCE_CANCEL_HANDLER = 4,
    OFFSTAGE_SOURCE_CANCEL = 5,
    OFFSTAGE_SOURCE_ACTIVATE = 6,
    OFFSTAGE_SOURCE_RESUME = 7,
    OFFSTAGE_SOURCE_SUSPEND = 8,
};

/// Marks the calling thread as running the app of `host`, on `queue` (a libdispatch queue, or NULL).
void offstage_enter(offstage_host *_Nonnull host, void *_Nullable queue);
/// The thread no longer runs app code.
void offstage_leave(void);
/// The host of the app running on this thread, or NULL (always NULL in a process without the interposition).
offstage_host *_Nullable offstage_current_host(void);
/// The queue whose work runs on this thread, or NULL.
void *_Nullable offstage_current_queue(void);
/// Runs `body(context)` with the dispatch calls it makes captured instead of run: the first call's queue,
/// function and argument are stored in `*queue`, `*function`, `*argument` (NULL queue when none was made).
/// Lets code name a libdispatch queue by the Dispatch object it holds (`queue.async { … }` inside `body`).
/// Captures only where the interposition is linked (`offstage_current_host` can then be non-NULL).
void offstage_capture_dispatch(
    void *_Nullable context, void (*_Nonnull body)(void *_Nullable), void *_Nullable *_Nonnull queue,
    void (*_Nullable *_Nonnull function)(void *_Nullable), void *_Nullable *_Nonnull argument);
/// Whether the calling thread was started by a simulated app's code (it runs outside the host's control).
int offstage_thread_started_by_app(void);
/// The calling thread, started by app code, stops for good: the host no longer waits for it.
void offstage_app_thread_stopped(void);
/// Told, from the threads concerned, when a `Thread` the app's code started begins (+1) and when its routine
/// returns (-1), so the host can let such threads finish before its time moves on. Set once.
void offstage_set_app_thread_hook(void (*_Nonnull hook)(int delta));
/// Where work queued on a thread the app's code started (`Thread`, `pthread_create`) goes: such a thread runs in
/// real time, outside the host's control, so its `dispatch_async`/`dispatch_after` calls are handed to this hook
/// (from that thread, with the host of the app that started it) for the host to queue at its next step. Set once.
void offstage_set_foreign_enqueue(
    void (*_Nonnull hook)(
        offstage_host *_Nonnull host, void *_Nonnull queue, int64_t delay_ns, void *_Nullable context,
        void (*_Nonnull function)(void *_Nullable)));

// For the interposition: threads the app's code starts, and the work they queue.

/// When the calling thread runs an app's code (or was started by it), makes the thread about to be created with
/// `routine(argument)` one that remembers that app: stores the routine and argument to start it with in
/// `*start_routine`, `*start_argument` and returns 1; returns 0 (nothing stored) when no app is concerned.
int offstage_app_thread_start(
    void *_Nullable (*_Nonnull routine)(void *_Nullable), void *_Nullable argument,
    void *_Nullable (*_Nullable *_Nonnull start_routine)(void *_Nullable), void *_Nullable *_Nonnull start_argument);
/// On a thread the app's code started: hands `function(context)`, for `queue` after `delay_ns`, to the foreign
/// enqueue hook and returns 1; returns 0 (nothing done) on any other thread or before the hook is set.
int offstage_enqueue_foreign(
    void *_Nonnull queue, int64_t delay_ns, void *_Nullable context, void (*_Nonnull function)(void *_Nullable));

#endif
